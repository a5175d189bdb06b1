module @kernel attributes {stable_mosaic.version = 15 : i64} {
  func.func @kernel(%arg0: memref<32x256xf32, #tpu.memory_space<vmem>>, %arg1: memref<8x256xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = vector.broadcast %cst : f32 to vector<8x256xf32>
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %1 = arith.addi %c0_i32, %c4_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %2 = scf.for %arg2 = %c0_i32 to %1 step %c1_i32 iter_args(%arg3 = %0) -> (vector<8x256xf32>)  : i32 {
      %c8_i32 = arith.constant 8 : i32
      %4 = arith.muli %arg2, %c8_i32 : i32
      %5 = arith.index_cast %4 : i32 to index
      %c0_2 = arith.constant 0 : index
      %6 = vector.load %arg0[%5, %c0_2] : memref<32x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
      %cst_3 = arith.constant 2.000000e+00 : f32
      %7 = vector.broadcast %cst_3 : f32 to vector<8x256xf32>
      %8 = arith.mulf %6, %7 : vector<8x256xf32>
      %9 = arith.addf %arg3, %8 : vector<8x256xf32>
      scf.yield %9 : vector<8x256xf32>
    }
    %c4_i32_0 = arith.constant 4 : i32
    %c0 = arith.constant 0 : index
    %c0_1 = arith.constant 0 : index
    %3 = vector.load %arg1[%c0, %c0_1] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
    tpu.vector_store %arg1[%c0, %c0_1], %2 {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>, 
    return
  }
}
