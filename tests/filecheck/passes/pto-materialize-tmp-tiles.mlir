// RUN: xla-emit-opt %s --split-input-file -p pto-materialize-tmp-tiles | filecheck %s

// The seed's example: 16x16 f32 needs W=16 rows of ceil(16/16)*16 = 16.
// CHECK-LABEL: func.func @square_f32
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.ttrans ins(%s, %tmp : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
func.func @square_f32(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>) {
  pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

// Sized by the valid region: H=16, W=8 gives 8 x 16.
// CHECK-LABEL: func.func @valid_region
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
func.func @valid_region(%s: !pto.tile_buf<vec, 16x16xf32, valid=16x8>, %d: !pto.tile_buf<vec, 16x16xf32, valid=8x16>) {
  pto.ttrans ins(%s : !pto.tile_buf<vec, 16x16xf32, valid=16x8>) outs(%d : !pto.tile_buf<vec, 16x16xf32, valid=8x16>)
  return
}

// -----

// 8-bit: RowStride 32, so H=40 pads to 64; W=32 rows.
// CHECK-LABEL: func.func @int8_row_stride
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 32x64xi8>
func.func @int8_row_stride(%s: !pto.tile_buf<vec, 64x32xi8, valid=40x32>, %d: !pto.tile_buf<vec, 32x64xi8, valid=32x40>) {
  pto.ttrans ins(%s : !pto.tile_buf<vec, 64x32xi8, valid=40x32>) outs(%d : !pto.tile_buf<vec, 32x64xi8, valid=32x40>)
  return
}

// -----

// 16-bit: RowStride 16, so H=20 pads to 32; W=16 rows.
// CHECK-LABEL: func.func @f16_padding
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 16x32xf16>
func.func @f16_padding(%s: !pto.tile_buf<vec, 32x16xf16, valid=20x16>, %d: !pto.tile_buf<vec, 16x32xf16, valid=16x20>) {
  pto.ttrans ins(%s : !pto.tile_buf<vec, 32x16xf16, valid=20x16>) outs(%d : !pto.tile_buf<vec, 16x32xf16, valid=16x20>)
  return
}

// -----

// An f16 source stride of 8 elements is not a whole 32-byte block (16
// elements): TTRANS copies element by element and needs no scratch.
// CHECK-LABEL: func.func @unaligned_stride
// CHECK-NOT:   pto.alloc_tile
// CHECK:       pto.ttrans ins(%s : !pto.tile_buf<vec, 16x8xf16>) outs(%d : !pto.tile_buf<vec, 8x16xf16>)
func.func @unaligned_stride(%s: !pto.tile_buf<vec, 16x8xf16>, %d: !pto.tile_buf<vec, 8x16xf16>) {
  pto.ttrans ins(%s : !pto.tile_buf<vec, 16x8xf16>) outs(%d : !pto.tile_buf<vec, 8x16xf16>)
  return
}

// -----

// NCHW -> NC1HWC0 with H*W = 8 and C0 = 8 (f32): 8 x ceil(8/16)*16 = 8x16.
// CHECK-LABEL: func.func @nchw_to_nc1hwc0
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
func.func @nchw_to_nc1hwc0(%s: !pto.tile_buf<vec, 8x8xf32>, %d: !pto.tile_buf<vec, 8x8xf32>) {
  pto.ttrans ins(%s {conversion = "nchw_to_nc1hwc0", source_shape = array<i64: 1, 8, 2, 4>, c0 = 8 : i64} : !pto.tile_buf<vec, 8x8xf32>) outs(%d : !pto.tile_buf<vec, 8x8xf32>)
  return
}

// -----

// NC1HWC0 -> NCHW with H*W = 8, C0 = 8 (f32): C0 rows of ceil(8/16)*16.
// CHECK-LABEL: func.func @nc1hwc0_to_nchw
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 8x16xf32>
func.func @nc1hwc0_to_nchw(%s: !pto.tile_buf<vec, 8x8xf32>, %d: !pto.tile_buf<vec, 8x8xf32>) {
  pto.ttrans ins(%s {conversion = "nc1hwc0_to_nchw", source_shape = array<i64: 1, 1, 2, 4, 8>, c0 = 8 : i64} : !pto.tile_buf<vec, 8x8xf32>) outs(%d : !pto.tile_buf<vec, 8x8xf32>)
  return
}

// -----

// To FRACTAL_Z is a direct reorder: no scratch.
// CHECK-LABEL: func.func @fractal_z
// CHECK-NOT:   pto.alloc_tile
func.func @fractal_z(%s: !pto.tile_buf<vec, 16x16xf16>, %d: !pto.tile_buf<vec, 16x16xf16>) {
  pto.ttrans ins(%s {conversion = "nc1hwc0_to_fractal_z", source_shape = array<i64: 16, 1, 1, 1, 16>, c0 = 16 : i64} : !pto.tile_buf<vec, 16x16xf16>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
  return
}

// -----

// NCDHW -> FRACTAL_Z_3D, f16, N=2 C=16 H=W=2 C0=16: a plane of 2*1*16*4 = 128
// elements plus max(128, 4*16 = 64): 256 elements.
// CHECK-LABEL: func.func @fractal_z_3d
// CHECK-NEXT:  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 1x256xf16>
func.func @fractal_z_3d(%s: !pto.tile_buf<vec, 16x16xf16>, %d: !pto.tile_buf<vec, 16x32xf16>) {
  pto.ttrans ins(%s {conversion = "ncdhw_to_fractal_z_3d", source_shape = array<i64: 2, 16, 1, 2, 2>, c0 = 16 : i64} : !pto.tile_buf<vec, 16x16xf16>) outs(%d : !pto.tile_buf<vec, 16x32xf16>)
  return
}

// -----

// Explicit scratch tiles and level-1 ops are left alone.
// CHECK-LABEL: func.func @must_not_fire
// CHECK-NOT:   pto.alloc_tile
// CHECK:       pto.ttrans ins(%s, %t :
// CHECK:       pto.ttrans %a :
func.func @must_not_fire(%s: !pto.tile_buf<vec, 16x16xf32>, %t: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf32>, %a: !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32> {
  pto.ttrans ins(%s, %t : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf32>)
  %b = pto.ttrans %a : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  return %b : !pto.tile<16x16xf32>
}
