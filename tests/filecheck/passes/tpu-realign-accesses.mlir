// RUN: xla-emit-opt %s --split-input-file -p tpu-realign-accesses | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p tpu-realign-accesses,tpu-verify-alignment

// After the rewrite every realigned kernel passes the alignment proof (second
// RUN line); the accesses the pass must leave alone are still reported, with
// a note saying why they could not be realigned.

// The seed's kernel: a 32-lane load at an unknown lane offset.
// CHECK-LABEL: func.func @seed_example
// CHECK-SAME: (%[[X:.*]]: memref<4x256xf32, #tpu.memory_space<vmem>>, %[[ROW:.*]]: index, %[[COL:.*]]: index)
// CHECK:      %[[M:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[T:.*]] = arith.divsi %[[COL]], %[[M]] : index
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[T]], %[[M]] : index
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %[[S]], %[[LIM]] : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.subi %[[COL]], %[[BASE]] : index
// CHECK-NEXT: %[[SHIFT32:.*]] = arith.index_cast %[[SHIFT]] : index to i32
// CHECK-NEXT: %[[WIDE:.*]] = vector.load %[[X]][%[[ROW]], %[[BASE]]] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[AMOUNT:.*]] = arith.subi %[[W]], %[[SHIFT32]] : i32
// CHECK-NEXT: %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %[[AMOUNT]] dim 1 : vector<1x256xf32>, i32 -> vector<1x256xf32>
// CHECK-NEXT: %[[V:.*]] = vector.extract_strided_slice %[[ROT]] {offsets = [0, 0], sizes = [1, 32], strides = [1, 1]} : vector<1x256xf32> to vector<1x32xf32>
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
// CHECK:      vector.load %{{.*}}[%{{.*}}, %[[BASE]]] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
// CHECK:      vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [1, 100], strides = [1, 1]} : vector<1x256xf32> to vector<1x100xf32>
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

// -----

// Eight rows of 32 lanes at a dynamic lane offset: the aligned window is the
// whole 8x256 block, one rotate along the lanes, then the static slice.
// CHECK-LABEL: func.func @multi_row_lanes
// CHECK-SAME: (%[[X:.*]]: memref<8x256xf32, #tpu.memory_space<vmem>>, %[[COL:.*]]: index)
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK:      %[[BASE:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.subi %[[COL]], %[[BASE]] : index
// CHECK-NEXT: %[[SHIFT32:.*]] = arith.index_cast %[[SHIFT]] : index to i32
// CHECK-NEXT: %[[WIDE:.*]] = vector.load %[[X]][%[[C0]], %[[BASE]]] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[AMOUNT:.*]] = arith.subi %[[W]], %[[SHIFT32]] : i32
// CHECK-NEXT: %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %[[AMOUNT]] dim 1 : vector<8x256xf32>, i32 -> vector<8x256xf32>
// CHECK-NEXT: %[[V:.*]] = vector.extract_strided_slice %[[ROT]] {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf32>
// CHECK-NEXT: func.return %[[V]]
func.func @multi_row_lanes(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %col: index) -> vector<8x32xf32> {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%c0, %col] : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
  return %v : vector<8x32xf32>
}

// -----

// A dynamic row index into the (8,128)-tiled dim 0 must be a multiple of 8:
// read the 16 aligned rows holding rows %row .. %row + 7, at most rows 48..63.
// CHECK-LABEL: func.func @misaligned_rows
// CHECK-SAME: (%[[X:.*]]: memref<64x256xf32, #tpu.memory_space<vmem>>, %[[ROW:.*]]: index)
// CHECK:      %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[M:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[T:.*]] = arith.divsi %[[ROW]], %[[M]] : index
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[T]], %[[M]] : index
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 48 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %[[S]], %[[LIM]] : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.subi %[[ROW]], %[[BASE]] : index
// CHECK-NEXT: %[[SHIFT32:.*]] = arith.index_cast %[[SHIFT]] : index to i32
// CHECK-NEXT: %[[WIDE:.*]] = vector.load %[[X]][%[[BASE]], %[[C128]]] : memref<64x256xf32, #tpu.memory_space<vmem>>, vector<16x128xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[AMOUNT:.*]] = arith.subi %[[W]], %[[SHIFT32]] : i32
// CHECK-NEXT: %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %[[AMOUNT]] dim 0 : vector<16x128xf32>, i32 -> vector<16x128xf32>
// CHECK-NEXT: vector.extract_strided_slice %[[ROT]] {offsets = [0, 0], sizes = [8, 128], strides = [1, 1]} : vector<16x128xf32> to vector<8x128xf32>
func.func @misaligned_rows(%x: memref<64x256xf32, #tpu.memory_space<vmem>>, %row: index) -> vector<8x128xf32> {
  %c128 = arith.constant 128 : index
  %v = vector.load %x[%row, %c128] : memref<64x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

// Rows and lanes both misaligned: one 16x256 window, one rotate per dim.
// CHECK-LABEL: func.func @rows_and_lanes
// CHECK:      %[[ROWBASE:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[LANEBASE:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[WIDE:.*]] = tpu.vector_load %{{.*}}[%[[ROWBASE]], %[[LANEBASE]]] {strides = array<i32>} : memref<32x512xf32, #tpu.memory_space<vmem>>, vector<16x256xf32>,
// CHECK:      %[[ROT0:.*]] = tpu.dynamic_rotate %[[WIDE]] by %{{.*}} dim 0 : vector<16x256xf32>, i32 -> vector<16x256xf32>
// CHECK:      %[[ROT1:.*]] = tpu.dynamic_rotate %[[ROT0]] by %{{.*}} dim 1 : vector<16x256xf32>, i32 -> vector<16x256xf32>
// CHECK-NEXT: vector.extract_strided_slice %[[ROT1]] {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]} : vector<16x256xf32> to vector<8x32xf32>
func.func @rows_and_lanes(%x: memref<32x512xf32, #tpu.memory_space<vmem>>, %row: index, %col: index) -> vector<8x32xf32> {
  %v = tpu.vector_load %x[%row, %col] {strides = array<i32>} : memref<32x512xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>,
  return %v : vector<8x32xf32>
}

// -----

// bf16 rows tiled (16,128)(2,1): the row index needs a multiple of 16.
// CHECK-LABEL: func.func @bf16_rows
// CHECK:      arith.constant 16 : index
// CHECK:      %[[WIDE:.*]] = vector.load %{{.*}} : memref<64x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, vector<32x128xbf16>
// CHECK:      %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %{{.*}} dim 0 : vector<32x128xbf16>, i32 -> vector<32x128xbf16>
// CHECK-NEXT: vector.extract_strided_slice %[[ROT]] {offsets = [0, 0], sizes = [16, 128], strides = [1, 1]} : vector<32x128xbf16> to vector<16x128xbf16>
func.func @bf16_rows(%x: memref<64x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, %row: index) -> vector<16x128xbf16> {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%row, %c0] : memref<64x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, vector<16x128xbf16>
  return %v : vector<16x128xbf16>
}

