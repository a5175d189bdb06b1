// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/argmax_rows/gpu.hlo | filecheck %s

// Our row-reduction emitter on XLA's optimized argmax module (a variadic reduce of each
// f32[300] row and its iota), against XLA's emitter output:
// tests/corpus/gpu/argmax_rows/gpu/input_reduce_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// A warp per row, 8 rows a block; each lane reads vectors of 2 (150 a row, so the last
// step of s1 is partly out of the row: the constraint on the vector position). The loop's
// map indexes the input's components [1, 128, 150, 2]; the bitcast map gives the column,
// which the value and the iota are both read at.
// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1, s2] ->
// XLA:   (0, bl_x * 8 + th_x / 32, s1 * 32 + th_x mod 32, s2), domain: th_x in [0, 255], th_y in [0, 0],
// XLA:   th_z in [0, 0], bl_x in [0, 15], bl_y in [0, 0], bl_z in [0, 1], s0 in [0, 0], s1 in [0, 4],
// XLA:   s2 in [0, 1], s1 * 32 + th_x mod 32 in [0, 149]">
// XLA: %xla_loop, %xla_loop_1, %xla_loop_2, %xla_loop_3 = xla.loop (...)[%i, %j, %k] -> (%ra, %rb, %rc, %rd) in #indexing_map
// XLA:   iter_args(%iter = %arg1, %iter_12 = %arg2, %iter_13 = %pure_call, %iter_14 = %pure_call_0) -> (tensor<128xf32>, tensor<128xi32>, f32, i32) {
// XLA: #indexing_map2 = #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 127], d2 in [0, 149], d3 in [0, 1]">
// XLA:   %pure_call_16 = xla.pure_call @fused_reduce_iota_4_1(%arg0, %23, %24) : (tensor<128x300xf32>, index, index) -> i32
// Differences: XLA's loop map says bl_z in [0, 1] (ours [0, 0]); its bitcast map keeps
// the unit component (d0 * 128 + d1), ours folds it.
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<128x300xf32>, %[[VALUES:\w+]]: tensor<128xf32>, %[[INDICES:\w+]]: tensor<128xi32>) -> (tensor<128xf32>, tensor<128xi32>)
// CHECK:         %[[VALUES_OUT:\w+]], %[[INDICES_OUT:\w+]], %[[VALUE_ACC:\w+]], %[[INDEX_ACC:\w+]] = xla.loop ({{.*}}){{\[}}%{{\w+}}, %{{\w+}}, %{{\w+}}] -> (%[[C0:\w+]], %[[ROW:\w+]], %[[C2:\w+]], %[[C3:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]], [[S2:\w+]]] -> (0, [[BL]] * 8 + [[TH]] {{/|floordiv}} 32, [[S1]] * 32 + [[TH]] mod 32, [[S2]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 15], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 0], [[S1]] in [0, 4], [[S2]] in [0, 1], [[S1]] * 32 + [[TH]] mod 32 in [0, 149]"> iter_args(%{{\w+}} = %[[VALUES]], %{{\w+}} = %[[INDICES]], %{{\w+}} = %{{\w+}}, %{{\w+}} = %{{\w+}}) -> (tensor<128xf32>, tensor<128xi32>, f32, i32)
// CHECK:           %[[COLUMN:\w+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 127], d2 in [0, 149], d3 in [0, 1]">(%[[C0]], %[[ROW]], %[[C2]], %[[C3]])
// CHECK:           xla.pure_call @fused_reduce_iota_4_1(%{{\w+}}, %[[ROW]], %[[COLUMN]]) : (tensor<128x300xf32>, index, index) -> i32

// XLA: %0:2 = xla_gpu.shuffle_reduce(%xla_loop_2, %xla_loop_3) to 16 combiner=@region_0_1_tuple_1_0 : f32, i32
// CHECK:         %[[VALUE:\w+]], %[[INDEX:\w+]] = xla_gpu.shuffle_reduce(%[[VALUE_ACC]], %[[INDEX_ACC]]) to 16 combiner=@{{\w+}} : f32, i32

// Lane 0 of each warp (th_x up to 224) writes both results.
// XLA: #indexing_map3 = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x mod 32), domain: th_x in [0, 224], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 15], bl_y in [0, 0], bl_z in [0, 0]">
// XLA: #indexing_map4 = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x * 8 + th_x / 32), domain: th_x in [0, 224], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 15], bl_y in [0, 0], bl_z in [0, 0]">
// XLA: %5 = arith.cmpi sle, %thread_id_x, %c224 : index
// XLA: %21 = xla.predicated_insert %pure_call_4 into %xla_loop[%20] if %19 : tensor<128xf32>
// XLA: %22 = xla.predicated_insert %pure_call_5 into %xla_loop_1[%20] if %19 : tensor<128xi32>
// CHECK-DAG:     arith.cmpi sle, %thread_id_x, %{{\w+}} : index
// CHECK-DAG:     xla.apply_indexing #xla.indexing_map<"([[TH1:\w+]], {{\w+}}, {{\w+}}, [[BL1:\w+]], {{\w+}}, {{\w+}}) -> ([[TH1]] mod 32), domain: [[TH1]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL1]] in [0, 15], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[AT:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}) -> ([[BL2]] * 8 + [[TH2]] {{/|floordiv}} 32), domain: [[TH2]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 15], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[IF:\w+]] = xla.predicated_insert %[[VALUE]] into %[[VALUES_OUT]][%[[AT]]] if %[[C:\w+]] : tensor<128xf32>
// CHECK:         xla.predicated_insert %[[INDEX]] into %[[INDICES_OUT]][%[[AT]]] if %[[C]] : tensor<128xi32>
