module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<8x128xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = vector.load %arg0[%c0, %c0_0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %1 = tpu.iota {dimensions = array<i32: 1>} : vector<8x128xi32>
    %c127_i32 = arith.constant 127 : i32
    %2 = vector.broadcast %c127_i32 : i32 to vector<8x128xi32>
    %3 = arith.subi %2, %1 : vector<8x128xi32>
    %c0_i32 = arith.constant 0 : i32
    %4 = vector.broadcast %c0_i32 : i32 to vector<8x128xi32>
    %5 = arith.cmpi slt, %3, %4 : vector<8x128xi32>
    %c128_i32 = arith.constant 128 : i32
    %6 = vector.broadcast %c128_i32 : i32 to vector<8x128xi32>
    %7 = arith.addi %3, %6 : vector<8x128xi32>
    %8 = arith.select %5, %7, %3 : vector<8x128xi1>, vector<8x128xi32>
    %9 = vector.shape_cast %8 : vector<8x128xi32> to vector<8x128x1xi32>
    %10 = vector.shape_cast %9 : vector<8x128x1xi32> to vector<8x128xi32>
    %11 = tpu.dynamic_gather %0[%10] in [1] : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xf32>
    %12 = math.absf %0 : vector<8x128xf32>
    %cst = arith.constant 1.000000e+00 : f32
    %13 = vector.broadcast %cst : f32 to vector<8x128xf32>
    %14 = arith.addf %12, %13 : vector<8x128xf32>
    %15 = tpu.reciprocal %14 : vector<8x128xf32> -> vector<8x128xf32>
    %cst_1 = arith.constant 1.00390625 : f32
    %16 = vector.broadcast %cst_1 : f32 to vector<8x128xf32>
    %17 = arith.mulf %0, %16 : vector<8x128xf32>
    %18 = arith.truncf %17 : vector<8x128xf32> to vector<8x128xbf16>
    %19 = arith.extf %18 : vector<8x128xbf16> to vector<8x128xf32>
    %20 = tpu.bitcast %0 : vector<8x128xf32> -> vector<8x128xi32>
    %c1_i32 = arith.constant 1 : i32
    %21 = vector.broadcast %c1_i32 : i32 to vector<8x128xi32>
    %22 = arith.addi %20, %21 : vector<8x128xi32>
    %23 = tpu.bitcast %22 : vector<8x128xi32> -> vector<8x128xf32>
    %24 = arith.addf %11, %15 : vector<8x128xf32>
    %25 = arith.addf %24, %19 : vector<8x128xf32>
    %26 = arith.addf %25, %23 : vector<8x128xf32>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    %27 = vector.load %arg1[%c0_2, %c0_3] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %arg1[%c0_2, %c0_3], %26 {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, 
    return
  }
}
