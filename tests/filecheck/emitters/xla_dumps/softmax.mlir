// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/softmax/gpu.hlo | filecheck %s

// Our emitters on XLA's optimized softmax module (a row max, a row sum of exp(x - max),
// then a loop dividing by the sum), against XLA's emitter outputs in
// tests/corpus/gpu/softmax/gpu/{input_reduce_fusion_1,input_reduce_fusion,loop_divide_fusion}
// .mlir-passes.log.xz, snapshot 0 of each. "XLA:" lines quote them; the CHECK lines below
// each are written from them (the x ids and symbols up to renaming; both thread six grid
// ids, the y and z ones [0, 0]). Both reductions: a warp per row, 8 rows a block (16 blocks of 256 threads);
// each lane reads vectors of 2 neighbouring elements (s1 in [0, 7], s2 in [0, 1]), 64
// elements apart; the loop's map indexes the input's components [1, 128, 256, 2] and
// the bitcast map d2 * 2 + d3 gives the column, as XLA's.

// XLA (input_reduce_fusion_1):
//   %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 255 : index]}
//   %block_id_x = gpu.block_id x {xla.range = [0 : index, 15 : index]}
//   #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1, s2] -> (0, bl_x * 8 + th_x / 32,
//     s1 * 32 + th_x mod 32, s2), domain: th_x in [0, 255], ..., bl_x in [0, 15], ...,
//     s0 in [0, 0], s1 in [0, 7], s2 in [0, 1]"
//   #indexing_map2 = "(d0, d1, d2, d3) -> (d2 * 2 + d3), ..."
//   %0 = xla_gpu.shuffle_reduce(%xla_loop_0) to 16 combiner=@region_0_1_reduce_max_5_0 : f32
// CHECK-LABEL: func.func @input_reduce_fusion_1(
// CHECK-SAME:    tensor<128x512xf32>, %{{\w+}}: tensor<128xf32>) -> tensor<128xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 255 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 15 : index]}
// CHECK:         xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]], [[S2:\w+]]] -> (0, [[BL]] * 8 + [[TH]] {{/|floordiv}} 32, [[S1]] * 32 + [[TH]] mod 32, [[S2]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 15], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 0], [[S1]] in [0, 7], [[S2]] in [0, 1]">
// CHECK:           xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 127], d2 in [0, 255], d3 in [0, 1]">
// CHECK:         xla_gpu.shuffle_reduce(%{{\w+}}) to 16 combiner=@{{\w+}} : f32
// CHECK:         arith.maximumf

// XLA (input_reduce_fusion): the same launch, maps and shuffle, summing.
//   %0 = xla_gpu.shuffle_reduce(%xla_loop_0) to 16 combiner=@region_1_2_reduce_sum_5_0 : f32
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    tensor<128x512xf32>, %{{\w+}}: tensor<128xf32>, %{{\w+}}: tensor<128xf32>) -> tensor<128xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 255 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 15 : index]}
// CHECK:         xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]], [[S2:\w+]]] -> (0, [[BL]] * 8 + [[TH]] {{/|floordiv}} 32, [[S1]] * 32 + [[TH]] mod 32, [[S2]]), domain: [[TH]] in [0, 255], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 15], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 0], [[S1]] in [0, 7], [[S2]] in [0, 1]">
// CHECK:           xla.apply_indexing #xla.indexing_map<"(d0, d1, d2, d3) -> (d2 * 2 + d3), domain: d0 in [0, 0], d1 in [0, 127], d2 in [0, 255], d3 in [0, 1]">
// CHECK:         xla_gpu.shuffle_reduce(%{{\w+}}) to 16 combiner=@{{\w+}} : f32

// XLA (loop_divide_fusion):
//   %0 = xla.workgroup_id x {xla.range = [0 : index, 511 : index]}
//   %3 = scf.forall (%arg4, %arg5, %arg6) in (128, 1, 1) shared_outs(%arg7 = %arg3)
//   #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x / 4, (bl_x mod 4) * 128 + th_x),
//     domain: th_x in [0, 127], ..., bl_x in [0, 511], ..."
// No symbol, as XLA's: the loop does not vectorize.
// CHECK-LABEL: func.func @loop_divide_fusion(
// CHECK-SAME:    tensor<128xf32>, %{{\w+}}: tensor<128x512xf32>, %{{\w+}}: tensor<128xf32>, %{{\w+}}: tensor<128x512xf32>) -> tensor<128x512xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 511 : index]}
// CHECK:         xla.loop ({{.*}})[] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}) -> ([[BL]] {{/|floordiv}} 4, ([[BL]] mod 4) * 128 + [[TH]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 511], {{\w+}} in [0, 0], {{\w+}} in [0, 0]">
