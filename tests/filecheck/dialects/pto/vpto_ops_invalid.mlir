// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// A type a declarative format's constraint refuses stops the parse once the op is
// read: the error points at the token after it.

// pset_b32 makes a 32-bit-granular mask, not a 16-bit one.
func.func @pset_granularity() {
  // expected-error@+2 {{expected !pto.mask<b32>, but got !pto.mask<b16>}}
  %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b16>
  return
}

// -----

// VPTO's vadd adds registers, not VMI's logical vectors.
func.func @vadd_of_logical_vectors(%a: !pto.vmi.vreg<64xf32>, %m: !pto.mask<b32>) {
  // expected-error@+2 {{!pto.vmi.vreg<64xf32> should be of base attribute pto.vreg}}
  %s = pto.vadd %a, %a, %m : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.mask<b32> -> !pto.vmi.vreg<64xf32>
  return
}

// -----

// vlds reads through a pointer or a memref, not a tile.
func.func @vlds_from_tile(%t: !pto.tile_buf<vec, 16x16xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+2 {{Unexpected attribute !pto.tile_buf<vec, 16x16xf32>}}
  %a = pto.vlds %t[%c0] : !pto.tile_buf<vec, 16x16xf32> -> !pto.vreg<64xf32>
  return
}

// -----

// tpow raises tiles of one element type.
func.func @tpow_mixed(%a: !pto.tile_buf<vec, 1x16xf32>, %b: !pto.tile_buf<vec, 1x16xf16>, %d: !pto.tile_buf<vec, 1x16xf32>) {
  // expected-error@+1 {{f16}}
  pto.tpow ins(%a, %b : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf16>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
  return
}

// -----

// expected-error@+1 {{'fast' is not a pto.pow_precision (expected one of default, high_precision)}}
func.func @unknown_precision() attributes {p = #pto<pow_precision fast>} {
  return
}

// -----

func.func @vload_group_and_dist(%p: !pto.ptr<f32, ub>, %s: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{group and dist_mode are mutually exclusive}}
  %g = pto.vmi.vload %p[%c0], %s {group = 8 : i64, dist_mode = "dintlv"} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<8xf32>
  return
}

// -----

func.func @vstore_group_with_mask(%v: !pto.vmi.vreg<8xf32>, %p: !pto.ptr<f32, ub>, %s: index, %m: !pto.vmi.mask<8xpred>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{group mode does not support mask operand}}
  pto.vmi.vstore %v, %p[%c0], %s, %m {group = 8 : i64} : !pto.vmi.vreg<8xf32>, !pto.ptr<f32, ub>, !pto.vmi.mask<8xpred>
  return
}

// -----

func.func @mte_from_a_scalar(%a: i64, %gm: !pto.ptr<f16, gm>) {
  // expected-error@+1 {{expects the source to be a !pto.ptr or a memref}}
  pto.mte_ub_gm %a, %gm, %a nburst(%a, %a, %a) : i64, !pto.ptr<f16, gm>, i64, i64, i64, i64
  return
}

// -----

func.func @mte_types_short(%ub: !pto.ptr<f16, ub>, %gm: !pto.ptr<f16, gm>, %a: i64) {
  // expected-error@+2 {{pto.mte_ub_gm has 6 operands, but 5 types follow}}
  pto.mte_ub_gm %ub, %gm, %a nburst(%a, %a, %a) : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64
  return
}

// -----

func.func @invalidate_local(%p: !pto.ptr<f32, ub>) {
  // expected-error@+1 {{single_cache_line address expects a GM pointer or GM tensor view}}
  pto.cmo.cacheinvalid %p single_cache_line : !pto.ptr<f32, ub>
  return
}

// -----

func.func @mad_bias_not_a_buffer(%a: !pto.ptr<f16, l0a>, %c: !pto.ptr<f32, l0c>, %m: i64) {
  // expected-error@+1 {{expects the bias to be a !pto.ptr or a memref}}
  pto.mad_bias %a, %a, %c, %m, %m, %m, %m : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0a>, !pto.ptr<f32, l0c>, i64, i64, i64, i64
  return
}

// -----

func.func @flag_pipe_unknown() {
  // expected-error@+1 {{'PIPE_X' is not a pto.pipe}}
  pto.set_flag["PIPE_X", "PIPE_V", "EVENT_ID0"]
  return
}

// -----

func.func @mx_quantize_int8(%src: !pto.tile_buf<vec, 16x32xf32>, %dst: !pto.tile_buf<vec, 16x32xui8>,
                            %exp: !pto.tile_buf<vec, 1x32xui8>, %max: !pto.tile_buf<vec, 1x32xf32>,
                            %sc: !pto.tile_buf<vec, 1x32xf32>) {
  // expected-error@+1 {{expects quant_type to be MXFP8 or MXFP4_E2M1}}
  pto.tquant.mx ins(%src : !pto.tile_buf<vec, 16x32xf32>) outs(%dst, %exp, %max, %sc : !pto.tile_buf<vec, 16x32xui8>, !pto.tile_buf<vec, 1x32xui8>, !pto.tile_buf<vec, 1x32xf32>, !pto.tile_buf<vec, 1x32xf32>) {quant_type = #pto<quant_type INT8_SYM>}
  return
}
