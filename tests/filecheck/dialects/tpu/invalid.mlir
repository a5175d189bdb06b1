// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

func.func @assume_multiple_zero(%i: index) {
  // expected-error@+1 {{Multiple must be >= 1, got 0}}
  %a = tpu.assume_multiple %i, 0 : index
  return
}

// -----

func.func @assume_multiple_false_constant() {
  %c = arith.constant 200 : index
  // expected-error@+1 {{Operand is a constant 200 that is not a multiple of 128}}
  %a = tpu.assume_multiple %c, 128 : index
  return
}

// -----

func.func @vector_load_index_count(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Expected 2 indices, but got 1.}}
  %v = tpu.vector_load %m[%i] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @vector_load_strides(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Not implemented: general vector load with strides.}}
  %v = tpu.vector_load %m[%i, %i] {strides = array<i32: 1, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @vector_load_smem(%m: memref<8x128xf32, #tpu.memory_space<smem>>, %i: index) {
  // expected-error@+1 {{Expected base memref to be in VMEM.}}
  %v = tpu.vector_load %m[%i, %i] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<smem>>, vector<8x128xf32>,
  return
}

// -----

func.func @vector_load_element_type(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Expected base and result element type to match}}
  %v = tpu.vector_load %m[%i, %i] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xi32>,
  return
}

// -----

func.func @vector_load_mask_shape(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index, %k: vector<8x1xi1>) {
  // expected-error@+1 {{Expected mask shape to match result shape: (8, 128). Got: (8, 1).}}
  %v = tpu.vector_load %m[%i, %i] masked %k {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x1xi1>
  return
}

// -----

func.func @vector_store_masked_bf16(%m: memref<16x128xbf16, #tpu.memory_space<vmem>>, %i: index, %v: vector<16x128xbf16>, %k: vector<16x128xi1>) {
  // expected-error@+1 {{Not implemented: masked store with non-32-bit element type}}
  tpu.vector_store %m[%i, %i], %v masked %k {strides = array<i32>} : memref<16x128xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>, vector<16x128xi1>
  return
}

// -----

func.func @vector_store_strides(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index, %v: vector<8x128xf32>) {
  // expected-error@+1 {{Not implemented: general vector store with strides.}}
  tpu.vector_store %m[%i, %i], %v {strides = array<i32: 2, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @load_index_count(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Expected 2 indices, but got 3.}}
  %v = tpu.load %m[%i, %i, %i] sublanes array<i1: true> : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}

// -----

func.func @store_element_type(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index, %v: vector<8x128xi32>) {
  // expected-error@+1 {{Expected base and valueToStore element type to match}}
  tpu.store %m[%i, %i], %v sublanes array<i1: true> : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xi32>,
  return
}

// -----

func.func @strided_load_stride_count(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Expected 2 strides, but got 1.}}
  %v = tpu.strided_load %m[%i, %i] {strides = array<i32: 2>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<4x128xf32>
  return
}

// -----

func.func @strided_load_rank(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Base memref's rank and result's rank do not match: 2 vs 1}}
  %v = tpu.strided_load %m[%i, %i] {strides = array<i32: 2, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<128xf32>
  return
}

// -----

