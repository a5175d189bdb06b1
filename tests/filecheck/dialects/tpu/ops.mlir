// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// Every tpu op in Mosaic's printed syntax survives printing and re-parsing,
// in the custom and in the generic form.

// CHECK-LABEL: func.func @memory_ops
// CHECK-SAME: %[[M:[a-z0-9_]+]]: memref<4x256xf32, #tpu.memory_space<vmem>>
// CHECK: %[[A:.*]] = tpu.assume_multiple %{{.*}}, 128 : index
// CHECK: %[[V:.*]] = tpu.vector_load %[[M]][%{{.*}}, %[[A]]] {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>,{{ ?}}
// CHECK-NEXT: tpu.vector_store %[[M]][%{{.*}}, %[[A]]], %[[V]] {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>,{{ ?}}
// CHECK-NEXT: tpu.vector_store %[[M]][%{{.*}}, %[[A]]], %[[V]] masked %{{.*}} {add = true, strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>, vector<1x128xi1>
// CHECK-NEXT: %{{.*}} = tpu.vector_load %[[M]][%{{.*}}, %[[A]]] masked %{{.*}} {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>, vector<1x128xi1>
// CHECK-NEXT: %[[L:.*]] = tpu.load %[[M]][%{{.*}}, %[[A]]] sublanes array<i1: true, false> sublane_stride 2 : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x128xf32>
// CHECK-NEXT: tpu.store %[[M]][%{{.*}}, %[[A]]], %[[L]] sublanes array<i1: true, false> : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x128xf32>,{{ ?}}
// CHECK-NEXT: %[[S:.*]] = tpu.strided_load %[[M]][%{{.*}}, %{{.*}}] {strides = array<i32: 2, 1>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x256xf32>
// CHECK-NEXT: tpu.strided_store %[[M]][%{{.*}}, %{{.*}}], %[[S]] {strides = array<i32: 2, 1>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x256xf32>
func.func @memory_ops(%m: memref<4x256xf32, #tpu.memory_space<vmem>>, %i: index, %mask: vector<1x128xi1>) {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %i, 128 : index
  %v = tpu.vector_load %m[%c0, %a] {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>,
  tpu.vector_store %m[%c0, %a], %v {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>,
  tpu.vector_store %m[%c0, %a], %v masked %mask {add = true, strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>, vector<1x128xi1>
  %w = tpu.vector_load %m[%c0, %a] masked %mask {strides = array<i32>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>, vector<1x128xi1>
  %l = tpu.load %m[%c0, %a] sublanes array<i1: true, false> sublane_stride 2 : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x128xf32>
  tpu.store %m[%c0, %a], %l sublanes array<i1: true, false> : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x128xf32>,
  %s = tpu.strided_load %m[%c0, %c0] {strides = array<i32: 2, 1>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x256xf32>
  tpu.strided_store %m[%c0, %c0], %s {strides = array<i32: 2, 1>} : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<2x256xf32>
  return
}

// -----

// CHECK-LABEL: func.func @views
// CHECK: %[[S:.*]] = tpu.memref_slice %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<1x8x128xf32, #tpu.memory_space<any>>
// CHECK-NEXT: %{{.*}} = tpu.memref_squeeze %[[S]] : memref<1x8x128xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
// CHECK-NEXT: %{{.*}} = tpu.memref_slice %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] <%{{.*}}> : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<?x8x128xf32, #tpu.memory_space<any>>
// CHECK-NEXT: %{{.*}} = tpu.memref_reshape %{{.*}} : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<16x128xf32, #tpu.memory_space<any>>
// CHECK-NEXT: %{{.*}} = tpu.memref_bitcast %{{.*}} : memref<16x256xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>> -> memref<8x256xi32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem>>
func.func @views(%m: memref<2x8x128xf32, #tpu.memory_space<any>>, %b: memref<16x256xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, %i: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %s = tpu.memref_slice %m[%i, %c0, %c0] : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<1x8x128xf32, #tpu.memory_space<any>>
  %q = tpu.memref_squeeze %s : memref<1x8x128xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  %d = tpu.memref_slice %m[%i, %c0, %c0] <%n> : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<?x8x128xf32, #tpu.memory_space<any>>
  %r = tpu.memref_reshape %m : memref<2x8x128xf32, #tpu.memory_space<any>> -> memref<16x128xf32, #tpu.memory_space<any>>
  %c = tpu.memref_bitcast %b : memref<16x256xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>> -> memref<8x256xi32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem>>
  return
}

// -----

// CHECK-LABEL: func.func @vector_compute
// CHECK: %[[R:.*]] = tpu.dynamic_rotate %{{.*}} by %{{.*}} dim 1 : vector<8x128xf32>, i32 -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
// CHECK-NEXT: %{{.*}} = tpu.iota {dimensions = array<i32: 1, 0>} : vector<8x128xi32>
// CHECK-NEXT: %{{.*}} = tpu.matmul %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.matmul %{{.*}}, %{{.*}}, %{{.*}} {transpose_rhs = true} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
func.func @vector_compute(%v: vector<8x128xf32>, %k: vector<128x128xf32>, %amount: i32) {
  %r = tpu.dynamic_rotate %v by %amount dim 1 : vector<8x128xf32>, i32 -> vector<8x128xf32>
  %i = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
  %j = tpu.iota {dimensions = array<i32: 1, 0>} : vector<8x128xi32>
  %mm = tpu.matmul %v, %k, %v {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
  %mt = tpu.matmul %v, %k, %v {transpose_rhs = true} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
  return
}

// -----

// CHECK-LABEL: func.func @semaphores_and_dma
// CHECK: %[[SEM:.*]] = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK-NEXT: tpu.enqueue_dma source(%{{.*}} : memref<8x128xf32, #tpu.memory_space<any>>) target(%{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%[[SEM]] : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
// CHECK-NEXT: tpu.enqueue_dma source(%{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>) target(%{{.*}} : memref<8x128xf32, #tpu.memory_space<any>>) source_semaphore(%[[SEM]] : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) target_semaphore(%[[SEM]] : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) device_id(%{{.*}}) core_id(%{{.*}}) {priority = 1 : i32}
// CHECK-NEXT: tpu.wait_dma2 semaphore(%[[SEM]] : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%{{.*}} : memref<8x128xf32, #tpu.memory_space<any>>) dst(%{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>)
// CHECK-NEXT: tpu.wait_dma2 semaphore(%[[SEM]] : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%{{.*}} : memref<8x128xf32, #tpu.memory_space<any>>) dst(%{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>) device_id(%{{.*}}) core_id(%{{.*}})
// CHECK-NEXT: tpu.sem_signal %{{.*}}, %{{.*}} : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK-NEXT: tpu.sem_signal %{{.*}}, %{{.*}} device_id %{{.*}} core_id %{{.*}} : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK-NEXT: tpu.sem_wait %{{.*}}, %{{.*}} : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
func.func @semaphores_and_dma(%hbm: memref<8x128xf32, #tpu.memory_space<any>>, %vmem: memref<8x128xf32, #tpu.memory_space<vmem>>, %s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  %sem = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
  tpu.enqueue_dma source(%hbm : memref<8x128xf32, #tpu.memory_space<any>>) target(%vmem : memref<8x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
  tpu.enqueue_dma source(%vmem : memref<8x128xf32, #tpu.memory_space<vmem>>) target(%hbm : memref<8x128xf32, #tpu.memory_space<any>>) source_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) device_id(%n) core_id(%n) {priority = 1 : i32}
  tpu.wait_dma2 semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%hbm : memref<8x128xf32, #tpu.memory_space<any>>) dst(%vmem : memref<8x128xf32, #tpu.memory_space<vmem>>)
  tpu.wait_dma2 semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%hbm : memref<8x128xf32, #tpu.memory_space<any>>) dst(%vmem : memref<8x128xf32, #tpu.memory_space<vmem>>) device_id(%n) core_id(%n)
  tpu.sem_signal %s, %n : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  tpu.sem_signal %s, %n device_id %n core_id %n : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  tpu.sem_wait %s, %n : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  return
}

// -----

// CHECK-LABEL: func.func @attributes
// CHECK-SAME: memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, sc_vector_subcore>>
// CHECK-SAME: memref<4096xbf16, #tpu.tiled<(1024)(128)(2,1),[1]>, #tpu.memory_space<hbm>>
// CHECK-SAME: memref<2x!tpu.dma_semaphore, #tpu.tiled<,[1]>, #tpu.memory_space<semaphore_mem>>
// CHECK-SAME: memref<4x8x128xf32, #tpu.tiled<(8,128),[1,1,1]>, #tpu.memory_space<smem>>
func.func @attributes(%a: memref<8x128xf32, #tpu.tiled<(8,128),[1,1]>, #tpu.memory_space<vmem, sc_vector_subcore>>, %b: memref<4096xbf16, #tpu.tiled<(1024)(128)(2,1),[1]>, #tpu.memory_space<hbm>>, %c: memref<2x!tpu.dma_semaphore, #tpu.tiled<,[1]>, #tpu.memory_space<semaphore_mem>>, %d: memref<4x8x128xf32, #tpu.tiled<(8,128),[1,1,1]>, #tpu.memory_space<smem>>) {
  return
}
