// RUN: xla-emit-opt %s --split-input-file -p tpu-infer-memref-layout | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p 'tpu-infer-memref-layout{hardware-generation=3}' | filecheck %s --check-prefix=GEN3

// CHECK-LABEL: func.func @kernel_arguments
// CHECK-SAME: %{{.*}}: memref<4x256xf32, #tpu.tiled<(4,128),[2,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<64x512xf32, #tpu.tiled<(8,128),[4,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<16x256xbf16, #tpu.tiled<(8,128)(2,1),[2,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<64x256xi8, #tpu.tiled<(8,128)(4,1),[2,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<2000xf32, #tpu.tiled<(1024),[1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<3x1x128xf32, #tpu.tiled<(1,128),[1,1,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem>>
// CHECK-SAME: %{{.*}}: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK-SAME: %{{.*}}: memref<16xi32, #tpu.memory_space<smem>>
// CHECK-SAME: -> vector<1x128xf32>
// GEN3-LABEL: func.func @kernel_arguments
// GEN3-SAME: memref<4x256xf32, #tpu.tiled<(4,128),[2,1]>
// GEN3-SAME: memref<3x1x128xf32, #tpu.tiled<(2,128),[1,1,1]>
func.func @kernel_arguments(%a: memref<4x256xf32, #tpu.memory_space<vmem>>, %b: memref<64x512xf32, #tpu.memory_space<vmem>>, %c: memref<16x256xbf16, #tpu.memory_space<vmem>>, %d: memref<64x256xi8, #tpu.memory_space<vmem>>, %e: memref<2000xf32, #tpu.memory_space<vmem>>, %f: memref<3x1x128xf32, #tpu.memory_space<vmem>>, %g: memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem>>, %s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %t: memref<16xi32, #tpu.memory_space<smem>>) -> vector<1x128xf32> {
  %c0 = arith.constant 0 : index
  // CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x256xf32, #tpu.tiled<(4,128),[2,1]>, #tpu.memory_space<vmem>>, vector<1x128xf32>
  %v = vector.load %a[%c0, %c0] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  return %v : vector<1x128xf32>
}

// -----

// Scratch buffers are not kernel arguments: bf16 takes 16-row tiles from generation 6 on.
// CHECK-LABEL: func.func @allocations
// CHECK: memref.alloca() : memref<8x128xf32, #tpu.tiled<(1,128),[1,1]>, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() : memref<64x256xbf16, #tpu.tiled<(16,128)(2,1),[2,1]>, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() : memref<64x256xf32, #tpu.tiled<(8,128),[2,1]>, #tpu.memory_space<vmem>>
// GEN3-LABEL: func.func @allocations
// GEN3: memref.alloc() : memref<64x256xbf16, #tpu.tiled<(8,128)(2,1),[2,1]>, #tpu.memory_space<vmem>>
func.func @allocations() {
  %a = memref.alloca() : memref<8x128xf32, #tpu.memory_space<vmem>>
  %b = memref.alloc() : memref<64x256xbf16, #tpu.memory_space<vmem>>
  %c = memref.alloc() : memref<64x256xf32, #tpu.memory_space<vmem>>
  "test.op"(%a, %b, %c) : (memref<8x128xf32, #tpu.memory_space<vmem>>, memref<64x256xbf16, #tpu.memory_space<vmem>>, memref<64x256xf32, #tpu.memory_space<vmem>>) -> ()
  return
}

// -----

// A slice views its source: same tiles, same strides.
// CHECK-LABEL: func.func @slices
// CHECK: tpu.memref_slice %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x512xf32, #tpu.tiled<(8,128),[4,1]>, #tpu.memory_space<vmem>> -> memref<8x256xf32, #tpu.tiled<(8,128),[4,1]>, #tpu.memory_space<vmem>>
func.func @slices(%m: memref<16x512xf32, #tpu.memory_space<vmem>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %s = tpu.memref_slice %m[%c0, %i] : memref<16x512xf32, #tpu.memory_space<vmem>> -> memref<8x256xf32, #tpu.memory_space<vmem>>
  "test.op"(%s) : (memref<8x256xf32, #tpu.memory_space<vmem>>) -> ()
  return
}
