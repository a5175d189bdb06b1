// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/column_max/gpu.hlo | filecheck %s

// Our column-reduction emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/column_max/gpu/input_reduce_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).
//
// XLA vectorizes this column reduction by 2 (GetVectorSizeForMlir: f32 input, an even
// minor size of at least 64), so a block covers 64 columns: 3 blocks, a vector<2xf32>
// accumulator per thread, a 32x65 shared tile, and an scf.for over the two vector
// elements around the shared tile's store and around the read, shuffle and write (a
// symbol s0 in their maps). The loop's map indexes the input viewed as its contiguous
// components [1, 384, 160] (hence its leading 0). Ours does the same. Differences: XLA's
// loop map says bl_z in [0, 1] (ours [0, 0]); its bitcast map from the components to the
// input keeps the unit dim (d0 * 384 + d1, an apply_indexing), ours folds it (the
// component itself); XLA reads the input through a pure_call of the parameter's
// subgraph, ours with tensor.extract.

// XLA: %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 1023 : index]}
// XLA: %block_id_x = gpu.block_id x {xla.range = [0 : index, 2 : index]}
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<384x160xf32>, %[[OUT:\w+]]: tensor<160xf32>) -> tensor<160xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 1023 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 2 : index]}

// Each warp of 32 reads every 32nd row, starting at its warp index, over 12 steps; each
// lane reads two neighbouring columns into a vector of partial results.
// XLA: %0 = vector.broadcast %pure_call : f32 to vector<2xf32>
// XLA: %xla_loop, %xla_loop_0 = xla.loop (...)[%i, %j] -> (%ra, %rb, %rc) in #indexing_map iter_args(%iter = %arg1, %iter_4 = %0) -> (tensor<160xf32>, vector<2xf32>) {
// XLA: #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (0, s0 * 32 + th_x / 32,
// XLA:   (th_x mod 32) * 2 + bl_x * 64 + s1), domain: th_x in [0, 1023], ..., bl_x in [0, 2], ...,
// XLA:   s0 in [0, 11], s1 in [0, 1], bl_x * 32 + th_x mod 32 in [0, 79]"
// XLA: %3 = vector.extract %iter_4[%j] : f32 from vector<2xf32>
// XLA: %pure_call_6 = xla.pure_call @region_0_1_reduce_max_5_0(%3, %pure_call_5) : (f32, f32) -> f32
// XLA: %5 = vector.insert %pure_call_6, %iter_4 [%j] : f32 into vector<2xf32>
// CHECK:         %[[INIT:\w+]] = vector.broadcast %{{\w+}} : f32 to vector<2xf32>
// CHECK:         %[[RESULT:\w+]], %[[PARTIALS:\w+]] = xla.loop ({{.*}}){{\[}}%{{\w+}}, %[[J:\w+]]] -> (%{{\w+}}, %[[ROW:\w+]], %[[COLUMN:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]]] -> (0, [[S0]] * 32 + [[TH]] {{/|floordiv}} 32, ([[TH]] mod 32) * 2 + [[BL]] * 64 + [[S1]]), domain: [[TH]] in [0, 1023], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 2], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 11], [[S1]] in [0, 1], [[BL]] * 32 + [[TH]] mod 32 in [0, 79]"> iter_args(%{{\w+}} = %[[OUT]], %[[ACC:\w+]] = %[[INIT]]) -> (tensor<160xf32>, vector<2xf32>)
// XLA: #indexing_map1 = #xla.indexing_map<"(d0, d1, d2) -> (d0 * 384 + d1), domain: d0 in [0, 0], d1 in [0, 383], d2 in [0, 159]">
// XLA: %pure_call_5 = xla.pure_call @fused_reduce_param_0(%arg0, %4, %rc) : (tensor<384x160xf32>, index, index) -> f32
// CHECK:           tensor.extract %{{\w+}}[%[[ROW]], %[[COLUMN]]] : tensor<384x160xf32>
// CHECK:           %[[ELEMENT:\w+]] = vector.extract %[[ACC]][%[[J]]] : f32 from vector<2xf32>
// CHECK:           %[[FOLDED:\w+]] = xla.pure_call @{{\w+}}(%[[ELEMENT]], %{{\w+}}) : (f32, f32) -> f32
// CHECK:           vector.insert %[[FOLDED]], %[[ACC]] [%[[J]]] : f32 into vector<2xf32>

