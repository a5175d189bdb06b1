// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// PTOAS main's new tile ops and attributes: tpow with and without its scratch tile,
// tpows with a precision mode (an enum attribute in the dialect's opaque spelling).

// CHECK-LABEL: func.func @powers
// CHECK:      pto.tpow ins(%a, %b, %t : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32, valid=1x8>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
// CHECK-NEXT: pto.tpow ins(%a, %b : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
// CHECK-NEXT: pto.tpows ins(%a, %s {precisionType = #pto.pow_precision<high_precision>} : !pto.tile_buf<vec, 1x16xf32>, f32) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
func.func @powers(%a: !pto.tile_buf<vec, 1x16xf32>, %b: !pto.tile_buf<vec, 1x16xf32>,
                  %t: !pto.tile_buf<vec, 1x16xf32, valid=1x8>, %d: !pto.tile_buf<vec, 1x16xf32>,
                  %s: f32) {
  pto.tpow ins(%a, %b, %t : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32, valid=1x8>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
  pto.tpow ins(%a, %b : !pto.tile_buf<vec, 1x16xf32>, !pto.tile_buf<vec, 1x16xf32>) outs(%d : !pto.tile_buf<vec, 1x16xf32>)
  pto.tpows ins(%a, %s : !pto.tile_buf<vec, 1x16xf32>, f32) outs(%d : !pto.tile_buf<vec, 1x16xf32>) {precisionType = #pto<pow_precision high_precision>}
  return
}
