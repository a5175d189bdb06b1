// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/pad/gpu.hlo | filecheck %s

// Our loop emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/pad/gpu/loop_pad_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 651 : index]}
// XLA: %3 = scf.forall (%arg2, %arg3, %arg4) in (128, 1, 1) shared_outs(%arg5 = %arg1)
// CHECK-LABEL: func.func @loop_pad_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<512x640xf32>, %[[OUT:\w+]]: tensor<515x648xf32>) -> tensor<515x648xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 651 : index]}

// The last block is partial: its threads past the output's 83430 vectors of 4 do nothing.
// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] ->
// XLA:   ((bl_x * 128 + th_x) / 162, ((bl_x * 128 + th_x) mod 162) * 4 + s0), domain:
// XLA:   th_x in [0, 127], ..., bl_x in [0, 651], ..., s0 in [0, 3], bl_x * 128 + th_x in [0, 83429]">
// CHECK:         xla.loop ({{.*}}] -> (%[[I:\w+]], %[[J:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]]] -> (([[BL]] * 128 + [[TH]]) {{/|floordiv}} 162, (([[BL]] * 128 + [[TH]]) mod 162) * 4 + [[S0]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 651], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 3], [[BL]] * 128 + [[TH]] in [0, 83429]"> iter_args(%{{\w+}} = %[[OUT]])

// XLA: func.func private @fused_pad_pad_0_1(%arg0: tensor<512x640xf32>,
// XLA:   %arg1: index {xla.range = [0 : index, 514 : index]}, %arg2: index {xla.range = [0 : index, 647 : index]}) -> f32
// XLA:   %0 = arith.cmpi sge, %arg1, %c1 : index
// XLA:   %1 = arith.cmpi sle, %arg1, %c512 : index
// XLA:   %4 = arith.cmpi sge, %arg2, %c3 : index
// XLA:   %5 = arith.cmpi sle, %arg2, %c642 : index
// XLA:   %8 = scf.if %7 -> (f32) {
// XLA:     #indexing_map1 = "(d0, d1) -> (d0 - 1), domain: d0 in [1, 512], d1 in [3, 642]"
// XLA:     #indexing_map2 = "(d0, d1) -> (d1 - 3), domain: d0 in [1, 512], d1 in [3, 642]"
// XLA:     %extracted = tensor.extract %arg0[%9, %10] : tensor<512x640xf32>
// XLA:   } else { %cst = arith.constant -1.000000e+00 : f32 ...
// (ours makes the padding constant before the scf.if)
// CHECK-LABEL: func.func private @fused_pad_pad_0_1(
// CHECK-SAME:    %[[A:\w+]]: tensor<512x640xf32>, %[[R:\w+]]: index {xla.range = [0 : index, 514 : index]}, %[[C:\w+]]: index {xla.range = [0 : index, 647 : index]}) -> f32
// CHECK-DAG:     arith.cmpi sge, %[[R]], %c1 : index
// CHECK-DAG:     arith.cmpi sle, %[[R]], %c512 : index
// CHECK-DAG:     arith.cmpi sge, %[[C]], %c3 : index
// CHECK-DAG:     arith.cmpi sle, %[[C]], %c642 : index
// CHECK-DAG:     arith.constant -1.000000e+00 : f32
// CHECK:         scf.if %{{\w+}} -> (f32) {
// CHECK-DAG:       %[[OR:\w+]] = xla.apply_indexing #xla.indexing_map<"([[D0:\w+]], [[D1:\w+]]) -> ([[D0]] - 1), domain: [[D0]] in [1, 512], [[D1]] in [3, 642]">(%[[R]], %[[C]])
// CHECK-DAG:       %[[OC:\w+]] = xla.apply_indexing #xla.indexing_map<"([[E0:\w+]], [[E1:\w+]]) -> ([[E1]] - 3), domain: [[E0]] in [1, 512], [[E1]] in [3, 642]">(%[[R]], %[[C]])
// CHECK:           tensor.extract %[[A]][%[[OR]], %[[OC]]] : tensor<512x640xf32>
// CHECK:         } else {
