// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// pto.subview: a window of a tile buffer. Without `->` its type is inferred: the
// sizes, the source's memory and layout, and a valid shape of the sizes or of the
// valid operands (dynamic where they are not constants).

// CHECK-LABEL: func.func @windows
// CHECK:      %a = pto.subview %t[%c0, %c128] sizes [16, 128] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 16x128xf32>
// CHECK-NEXT: %b = pto.subview %t[%c0, %c0] sizes [8, 64] valid [%c4, %n] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 8x64xf32, valid=4x?>
// CHECK-NEXT: %e = pto.subview %t[%c0, %c0] sizes [8, 64] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 8x64xf32, valid=0x64>
func.func @windows(%t: !pto.tile_buf<vec, 16x512xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %a = pto.subview %t[%c0, %c128] sizes [16, 128] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 16x128xf32>
  %b = pto.subview %t[%c0, %c0] sizes [8, 64] valid [%c4, %n] : !pto.tile_buf<vec, 16x512xf32>
  // An empty valid region marks a window with nothing to do.
  %e = pto.subview %t[%c0, %c0] sizes [8, 64] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 8x64xf32, valid=0x64>
  return
}
