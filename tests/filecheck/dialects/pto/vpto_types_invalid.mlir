// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// A vector register holds 256 bytes: 64 f32s, not 32.
// expected-error@+1 {{'!pto.vreg<32xf32>' expected exactly 256 bytes}}
func.func @short_register(%a: !pto.vreg<32xf32>) {
  return
}

// -----

// expected-error@+1 {{'!pto.mask<b64>' expected granularity to be one of b8, b16, b32}}
func.func @mask_granularity(%m: !pto.mask<b64>) {
  return
}

// -----

// expected-error@+1 {{#pto.vmi.layout<deinterleaved = 3> expected factor to be 2 or 4}}
func.func @deinterleave_by_three(%v: !pto.vmi.vreg<96xf32, #pto.vmi.layout<deinterleaved = 3>>) {
  return
}

// -----

// A group-slot layout has one logical lane per group.
// expected-error@+1 {{expected num_groups layout to describe exactly one logical result lane per group}}
func.func @groups_and_lanes(%v: !pto.vmi.vreg<16xf32, #pto.vmi.layout<num_groups = 8, slots = 8>>) {
  return
}

// -----

// expected-error@+1 {{pred mask must not carry layout}}
func.func @pred_with_layout(%m: !pto.vmi.mask<64xpred, #pto.vmi.layout<contiguous>>) {
  return
}

// -----

// expected-error@+1 {{expected an 8-bit, 16-bit, or 32-bit logical element type}}
func.func @wide_logical_lanes(%v: !pto.vmi.vreg<64xf64>) {
  return
}

// -----

// expected-error@+1 {{'!pto.struct' field 1 type !pto.local_array<2xi32> is not scalar-storable}}
func.func @array_in_struct(%s: !pto.struct<f32, !pto.local_array<2xi32>>) {
  return
}

// -----

// expected-error@+1 {{multi_tile_buf count must be <= 16 (got 17)}}
func.func @too_many_slots(%m: !pto.multi_tile_buf<vec, 16x16xf16, count=17>) {
  return
}

// -----

// expected-error@+1 {{'!pto.local_array' dimension 0 must be a positive static size, got 0}}
func.func @empty_array(%l: !pto.local_array<0xi32>) {
  return
}