func.func @strided_store_zero_stride(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index, %v: vector<4x128xf32>) {
  // expected-error@+1 {{Strides[0]=0 must be >= 1}}
  tpu.strided_store %m[%i, %i], %v {strides = array<i32: 0, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<4x128xf32>
  return
}

// -----

func.func @slice_index_offsets(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: index) {
  // expected-error@+1 {{operand 'base_idx' at positions 1 to 2 does not verify}}
  %s = tpu.memref_slice %m[%i, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @slice_offset_count(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i32) {
  // expected-error@+1 {{Expected 2 offsets, but got 1.}}
  %s = tpu.memref_slice %m[%i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @slice_out_of_bounds(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i32) {
  %c12 = arith.constant 12 : i32
  // expected-error@+1 {{Slice at dimension 0 is out of bounds: offset 12 + size 8 > 16.}}
  %s = tpu.memref_slice %m[%c12, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @slice_too_big(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i32) {
  // expected-error@+1 {{Slice size 32 at dimension 0 exceeds the source size 16.}}
  %s = tpu.memref_slice %m[%i, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<32x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @slice_dynamic_size_count(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i32) {
  // expected-error@+1 {{Expected 1 dynamic sizes}}
  %s = tpu.memref_slice %m[%i, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<?x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @slice_memory_space(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i32) {
  // expected-error@+1 {{Memory spaces must match.}}
  %s = tpu.memref_slice %m[%i, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @squeeze_non_unit_dim(%m: memref<2x8x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error@+1 {{Cannot squeeze [2, 8, 128] into [8, 128]: only dims of size 1 may be removed.}}
  %q = tpu.memref_squeeze %m : memref<2x8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @reshape_element_count(%m: memref<2x8x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error@+1 {{Number of elements doesn't match: 2048 vs 1024.}}
  %r = tpu.memref_reshape %m : memref<2x8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @bitcast_rows(%m: memref<16x128xbf16, #tpu.memory_space<vmem>>) {
  // expected-error@+1 {{Expected the second-minor dimension to scale with the bitwidth: 16 x 16 bits != 16 x 32 bits.}}
  %r = tpu.memref_bitcast %m : memref<16x128xbf16, #tpu.memory_space<vmem>> -> memref<16x128xi32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @rotate_dimension(%v: vector<8x128xf32>, %n: i32) {
  // expected-error@+1 {{Invalid dimension: 2, expected it in [0, 2)}}
  %r = tpu.dynamic_rotate %v by %n dim 2 : vector<8x128xf32>, i32 -> vector<8x128xf32>
  return
}

// -----

func.func @iota_dimension() {
  // expected-error@+1 {{Invalid dimension: 3, expected it in [0, 2)}}
  %i = tpu.iota {dimensions = array<i32: 3>} : vector<8x128xi32>
  return
}

// -----

func.func @iota_float() {
  // expected-error@+1 {{Expected an integer or index element type, but got f32}}
  %i = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xf32>
  return
}

// -----

func.func @matmul_contraction(%l: vector<8x64xf32>, %r: vector<128x128xf32>, %acc: vector<8x128xf32>) {
  // expected-error@+1 {{Expected the contracting dims to match: lhs has 64, rhs has 128.}}
  %m = tpu.matmul %l, %r, %acc : vector<8x64xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
  return
}

// -----

func.func @matmul_accumulator(%l: vector<8x128xf32>, %r: vector<128x256xf32>, %acc: vector<8x128xf32>) {
  // expected-error@+1 {{Expected the accumulator shape [8, 256], but got [8, 128].}}
  %m = tpu.matmul %l, %r, %acc : vector<8x128xf32>, vector<128x256xf32>, vector<8x128xf32> -> vector<8x128xf32>
  return
}

// -----

func.func @sem_alloc_not_semaphore() {
  // expected-error@+1 {{Expected a memref of semaphores, but got memref<i32, #tpu.memory_space<semaphore_mem>>}}
  %s = tpu.sem_alloc : memref<i32, #tpu.memory_space<semaphore_mem>>
  return
}

// -----

func.func @sem_wait_rank(%s: memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  // expected-error@+1 {{Semaphore reference must be rank 0}}
  tpu.sem_wait %s, %n : memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  return
}

// -----

func.func @sem_signal_dma_semaphore(%s: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  // expected-error@+1 {{Expected a memref of !tpu.semaphore}}
  tpu.sem_signal %s, %n : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
  return
}

// -----

func.func @enqueue_dma_shapes(%a: memref<8x128xf32, #tpu.memory_space<any>>, %b: memref<16x128xf32, #tpu.memory_space<vmem>>, %s: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error@+1 {{Expected the source and target shapes to match: [8, 128] vs [16, 128]}}
  tpu.enqueue_dma source(%a : memref<8x128xf32, #tpu.memory_space<any>>) target(%b : memref<16x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%s : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
  return
}

// -----

func.func @wait_dma_plain_semaphore(%a: memref<8x128xf32, #tpu.memory_space<any>>, %b: memref<8x128xf32, #tpu.memory_space<vmem>>, %s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error@+1 {{Expected a memref of !tpu.dma_semaphore}}
  tpu.wait_dma2 semaphore(%s : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) src(%a : memref<8x128xf32, #tpu.memory_space<any>>) dst(%b : memref<8x128xf32, #tpu.memory_space<vmem>>)
  return
}

// -----

// expected-error@+1 {{Not implemented: Nested tiling across first tiles}}
func.func @nested_tile_too_long(%m: memref<16x128xbf16, #tpu.tiled<(128)(2,1),[1,1]>, #tpu.memory_space<vmem>>) {
  return
}

// -----

// expected-error@+1 {{Nested tiles must evenly divide the first tile (8,128) but they do not (would add padding)}}
func.func @nested_tile_pads(%m: memref<16x128xbf16, #tpu.tiled<(8,128)(3,1),[1,1]>, #tpu.memory_space<vmem>>) {
  return
}

// -----

// expected-error@+1 {{Expected a memory space in {any, vmem, smem, hbm, cmem, semaphore_mem, vmem_shared, host}, but got 'sram'}}
func.func @unknown_memory_space(%m: memref<8x128xf32, #tpu.memory_space<sram>>) {
  return
}

// -----

func.func @slice_i64_offsets(%m: memref<16x256xf32, #tpu.memory_space<any>>, %i: i64) {
  // expected-error@+1 {{Expected i32 offsets and sizes, but got i64}}
  %s = tpu.memref_slice %m[%i, %i] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return
}

// -----

func.func @layout_rank(%m: memref<8x128xf32, #tpu.tiled<(8,128),[1]>, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error@+1 {{Expected 2 tile strides for the memref rank, but got 1}}
  %w = tpu.vector_load %m[%i, %i] {strides = array<i32>} : memref<8x128xf32, #tpu.tiled<(8,128),[1]>, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @conv_dimension_numbers_spatial_ranks(%l: vector<1x8x8x4xf32>, %r: vector<3x3x4x4xf32>, %a: vector<1x6x6x4xf32>) {
  // expected-error@+1 {{input, kernel and output must have as many spatial dimensions}}
  %0 = tpu.conv %l, %r, %a {dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0], 0, 3, [1, 2]>, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>} : vector<1x8x8x4xf32>, vector<3x3x4x4xf32>, vector<1x6x6x4xf32> -> vector<1x6x6x4xf32>
  return
}

// -----

func.func @reduce_precision_type(%x: vector<8x128xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = tpu.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : vector<8x128xf32> -> vector<8x128xbf16>
  return
}
