// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// PTOAS main's register types, element types and aggregates print back as written
// (a multi_tile_buf's compact slot prints in full, a ptr's space in PTOAS's words).

// CHECK-LABEL: func.func @registers
// CHECK-SAME: %a: !pto.vreg<64xf32>
// CHECK-SAME: %b: !pto.vreg<256x!pto.hif8>
// CHECK-SAME: %m: !pto.mask<b16>
// CHECK-SAME: %al: !pto.align
func.func @registers(%a: !pto.vreg<64xf32>, %b: !pto.vreg<256x!pto.hif8>,
                     %m: !pto.mask<b16>, %al: !pto.align) {
  return
}

// CHECK-LABEL: func.func @logical_vectors
// CHECK-SAME: %v: !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>
// CHECK-SAME: %g: !pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8, slots = 8, lane_stride = 2>>
// CHECK-SAME: %c: !pto.vmi.vreg<64x!pto.bf16x2>
// CHECK-SAME: %p: !pto.vmi.mask<128xpred>
// CHECK-SAME: %q: !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous, lane_stride = 4>>
func.func @logical_vectors(
    %v: !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>,
    %g: !pto.vmi.vreg<8xf32, #pto.vmi.layout<num_groups = 8, slots = 8, lane_stride = 2>>,
    %c: !pto.vmi.vreg<64x!pto.bf16x2>,
    %p: !pto.vmi.mask<128xpred>,
    %q: !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous, lane_stride = 4>>) {
  return
}

// CHECK-LABEL: func.func @aggregates
// CHECK-SAME: %s: !pto.struct<f32, i8, !pto.struct<bf16>>
// CHECK-SAME: %l: !pto.local_array<2x8xi32>
// CHECK-SAME: %m: !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf16>, count=2>
// CHECK-SAME: %n: !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf16, valid=8x8>, count=3>
// CHECK-SAME: %x: !pto.prefetch_async_context
// CHECK-SAME: %t: !pto.tile_buf<vec, 16x32x!pto.f4E2M1x2>
// CHECK-SAME: %e: !pto.tile_buf<vec, 16x32x!pto.f8E8M0>
func.func @aggregates(%s: !pto.struct<f32, i8, !pto.struct<bf16>>,
                      %l: !pto.local_array<2x8xi32>,
                      %m: !pto.multi_tile_buf<vec, 16x16xf16, count=2>,
                      %n: !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf16, valid=8x8>, count=3>,
                      %x: !pto.prefetch_async_context,
                      %t: !pto.tile_buf<vec, 16x32x!pto.f4E2M1x2>,
                      %e: !pto.tile_buf<vec, 16x32x!pto.f8E8M0>) {
  return
}
