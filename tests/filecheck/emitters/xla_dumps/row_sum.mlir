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

// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1, s2] ->
// XLA:   (0, bl_x * 8 + th_x / 32, s1 * 32 + th_x mod 32, s2), domain: th_x in [0, 255], ...,
// XLA:   bl_x in [0, 31], ..., s0 in [0, 0], s1 in [0, 7], s2 in [0, 1]">
// XLA: #indexing_map2 = #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), ...">
// Each warp reduces a row, row bl_x * 8 + th_x / 32, reading vectors of 2 neighbouring
// elements (XLA's s1 and s2 through its bitcast map; ours s0 and s1): column
// (s0 * 32 + th_x mod 32) * 2 + s1.
// CHECK:         xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]]] -> ([[BL]] * 8 + [[TH]] {{/|floordiv}} 32, ([[TH]] mod 32) * 2 + [[S0]] * 64 + [[S1]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 7], [[S1]] in [0, 1]">

// XLA: %0 = xla_gpu.shuffle_reduce(%xla_loop_0) to 16 combiner=@region_0_1_reduce_sum_5_0 : f32
// CHECK:         %[[SUM:\w+]] = xla_gpu.shuffle_reduce(%{{\w+}}) to 16 combiner=@{{\w+}} : f32

// Lane 0 of each warp writes its row.
// XLA: #indexing_map3 = "(th_x, ...) -> (th_x mod 32), domain: th_x in [0, 224], ..., bl_x in [0, 31], ..."
// XLA: #indexing_map4 = "(th_x, ...) -> (bl_x * 8 + th_x / 32), domain: th_x in [0, 224], ..., bl_x in [0, 31], ..."
// XLA: %21 = xla.predicated_insert %pure_call_1 into %xla_loop[%20] if %19 : tensor<256xf32>
// Lane 0 of the last warp is th_x 224: the writer maps' domain ends there.
// CHECK:         xla.apply_indexing #xla.indexing_map<"([[TH1:\w+]], {{\w+}}, {{\w+}}, [[BL1:\w+]], {{\w+}}, {{\w+}}) -> ([[TH1]] mod 32), domain: [[TH1]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL1]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         %[[ROW:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}) -> ([[BL2]] * 8 + [[TH2]] {{/|floordiv}} 32), domain: [[TH2]] in [0, 224], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 31], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
// CHECK:         xla.predicated_insert %[[SUM]] into %[[OUT]][%[[ROW]]] if %{{\w+}} : tensor<256xf32>