// Thread (lane x, warp y) stores element s0 of its vector at [x, y * 2 + s0] of the tile,
// in a loop over the vector's elements; the tile's maps have th_x alone and s0.
// XLA: %shmem = xla_gpu.allocate_shared : tensor<32x65xf32>
// XLA: %1 = scf.for %arg2 = %c0 to %c2 step %c1 iter_args(%arg3 = %shmem) -> (tensor<32x65xf32>) {
// XLA: #indexing_map2 = "(th_x)[s0] -> (th_x mod 32), domain: th_x in [0, 1023], s0 in [0, 1]"
// XLA: #indexing_map3 = "(th_x)[s0] -> ((th_x / 32) * 2 + s0), domain: th_x in [0, 1023], s0 in [0, 1]"
// XLA:   %8 = xla.apply_indexing #indexing_map2(%thread_id_x)[%arg2]
// XLA:   %9 = xla.apply_indexing #indexing_map3(%thread_id_x)[%arg2]
// XLA:   %10 = vector.extract %xla_loop_0[%arg2] : f32 from vector<2xf32>
// XLA:   %inserted = tensor.insert %10 into %arg3[%8, %9] : tensor<32x65xf32>
// XLA: %synced_tensor = xla_gpu.sync_threads %1 : tensor<32x65xf32>
// (XLA puts the store under an scf.if on th_x in [0, 1023], which always holds; ours has none.)
// CHECK:         %[[SHMEM:\w+]] = xla_gpu.allocate_shared : tensor<32x65xf32>
// CHECK:         %[[TILE:\w+]] = scf.for %[[E:\w+]] = %[[C0:\w+]] to %[[C2:\w+]] step %[[C1:\w+]] iter_args(%[[T:\w+]] = %[[SHMEM]]) -> (tensor<32x65xf32>) {
// CHECK:           %[[LANE:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH2:\w+]]){{\[}}[[S2:\w+]]] -> ([[TH2]] mod 32), domain: [[TH2]] in [0, 1023], [[S2]] in [0, 1]">(%thread_id_x)[%[[E]]]
// CHECK:           %[[AT:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH3:\w+]]){{\[}}[[S3:\w+]]] -> (([[TH3]] {{/|floordiv}} 32) * 2 + [[S3]]), domain: [[TH3]] in [0, 1023], [[S3]] in [0, 1]">(%thread_id_x)[%[[E]]]
// CHECK:           %[[PARTIAL:\w+]] = vector.extract %[[PARTIALS]][%[[E]]] : f32 from vector<2xf32>
// CHECK:           tensor.insert %[[PARTIAL]] into %[[T]][%[[LANE]], %[[AT]]] : tensor<32x65xf32>
// CHECK:         %[[SYNCED:\w+]] = xla_gpu.sync_threads %[[TILE]] : tensor<32x65xf32>

