module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: memref<1x8x128xf32, #tpu.memory_space<vmem>>, %arg4: memref<1x8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 3, 2, 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 1, 8, 128>}, {transform_indices = @transform_1, window_bounds = array<i64: 1, 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %c0_1 = arith.constant 0 : index
    %0 = vector.load %arg3[%c0, %c0_0, %c0_1] : memref<1x8x128xf32, #tpu.memory_space<vmem>>, vector<1x8x128xf32>
    %1 = vector.shape_cast %0 : vector<1x8x128xf32> to vector<8x128xf32>
    %cst = arith.constant 2.000000e+00 : f32
    %2 = vector.broadcast %cst : f32 to vector<8x128xf32>
    %3 = arith.mulf %1, %2 : vector<8x128xf32>
    %4 = arith.sitofp %arg0 : i32 to f32
    %5 = vector.broadcast %4 : f32 to vector<8x128xf32>
    %6 = arith.addf %3, %5 : vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %c0_4 = arith.constant 0 : index
    %7 = vector.load %arg4[%c0_2, %c0_3, %c0_4] : memref<1x8x128xf32, #tpu.memory_space<vmem>>, vector<1x8x128xf32>
    %8 = vector.shape_cast %7 : vector<1x8x128xf32> to vector<8x128xf32>
    %9 = vector.shape_cast %6 : vector<8x128xf32> to vector<1x8x128xf32>
    tpu.vector_store %arg4[%c0_2, %c0_3, %c0_4], %9 {strides = array<i32>} : memref<1x8x128xf32, #tpu.memory_space<vmem>>, vector<1x8x128xf32>, 
    return
  }
  func.func @transform_0(%arg0: i32, %arg1: i32, %arg2: i32) -> (i32, i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    return %arg0, %arg1, %arg2 : i32, i32, i32
  }
  func.func @transform_1(%arg0: i32, %arg1: i32, %arg2: i32) -> (i32, i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    return %arg0, %arg1, %arg2 : i32, i32, i32
  }
}
