// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/multi_dim_sum/gpu.hlo | filecheck %s

// Our emitters on XLA's optimized module (a row reduction to f32[16,48], then a column
// reduction of 16 rows), against XLA's emitter outputs in
// tests/corpus/gpu/multi_dim_sum/gpu/{input_reduce_fusion,loop_reduce_fusion}
// .mlir-passes.log.xz, snapshot 0 of each. "XLA:" lines quote them; the CHECK lines
// below each are written from them (the x ids and symbols up to renaming; both thread
// six grid ids, the y and z ones [0, 0]).

// A column of 16 rows is too short for the reduction emitter (XLA's
// IsUnnestedReductionFasterThanElemental): a loop of one thread per output element,
// each folding its column with scf.for.
// XLA (loop_reduce_fusion):
//   %0 = xla.workgroup_id x {xla.range = [0 : index, 0 : index]}
//   %3 = scf.forall (%arg2, %arg3, %arg4) in (48, 1, 1) shared_outs(%arg5 = %arg1)
//   #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 47], ...,
//     bl_x in [0, 0], ..."
//   func.func private @fused_reduce_reduce_sum_7_1(%arg0: tensor<16x48xf32>,
//       %arg1: index {xla.range = [0 : index, 47 : index]}) -> f32
//     %0 = scf.for %arg2 = %c0 to %c16 step %c1 iter_args(%arg3 = %cst) -> (f32) {
//       %extracted = tensor.extract %arg0[%arg2, %arg1] : tensor<16x48xf32>
// No symbol, as XLA's: the loop does not vectorize.
// CHECK-LABEL: func.func @loop_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<16x48xf32>, %[[OUT:\w+]]: tensor<48xf32>) -> tensor<48xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 47 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 0 : index]}
// CHECK:         xla.loop ({{.*}})[] -> (%[[I:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}) -> ([[TH]]), domain: [[TH]] in [0, 47], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 0], {{\w+}} in [0, 0], {{\w+}} in [0, 0]"> iter_args(%{{\w+}} = %[[OUT]])
// CHECK-NEXT:      xla.pure_call @fused_reduce_reduce_sum_7_1(%{{\w+}}, %[[I]]) : (tensor<16x48xf32>, index) -> f32
// CHECK-LABEL: func.func private @fused_reduce_reduce_sum_7_1(
// CHECK-SAME:    %[[A:\w+]]: tensor<16x48xf32>, %[[J:\w+]]: index {xla.range = [0 : index, 47 : index]}) -> f32
// CHECK:         scf.for %[[R:\w+]] = %c0 to %c16 step %c1 iter_args(%{{\w+}} = %{{\w+}}) -> (f32) {
// CHECK:           tensor.extract %[[A]][%[[R]], %[[J]]] : tensor<16x48xf32>
