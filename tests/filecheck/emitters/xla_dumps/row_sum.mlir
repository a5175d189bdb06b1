// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/row_sum/gpu.hlo | filecheck %s

// Our row-reduction emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/row_sum/gpu/input_reduce_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// XLA: %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 255 : index]}
// XLA: %block_id_x = gpu.block_id x {xla.range = [0 : index, 31 : index]}
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<256x512xf32>, %[[OUT:\w+]]: tensor<256xf32>) -> tensor<256xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 255 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 31 : index]}

// Each warp reduces a row, row bl_x * 8 + th_x / 32, reading vectors of 2 neighbouring
// elements. As XLA's, the loop's map indexes the input viewed as its contiguous
// components [1, 256, 256, 2] (major reduced, kept, vector, element: s0, the row, s1 * 32
// + th_x mod 32, s2), and a bitcast map inside the loop gives the input's column.
// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1, s2] ->
// XLA:   (0, bl_x * 8 + th_x / 32, s1 * 32 + th_x mod 32, s2), domain: th_x in [0, 255], th_y in [0, 0],
// XLA:   th_z in [0, 0], bl_x in [0, 31], bl_y in [0, 0], bl_z in [0, 1], s0 in [0, 0], s1 in [0, 7], s2 in [0, 1]">
// XLA: %xla_loop, %xla_loop_0 = xla.loop (...)[%i, %j, %k] -> (%ra, %rb, %rc, %rd) in #indexing_map
// XLA:   iter_args(%iter = %arg1, %iter_8 = %pure_call) -> (tensor<256xf32>, f32) {
// The output goes through the loop, before the accumulator, as XLA's.
// XLA: #indexing_map1 = #xla.indexing_map<"(d0, d1, d2, d3) -> (d0 * 256 + d1), domain: d0 in [0, 0], d1 in [0, 255], d2 in [0, 255], d3 in [0, 1]">
// XLA: #indexing_map2 = #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 255], d2 in [0, 255], d3 in [0, 1]">
// XLA:   %22 = xla.apply_indexing #indexing_map1(%ra, %rb, %rc, %rd)
// XLA:   %23 = xla.apply_indexing #indexing_map2(%ra, %rb, %rc, %rd)
// XLA:   %pure_call_9 = xla.pure_call @fused_reduce_mul_1_1(%arg0, %22, %23) : (tensor<256x512xf32>, index, index) -> f32
// Differences: XLA's loop map says bl_z in [0, 1] (the number of reduction groups, not
// the last group's id); ours [0, 0]. XLA's bitcast map keeps the unit major component
// (d0 * 256 + d1); ours folds it and passes the kept component itself.
// CHECK:         %[[RESULT:\w+]], %[[PARTIAL:\w+]] = xla.loop ({{.*}}){{\[}}%{{\w+}}, %{{\w+}}, %{{\w+}}] -> (%{{\w+}}, %[[KEPT:\w+]], %[[VECTOR:\w+]], %[[ELEMENT:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]], [[S2:\w+]]] -> (0, [[BL]] * 8 + [[TH]] {{/|floordiv}} 32, [[S1]] * 32 + [[TH]] mod 32, [[S2]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 0], [[S1]] in [0, 7], [[S2]] in [0, 1]"> iter_args(%[[ITER:\w+]] = %[[OUT]], %{{\w+}} = %{{\w+}}) -> (tensor<256xf32>, f32)
// CHECK:           %[[COLUMN:\w+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 255], d2 in [0, 255], d3 in [0, 1]">(%{{\w+}}, %[[KEPT]], %[[VECTOR]], %[[ELEMENT]])
// CHECK:           xla.pure_call @fused_reduce_mul_1_1(%{{\w+}}, %[[KEPT]], %[[COLUMN]]) : (tensor<256x512xf32>, index, index) -> f32
// XLA:   xla.yield %iter, %pure_call_10 : tensor<256xf32>, f32
// CHECK:           xla.yield %[[ITER]], %{{\w+}} : tensor<256xf32>, f32

// XLA: %0 = xla_gpu.shuffle_reduce(%xla_loop_0) to 16 combiner=@region_0_1_reduce_sum_5_0 : f32
// CHECK:         %[[SUM:\w+]] = xla_gpu.shuffle_reduce(%[[PARTIAL]]) to 16 combiner=@{{\w+}} : f32

// Lane 0 of each warp writes its row.
// XLA: #indexing_map3 = "(th_x, ...) -> (th_x mod 32), domain: th_x in [0, 224], ..., bl_x in [0, 31], ..."
// XLA: #indexing_map4 = "(th_x, ...) -> (bl_x * 8 + th_x / 32), domain: th_x in [0, 224], ..., bl_x in [0, 31], ..."
// XLA: %21 = xla.predicated_insert %pure_call_1 into %xla_loop[%20] if %19 : tensor<256xf32>
// XLA: %c224 = arith.constant 224 : index
// XLA: %5 = arith.cmpi sle, %thread_id_x, %c224 : index
// Lane 0 of the last warp is th_x 224: the writer maps' domain ends there, and the write
// checks it, as XLA's CheckConstraints checks the bounds the simplifier tightened.
// CHECK-DAG:     arith.cmpi sle, %thread_id_x, %{{\w+}} : index
// CHECK-DAG:     xla.apply_indexing #xla.indexing_map<"([[TH1:\w+]], {{\w+}}, {{\w+}}, [[BL1:\w+]], {{\w+}}, {{\w+}}) -> ([[TH1]] mod 32), domain: [[TH1]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL1]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[ROW:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}) -> ([[BL2]] * 8 + [[TH2]] {{/|floordiv}} 32), domain: [[TH2]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         xla.predicated_insert %[[SUM]] into %[[RESULT]][%[[ROW]]] if %{{\w+}} : tensor<256xf32>
