// Fix 1: when the caller guarantees %col is a multiple of 128 (0, 128, ...,
// 896), say so with tpu.assume_multiple and the proof goes through. The
// promise is checked when the kernel runs in the interpreter: a %col of 5
// stops with "promised a multiple of 128, but the value is 5".
func.func @window(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %out: memref<8x32xf32, #tpu.memory_space<vmem>>, %col: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %aligned = tpu.assume_multiple %col, 128 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %v = vector.load %x[%r, %aligned] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
    vector.store %v, %out[%r, %c0] : memref<8x32xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  }
  return
}
