// RUN: xla-emit-opt %s --split-input-file -p tpu-realign-accesses | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p tpu-realign-accesses,tpu-verify-alignment | filecheck %s --check-prefix=PROVEN

// After the rewrite every kernel here passes the alignment proof.
// PROVEN-LABEL: func.func @seed_example
// PROVEN-LABEL: func.func @wide_memref
// PROVEN-LABEL: func.func @tpu_vector_load

// The seed's kernel: a 32-lane load at an unknown lane offset.
// CHECK-LABEL: func.func @seed_example
// CHECK-SAME: (%[[X:.*]]: memref<4x256xf32, #tpu.memory_space<vmem>>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
// CHECK:      %[[M:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[T:.*]] = arith.divsi %[[COL]], %[[M]] : index
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[T]], %[[M]] : index
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %[[S]], %[[LIM]] : index
// CHECK-NEXT: %[[WIDE:.*]] = vector.load %[[X]][%[[ROW]], %[[BASE]]] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
// CHECK-NEXT: %[[SHIFT:.*]] = arith.subi %[[COL]], %[[BASE]] : index
// CHECK-NEXT: %[[SHIFT32:.*]] = arith.index_cast %[[SHIFT]] : index to i32
// CHECK-NEXT: %[[W:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[AMOUNT:.*]] = arith.subi %[[W]], %[[SHIFT32]] : i32
// CHECK-NEXT: %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %[[AMOUNT]] dim 1 : vector<1x256xf32>, i32 -> vector<1x256xf32>
// CHECK-NEXT: %[[R:.*]] = vector.extract %[[ROT]][0] : vector<256xf32> from vector<1x256xf32>
// CHECK-NEXT: %[[L:.*]] = vector.shuffle %[[R]], %[[R]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<256xf32>, vector<256xf32>
// CHECK-NEXT: %[[V:.*]] = vector.broadcast %[[L]] : vector<32xf32> to vector<1x32xf32>
// CHECK-NEXT: func.return %[[V]] : vector<1x32xf32>
func.func @seed_example(%x: memref<4x256xf32, #tpu.memory_space<vmem>>, %row: index, %col: index) -> vector<1x32xf32> {
  %v = vector.load %x[%row, %col] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}

// -----

// A wide row: the 256-lane window slides, clamped to start at most at 1024 - 256.
// CHECK-LABEL: func.func @wide_memref
// CHECK:      %[[LIM:.*]] = arith.constant 768 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %{{.*}}, %[[LIM]] : index
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %[[BASE]]] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
// CHECK:      vector.broadcast %{{.*}} : vector<100xf32> to vector<1x100xf32>
func.func @wide_memref(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<1x100xf32> {
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %col = arith.addi %i, %c1 : index
  %v = vector.load %x[%c3, %col] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x100xf32>
  return %v : vector<1x100xf32>
}

// -----

// CHECK-LABEL: func.func @tpu_vector_load
// CHECK: %[[WIDE:.*]] = tpu.vector_load %{{.*}}[%{{.*}}, %{{.*}}] {strides = array<i32>} : memref<2x512xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>,
// CHECK: tpu.dynamic_rotate %[[WIDE]]
func.func @tpu_vector_load(%x: memref<2x512xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<1x128xf32> {
  %c0 = arith.constant 0 : index
  %v = tpu.vector_load %x[%c0, %i] {strides = array<i32>} : memref<2x512xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>,
  return %v : vector<1x128xf32>
}
