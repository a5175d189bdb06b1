// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// TTRANS rules every target shares, checked by the op verifier.
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_element_sizes_differ(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {
    // expected-error@+1 {{needs equal element sizes, but the source f32 has 4 bytes and the destination f16 has 2}}
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
    return
  }
}

// -----

module attributes {pto.target_arch = "a5"} {
  func.func @a5_element_sizes_differ(%s: !pto.tile<16x16xi8>) -> !pto.tile<16x16xi16> {
    // expected-error@+1 {{needs equal element sizes, but the source i8 has 1 bytes and the destination i16 has 2}}
    %d = pto.ttrans %s : !pto.tile<16x16xi8> -> !pto.tile<16x16xi16>
    return %d : !pto.tile<16x16xi16>
  }
}

// -----

module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_unsupported_type(%s: !pto.tile<16x16xi64>) -> !pto.tile<16x16xi64> {
    // expected-error@+1 {{source element type i64 is not supported (4 B: ui32/i32/f32, 2 B: ui16/i16/f16/bf16, 1 B: ui8/i8)}}
    %d = pto.ttrans %s : !pto.tile<16x16xi64> -> !pto.tile<16x16xi64>
    return %d : !pto.tile<16x16xi64>
  }
}

// -----

module attributes {pto.target_arch = "a5"} {
  func.func @a5_unsupported_type(%s: !pto.tile<16x16xf64>) -> !pto.tile<16x16xf64> {
    // expected-error@+1 {{source element type f64 is not supported}}
    %d = pto.ttrans %s : !pto.tile<16x16xf64> -> !pto.tile<16x16xf64>
    return %d : !pto.tile<16x16xf64>
  }
}

// -----

func.func @ttrans_in_place(%s: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{cannot write the buffer it reads (the destination aliases an input)}}
  pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%s : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

