module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xi32, #tpu.memory_space<vmem>>, %arg2: memref<16x128xf32, #tpu.memory_space<vmem>>, %arg3: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %1 = tpu.weird %0 : vector<8x128xf32> -> vector<8x128xi1>
    %cst = arith.constant dense<true> : vector<8x128xi1>
    %2 = arith.xori %1, %cst : vector<8x128xi1>
    %cst_1 = arith.constant -1.000000e+00 : f32
    %3 = vector.broadcast %cst_1 : f32 to vector<8x128xf32>
    %4 = arith.select %2, %0, %3 : vector<8x128xi1>, vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %5 = vector.load %arg3[%c0_2, %c0_3] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg3[%c0_2, %c0_3], %4 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    %6 = tpu.memref_bitcast %arg1 : memref<8x128xi32, #tpu.memory_space<vmem>> -> memref<16x128xbf16, #tpu.memory_space<vmem>>
    %c0_4 = arith.constant 0 : index
    %c0_5 = arith.constant 0 : index
    %7 = vector.load %6[%c0_4, %c0_5] : memref<16x128xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>
    %8 = arith.extf %7 : vector<16x128xbf16> to vector<16x128xf32>
    %c0_6 = arith.constant 0 : index
    %c0_7 = arith.constant 0 : index
    %9 = vector.load %arg2[%c0_6, %c0_7] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<16x128xf32>
    tpu.vector_store %arg2[%c0_6, %c0_7], %8 {strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<16x128xf32>, 
    return
  }
}
