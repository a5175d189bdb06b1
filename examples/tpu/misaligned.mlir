// The seed's Mosaic error: copy the 32-lane window that starts at column %col
// of every row of %x into %out. %col is only known at run time, so Mosaic (and
// `xla-emit-opt -p tpu-verify-alignment`) cannot prove the load starts on a
// 128-lane tile boundary:
//
//   error: 'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128
//
// Two fixes: fixed_assume_multiple.mlir (promise the alignment) and
// fixed_realigned.mlir (aligned load + tpu.dynamic_rotate, from
// `xla-emit-opt misaligned.mlir -p tpu-realign-accesses`).
func.func @window(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %out: memref<8x32xf32, #tpu.memory_space<vmem>>, %col: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %c8 step %c1 {
    %v = vector.load %x[%r, %col] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
    vector.store %v, %out[%r, %c0] : memref<8x32xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  }
  return
}