// Warp y reads element s0 of each lane's column from row y and shuffles it, in a second
// loop over the vector's elements, which also writes.
// XLA: %2 = scf.for %arg2 = %c0_2 to %c2_3 step %c1_1 iter_args(%arg3 = %xla_loop) -> (tensor<160xf32>) {
// XLA: #indexing_map4 = "(th_x)[s0] -> (th_x / 32), domain: th_x in [0, 1023], s0 in [0, 1]"
// XLA: #indexing_map5 = "(th_x)[s0] -> ((th_x mod 32) * 2 + s0), domain: th_x in [0, 1023], s0 in [0, 1]"
// XLA:   %12 = xla.apply_indexing #indexing_map4(%thread_id_x)[%arg2]
// XLA:   %13 = xla.apply_indexing #indexing_map5(%thread_id_x)[%arg2]
// XLA:   %14 = xla.predicated_extract %synced_tensor[%12, %13] if %11 else %pure_call : tensor<32x65xf32>
// XLA:   %15 = xla_gpu.shuffle_reduce(%14) to 16 combiner=@region_0_1_reduce_max_5_0 : f32
// The output goes through the xla.loop and then this scf.for (iter_args(%arg3 = %xla_loop)).
// Difference: the read's condition always holds: XLA computes it (th_x in [0, 1023]),
// ours is the constant true.
// CHECK:         %[[WRITTEN:\w+]] = scf.for %[[F:\w+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC_OUT:\w+]] = %[[RESULT]]) -> (tensor<160xf32>) {
// CHECK:           %[[WARP:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH4:\w+]]){{\[}}[[S4:\w+]]] -> ([[TH4]] {{/|floordiv}} 32), domain: [[TH4]] in [0, 1023], [[S4]] in [0, 1]">(%thread_id_x)[%[[F]]]
// CHECK:           %[[FROM:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH5:\w+]]){{\[}}[[S5:\w+]]] -> (([[TH5]] mod 32) * 2 + [[S5]]), domain: [[TH5]] in [0, 1023], [[S5]] in [0, 1]">(%thread_id_x)[%[[F]]]
// CHECK:           %[[R:\w+]] = xla.predicated_extract %[[SYNCED]][%[[WARP]], %[[FROM]]] if %{{\w+}} else %{{\w+}} : tensor<32x65xf32>
// CHECK:           %[[TOTAL:\w+]] = xla_gpu.shuffle_reduce(%[[R]]) to 16 combiner=@{{\w+}} : f32

// Lane 0 of warp y (th_x at most 992, the last warp's lane 0) writes column
// (bl_x * 32 + y) * 2 + s0, where that vector exists.
// XLA: #indexing_map6 = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] -> (th_x mod 32), domain: th_x in [0, 992], ..., bl_x in [0, 2], ..., s0 in [0, 1]"
// XLA: #indexing_map7 = "(th_x, ..., bl_x, ...)[s0] -> (bl_x * 32 + th_x / 32), domain: th_x in [0, 992], ..."
// XLA: %c79 = arith.constant 79 : index
// XLA: %21 = arith.cmpi sle, %17, %c79 : index
// XLA: %c992 = arith.constant 992 : index
// XLA: %25 = arith.cmpi sle, %thread_id_x, %c992 : index
// XLA: #indexing_map8 = "(th_x, ..., bl_x, ...)[s0] -> ((th_x / 32) * 2 + bl_x * 64 + s0), domain: th_x in [0, 992], ..."
// XLA: %41 = xla.predicated_insert %pure_call_8 into %arg3[%40] if %39 : tensor<160xf32>
// CHECK-DAG:       arith.cmpi sle, %thread_id_x, %{{\w+}} : index
// CHECK-DAG:       %[[VECTOR:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH8:\w+]], {{\w+}}, {{\w+}}, [[BL8:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S8:\w+]]] -> ([[BL8]] * 32 + [[TH8]] {{/|floordiv}} 32), domain: [[TH8]] in [0, 992], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL8]] in [0, 2], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S8]] in [0, 1]">
// CHECK-DAG:       arith.cmpi sle, %[[VECTOR]], %{{\w+}} : index
// CHECK-DAG:       %[[LANE0:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH6:\w+]], {{\w+}}, {{\w+}}, [[BL6:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S6:\w+]]] -> ([[TH6]] mod 32), domain: [[TH6]] in [0, 992], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL6]] in [0, 2], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S6]] in [0, 1]">
// CHECK-DAG:       arith.cmpi eq, %[[LANE0]], %{{\w+}} : index
// CHECK:           %[[AT_OUT:\w+]] = xla.apply_indexing #xla.indexing_map<"([[TH9:\w+]], {{\w+}}, {{\w+}}, [[BL9:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S9:\w+]]] -> (([[TH9]] {{/|floordiv}} 32) * 2 + [[BL9]] * 64 + [[S9]]), domain: [[TH9]] in [0, 992], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL9]] in [0, 2], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S9]] in [0, 1]">({{.*}})[%[[F]]]
// CHECK:           %[[W:\w+]] = xla.predicated_insert %[[TOTAL]] into %[[ACC_OUT]][%[[AT_OUT]]] if %{{\w+}} : tensor<160xf32>
// CHECK:           scf.yield %[[W]] : tensor<160xf32>
// CHECK:         return %[[WRITTEN]] : tensor<160xf32>
// CHECK-LABEL: func.func private @
// CHECK:         arith.maximumf
