// RUN: xla-emit-opt %s | filecheck %s
// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// Every spelling of the tile types parses; tile_buf prints PTOAS's compact
// form with defaults left out, tile prints `RxCxT` for a plain vec tile.

// CHECK-LABEL: func.func @tile_buf_key_form
// CHECK-SAME: %a: !pto.tile_buf<vec, 32x32xf32>
// CHECK-SAME: %b: !pto.tile_buf<vec, 16x128xf32, valid=16x1>
// CHECK-SAME: %c: !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>
// CHECK-SAME: %d: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>
// CHECK-SAME: %e: !pto.tile_buf<vec, 32x32xf32, valid=?x?>
// CHECK-SAME: %f: !pto.tile_buf<vec, 8x8xf32, pad=1, compact=2>
func.func @tile_buf_key_form(
    %a: !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>,
    %b: !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128, v_row=16, v_col=1, blayout=row_major, slayout=none_box, fractal=512, pad=0>,
    %c: !pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>,
    %d: !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>,
    %e: !pto.tile_buf<loc=vec, dtype=f32, rows=32, cols=32, v_row=?, v_col=-1, blayout=row_major, slayout=none_box, fractal=512, pad=0>,
    %f: !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=1, compact=2>) {
  return
}

// CHECK-LABEL: func.func @tile_buf_compact_form
// CHECK-SAME: %a: !pto.tile_buf<vec, 1x16xf32>
// CHECK-SAME: %b: !pto.tile_buf<vec, 16x128xf32, valid=16x1>
// CHECK-SAME: %c: !pto.tile_buf<vec, 8x8xf32, blayout=col_major, slayout=row_major, fractal=1024, pad=1>
// CHECK-SAME: %d: !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>
// CHECK-SAME: %e: !pto.tile_buf<right, 32x16xf16, slayout=col_major>
// CHECK-SAME: %f: !pto.tile_buf<bias, 1x64xf32>
// CHECK-SAME: %g: !pto.tile_buf<scaling, 1x64xui8>
// CHECK-SAME: %h: !pto.tile_buf<vec, 16x16xbf16, valid=?x8>
func.func @tile_buf_compact_form(
    %a: !pto.tile_buf<vec, 1x16xf32>,
    %b: !pto.tile_buf<vec, 16x128xf32, valid=16x1>,
    %c: !pto.tile_buf<vec, 8x8xf32, blayout=col_major, slayout=row_major, fractal=1024, pad=1>,
    %d: !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>,
    %e: !pto.tile_buf<right, 32x16xf16, slayout=col_major>,
    %f: !pto.tile_buf<bias, 1x64xf32>,
    %g: !pto.tile_buf<scaling, 1x64xui8>,
    %h: !pto.tile_buf<vec, 16x16xbf16, valid=?x8>) {
  return
}

// CHECK-LABEL: func.func @tile_spellings
// CHECK-SAME: %a: !pto.tile<16x16xf32>
// CHECK-SAME: %b: !pto.tile<16x16xf32, valid=16x8>
// CHECK-SAME: %c: !pto.tile<mat, 32x32xf16, blayout=col_major, slayout=row_major>
// CHECK-SAME: %d: !pto.tile<16x16xi8>
// CHECK-SAME: %e: !pto.tile<acc, 16x16xf32>
func.func @tile_spellings(
    %a: !pto.tile<16x16xf32>,
    %b: !pto.tile<16x16xf32, valid=16x8>,
    %c: !pto.tile<loc=mat, dtype=f16, rows=32, cols=32, v_row=32, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>,
    %d: !pto.tile<vec, 16x16xi8>,
    %e: !pto.tile<acc, 16x16xf32>) {
  return
}

// CHECK-LABEL: func.func @memory_views
// CHECK-SAME: %p: !pto.ptr<f32, gm>
// CHECK-SAME: %q: !pto.ptr<f16, ub>
// CHECK-SAME: %r: !pto.ptr<i8, l1>
// CHECK-SAME: %v: !pto.tensor_view<?x?xf32>
// CHECK-SAME: %w: !pto.partition_tensor_view<32x32xf16>
// CHECK-SAME: %x: !pto.partition_tensor_view<2x3x4x8x16xi8>
func.func @memory_views(%p: !pto.ptr<f32>, %q: !pto.ptr<f16, vec>, %r: !pto.ptr<i8, mat>,
                        %v: !pto.tensor_view<?x?xf32>,
                        %w: !pto.partition_tensor_view<32x32xf16>,
                        %x: !pto.partition_tensor_view<2x3x4x8x16xi8>) {
  return
}

// The target is a module attribute.
// CHECK: module attributes {pto.target_arch = "a5"}
module attributes {pto.target_arch = "a5"} {
}
