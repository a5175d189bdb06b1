// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p pto-verify-target

// A2A3: the source must be row-major.
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_col_major_source(%s: !pto.tile_buf<vec, 16x16xf32, blayout=col_major>, %d: !pto.tile_buf<vec, 16x16xf32>) {
    // expected-error@+1 {{A2A3 ttrans needs a row-major source, but the source is col_major}}
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32, blayout=col_major>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
    return
  }
}

// -----

// A2A3 transposes the valid region the source has at run time; PTOAS main's verifier
// leaves the destination's valid shape to the kernel (one row to one row verifies).
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_valid_region(%s: !pto.tile_buf<vec, 16x16xf32, valid=16x8>, %d: !pto.tile_buf<vec, 16x16xf32, valid=16x8>, %r: !pto.tile_buf<vec, 1x16xf32>, %q: !pto.tile_buf<vec, 1x16xf32>) {
    pto.ttrans ins(%r : !pto.tile_buf<vec, 1x16xf32>) outs(%q : !pto.tile_buf<vec, 1x16xf32>)
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32, valid=16x8>) outs(%d : !pto.tile_buf<vec, 16x16xf32, valid=16x8>)
    return
  }
}

// -----

// A5 checks the static shape, so the same program is fine there; its source
// layout may be column-major as long as the major dimension is aligned.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_ignores_valid_region(%s: !pto.tile_buf<vec, 16x16xf32, valid=16x8>, %d: !pto.tile_buf<vec, 16x16xf32, valid=16x8>, %c: !pto.tile_buf<vec, 8x16xf32, blayout=col_major>, %e: !pto.tile_buf<vec, 16x8xf32>) {
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32, valid=16x8>) outs(%d : !pto.tile_buf<vec, 16x16xf32, valid=16x8>)
    pto.ttrans ins(%c : !pto.tile_buf<vec, 8x16xf32, blayout=col_major>) outs(%e : !pto.tile_buf<vec, 16x8xf32>)
    return
  }
}

// -----

// A5: row-major tiles align Cols * sizeof(T) to 32 bytes.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_row_major_alignment(%s: !pto.tile_buf<vec, 16x12xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
    // expected-error@+1 {{A5 ttrans needs the source's major dimension aligned to 32 bytes: row_major Cols * sizeof(f32) = 12 * 4 = 48 bytes is not a multiple of 32}}
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x12xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
    return
  }
}

// -----

// A5: column-major tiles align Rows * sizeof(T); here the destination's.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_col_major_alignment(%s: !pto.tile_buf<vec, 8x16xf16>, %d: !pto.tile_buf<vec, 24x8xf16, blayout=col_major>) {
    // expected-error@+1 {{A5 ttrans needs the destination's major dimension aligned to 32 bytes: col_major Rows * sizeof(f16) = 24 * 2 = 48 bytes is not a multiple of 32}}
    pto.ttrans ins(%s : !pto.tile_buf<vec, 8x16xf16>) outs(%d : !pto.tile_buf<vec, 24x8xf16, blayout=col_major>)
    return
  }
}

// -----

// A5: the destination holds the transposed static shape.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_static_shape(%s: !pto.tile_buf<vec, 16x32xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
    // expected-error@+1 {{A5 ttrans transposes the source's static shape 16x32, so the destination must hold 32x16, but it is 16x16}}
    pto.ttrans ins(%s : !pto.tile_buf<vec, 16x32xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
    return
  }
}

// -----

// Level 1 follows the same rules.
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_level1(%s: !pto.tile<16x16xf32, valid=16x8, blayout=col_major>) -> !pto.tile<16x16xf32> {
    // expected-error@+1 {{A2A3 ttrans needs a row-major source, but the source is col_major}}
    %d = pto.ttrans %s : !pto.tile<16x16xf32, valid=16x8, blayout=col_major> -> !pto.tile<16x16xf32>
    return %d : !pto.tile<16x16xf32>
  }
}

// -----

