// RUN: xla-emit-opt %s -p tpu-realign-accesses | filecheck %s

// Must not fire: aligned, constant, multi-row, stores, and lane counts that are not whole tiles.
// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tpu.assume_multiple
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
// CHECK-NOT: tpu.dynamic_rotate
func.func @left_alone(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %y: memref<8x200xf32, #tpu.memory_space<vmem>>, %i: index) {
  %c3 = arith.constant 3 : index
  %a = tpu.assume_multiple %i, 128 : index
  %v0 = vector.load %x[%c3, %a] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  %v1 = vector.load %x[%c3, %c3] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  %v2 = vector.load %x[%c3, %i] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
  vector.store %v1, %x[%c3, %i] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  %v3 = vector.load %y[%c3, %i] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  "test.op"(%v0, %v1, %v2, %v3) : (vector<1x128xf32>, vector<1x32xf32>, vector<8x32xf32>, vector<1x32xf32>) -> ()
  return
}
