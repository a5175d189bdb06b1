// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/column_max/gpu.hlo | filecheck %s

// Our column-reduction emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/column_max/gpu/input_reduce_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; XLA's y and z ids are all [0, 0]).
//
// Known difference: XLA vectorizes this column reduction by 2 (GetVectorSizeForMlir:
// f32 input, an even minor size of at least 64), so a block covers 64 columns: 3 blocks,
// a vector<2xf32> accumulator per thread, a 32x65 shared tile and an scf.for over the two
// vector elements around the shuffle. Ours reads one column a thread: 5 blocks of 32
// columns and a 32x33 tile. Lines that hold XLA's values ours does not have yet are
// marked "XLA-ONLY:" (not a check prefix) next to the check of ours; the
// launch-grid test lists the same difference as an expected failure.

// XLA: %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 1023 : index]}
// XLA: %block_id_x = gpu.block_id x {xla.range = [0 : index, 2 : index]}
// CHECK-LABEL: func.func @input_reduce_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<384x160xf32>, %[[OUT:\w+]]: tensor<160xf32>) -> tensor<160xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 1023 : index]}
// XLA-ONLY:      gpu.block_id {{ *}}x {xla.range = [0 : index, 2 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 4 : index]}

// Each warp of 32 reads every 32nd row, starting at its warp index, over 12 steps.
// XLA: #indexing_map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (0, s0 * 32 + th_x / 32,
// XLA:   (th_x mod 32) * 2 + bl_x * 64 + s1), domain: th_x in [0, 1023], ..., bl_x in [0, 2], ...,
// XLA:   s0 in [0, 11], s1 in [0, 1], bl_x * 32 + th_x mod 32 in [0, 79]"
// XLA-ONLY:      ... -> (s0 * 32 + th_x / 32, (th_x mod 32) * 2 + bl_x * 64 + s1) ... s1 in [0, 1]
// CHECK:         xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], [[BL:\w+]]){{\[}}[[S0:\w+]]] -> ([[S0]] * 32 + [[TH]] {{/|floordiv}} 32, [[BL]] * 32 + [[TH]] mod 32), domain: [[TH]] in [0, 1023], [[BL]] in [0, 4], [[S0]] in [0, 11]">

// The partial results go through shared memory, transposed, then a warp shuffle.
// XLA: %shmem = xla_gpu.allocate_shared : tensor<32x65xf32>
// XLA: %synced_tensor = xla_gpu.sync_threads %1 : tensor<32x65xf32>
// XLA: %15 = xla_gpu.shuffle_reduce(%14) to 16 combiner=@region_0_1_reduce_max_5_0 : f32
// XLA: %41 = xla.predicated_insert %pure_call_8 into %arg3[%40] if %39 : tensor<160xf32>
// XLA-ONLY:      xla_gpu.allocate_shared : tensor<32x65xf32>
// CHECK:         %[[SHMEM:\w+]] = xla_gpu.allocate_shared : tensor<32x33xf32>
// CHECK:         xla_gpu.sync_threads %{{\w+}} : tensor<32x33xf32>
// CHECK:         xla_gpu.shuffle_reduce(%{{\w+}}) to 16 combiner=@{{\w+}} : f32
// CHECK:         xla.predicated_insert %{{\w+}} into %[[OUT]][%{{\w+}}] if %{{\w+}} : tensor<160xf32>
// CHECK-LABEL: func.func private @
// CHECK:         arith.maximumf
