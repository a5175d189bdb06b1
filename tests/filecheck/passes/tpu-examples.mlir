// The TPU examples: the misaligned kernel fails the proof, both fixes pass it,
// and tpu-realign-accesses turns the first into the second fix.
// RUN: not xla-emit-opt %examples/tpu/misaligned.mlir -p tpu-verify-alignment 2>&1 | filecheck %s --check-prefix=MISALIGNED
// RUN: xla-emit-opt %examples/tpu/fixed_assume_multiple.mlir -p tpu-verify-alignment | filecheck %s --check-prefix=ASSUME
// RUN: xla-emit-opt %examples/tpu/fixed_realigned.mlir -p tpu-verify-alignment | filecheck %s --check-prefix=REALIGNED
// RUN: xla-emit-opt %examples/tpu/misaligned.mlir -p tpu-realign-accesses | filecheck %s --check-prefix=REALIGNED

// MISALIGNED: misaligned.mlir:16:5: error: [tpu-verify-alignment] 'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128
// MISALIGNED: note: the alignment of the index is unknown, not disproven: %col (an argument of 'func.func') is not known at compile time
// MISALIGNED: note: memref<8x1024xf32, #tpu.memory_space<vmem>> gets Mosaic's default tiling (8,128), so a dynamic index into dimension 1 must be a multiple of 128
// MISALIGNED: note: fix: if %col is always a multiple of 128, say so with 'tpu.assume_multiple %col, 128'

// ASSUME: %[[A:.*]] = tpu.assume_multiple %col, 128 : index
// ASSUME: vector.load %x[%r, %[[A]]]

// REALIGNED: %[[BASE:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// REALIGNED: %[[WIN:.*]] = vector.load %x[%r, %[[BASE]]] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
// REALIGNED: %[[ROT:.*]] = tpu.dynamic_rotate %[[WIN]] by %{{.*}} dim 1 : vector<1x256xf32>, i32 -> vector<1x256xf32>
// REALIGNED-NEXT: %v = vector.extract_strided_slice %[[ROT]] {offsets = [0, 0], sizes = [1, 32], strides = [1, 1]} : vector<1x256xf32> to vector<1x32xf32>
// REALIGNED: vector.store %{{.*}}, %out[%r, %c0] : memref<8x32xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
