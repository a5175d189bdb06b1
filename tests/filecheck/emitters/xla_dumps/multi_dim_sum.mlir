// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/multi_dim_sum/gpu.hlo | filecheck %s

// Our emitters on XLA's optimized module (a row reduction to f32[16,48], then a column
// reduction of 16 rows), against XLA's emitter outputs in
// tests/corpus/gpu/multi_dim_sum/gpu/{input_reduce_fusion,loop_reduce_fusion}
// .mlir-passes.log.xz, snapshot 0 of each. "XLA:" lines quote them; the CHECK lines
// below each are written from them (the x ids and symbols up to renaming; both thread
// six grid ids, the y and z ones [0, 0]).

// The row reduction: f32[16,48,64] summed over its minor dim, viewed as the components
// [1, 768, 32, 2] (a warp per kept element, each lane one vector of 2, so s1 is [0, 0]);
// the bitcast map inside the loop splits the kept component into the input's first
// two dims. Lane 0 of each warp (th_x up to 224) writes.
// XLA (input_reduce_fusion):
//   #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1, s2] -> (0, bl_x * 8 + th_x / 32,
//     th_x mod 32, s2), domain: th_x in [0, 255], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 95],
//     bl_y in [0, 0], bl_z in [0, 1], s0 in [0, 0], s1 in [0, 0], s2 in [0, 1]"
//   %xla_loop, %xla_loop_0 = xla.loop (...) in #indexing_map iter_args(%iter = %arg1, %iter_8 = %pure_call) -> (tensor<16x48xf32>, f32) {
//   #indexing_map1 = "(d0, d1, d2, d3) -> ((d0 * 768 + d1) / 48), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]"
//   #indexing_map2 = "(d0, d1, d2, d3) -> ((d0 * 768 + d1) mod 48), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]"
//   #indexing_map3 = "(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]"
//   %c224 = arith.constant 224 : index
//   %5 = arith.cmpi sle, %thread_id_x, %c224 : index
//   #indexing_map4 = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x mod 32), domain: th_x in [0, 224], ..., bl_x in [0, 95], ..."
//   #indexing_map5 = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x / 6), domain: th_x in [0, 224], ..."
//   #indexing_map6 = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> ((bl_x mod 6) * 8 + th_x / 32), domain: th_x in [0, 224], ..."
//   %22 = xla.predicated_insert %pure_call_1 into %xla_loop[%20, %21] if %19 : tensor<16x48xf32>
// Differences: XLA's loop map says bl_z in [0, 1] (ours [0, 0]); its bitcast maps keep
// the unit component (d0 * 768 + d1), ours fold it.
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<16x48x64xf32>, %[[OUT:\w+]]: tensor<16x48xf32>) -> tensor<16x48xf32>
// CHECK:         %[[RESULT:\w+]], %[[PARTIAL:\w+]] = xla.loop ({{.*}}){{\[}}%{{\w+}}, %{{\w+}}, %{{\w+}}] -> (%[[C0:\w+]], %[[C1:\w+]], %[[C2:\w+]], %[[C3:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]], [[S2:\w+]]] -> (0, [[BL]] * 8 + [[TH]] {{/|floordiv}} 32, [[TH]] mod 32, [[S2]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 95], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 0], [[S1]] in [0, 0], [[S2]] in [0, 1]"> iter_args(%{{\w+}} = %[[OUT]], %{{\w+}} = %{{\w+}}) -> (tensor<16x48xf32>, f32)
// CHECK:           %[[I:\w+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d1 {{/|floordiv}} 48), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]">(%[[C0]], %[[C1]], %[[C2]], %[[C3]])
// CHECK:           %[[J:\w+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d1 mod 48), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]">(%[[C0]], %[[C1]], %[[C2]], %[[C3]])
// CHECK:           %[[K:\w+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 767], d2 in [0, 31], d3 in [0, 1]">(%[[C0]], %[[C1]], %[[C2]], %[[C3]])
// CHECK:           tensor.extract %{{\w+}}[%[[I]], %[[J]], %[[K]]] : tensor<16x48x64xf32>
// CHECK:         %[[SUM:\w+]] = xla_gpu.shuffle_reduce(%[[PARTIAL]]) to 16 combiner=@{{\w+}} : f32
// CHECK-DAG:     arith.cmpi sle, %thread_id_x, %{{\w+}} : index
// CHECK-DAG:     xla.apply_indexing #xla.indexing_map<"([[TH1:\w+]], {{\w+}}, {{\w+}}, [[BL1:\w+]], {{\w+}}, {{\w+}}) -> ([[TH1]] mod 32), domain: [[TH1]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL1]] in [0, 95], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[ROW:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}) -> ([[BL2]] {{/|floordiv}} 6), domain: [[TH2]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 95], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[COLUMN:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH3:\w+]], {{\w+}}, {{\w+}}, [[BL3:\w+]], {{\w+}}, {{\w+}}) -> (([[BL3]] mod 6) * 8 + [[TH3]] {{/|floordiv}} 32), domain: [[TH3]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL3]] in [0, 95], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         xla.predicated_insert %[[SUM]] into %[[RESULT]][%[[ROW]], %[[COLUMN]]] if %{{\w+}} : tensor<16x48xf32>

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
