// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/concatenate/gpu.hlo | filecheck %s

// Our concatenate emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/concatenate/gpu/input_concatenate_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]). XLA launches over the
// largest operand (f32[512,256]: 1024 blocks of 128 threads) and writes each operand
// with its own xla.loop, shifted by the operand's offset in the output.

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
// XLA: %3 = scf.forall (%arg3, %arg4, %arg5) in (128, 1, 1) shared_outs(%arg6 = %arg2)
// CHECK-LABEL: func.func @input_concatenate_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<512x128xf32>, %{{\w+}}: tensor<512x256xf32>, %[[OUT:\w+]]: tensor<512x640xf32>) -> tensor<512x640xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 1023 : index]}

// In all three loops, as in XLA's, no symbol: the loops do not vectorize.
// XLA: #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x / 2, (bl_x mod 2) * 128 + th_x),
// XLA:   domain: th_x in [0, 127], ..., bl_x in [0, 1023], ..."
// XLA: %xla_loop = xla.loop (...)[] -> (%ra, %rb) in #indexing_map iter_args(%iter = %arg2)
// CHECK:         %[[L0:\w+]] = xla.loop ({{.*}})[] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}) -> ([[BL]] {{/|floordiv}} 2, ([[BL]] mod 2) * 128 + [[TH]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0]"> iter_args(%{{\w+}} = %[[OUT]])

// The operand is read at the largest operand's index:
// XLA: #indexing_map1 = "(th_x, ...) -> (bl_x / 2), domain: th_x in [0, 127], ..., bl_x in [0, 1023], ..."
// XLA: #indexing_map2 = "(th_x, ...) -> ((bl_x mod 2) * 128 + th_x), domain: ..."
// CHECK:           xla.apply_indexing #xla.indexing_map<"([[TH1:\w+]], {{\w+}}, {{\w+}}, [[BL1:\w+]], {{\w+}}, {{\w+}}) -> ([[BL1]] {{/|floordiv}} 2), domain: [[TH1]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL1]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0]
// CHECK:           xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}) -> (([[BL2]] mod 2) * 128 + [[TH2]]), domain: [[TH2]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0]

// The second operand (f32[512,128]) covers half the largest one's columns.
// XLA: #indexing_map3 = "(th_x, ...) -> (bl_x / 2, th_x + 256), domain: th_x in [0, 127], ...,
// XLA:   bl_x in [0, 1022], ..., bl_x mod 2 in [0, 0]"
// As in XLA, the constraint (bl_x mod 2) * 128 + th_x in [0, 127] becomes bl_x mod 2 in [0, 0]
// (th_x never reaches 128), which ends bl_x's range at 1022 and zeroes (bl_x mod 2) * 128.
// CHECK:         %[[L1:\w+]] = xla.loop ({{.*}})[] -> ({{.*}}) in #xla.indexing_map<"([[TH3:\w+]], {{\w+}}, {{\w+}}, [[BL3:\w+]], {{\w+}}, {{\w+}}) -> ([[BL3]] {{/|floordiv}} 2, [[TH3]] + 256), domain: [[TH3]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL3]] in [0, 1022], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL3]] mod 2 in [0, 0]"> iter_args(%{{\w+}} = %[[L0]])

// XLA: #indexing_map4 = "(th_x, ...) -> (bl_x / 2, (bl_x mod 2) * 128 + th_x + 384), domain:
// XLA:   th_x in [0, 127], ..., bl_x in [0, 1023], ..."
// XLA: %xla_loop_1 = xla.loop (...)[] -> (%ra, %rb) in #indexing_map4 iter_args(%iter = %xla_loop_0)
// CHECK:         %[[L2:\w+]] = xla.loop ({{.*}})[] -> ({{.*}}) in #xla.indexing_map<"([[TH4:\w+]], {{\w+}}, {{\w+}}, [[BL4:\w+]], {{\w+}}, {{\w+}}) -> ([[BL4]] {{/|floordiv}} 2, ([[BL4]] mod 2) * 128 + [[TH4]] + 384), domain: [[TH4]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL4]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0]"> iter_args(%{{\w+}} = %[[L1]])
// CHECK:         func.return %[[L2]] : tensor<512x640xf32>
