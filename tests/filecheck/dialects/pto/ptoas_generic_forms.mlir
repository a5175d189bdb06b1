// RUN: xla-emit-opt %s | filecheck %s
// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// PTOAS prints addptr's pointer types in MLIR's short form, reserve_buffer's
// location the same way, and tmov's generic form with its own operand segments
// (src, dst, fp, preQuantScalar); all read as the full forms.

// CHECK-LABEL: func.func @short_forms
// CHECK: %q = pto.addptr %p, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
// CHECK: %r = pto.addptr %q, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
// CHECK: pto.reserve_buffer {name = "fifo", size = 4096 : i64, location = #pto.address_space<vec>, auto = true} -> i32
func.func @short_forms(%p: !pto.ptr<f32>, %n: index) {
  %q = pto.addptr %p, %n : <f32> -> <f32>
  %r = pto.addptr %q, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
  %b = pto.reserve_buffer {name = "fifo", size = 4096, location = <vec>, auto = true} -> i32
  return
}

// CHECK-LABEL: func.func @generic_tmov
// CHECK: pto.tmov ins(%src, %pre {reluPreMode = #pto.relu_pre_mode<normal_relu>} : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>, i64) outs(%q : !pto.tile_buf<mat, 16x16xi8>)
// CHECK: pto.tmov ins(%src, %fp : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>, !pto.tile_buf<scaling, 1x16xf16>) outs(%q : !pto.tile_buf<mat, 16x16xi8>)
func.func @generic_tmov(%src: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>, %q: !pto.tile_buf<mat, 16x16xi8>, %fp: !pto.tile_buf<scaling, 1x16xf16>, %pre: i64) {
  "pto.tmov"(%src, %q, %pre) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, reluPreMode = #pto<relu_pre_mode normal_relu>}> : (!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>, !pto.tile_buf<mat, 16x16xi8>, i64) -> ()
  "pto.tmov"(%src, %q, %fp) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>, !pto.tile_buf<mat, 16x16xi8>, !pto.tile_buf<scaling, 1x16xf16>) -> ()
  return
}
