// RUN: xla-emit-opt %examples/softmax.hlo | filecheck %s
// RUN: xla-emit-opt %examples/softmax.hlo | xla-emit-opt | filecheck %s

// Softmax as XLA fuses it: a row-max reduction, exp(x - max) as a loop fusion,
// a row-sum reduction whose epilogue inverts the sum, and the normalizing
// loop fusion. Every fusion is its own kernel, named after the fusion.

// Rows of 1000 elements: 64 threads per row (about 16 elements each, in vectors
// of 2 neighbours: s1 steps 64 vectors, s2 within a vector; s0 is the major
// reduced component, of size 1), 4 rows per block; the two warps of a row
// combine through shared memory. The loop's map indexes the input's components
// [1, 64, 500, 2]; a bitcast map gives the column.
// CHECK-LABEL: func.func @row_max(
// CHECK-SAME:    %{{.*}}: tensor<64x1000xf32>, %[[MAX:.*]]: tensor<64xf32>) -> tensor<64xf32>
// CHECK:         gpu.thread_id  x {xla.range = [0 : index, 255 : index]}
// CHECK-NEXT:    gpu.block_id  x {xla.range = [0 : index, 15 : index]}
// CHECK-DAG:     %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:         %xla_loop, %xla_loop_1 = xla_gpu.loop (%thread_id_x, %block_id_x)[%s0, %s1, %s2] -> (%component0, %component1, %component2, %component3)
// CHECK-SAME:      "(th_x, bl_x)[s0, s1, s2] -> (0, bl_x * 4 + th_x floordiv 64, s1 * 64 + th_x mod 64, s2), domain: th_x in [0, 255], bl_x in [0, 15], s0 in [0, 0], s1 in [0, 7], s2 in [0, 1], s1 * 64 + th_x mod 64 in [0, 499]">
// CHECK-SAME:      iter_args(%iter = %[[MAX]], %acc = %[[NEG_INF]]) -> (tensor<64xf32>, f32) {
// CHECK:           %[[NEW:.*]] = xla_gpu.pure_call @max_f32(%acc, %extracted) : (f32, f32) -> f32
// CHECK-NEXT:      xla_gpu.yield %iter, %[[NEW]] : tensor<64xf32>, f32
// CHECK:         %[[WARP:.*]] = xla_gpu.shuffle_reduce(%xla_loop_1) to 16 combiner=@max_f32 : f32
// CHECK:         %shmem = xla_gpu.allocate_shared : tensor<4x2xf32>
// CHECK-NEXT:    %[[STORED:.*]] = xla.predicated_insert %[[WARP]] into %shmem[%{{.*}}, %{{.*}}] if %{{.*}} : tensor<4x2xf32>
// CHECK-NEXT:    %synced_tensor = xla_gpu.sync_threads %[[STORED]] : tensor<4x2xf32>
// CHECK:         %[[GATHERED:.*]] = xla.predicated_extract %synced_tensor[%{{.*}}, %{{.*}}] if %{{.*}} else %[[NEG_INF]] : tensor<4x2xf32>
// CHECK-NEXT:    %[[ROW:.*]] = xla_gpu.shuffle_reduce(%[[GATHERED]]) to 16 combiner=@max_f32 : f32
// CHECK:         %[[WRITTEN:.*]] = xla.predicated_insert %[[ROW]] into %xla_loop[%{{.*}}] if %{{.*}} : tensor<64xf32>
// CHECK-NEXT:    func.return %[[WRITTEN]] : tensor<64xf32>
// CHECK-LABEL: func.func private @max_f32(
// CHECK-NEXT:    arith.maximumf

// CHECK-LABEL: func.func @e(
// CHECK:         xla_gpu.loop
// CHECK:         xla_gpu.pure_call @fused_exp_e(
// CHECK-LABEL: func.func private @fused_exp_e(
// CHECK:         arith.subf
// CHECK-NEXT:    math.exp

// The epilogue (1 / sum) runs only where lane 0 of a row writes.
// CHECK-LABEL: func.func @inverse(
// CHECK:         xla_gpu.shuffle_reduce(%xla_loop_1) to 16 combiner=@add_f32 : f32
// CHECK:         %[[SUM:.*]] = xla_gpu.shuffle_reduce(%{{.*}}) to 16 combiner=@add_f32 : f32
// CHECK:         scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK-NEXT:      %[[INV:.*]] = xla_gpu.pure_call @fused_row_sum_inverse__epilogue__inverse(%arg0, %[[I:.*]], %[[SUM]]) : (tensor<64x1000xf32>, index, f32) -> f32
// CHECK-NEXT:      %inserted = tensor.insert %[[INV]] into %xla_loop[%[[I]]] : tensor<64xf32>
// CHECK-NEXT:      scf.yield %inserted : tensor<64xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %xla_loop : tensor<64xf32>
// CHECK-NEXT:    }
// CHECK-LABEL: func.func private @fused_row_sum_inverse__epilogue__inverse(
// CHECK-SAME:    %i: index {xla.range = [0 : index, 63 : index]}, %[[HERO:.*]]: f32) -> f32
// CHECK:         arith.divf %{{.*}}, %[[HERO]] : f32

// CHECK-LABEL: func.func @softmax(
// CHECK:         xla_gpu.pure_call @fused_normalize_softmax(