// A2A3 elementwise element types.
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_tdiv_int(%a: !pto.tile<16x16xi32>) -> !pto.tile<16x16xi32> {
    // expected-error@+1 {{A2A3 tdiv does not support i32 (supported: f16, f32)}}
    %d = pto.tdiv %a, %a : (!pto.tile<16x16xi32>, !pto.tile<16x16xi32>) -> !pto.tile<16x16xi32>
    return %d : !pto.tile<16x16xi32>
  }
}

// -----

// expected-error@+1 {{unknown PTO target 'a9', expected one of a2a3, a5}}
module attributes {pto.target_arch = "a9"} {
}

// -----

// A2A3 tinsert: acc -> mat, f32 into f16/bf16 only.
module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tinsert_f32_into_f32(%s: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, %d: !pto.tile_buf<mat, 32x32xf32, blayout=col_major, slayout=row_major>, %i: index) {
    // expected-error@+1 {{expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index) outs(%d : !pto.tile_buf<mat, 32x32xf32, blayout=col_major, slayout=row_major>)
    return
  }
}

// -----

// A2A3 tinsert also moves vec -> vec, of one i8/f16/bf16/f32 element type.
module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tinsert_vec_i32(%s: !pto.tile_buf<vec, 8x16xi32>, %d: !pto.tile_buf<vec, 16x16xi32>, %i: index) {
    // expected-error@+1 {{expects A2/A3 vec->vec tinsert src/dst to have same supported dtype (i8/f16/bf16/f32)}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<vec, 8x16xi32>, index, index) outs(%d : !pto.tile_buf<vec, 16x16xi32>)
    return
  }
}

// -----

module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tinsert_mat_to_mat(%s: !pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>, %d: !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>, %i: index) {
    // expected-error@+1 {{expects A2/A3 tinsert to use acc->mat or vec->vec}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>, index, index) outs(%d : !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>)
    return
  }
}

// -----

// A2A3 quantized (pre_quant scalar) acc -> mat: f32 -> i8 or i32 -> i8/f16/i16.
module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tinsert_quant_f32_f16(%s: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, %d: !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>, %i: index, %q: i64) {
    // expected-error@+1 {{expects A2/A3 acc fp/preQuantScalar tinsert element types to be (src=f32,dst=i8) or (src=i32,dst=i8/f16/i16)}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index pre_quant %q : i64) outs(%d : !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>)
    return
  }
}

// -----

// A5 vec -> vec with mixed layouts (ND into NZ).
module attributes {pto.target_arch = "a5"} {
  func.func @a5_tinsert_nd_into_nz(%s: !pto.tile_buf<vec, 16x16xf16>, %d: !pto.tile_buf<vec, 32x32xf16, blayout=col_major, slayout=row_major>, %i: index) {
    // expected-error@+1 {{expects A5 vec->vec tinsert src/dst layouts to match: both ND(row_major/none_box) or both NZ(col_major/row_major)}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<vec, 16x16xf16>, index, index) outs(%d : !pto.tile_buf<vec, 32x32xf16, blayout=col_major, slayout=row_major>)
    return
  }
}

// -----

// A5 acc -> vec keeps acc's element pairs: f32 into i8 needs the quantized form.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_tinsert_acc_vec_i8(%s: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, %d: !pto.tile_buf<vec, 32x32xi8>, %i: index) {
    // expected-error@+1 {{expects A5 acc-source tinsert element types to be (src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32)}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index) outs(%d : !pto.tile_buf<vec, 32x32xi8>)
    return
  }
}

// -----

// A5 tinsert: acc -> mat or vec, vec -> mat or vec -> vec.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_tinsert_mat_to_vec(%s: !pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>, %d: !pto.tile_buf<vec, 32x32xf16>, %i: index) {
    // expected-error@+1 {{expects A5 tinsert to use a supported src/dst loc pair: acc->mat, acc->vec, vec->mat, or vec->vec}}
    pto.tinsert ins(%s, %i, %i : !pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>, index, index) outs(%d : !pto.tile_buf<vec, 32x32xf16>)
    return
  }
}

// -----

// A5 textract between vec tiles needs ND tiles.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_textract_vec_col_major(%s: !pto.tile_buf<vec, 32x32xf32, blayout=col_major>, %d: !pto.tile_buf<vec, 16x16xf32>, %i: index) {
    // expected-error@+1 {{expects A5 vec->vec textract src/dst to use ND layout (blayout=row_major, slayout=none_box)}}
    pto.textract ins(%s, %i, %i : !pto.tile_buf<vec, 32x32xf32, blayout=col_major>, index, index) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
    return
  }
}

