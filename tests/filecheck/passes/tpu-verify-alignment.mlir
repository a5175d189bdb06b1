// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p tpu-verify-alignment

// The seed's example: a dynamic lane index with no proof.
func.func @seed_example(%x: memref<4x256xf32, #tpu.memory_space<vmem>>, %row: index, %col: index) -> vector<1x32xf32> {
  // expected-error@+4 {{'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{the alignment of the index is unknown, not disproven: %col (an argument of 'func.func') is not known at compile time}}
  // expected-note@+2 {{memref<4x256xf32, #tpu.memory_space<vmem>> gets Mosaic's default tiling (4,128), so a dynamic index into dimension 1 must be a multiple of 128}}
  // expected-note@+1 {{fix: if %col is always a multiple of 128, say so with 'tpu.assume_multiple %col, 128'}}
  %v = vector.load %x[%row, %col] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}

// -----

// Fix 1: assume_multiple proves it; the row index of a single-row 32-bit load is not checked.
func.func @assume_multiple_fixes_it(%x: memref<4x256xf32, #tpu.memory_space<vmem>>, %row: index, %col: index) -> vector<1x32xf32> {
  %c = tpu.assume_multiple %col, 128 : index
  %v = vector.load %x[%row, %c] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}

// -----

func.func @assume_multiple_of_a_larger_multiple(%x: memref<4x512xf32, #tpu.memory_space<vmem>>, %col: index) -> vector<1x128xf32> {
  %c0 = arith.constant 0 : index
  %c = tpu.assume_multiple %col, 256 : index
  %v = vector.load %x[%c0, %c] : memref<4x512xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  return %v : vector<1x128xf32>
}

// -----

func.func @assume_multiple_too_small(%x: memref<4x512xf32, #tpu.memory_space<vmem>>, %col: index) -> vector<1x128xf32> {
  %c0 = arith.constant 0 : index
  %c = tpu.assume_multiple %col, 64 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{it is only known to be ≡ 0 (mod 64)}}
  // expected-note@+2 {{gets Mosaic's default tiling (4,128)}}
  // expected-note@+1 {{fix: if %c is always a multiple of 128}}
  %v = vector.load %x[%c0, %c] : memref<4x512xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
  return %v : vector<1x128xf32>
}

// -----

// Constant indices need no proof, even misaligned ones.
func.func @constants_need_no_proof(%x: memref<4x256xf32, #tpu.memory_space<vmem>>) -> vector<1x32xf32> {
  %c1 = arith.constant 1 : index
  %c33 = arith.constant 33 : index
  %v = vector.load %x[%c1, %c33] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}

// -----

