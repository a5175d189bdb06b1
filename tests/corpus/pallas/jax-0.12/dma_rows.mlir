module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: i32, %arg1: memref<16x128xf32, #tpu.memory_space<any>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg4: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 2 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{}, {transform_indices = @transform_1, window_bounds = array<i64: 8, 128>}]} {
    %c8_i32 = arith.constant 8 : i32
    %0 = arith.muli %arg0, %c8_i32 : i32
    %1 = tpu.assume_multiple %0, 8 : i32
    %c0_i32 = arith.constant 0 : i32
    %2 = tpu.memref_slice %arg1[%1, %c0_i32] : memref<16x128xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
    tpu.enqueue_dma source(%2 : memref<8x128xf32, #tpu.memory_space<any>>) target(%arg3 : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg4 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    %c0_i32_0 = arith.constant 0 : i32
    %3 = tpu.memref_slice %arg1[%1, %c0_i32_0] : memref<16x128xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
    tpu.wait_dma source(%3 : memref<8x128xf32, #tpu.memory_space<any>>) target(%arg3 : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg4 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
    %c0 = arith.constant 0 : index
    %c0_1 = arith.constant 0 : index
    %4 = vector.load %arg3[%c0, %c0_1] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %cst = arith.constant 3.000000e+00 : f32
    %5 = vector.broadcast %cst : f32 to vector<8x128xf32>
    %6 = arith.mulf %4, %5 : vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %7 = vector.load %arg2[%c0_2, %c0_3] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg2[%c0_2, %c0_3], %6 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    return
  }
  func.func @transform_1(%arg0: i32) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    %c0_i32_0 = arith.constant 0 : i32
    return %arg0, %c0_i32 : i32, i32
  }
}