// -----

// thistogram exists on A5 only.
module attributes {pto.target_arch = "a2a3"} {
  func.func @a2a3_histogram(%s: !pto.tile_buf<vec, 8x32xui16>, %i: !pto.tile_buf<vec, 8x32xui8>, %d: !pto.tile_buf<vec, 8x256xui32>) {
    // expected-error@+1 {{thistogram is only supported on A5}}
    pto.thistogram ins(%s, %i : !pto.tile_buf<vec, 8x32xui16>, !pto.tile_buf<vec, 8x32xui8>) outs(%d : !pto.tile_buf<vec, 8x256xui32>)
    return
  }
}

// -----

// The same ops pass on the target that has them.
module attributes {pto.target_arch = "a5"} {
  func.func @a5_accepts(%s: !pto.tile_buf<vec, 8x32xui16>, %i: !pto.tile_buf<vec, 8x32xui8>, %d: !pto.tile_buf<vec, 8x256xui32>, %v: !pto.tile_buf<vec, 16x16xf16>, %w: !pto.tile_buf<vec, 32x32xf16>, %k: index) {
    pto.thistogram ins(%s, %i : !pto.tile_buf<vec, 8x32xui16>, !pto.tile_buf<vec, 8x32xui8>) outs(%d : !pto.tile_buf<vec, 8x256xui32>)
    pto.tinsert ins(%v, %k, %k : !pto.tile_buf<vec, 16x16xf16>, index, index) outs(%w : !pto.tile_buf<vec, 32x32xf16>)
    return
  }
  func.func @a5_accepts_acc_to_vec(%a: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, %nz: !pto.tile_buf<vec, 32x32xf16, blayout=col_major, slayout=row_major>, %q: i64, %i8: !pto.tile_buf<vec, 32x32xi8>, %k: index) {
    pto.tinsert ins(%a, %k, %k : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index) outs(%nz : !pto.tile_buf<vec, 32x32xf16, blayout=col_major, slayout=row_major>)
    pto.tinsert ins(%a, %k, %k : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, index, index pre_quant %q : i64) outs(%i8 : !pto.tile_buf<vec, 32x32xi8>)
    return
  }
}

// -----

// taddrelu exists on A2A3 only (PTOAS main).
module attributes {pto.target_arch = "a5"} {
  func.func @a5_taddrelu(%a: !pto.tile_buf<vec, 16x16xf16>, %d: !pto.tile_buf<vec, 16x16xf16>) {
    // expected-error@+1 {{taddrelu is only supported on A2/A3 targets}}
    pto.taddrelu ins(%a, %a : !pto.tile_buf<vec, 16x16xf16>, !pto.tile_buf<vec, 16x16xf16>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
    return
  }
}

// -----

// A2A3's scalar max/min and broadcast divisions take fewer element types (PTOAS main).
module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tmaxs_bf16(%a: !pto.tile_buf<vec, 16x16xbf16>, %s: bf16) {
    // expected-error@+1 {{A2A3 tmaxs does not support bf16 (supported: f16, f32, i16, i32, si16, si32)}}
    pto.tmaxs ins(%a, %s : !pto.tile_buf<vec, 16x16xbf16>, bf16) outs(%a : !pto.tile_buf<vec, 16x16xbf16>)
    return
  }
}

// -----

// A2A3's tcvt has no low-precision (f8, hif8, packed f4) element types.
module attributes {pto.target_arch = "a3"} {
  func.func @a2a3_tcvt_f8(%a: !pto.tile_buf<vec, 16x32xf16>, %d: !pto.tile_buf<vec, 16x32xf8E4M3FN>) {
    // expected-error@+1 {{expects A2/A3 tcvt low-precision element types to be unsupported}}
    pto.tcvt ins(%a : !pto.tile_buf<vec, 16x32xf16>) outs(%d : !pto.tile_buf<vec, 16x32xf8E4M3FN>)
    return
  }
}
