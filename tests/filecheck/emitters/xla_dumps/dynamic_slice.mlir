// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/dynamic_slice/gpu.hlo | filecheck %s

// Our loop emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/dynamic_slice/gpu/loop_multiply_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
// XLA: %3 = scf.forall (%arg3, %arg4, %arg5) in (128, 1, 1) shared_outs(%arg6 = %arg2)
// CHECK-LABEL: func.func @loop_multiply_fusion(
// CHECK-SAME:    tensor<512x640xf32>, %{{\w+}}: tensor<i32>, %{{\w+}}: tensor<256x512xf32>) -> tensor<256x512xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 1023 : index]}

// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x / 4,
// XLA:   (bl_x mod 4) * 128 + th_x), domain: th_x in [0, 127], ..., bl_x in [0, 1023], ...">
// XLA: %xla_loop = xla.loop (%arg3, %arg4, %arg5, %0, %1, %2)[] -> (%ra, %rb) in #indexing_map
// No symbol, as XLA's: the loop does not vectorize.
// CHECK:         xla.loop ({{.*}})[] -> (%{{\w+}}, %{{\w+}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}) -> ([[BL]] {{/|floordiv}} 4, ([[BL]] mod 4) * 128 + [[TH]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0]

// The start indices are clamped to [0, 256] and [0, 128] (XLA: minsi then maxsi).
// XLA: %5 = arith.minsi %4, %c256 : index
// XLA: %9 = arith.minsi %8, %c128 : index
// CHECK-LABEL: func.func private @fused_multiply_mul_3_1(
// CHECK-SAME:    index {xla.range = [0 : index, 255 : index]}, %{{\w+}}: index {xla.range = [0 : index, 511 : index]}) -> f32
// CHECK-DAG:     arith.minsi %{{\w+}}, %c256 : index
// CHECK-DAG:     arith.minsi %{{\w+}}, %c128 : index
