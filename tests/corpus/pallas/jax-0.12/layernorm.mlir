module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: i32, %arg1: memref<8x256xf32, #tpu.memory_space<vmem>>, %arg2: memref<1x256xf32, #tpu.memory_space<vmem>>, %arg3: memref<1x256xf32, #tpu.memory_space<vmem>>, %arg4: memref<8x256xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 8, 256>}, {pipeline_mode = #tpu.pipeline_mode<synchronous>, transform_indices = @transform_1, window_bounds = array<i64: 1, 256>}, {pipeline_mode = #tpu.pipeline_mode<synchronous>, transform_indices = @transform_2, window_bounds = array<i64: 1, 256>}, {transform_indices = @transform_3, window_bounds = array<i64: 8, 256>}]} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg1[%c0, %c0_0] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
    %cst = arith.constant dense<0.000000e+00> : vector<8xf32>
    %1 = vector.multi_reduction <add>, %0, %cst [1] : vector<8x256xf32> to vector<8xf32>
    %2 = vector.shape_cast %1 : vector<8xf32> to vector<8x1xf32>
    %cst_1 = arith.constant 2.560000e+02 : f32
    %3 = vector.broadcast %cst_1 : f32 to vector<8x1xf32>
    %4 = arith.divf %2, %3 : vector<8x1xf32>
    %5 = vector.broadcast %4 : vector<8x1xf32> to vector<8x256xf32>
    %6 = arith.subf %0, %5 : vector<8x256xf32>
    %7 = arith.mulf %6, %6 : vector<8x256xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : vector<8xf32>
    %8 = vector.multi_reduction <add>, %7, %cst_2 [1] : vector<8x256xf32> to vector<8xf32>
    %9 = vector.shape_cast %8 : vector<8xf32> to vector<8x1xf32>
    %cst_3 = arith.constant 2.560000e+02 : f32
    %10 = vector.broadcast %cst_3 : f32 to vector<8x1xf32>
    %11 = arith.divf %9, %10 : vector<8x1xf32>
    %cst_4 = arith.constant 9.99999974E-6 : f32
    %12 = vector.broadcast %cst_4 : f32 to vector<8x1xf32>
    %13 = arith.addf %11, %12 : vector<8x1xf32>
    %14 = math.rsqrt %13 : vector<8x1xf32>
    %15 = vector.broadcast %14 : vector<8x1xf32> to vector<8x256xf32>
    %16 = arith.mulf %6, %15 : vector<8x256xf32>
    %c0_5 = arith.constant 0 : index
    %c0_6 = arith.constant 0 : index
    %17 = vector.load %arg2[%c0_5, %c0_6] : memref<1x256xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
    %18 = vector.broadcast %17 : vector<1x256xf32> to vector<8x256xf32>
    %19 = arith.mulf %16, %18 : vector<8x256xf32>
    %c0_7 = arith.constant 0 : index
    %c0_8 = arith.constant 0 : index
    %20 = vector.load %arg3[%c0_7, %c0_8] : memref<1x256xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
    %21 = vector.broadcast %20 : vector<1x256xf32> to vector<8x256xf32>
    %22 = arith.addf %19, %21 : vector<8x256xf32>
    %c0_9 = arith.constant 0 : index
    %c0_10 = arith.constant 0 : index
    %23 = vector.load %arg4[%c0_9, %c0_10] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
    tpu.vector_store %arg4[%c0_9, %c0_10], %22 {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>, 
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
    %c0_i32_1 = arith.constant 0 : i32
    return %c0_i32, %c0_i32_0 : i32, i32
  }
  func.func @transform_3(%arg0: i32) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32
    %c0_i32_0 = arith.constant 0 : i32
    return %arg0, %c0_i32 : i32, i32
  }
}
