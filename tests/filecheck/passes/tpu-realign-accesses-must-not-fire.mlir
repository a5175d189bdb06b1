// RUN: xla-emit-opt %s -p tpu-realign-accesses | filecheck %s

// Must not fire: indices that are proven aligned, constant, or into dims the
// tiling does not constrain (the row of a single-row 32-bit load). The
// accesses the pass cannot realign are in tpu-realign-accesses.mlir.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tpu.assume_multiple
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<4x128xf32>
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
// CHECK-NOT: tpu.dynamic_rotate
func.func @left_alone(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %v: vector<4x128xf32>, %i: index) {
  %c3 = arith.constant 3 : index
  %a = tpu.assume_multiple %i, 128 : index
  %v0 = vector.load %x[%c3, %a] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  %v1 = vector.load %x[%c3, %c3] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  vector.store %v, %x[%c3, %a] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<4x128xf32>
  %v2 = vector.load %x[%i, %a] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  "test.op"(%v0, %v1, %v2) : (vector<1x128xf32>, vector<1x32xf32>, vector<1x128xf32>) -> ()
  return
}
