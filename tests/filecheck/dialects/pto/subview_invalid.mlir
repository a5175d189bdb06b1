// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// pto.subview's verifier: PTOAS's rules.

func.func @shape_not_sizes(%t: !pto.tile_buf<vec, 16x512xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expects result shape to match subview sizes}}
  %a = pto.subview %t[%c0, %c0] sizes [16, 128] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 16x64xf32>
  return
}

// -----

func.func @negative_offset(%t: !pto.tile_buf<vec, 16x512xf32>) {
  %c0 = arith.constant 0 : index
  %m1 = arith.constant -1 : index
  // expected-error@+1 {{subview offsets must be non-negative}}
  %a = pto.subview %t[%m1, %c0] sizes [16, 128] : !pto.tile_buf<vec, 16x512xf32>
  return
}

// -----

func.func @valid_beyond_window(%t: !pto.tile_buf<vec, 16x512xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // A declared valid shape must be what the operands give.
  // expected-error@+1 {{expects result valid_shape[1] to match inferred/explicit valid_col}}
  %a = pto.subview %t[%c0, %c0] sizes [8, 64] valid [%c4, %c4] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<vec, 8x64xf32, valid=4x8>
  return
}

// -----

func.func @other_memory(%t: !pto.tile_buf<vec, 16x512xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expects result address space to match source}}
  %a = pto.subview %t[%c0, %c0] sizes [16, 128] : !pto.tile_buf<vec, 16x512xf32> -> !pto.tile_buf<mat, 16x128xf32>
  return
}

// -----

func.func @valid_beyond_sizes(%t: !pto.tile_buf<vec, 16x512xf32>) {
  %c0 = arith.constant 0 : index
  %c99 = arith.constant 99 : index
  // expected-error@+1 {{valid_row must be <= subview row size}}
  %a = pto.subview %t[%c0, %c0] sizes [8, 64] valid [%c99, %c0] : !pto.tile_buf<vec, 16x512xf32>
  return
}