// -----

// Rank 1, Mosaic's default 1-d tiling (1024): the index needs a multiple of
// the whole tile; the window is the whole 2048-element memref.
// CHECK-LABEL: func.func @rank1_default_tiling
// CHECK:      %[[M:.*]] = arith.constant 1024 : index
// CHECK:      %[[LIM:.*]] = arith.constant 0 : index
// CHECK:      %[[WIDE:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<2048xf32, #tpu.memory_space<vmem>>, vector<2048xf32>
// CHECK:      %[[ROT:.*]] = tpu.dynamic_rotate %[[WIDE]] by %{{.*}} dim 0 : vector<2048xf32>, i32 -> vector<2048xf32>
// CHECK-NEXT: vector.extract_strided_slice %[[ROT]] {offsets = [0], sizes = [32], strides = [1]} : vector<2048xf32> to vector<32xf32>
func.func @rank1_default_tiling(%x: memref<2048xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<32xf32> {
  %v = vector.load %x[%i] : memref<2048xf32, #tpu.memory_space<vmem>>, vector<32xf32>
  return %v : vector<32xf32>
}

// -----

// Rank 1 tiled (128): a 256-element window, starting at most at 1024 - 256.
// CHECK-LABEL: func.func @rank1_tiled_128
// CHECK:      arith.constant 128 : index
// CHECK:      %[[LIM:.*]] = arith.constant 768 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %{{.*}}, %[[LIM]] : index
// CHECK:      vector.load %{{.*}}[%[[BASE]]] : memref<1024xf32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, vector<256xf32>
// CHECK:      vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [32], strides = [1]} : vector<256xf32> to vector<32xf32>
func.func @rank1_tiled_128(%x: memref<1024xf32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, %i: index) -> vector<32xf32> {
  %v = vector.load %x[%i] : memref<1024xf32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, vector<32xf32>
  return %v : vector<32xf32>
}

// -----

// A store at a dynamic lane offset: the data goes to the window's origin,
// rotates right by %shift, and the aligned store writes only lanes
// [%shift, %shift + 32) of the window.
// CHECK-LABEL: func.func @store_lanes
// CHECK-SAME: (%[[X:.*]]: memref<8x512xf32, #tpu.memory_space<vmem>>, %[[V:.*]]: vector<8x32xf32>, %[[COL:.*]]: index)
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK:      %[[LIM:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[BASE:.*]] = arith.minsi %{{.*}}, %[[LIM]] : index
// CHECK-NEXT: %[[SHIFT:.*]] = arith.subi %[[COL]], %[[BASE]] : index
// CHECK-NEXT: %[[SHIFT32:.*]] = arith.index_cast %[[SHIFT]] : index to i32
// CHECK-NEXT: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x256xf32>
// CHECK-NEXT: %[[PLACED:.*]] = vector.insert_strided_slice %[[V]], %[[ZEROS]] {offsets = [0, 0], strides = [1, 1]} : vector<8x32xf32> into vector<8x256xf32>
// CHECK-NEXT: %[[ROT:.*]] = tpu.dynamic_rotate %[[PLACED]] by %[[SHIFT32]] dim 1 : vector<8x256xf32>, i32 -> vector<8x256xf32>
// CHECK-NEXT: %[[ROWS:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[W:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[SHIFT]], %[[W]] : index
// CHECK-NEXT: %[[TOEND:.*]] = vector.create_mask %[[ROWS]], %[[END]] : vector<8x256xi1>
// CHECK-NEXT: %[[TOSTART:.*]] = vector.create_mask %[[ROWS]], %[[SHIFT]] : vector<8x256xi1>
// CHECK-NEXT: %[[MASK:.*]] = arith.xori %[[TOEND]], %[[TOSTART]] : vector<8x256xi1>
// CHECK-NEXT: tpu.vector_store %[[X]][%[[C0]], %[[BASE]]], %[[ROT]] masked %[[MASK]] {strides = array<i32>} : memref<8x512xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>, vector<8x256xi1>
// CHECK-NEXT: func.return
func.func @store_lanes(%x: memref<8x512xf32, #tpu.memory_space<vmem>>, %v: vector<8x32xf32>, %col: index) {
  %c0 = arith.constant 0 : index
  vector.store %v, %x[%c0, %col] : memref<8x512xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
  return
}

// -----

// Rows and lanes misaligned: the mask is the product of the two ranges.
// CHECK-LABEL: func.func @store_rows_and_lanes
// CHECK:      %[[PLACED:.*]] = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 0], strides = [1, 1]} : vector<8x32xf32> into vector<16x256xf32>
// CHECK-NEXT: %[[ROT0:.*]] = tpu.dynamic_rotate %[[PLACED]] by %{{.*}} dim 0
// CHECK-NEXT: %[[ROT1:.*]] = tpu.dynamic_rotate %[[ROT0]] by %{{.*}} dim 1
// CHECK:      %[[ROWS:.*]] = arith.xori %{{.*}}, %{{.*}} : vector<16x256xi1>
// CHECK:      %[[LANES:.*]] = arith.xori %{{.*}}, %{{.*}} : vector<16x256xi1>
// CHECK-NEXT: %[[MASK:.*]] = arith.andi %[[ROWS]], %[[LANES]] : vector<16x256xi1>
// CHECK-NEXT: tpu.vector_store %{{.*}}[%{{.*}}, %{{.*}}], %[[ROT1]] masked %[[MASK]] {strides = array<i32>} : memref<32x256xf32, #tpu.memory_space<vmem>>, vector<16x256xf32>, vector<16x256xi1>
func.func @store_rows_and_lanes(%x: memref<32x256xf32, #tpu.memory_space<vmem>>, %v: vector<8x32xf32>, %row: index, %col: index) {
  tpu.vector_store %x[%row, %col], %v {strides = array<i32>} : memref<32x256xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>,
  return
}

// -----

// A rank-1 store, tiled (128): integer data placed into integer zeros.
// CHECK-LABEL: func.func @store_rank1
// CHECK:      arith.constant dense<0> : vector<256xi32>
// CHECK:      vector.create_mask %{{.*}} : vector<256xi1>
// CHECK:      tpu.vector_store %{{.*}}[%{{.*}}], %{{.*}} masked %{{.*}} {strides = array<i32>} : memref<512xi32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, vector<256xi32>, vector<256xi1>
func.func @store_rank1(%x: memref<512xi32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, %v: vector<16xi32>, %i: index) {
  vector.store %v, %x[%i] : memref<512xi32, #tpu.tiled<(128),[1]>, #tpu.memory_space<vmem>>, vector<16xi32>
  return
}

// -----

// Must not fire from here on. Each access stays as it was, and the proof
// (second RUN line) reports it with a note saying why it was not realigned.

// 200 lanes are not whole tiles: the aligned window at lane 128 would reach lane 256.
// CHECK-LABEL: func.func @lanes_not_whole_tiles
// CHECK-NOT:  tpu.dynamic_rotate
// CHECK:      vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
// CHECK-NOT:  tpu.dynamic_rotate
func.func @lanes_not_whole_tiles(%x: memref<8x200xf32, #tpu.memory_space<vmem>>, %col: index) -> vector<1x32xf32> {
  %c3 = arith.constant 3 : index
  // expected-error@+5 {{'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix: if %col is always a multiple of 128, say so with 'tpu.assume_multiple %col, 128'; otherwise load the enclosing aligned tiles and move the data into place with tpu.dynamic_rotate, or pad/repack}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: dimension 1 has 200 elements, not a multiple of 128: an aligned window at the end would reach past the memref}}
  %v = vector.load %x[%c3, %col] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}

// -----

// The same for a store: the window would not stay in bounds.
// CHECK-LABEL: func.func @store_lanes_not_whole_tiles
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
// CHECK-NEXT: func.return
func.func @store_lanes_not_whole_tiles(%x: memref<8x200xf32, #tpu.memory_space<vmem>>, %v: vector<8x32xf32>, %col: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'vector.store' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: dimension 1 has 200 elements, not a multiple of 128}}
  vector.store %v, %x[%c0, %col] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<8x32xf32>
  return
}

// -----

// Rank 1: 1000 elements are not a whole 1024-element tile.
// CHECK-LABEL: func.func @rank1_not_whole_tiles
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}] : memref<1000xf32, #tpu.memory_space<vmem>>, vector<32xf32>
// CHECK-NEXT: func.return
func.func @rank1_not_whole_tiles(%x: memref<1000xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<32xf32> {
  // expected-error@+5 {{'vector.load' op cannot statically prove that index in dimension 0 is a multiple of 1024}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{default tiling (1024)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: dimension 0 has 1000 elements, not a multiple of 1024}}
  %v = vector.load %x[%i] : memref<1000xf32, #tpu.memory_space<vmem>>, vector<32xf32>
  return %v : vector<32xf32>
}

// -----

// A bf16 store would need a masked bf16 store, which Mosaic does not have.
// CHECK-LABEL: func.func @bf16_store
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x256xbf16, #tpu.memory_space<vmem>>, vector<16x32xbf16>
// CHECK-NEXT: func.return
func.func @bf16_store(%x: memref<16x256xbf16, #tpu.memory_space<vmem>>, %v: vector<16x32xbf16>, %col: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'vector.store' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)(2,1)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: a realigned store writes its window through a lane mask, and Mosaic masks only 32-bit stores, not bf16}}
  vector.store %v, %x[%c0, %col] : memref<16x256xbf16, #tpu.memory_space<vmem>>, vector<16x32xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @masked_store
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: tpu.vector_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} masked %{{.*}} {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: func.return
func.func @masked_store(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %m: vector<8x128xi1>, %col: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'tpu.vector_store' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: the 'tpu.vector_store' is masked, and its mask would have to be realigned as well}}
  tpu.vector_store %x[%c0, %col], %v masked %m {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  return
}

// -----

// CHECK-LABEL: func.func @masked_load
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: tpu.vector_load %{{.*}}[%{{.*}}, %{{.*}}] masked %{{.*}} {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: func.return
func.func @masked_load(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %m: vector<8x128xi1>, %col: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'tpu.vector_load' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: the 'tpu.vector_load' is masked, and its mask would have to be realigned as well}}
  %v = tpu.vector_load %x[%c0, %col] masked %m {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  return %v : vector<8x128xf32>
}

// -----

// CHECK-LABEL: func.func @tpu_load_sublanes
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: tpu.load %{{.*}}[%{{.*}}, %{{.*}}] sublanes
// CHECK-NEXT: func.return
func.func @tpu_load_sublanes(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %col: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'tpu.load' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: 'tpu.load' selects sublanes; only vector.load, vector.store, tpu.vector_load and tpu.vector_store are realigned}}
  %v = tpu.load %x[%c0, %col] sublanes array<i1: true, true, true, true, true, true, true, true> : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

// A 1-d vector from a bf16 memref: the row index needs a multiple of 8, but
// the vector has no row dim to rotate along.
// CHECK-LABEL: func.func @vector_does_not_span_rows
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<128xbf16>
// CHECK-NEXT: func.return
func.func @vector_does_not_span_rows(%x: memref<32x256xbf16, #tpu.memory_space<vmem>>, %row: index) -> vector<128xbf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+5 {{'vector.load' op cannot statically prove that index in dimension 0 is a multiple of 8}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)(2,1)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: the vector<128xbf16> does not span dimension 0, so there is no window to rotate along it}}
  %v = vector.load %x[%row, %c0] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<128xbf16>
  return %v : vector<128xbf16>
}
