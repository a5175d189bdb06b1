module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<128x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg3: memref<8x128xi32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %1 = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
    %2 = tpu.iota {dimensions = array<i32: 1>} : vector<8x128xi32>
    %c3_i32 = arith.constant 3 : i32
    %3 = tpu.dynamic_rotate %0 by %c3_i32 dim 1 : vector<8x128xf32>, i32 -> vector<8x128xf32>
    %c2_i32 = arith.constant 2 : i32
    %4 = tpu.dynamic_rotate %0 by %c2_i32 dim 0 : vector<8x128xf32>, i32 -> vector<8x128xf32>
    %5 = arith.addf %3, %4 : vector<8x128xf32>
    %c0_1 = arith.constant 0 : index
    %c0_2 = arith.constant 0 : index
    %6 = vector.load %arg1[%c0_1, %c0_2] : memref<128x128xf32, #tpu.memory_space<vmem>>, vector<128x128xf32>
    %7 = tpu.transpose %6, [1, 0] : vector<128x128xf32> -> vector<128x128xf32>
    %8 = vector.extract_strided_slice %0 offsets = [0, 0], sizes = [8, 64], strides = [1, 1] : vector<8x128xf32> to vector<8x64xf32>
    %9 = vector.extract_strided_slice %5 offsets = [0, 64], sizes = [8, 64], strides = [1, 1] : vector<8x128xf32> to vector<8x64xf32>
    %10 = tpu.concatenate %8, %9 in 1 : vector<8x64xf32>, vector<8x64xf32> -> vector<8x128xf32>
    %cst = arith.constant dense<0.000000e+00> : vector<128xf32>
    %11 = vector.multi_reduction <add>, %0, %cst [0] : vector<8x128xf32> to vector<128xf32>
    %12 = vector.shape_cast %11 : vector<128xf32> to vector<1x128xf32>
    %cst_3 = arith.constant dense<0xFF800000> : vector<8xf32>
    %13 = vector.multi_reduction <maximumf>, %0, %cst_3 [1] : vector<8x128xf32> to vector<8xf32>
    %14 = vector.shape_cast %13 : vector<8xf32> to vector<8x1xf32>
    %15 = vector.broadcast %12 : vector<1x128xf32> to vector<8x128xf32>
    %16 = arith.addf %10, %15 : vector<8x128xf32>
    %17 = vector.broadcast %14 : vector<8x1xf32> to vector<8x128xf32>
    %18 = arith.addf %16, %17 : vector<8x128xf32>
    %19 = arith.muli %1, %2 : vector<8x128xi32>
    %20 = arith.sitofp %19 : vector<8x128xi32> to vector<8x128xf32>
    %21 = arith.addf %18, %20 : vector<8x128xf32>
    %22 = vector.extract_strided_slice %7 offsets = [0, 0], sizes = [8, 128], strides = [1, 1] : vector<128x128xf32> to vector<8x128xf32>
    %23 = arith.addf %21, %22 : vector<8x128xf32>
    %c0_4 = arith.constant 0 : index
    %c0_5 = arith.constant 0 : index
    %24 = vector.load %arg2[%c0_4, %c0_5] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg2[%c0_4, %c0_5], %23 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    %25 = tpu.reduce_index %0 {axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>} : vector<8x128xf32> -> vector<8xi32>
    %26 = vector.shape_cast %25 : vector<8xi32> to vector<8x1xi32>
    %27 = vector.shape_cast %26 : vector<8x1xi32> to vector<8x1xi32>
    %28 = vector.broadcast %27 : vector<8x1xi32> to vector<8x128xi32>
    %c0_6 = arith.constant 0 : index
    %c0_7 = arith.constant 0 : index
    %29 = vector.load %arg3[%c0_6, %c0_7] : memref<8x128xi32, #tpu.memory_space<vmem>>, vector<8x128xi32>
    tpu.vector_store %arg3[%c0_6, %c0_7], %28 {strides = array<i32>} : memref<8x128xi32, #tpu.memory_space<vmem>>, vector<8x128xi32>, 
    return
  }
}
