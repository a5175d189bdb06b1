// RUN: xla-emit-opt %s -p pto-verify-target | filecheck %s
// RUN: not xla-emit-opt %s -p 'pto-verify-target{target-arch=a5}' 2>&1 | filecheck %s --check-prefix=A5

// The module says A2A3, where this transpose is valid; the option overrides
// the attribute, and A5 rejects the 16-byte source rows.
module attributes {pto.target_arch = "a2a3"} {
  func.func @override(%s: !pto.tile_buf<vec, 8x4xf32>, %d: !pto.tile_buf<vec, 4x8xf32>) {
    pto.ttrans ins(%s : !pto.tile_buf<vec, 8x4xf32>) outs(%d : !pto.tile_buf<vec, 4x8xf32>)
    return
  }
}
// CHECK: pto.ttrans ins(%s : !pto.tile_buf<vec, 8x4xf32>) outs(%d : !pto.tile_buf<vec, 4x8xf32>)
// A5: pto-verify-target-option.mlir:8:5: error: [pto-verify-target] 'pto.ttrans' op A5 ttrans needs the source's major dimension aligned to 32 bytes: row_major Cols * sizeof(f32) = 4 * 4 = 16 bytes is not a multiple of 32
// A5-NEXT: pto.ttrans ins
