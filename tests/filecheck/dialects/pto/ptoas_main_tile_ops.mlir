// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// PTOAS main's new tile ops and attributes: tpow with and without its scratch tile,
// tpows with a precision mode (an enum attribute in the dialect's opaque spelling).

// CHECK-LABEL: func.func @powers
// CHECK:      pto.tpow ins(%a, %b, %t : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
// CHECK-NEXT: pto.tpow ins(%a, %b : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
// CHECK-NEXT: pto.tpows ins(%a, %s {precisionType = #pto.pow_precision<high_precision>} : !pto.tile_buf<vec, 1x16xf32>, f32) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
// High precision powers are A5 only.
module attributes {pto.target_arch = "a5"} {
  func.func @powers(%a: !pto.tile_buf<vec, 1x16xf32>, %b: !pto.tile_buf<vec, 1x16xf32>,
                    %t: !pto.tile_buf<vec, 1x16xf32>, %d: !pto.tile_buf<vec, 1x16xf32>,
                    %s: f32) {
    pto.tpow ins(%a, %b, %t : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
    pto.tpow ins(%a, %b : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
    pto.tpows ins(%a, %s : !pto.tile_buf<vec, 1x16xf32>, f32) outs(%d : !pto.tile_buf<vec, 1x16xf32>) {precisionType = #pto<pow_precision high_precision>}
    return
  }
}

// MX quantization: data, shared exponents, group maxima and scales.
// CHECK-LABEL: func.func @mx_quantize
// CHECK: pto.tquant.mx ins(%src {quant_type = #pto.quant_type<MXFP8>} : !pto.tile_buf<vec, 16x32xf32>) outs(%dst, %exp, %max, %sc : !pto.tile_buf<vec, 16x32xui8>, !pto.tile_buf<vec, 1x32xui8, valid=1x16>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x64xf32, valid=1x16>)
// tquant.mx exists on A5 only.
module attributes {pto.target_arch = "a5"} {
  func.func @mx_quantize(%src: !pto.tile_buf<vec, 16x32xf32>, %dst: !pto.tile_buf<vec, 16x32xui8>,
                         %exp: !pto.tile_buf<vec, 1x32xui8, valid=1x16>, %max: !pto.tile_buf<vec, 1x16xf32>,
                         %sc: !pto.tile_buf<vec, 1x64xf32, valid=1x16>) {
    pto.tquant.mx ins(%src : !pto.tile_buf<vec, 16x32xf32>)
      outs(%dst, %exp, %max, %sc : !pto.tile_buf<vec, 16x32xui8>, !pto.tile_buf<vec, 1x32xui8, valid=1x16>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x64xf32, valid=1x16>)
      {quant_type = #pto<quant_type MXFP8>}
    return
  }
}
