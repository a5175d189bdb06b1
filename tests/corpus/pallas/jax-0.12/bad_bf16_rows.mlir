module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<32x256xbf16, #tpu.memory_space<vmem>>, %arg1: memref<8x256xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    "tpu.region"() ({
      %alloca = memref.alloca() : memref<32x256xbf16, #tpu.memory_space<vmem>>
      %c0 = arith.constant 0 : index
      %c0_0 = arith.constant 0 : index
      %0 = vector.load %arg0[%c0, %c0_0] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<32x256xbf16>
      %c0_1 = arith.constant 0 : index
      %c0_2 = arith.constant 0 : index
      %1 = vector.load %alloca[%c0_1, %c0_2] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<32x256xbf16>
      %2 = vector.shape_cast %1 : vector<32x256xbf16> to vector<32x256xbf16>
      %3 = vector.shape_cast %0 : vector<32x256xbf16> to vector<32x256xbf16>
      tpu.vector_store %alloca[%c0_1, %c0_2], %3 {strides = array<i32>} : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<32x256xbf16>, 
      %cst = arith.constant 0.000000e+00 : f32
      %4 = vector.broadcast %cst : f32 to vector<8x256xf32>
      %c0_i32 = arith.constant 0 : i32
      %c4_i32 = arith.constant 4 : i32
      %5 = arith.addi %c0_i32, %c4_i32 : i32
      %c1_i32 = arith.constant 1 : i32
      %6 = scf.for %arg2 = %c0_i32 to %5 step %c1_i32 iter_args(%arg3 = %4) -> (vector<8x256xf32>)  : i32 {
        %c8_i32 = arith.constant 8 : i32
        %8 = arith.muli %arg2, %c8_i32 : i32
        %9 = tpu.assume_multiple %8, 8 : i32
        %10 = arith.index_cast %9 : i32 to index
        %c0_6 = arith.constant 0 : index
        %11 = vector.load %alloca[%10, %c0_6] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<8x256xbf16>
        %12 = arith.extf %11 : vector<8x256xbf16> to vector<8x256xf32>
        %13 = arith.addf %arg3, %12 : vector<8x256xf32>
        scf.yield %13 : vector<8x256xf32>
      }
      %c4_i32_3 = arith.constant 4 : i32
      %c0_4 = arith.constant 0 : index
      %c0_5 = arith.constant 0 : index
      %7 = vector.load %arg1[%c0_4, %c0_5] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
      tpu.vector_store %arg1[%c0_4, %c0_5], %6 {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>, 
      tpu.yield
    }) : () -> ()
    return
  }
}