// i * 128 + 32 is provably misaligned: 32 past a multiple of 128 (the seed's example).
func.func @provably_misaligned_sum(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  %a = arith.muli %i, %c128 : index
  %b = arith.addi %a, %c32 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{the index is provably misaligned: it is always 32 past a multiple of 128 (index ≡ 32 mod 128)}}
  // expected-note@+2 {{gets Mosaic's default tiling (8,128)}}
  // expected-note@+1 {{fix: tpu.assume_multiple would be a false promise here; load the enclosing aligned tiles}}
  %v = vector.load %x[%c0, %b] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @product_is_proven(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %a = arith.muli %c256, %i : index
  %v = vector.load %x[%c0, %a] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @product_of_two_unknowns(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index, %j: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %a = arith.muli %i, %j : index
  // expected-error@+4 {{cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{unknown, not disproven: %i (an argument of 'func.func') is not known at compile time}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{fix: if %a is always a multiple of 128}}
  %v = vector.load %x[%c0, %a] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @product_of_two_multiples(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index, %j: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %i, 16 : index
  %b = tpu.assume_multiple %j, 8 : index
  %p = arith.muli %a, %b : index
  %v = vector.load %x[%c0, %p] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @shift_left_by_seven(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %a = arith.shli %i, %c7 : index
  %v = vector.load %x[%c0, %a] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @shift_left_by_six(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %a = arith.shli %i, %c6 : index
  // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{it is only known to be ≡ 0 (mod 64)}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%c0, %a] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

// Subtraction is sound: (128 i + 1) - 1 is a multiple of 128 (Mosaic says no here).
func.func @difference_of_equal_remainders(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %a = arith.muli %i, %c128 : index
  %b = arith.addi %a, %c1 : index
  %d = arith.subi %b, %c1 : index
  %v = vector.load %x[%c0, %d] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @difference_misaligned(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %a = arith.muli %i, %c128 : index
  %d = arith.subi %a, %c1 : index
  // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{provably misaligned: it is always 127 past a multiple of 128}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{false promise}}
  %v = vector.load %x[%c0, %d] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

// Pallas passes i32 offsets through arith.index_cast; division by a constant keeps what it can.
func.func @index_cast_and_division(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: i32) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c512 = arith.constant 512 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.muli %i, %c512 : i32
  %h = arith.divsi %a, %c2 : i32
  %idx = arith.index_cast %h : i32 to index
  %v = vector.load %x[%c0, %idx] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @division_loses_the_proof(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c3 = arith.constant 3 : index
  %a = arith.muli %i, %c128 : index
  %q = arith.divsi %a, %c3 : index
  // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{unknown, not disproven: 'arith.divsi' by 3 of a value not known to be a multiple of 3}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%c0, %q] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @remainder_of_aligned_values(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index, %j: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %i, 256 : index
  %b = tpu.assume_multiple %j, 128 : index
  %r = arith.remsi %a, %b : index
  %v = vector.load %x[%c0, %r] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @select_of_aligned_branches(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %p: i1, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c384 = arith.constant 384 : index
  %a = tpu.assume_multiple %i, 128 : index
  %s = arith.select %p, %a, %c384 : index
  %v = vector.load %x[%c0, %s] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @select_with_a_misaligned_branch(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %p: i1, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = tpu.assume_multiple %i, 128 : index
  %s = arith.select %p, %a, %c64 : index
  // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{it is only known to be ≡ 0 (mod 64)}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%c0, %s] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

// min/max return one of their operands: both aligned is enough (Mosaic rejects minsi when one is not).
func.func @min_and_max(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %c896 = arith.constant 896 : index
  %a = tpu.assume_multiple %i, 128 : index
  %lo = arith.minsi %a, %c896 : index
  %hi = arith.maxsi %lo, %c0 : index
  %v = vector.load %x[%c0, %hi] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @loop_with_aligned_start_and_step(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c1024 step %c128 {
    %v = vector.load %x[%c0, %i] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    vector.store %v, %x[%c0, %i] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  }
  return
}

// -----

// The seed's "chunks of 32 starting at offset 1": offsets 1, 33, 65, ... are never aligned.
func.func @loop_with_misaligned_start(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c896 = arith.constant 896 : index
  scf.for %i = %c1 to %c896 step %c32 {
    // expected-error@+4 {{'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128}}
    // expected-note@+3 {{the index is provably not a multiple of 128: it is always ≡ 1 (mod 32)}}
    // expected-note@+2 {{tiling (8,128)}}
    // expected-note@+1 {{false promise}}
    %v = vector.load %x[%c0, %i] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  }
  return
}

// -----

func.func @loop_with_small_step(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c896 = arith.constant 896 : index
  scf.for %i = %c0 to %c896 step %c64 {
    // The loop's bounds are constants: %i is known at every step, and misaligned at 64.
    // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
    // expected-note@+3 {{the index is provably misaligned: with %i in [0, 896) step 64, at %i = 64 it is 64, 64 past a multiple of 128}}
    // expected-note@+2 {{tiling (8,128)}}
    // expected-note@+1 {{fix: tpu.assume_multiple would be a false promise here}}
    %v = vector.load %x[%c0, %i] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  }
  return
}

// -----

func.func @loop_with_dynamic_aligned_start(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %start: index) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c1024 = arith.constant 1024 : index
  %s = tpu.assume_multiple %start, 128 : index
  scf.for %i = %s to %c1024 step %c256 {
    %v = vector.load %x[%c0, %i] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  }
  return
}

// -----

func.func @nested_loops(%x: memref<64x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  scf.for %r = %c0 to %c64 step %c8 {
    scf.for %c = %c0 to %c1024 step %c128 {
      %col = arith.addi %c, %c128 : index
      %v = vector.load %x[%r, %c] : memref<64x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    }
  }
  return
}

// -----

// A multi-row load also needs the row index to be a multiple of the 8-row tile.
func.func @nested_loops_misaligned_rows(%x: memref<64x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c56 = arith.constant 56 : index
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  scf.for %r = %c0 to %c56 step %c4 {
    scf.for %c = %c0 to %c1024 step %c128 {
      // expected-error@+4 {{cannot statically prove that index in dimension 0 is a multiple of 8}}
      // expected-note@+3 {{the index is provably misaligned: with %r in [0, 56) step 4, at %r = 4 it is 4, 4 past a multiple of 8}}
      // expected-note@+2 {{gets Mosaic's default tiling (8,128), so a dynamic index into dimension 0 must be a multiple of 8}}
      // expected-note@+1 {{fix: tpu.assume_multiple would be a false promise here}}
      %v = vector.load %x[%r, %c] : memref<64x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    }
  }
  return
}

// -----

// A loop-carried offset that grows by 128 from 0 stays aligned; by 96 it is only known mod 96.
func.func @loop_carried_offset(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %end = scf.for %i = %c0 to %c8 step %c1 iter_args(%off = %c0) -> (index) {
    %v = vector.load %x[%c0, %off] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %next = arith.addi %off, %c128 : index
    scf.yield %next : index
  }
  return
}

// -----

func.func @loop_carried_offset_drifts(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c96 = arith.constant 96 : index
  %end = scf.for %i = %c0 to %c8 step %c1 iter_args(%off = %c0) -> (index) {
    // expected-error@+4 {{index in dimension 1 is a multiple of 128}}
    // expected-note@+3 {{it is only known to be ≡ 0 (mod 96)}}
    // expected-note@+2 {{tiling (8,128)}}
    // expected-note@+1 {{fix}}
    %v = vector.load %x[%c0, %off] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %next = arith.addi %off, %c96 : index
    scf.yield %next : index
  }
  return
}

// -----

// bf16 is tiled (16,128)(2,1) or (8,128)(2,1): a multi-row load needs the row tile too.
func.func @bf16_rows(%x: memref<32x256xbf16, #tpu.memory_space<vmem>>, %r: index) -> vector<16x128xbf16> {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %r, 8 : index
  %v = vector.load %x[%a, %c0] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<16x128xbf16>
  return %v : vector<16x128xbf16>
}

// -----

// 16-bit single-row loads are checked too (the small-vector exception is for 32 bits).
func.func @bf16_single_row(%x: memref<32x256xbf16, #tpu.memory_space<vmem>>, %r: index) -> vector<1x128xbf16> {
  %c0 = arith.constant 0 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 0 is a multiple of 8}}
  // expected-note@+3 {{%r (an argument of 'func.func') is not known at compile time}}
  // expected-note@+2 {{gets Mosaic's default tiling (8,128)(2,1)}}
  // expected-note@+1 {{fix: if %r is always a multiple of 8}}
  %v = vector.load %x[%r, %c0] : memref<32x256xbf16, #tpu.memory_space<vmem>>, vector<1x128xbf16>
  return %v : vector<1x128xbf16>
}

// -----

func.func @int8_tiles(%x: memref<64x256xi8, #tpu.memory_space<vmem>>, %r: index) -> vector<8x128xi8> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = tpu.assume_multiple %r, 4 : index
  %b = arith.addi %a, %c4 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 0 is a multiple of 8}}
  // expected-note@+3 {{only known to be ≡ 0 (mod 4)}}
  // expected-note@+2 {{gets Mosaic's default tiling (8,128)(4,1)}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%b, %c0] : memref<64x256xi8, #tpu.memory_space<vmem>>, vector<8x128xi8>
  return %v : vector<8x128xi8>
}

// -----

// An explicit layout wins over the default: rows tiled by 16.
func.func @explicit_tiled_layout(%x: memref<32x256xf32, #tpu.tiled<(16,128),[2,1]>, #tpu.memory_space<vmem>>, %r: index) -> vector<16x128xf32> {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %r, 8 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 0 is a multiple of 16}}
  // expected-note@+3 {{only known to be ≡ 0 (mod 8)}}
  // expected-note@+2 {{memref<32x256xf32, #tpu.tiled<(16,128),[2,1]>, #tpu.memory_space<vmem>> is tiled (16,128), so a dynamic index into dimension 0 must be a multiple of 16}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%a, %c0] : memref<32x256xf32, #tpu.tiled<(16,128),[2,1]>, #tpu.memory_space<vmem>>, vector<16x128xf32>
  return %v : vector<16x128xf32>
}

// -----

// A 1-D memref: the index must be a multiple of the whole 1-D tile (1024 for 32 bits).
func.func @one_dimensional(%x: memref<4096xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<1024xf32> {
  %c512 = arith.constant 512 : index
  %a = arith.muli %i, %c512 : index
  // expected-error@+4 {{cannot statically prove that index in dimension 0 is a multiple of 1024}}
  // expected-note@+3 {{only known to be ≡ 0 (mod 512)}}
  // expected-note@+2 {{gets Mosaic's default tiling (1024)}}
  // expected-note@+1 {{fix}}
  %v = vector.load %x[%a] : memref<4096xf32, #tpu.memory_space<vmem>>, vector<1024xf32>
  return %v : vector<1024xf32>
}

// -----

func.func @one_dimensional_aligned(%x: memref<4096xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<1024xf32> {
  %c1024 = arith.constant 1024 : index
  %a = arith.muli %i, %c1024 : index
  %v = vector.load %x[%a] : memref<4096xf32, #tpu.memory_space<vmem>>, vector<1024xf32>
  return %v : vector<1024xf32>
}

// -----

// Leading (untiled) dims are never checked.
func.func @leading_dims_are_free(%x: memref<3x8x128xf32, #tpu.memory_space<vmem>>, %b: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%b, %c0, %c0] : memref<3x8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}

// -----

func.func @tpu_vector_store(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %c: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+4 {{'tpu.vector_store' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+3 {{not known at compile time}}
  // expected-note@+2 {{tiling (8,128)}}
  // expected-note@+1 {{fix}}
  tpu.vector_store %x[%c0, %c], %v {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @tpu_load_and_store(%x: memref<8x256xf32, #tpu.memory_space<vmem>>, %c: index) {
  %c0 = arith.constant 0 : index
  %a = tpu.assume_multiple %c, 128 : index
  %v = tpu.load %x[%c0, %a] sublanes array<i1: true, true, true, true, true, true, true, true> : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %b = arith.addi %a, %c : index
  // expected-error@+5 {{'tpu.store' op cannot statically prove that index in dimension 1 is a multiple of 128}}
  // expected-note@+4 {{not known at compile time}}
  // expected-note@+3 {{tiling (8,128)}}
  // expected-note@+2 {{fix}}
  // expected-note@+1 {{tpu-realign-accesses cannot realign this access: 'tpu.store' selects sublanes; only vector.load, vector.store, tpu.vector_load and tpu.vector_store are realigned}}
  tpu.store %x[%c0, %b], %v sublanes array<i1: true, true, true, true, true, true, true, true> : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}

// -----

func.func @memref_slice_offsets(%x: memref<16x512xf32, #tpu.memory_space<any>>, %i: i32) -> memref<8x128xf32, #tpu.memory_space<any>> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %o = arith.muli %i, %c64 : i32
  // expected-error@+2 {{'tpu.memref_slice' op Offsets along tiled dimensions must be aligned to tiles. Failed to verify that the index at dimension 1 is divisible by the tile dimension 128. If it is, use tpu.assume_multiple to suppress this error.}}
  // expected-note@+1 {{only known to be ≡ 0 (mod 64)}}
  %s = tpu.memref_slice %x[%c0, %o] : memref<16x512xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return %s : memref<8x128xf32, #tpu.memory_space<any>>
}

// -----

func.func @memref_slice_aligned(%x: memref<16x512xf32, #tpu.memory_space<any>>, %i: i32) -> memref<8x128xf32, #tpu.memory_space<any>> {
  %c8 = arith.constant 8 : i32
  %o = tpu.assume_multiple %i, 128 : i32
  %s = tpu.memref_slice %x[%c8, %o] : memref<16x512xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
  return %s : memref<8x128xf32, #tpu.memory_space<any>>
}