func.func @ttrans_scratch_size(%s: !pto.tile_buf<vec, 16x16xf16>, %t: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {
  // expected-error@+1 {{scratch elements must have 2 bytes like the source, but f32 has 4}}
  pto.ttrans ins(%s, %t : !pto.tile_buf<vec, 16x16xf16>, !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
  return
}

// -----

func.func @ttrans_conversion_rank(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{nchw_to_nc1hwc0 needs a rank-4 source_shape, but got [16, 16]}}
  pto.ttrans ins(%s {conversion = "nchw_to_nc1hwc0", source_shape = array<i64: 16, 16>, c0 = 8 : i64} : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

// Levels are not mixed.
func.func @buffer_in_ssa_form(%a: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{level-1 (SSA) form expects pto.tile tiles, but got !pto.tile_buf<vec, 16x16xf32>}}
  %d = pto.texp %a : !pto.tile_buf<vec, 16x16xf32> -> !pto.tile_buf<vec, 16x16xf32>
  return
}

// -----

func.func @tile_in_dps_form(%a: !pto.tile<16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{level-2 (ins/outs) form expects pto.tile_buf tiles, but got !pto.tile<16x16xf32>}}
  pto.texp ins(%a : !pto.tile<16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

func.func @binary_arity(%a: !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32> {
  // expected-error@+1 {{expected 2 input operands, but got 1}}
  %d = pto.tadd %a : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  return %d : !pto.tile<16x16xf32>
}

// -----

func.func @binary_element_types(%a: !pto.tile<16x16xf32>, %b: !pto.tile<16x16xf16>) -> !pto.tile<16x16xf32> {
  // expected-error@+1 {{expected input #1 element type f32, but got f16}}
  %d = pto.tadd %a, %b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf16>) -> !pto.tile<16x16xf32>
  return %d : !pto.tile<16x16xf32>
}

// -----

func.func @binary_no_broadcast(%a: !pto.tile<16x16xf32>, %b: !pto.tile<16x16xf32, valid=16x1>) -> !pto.tile<16x16xf32> {
  // expected-error@+1 {{expected input #1 valid shape 16x16, but got 16x1 (elementwise ops do not broadcast)}}
  %d = pto.tmul %a, %b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32, valid=16x1>) -> !pto.tile<16x16xf32>
  return %d : !pto.tile<16x16xf32>
}

// -----

func.func @vector_needs_vec(%a: !pto.tile<mat, 16x16xf32>) -> !pto.tile<mat, 16x16xf32> {
  // expected-error@+1 {{computes on vec tiles, but the destination is in 'mat'}}
  %d = pto.texp %a : !pto.tile<mat, 16x16xf32> -> !pto.tile<mat, 16x16xf32>
  return %d : !pto.tile<mat, 16x16xf32>
}

// -----

func.func @exp_of_int(%a: !pto.tile<16x16xi32>) -> !pto.tile<16x16xi32> {
  // expected-error@+1 {{needs a float element type, but got i32}}
  %d = pto.texp %a : !pto.tile<16x16xi32> -> !pto.tile<16x16xi32>
  return %d : !pto.tile<16x16xi32>
}

// -----

func.func @scalar_type(%a: !pto.tile<16x16xf32>, %s: f16) -> !pto.tile<16x16xf32> {
  // expected-error@+1 {{expected a scalar of the tile element type f32, but got f16}}
  %d = pto.tadds %a, %s : (!pto.tile<16x16xf32>, f16) -> !pto.tile<16x16xf32>
  return %d : !pto.tile<16x16xf32>
}

// -----

func.func @rowsum_columns(%a: !pto.tile<16x16xf32>) -> !pto.tile<16x2xf32> {
  // expected-error@+1 {{leaves one valid column per row, but the destination has 2 valid columns}}
  %d = pto.trowsum %a : !pto.tile<16x16xf32> -> !pto.tile<16x2xf32>
  return %d : !pto.tile<16x2xf32>
}

// -----

func.func @colmax_types(%a: !pto.tile<16x16xf32>) -> !pto.tile<1x16xf16> {
  // expected-error@+1 {{cannot reduce f32 into f16 (allowed: f32)}}
  %d = pto.tcolmax %a : !pto.tile<16x16xf32> -> !pto.tile<1x16xf16>
  return %d : !pto.tile<1x16xf16>
}

// -----

func.func @matmul_locations(%a: !pto.tile<16x16xf16>, %b: !pto.tile<right, 16x16xf16>) -> !pto.tile<acc, 16x16xf32> {
  // expected-error@+1 {{expects the left operand in 'left', but got 'vec'}}
  %d = pto.tmatmul %a, %b : (!pto.tile<16x16xf16>, !pto.tile<right, 16x16xf16>) -> !pto.tile<acc, 16x16xf32>
  return %d : !pto.tile<acc, 16x16xf32>
}

// -----

func.func @matmul_k(%a: !pto.tile<left, 16x32xf16>, %b: !pto.tile<right, 16x16xf16>) -> !pto.tile<acc, 16x16xf32> {
  // expected-error@+1 {{K mismatch: 32 != 16 (left 16x32, right 16x16, acc 16x16)}}
  %d = pto.tmatmul %a, %b : (!pto.tile<left, 16x32xf16>, !pto.tile<right, 16x16xf16>) -> !pto.tile<acc, 16x16xf32>
  return %d : !pto.tile<acc, 16x16xf32>
}

// -----

func.func @matmul_types(%a: !pto.tile<left, 16x16xi8>, %b: !pto.tile<right, 16x16xi8>) -> !pto.tile<acc, 16x16xf32> {
  // expected-error@+1 {{unsupported types (acc, left, right) = (f32, i8, i8)}}
  %d = pto.tmatmul %a, %b : (!pto.tile<left, 16x16xi8>, !pto.tile<right, 16x16xi8>) -> !pto.tile<acc, 16x16xf32>
  return %d : !pto.tile<acc, 16x16xf32>
}

// -----

func.func @load_into_acc(%v: !pto.partition_tensor_view<16x16xf32>) -> !pto.tile<acc, 16x16xf32> {
  // expected-error@+1 {{writes a vec or mat tile, but the destination is in 'acc'}}
  %d = pto.tload %v : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<acc, 16x16xf32>
  return %d : !pto.tile<acc, 16x16xf32>
}

// -----

func.func @dynamic_alloc() {
  // expected-error@+1 {{a tile with dynamic valid shape ?x? needs valid_row and valid_col}}
  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  return
}

// -----

func.func @unaligned_address() {
  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  // expected-error@+1 {{tile addresses are 32-byte aligned, but got 0x1010}}
  pto.tassign %t, @tile(0x1010)
  return
}

// -----

// expected-error@+1 {{tile_buf valid_row (17) exceeds row (16)}}
func.func @valid_too_large(%t: !pto.tile_buf<vec, 16x16xf32, valid=17x16>) {
  return
}

// -----

// expected-error@+1 {{tile_buf needs the keys v_col}}
func.func @missing_key(%t: !pto.tile_buf<loc=vec, rows=16, dtype=f32, cols=16, v_row=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {
  return
}

// -----

// expected-error@+1 {{(a tile_buf key not given yet)}}
func.func @repeated_key(%t: !pto.tile_buf<loc=vec, rows=16, rows=16, dtype=f32, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {
  return
}

// -----

// expected-error@+1 {{pto.tile_buf needs a location before its shape ('vec, 16x16xf32' or 'loc=vec, ...'): a tile buffer has no default location}}
func.func @buffer_without_location(%t: !pto.tile_buf<16x16xf32>) {
  return
}

// -----

// expected-error@+1 {{unknown tile location 'ub', expected one of vec, mat, left, right, acc, bias, scaling}}
func.func @unknown_location(%t: !pto.tile_buf<ub, 16x16xf32>) {
  return
}

// -----

func.func @tassign_result_type(%t: !pto.tile_buf<vec, 16x16xf32>, %addr: i64) {
  // expected-error@+1 {{returns the tile's own type !pto.tile_buf<vec, 16x16xf32>, but got !pto.tile_buf<vec, 16x16xf16>}}
  %u = "pto.tassign"(%t, %addr) : (!pto.tile_buf<vec, 16x16xf32>, i64) -> !pto.tile_buf<vec, 16x16xf16>
  return
}

// -----

// expected-error@+1 {{'sideways' is not a pto.address_space (expected one of zero, gm, mat, left, right, acc, vec, bias, scaling)}}
func.func @bad_address_space(%m: memref<16xf32, #pto.address_space<sideways>>) {
  return
}

// -----

func.func @tquant_asym_without_offset(%s: !pto.tile_buf<vec, 16x16xf32>, %f: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xui8>) {
  // expected-error@+1 {{INT8_ASYM quantization requires an offset operand}}
  pto.tquant ins(%s, %f : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xui8>) {quant_type = #pto<quant_type INT8_ASYM>}
  return
}

// -----

func.func @scale_address_outside_scaling(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{expects dst to be in the scaling address space}}
  pto.tget_scale_addr ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

func.func @tmaxs_without_scalar(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
  // expected-error@+1 {{expected 2 input operands, but got 1}}
  pto.tmaxs ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

func.func @tcmp_without_mode(%a: !pto.tile_buf<vec, 16x16xf32>, %m: !pto.tile_buf<vec, 16x16xui8>) {
  // expected-error@+1 {{needs a 'cmpMode' attribute (#pto<cmp lt>, ...)}}
  pto.tcmp ins(%a, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%m : !pto.tile_buf<vec, 16x16xui8>)
  return
}

// -----

func.func @matmul_acc_in_vec(%c: !pto.tile_buf<vec, 16x16xf32>, %l: !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, %r: !pto.tile_buf<right, 32x16xf16, slayout=col_major>, %d: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>) {
  // expected-error@+1 {{expects input #0 in 'acc', but got 'vec'}}
  pto.tmatmul.acc ins(%c, %l, %r : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x16xf16, slayout=col_major>) outs(%d : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
  return
}

// -----

func.func @alloc_dynamic_col_only(%c: index) {
  // expected-error@+1 {{a tile with dynamic valid shape 1x? needs valid_col}}
  %t = pto.alloc_tile : !pto.tile_buf<vec, 1x32xf32, valid=1x?>
  return
}

// -----

// A pointer's address space is one of PTOAS's spellings.
// expected-error@+1 {{(a !pto.ptr address space)}}
func.func @ptr_space_unknown(%p: !pto.ptr<f32, sram>) {
  return
}

// -----

// PTOAS's generic tscatter lists (src, dst[, indexes]) without segments; with neither
// indexes nor a maskPattern it scatters by nothing.
func.func @segments_unsaid(%s: !pto.tile_buf<vec, 1x64xf16>, %d: !pto.tile_buf<vec, 1x32xf16>) {
  // expected-error@+1 {{'pto.tscatter' op expects exactly one of indexes operand or maskPattern attribute}}
  "pto.tscatter"(%s, %d) <{}> : (!pto.tile_buf<vec, 1x64xf16>, !pto.tile_buf<vec, 1x32xf16>) -> ()
  return
}
