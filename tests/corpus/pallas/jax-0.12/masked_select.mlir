module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg2: memref<1x128xi32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %1 = tpu.iota {dimensions = array<i32: 1>} : vector<8x128xi32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = vector.broadcast %cst : f32 to vector<8x128xf32>
    %3 = arith.cmpf ogt, %0, %2 : vector<8x128xf32>
    %c100_i32 = arith.constant 100 : i32
    %4 = vector.broadcast %c100_i32 : i32 to vector<8x128xi32>
    %5 = arith.cmpi slt, %1, %4 : vector<8x128xi32>
    %6 = arith.andi %3, %5 : vector<8x128xi1>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %7 = vector.broadcast %cst_1 : f32 to vector<8x128xf32>
    %8 = arith.subf %7, %0 : vector<8x128xf32>
    %9 = arith.select %6, %0, %8 : vector<8x128xi1>, vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %10 = vector.load %arg1[%c0_2, %c0_3] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg1[%c0_2, %c0_3], %9 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    %11 = arith.extui %6 : vector<8x128xi1> to vector<8x128xi32>
    %cst_4 = arith.constant dense<0> : vector<128xi32>
    %12 = vector.multi_reduction <add>, %11, %cst_4 [0] : vector<8x128xi32> to vector<128xi32>
    %13 = vector.shape_cast %12 : vector<128xi32> to vector<1x128xi32>
    %c0_5 = arith.constant 0 : index
    %c0_6 = arith.constant 0 : index
    %14 = vector.load %arg2[%c0_5, %c0_6] : memref<1x128xi32, #tpu.memory_space<vmem>>, vector<1x128xi32>
    tpu.vector_store %arg2[%c0_5, %c0_6], %13 {strides = array<i32>} : memref<1x128xi32, #tpu.memory_space<vmem>>, vector<1x128xi32>, 
    return
  }
}
