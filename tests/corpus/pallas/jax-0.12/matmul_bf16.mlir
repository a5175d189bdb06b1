module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: i32, %arg1: memref<16x128xbf16, #tpu.memory_space<vmem>>, %arg2: memref<128x128xbf16, #tpu.memory_space<vmem>>, %arg3: memref<16x128xbf16, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 16, 128>}, {pipeline_mode = #tpu.pipeline_mode<synchronous>, transform_indices = @transform_1, window_bounds = array<i64: 128, 128>}, {transform_indices = @transform_2, window_bounds = array<i64: 16, 128>}]} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg1[%c0, %c0_0] : memref<16x128xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>
    %c0_1 = arith.constant 0 : index
    %c0_2 = arith.constant 0 : index
    %1 = vector.load %arg2[%c0_1, %c0_2] : memref<128x128xbf16, #tpu.memory_space<vmem>>, vector<128x128xbf16>
    %cst = arith.constant dense<0.000000e+00> : vector<16x128xf32>
    %2 = tpu.matmul %0, %1, %cst {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<16x128xbf16>, vector<128x128xbf16>, vector<16x128xf32> -> vector<16x128xf32>
    %3 = arith.truncf %2 : vector<16x128xf32> to vector<16x128xbf16>
    %c0_3 = arith.constant 0 : index
    %c0_4 = arith.constant 0 : index
    %4 = vector.load %arg3[%c0_3, %c0_4] : memref<16x128xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>
    tpu.vector_store %arg3[%c0_3, %c0_4], %3 {strides = array<i32>} : memref<16x128xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>, 
    return
  }
  func.func @transform_0(%arg0: i32) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    %c0_i32_0 = arith.constant 0 : i32
    return %arg0, %c0_i32 : i32, i32
  }
  func.func @transform_1(%arg0: i32) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    %c0_i32_0 = arith.constant 0 : i32
    %c0_i32_1 = arith.constant 0 : i32
    return %c0_i32, %c0_i32_0 : i32, i32
  }
  func.func @transform_2(%arg0: i32) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    %c0_i32_0 = arith.constant 0 : i32
    return %arg0, %c0_i32 : i32, i32
  }
}
