// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p pto-verify-target

// A popped tile whose valid shape comes from operands must leave it open in its type.
func.func @tpop_static_valid(%r: index, %c: index) {
  // expected-error@+1 {{'pto.tpop_from_aic' op expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col operands are provided}}
  %t = pto.tpop_from_aic(%r, %c) {split = 0} -> !pto.tile_buf<vec, 16x16xf32, valid=16x?>
  return
}

// -----

func.func @tpop_dynamic_valid(%r: index, %c: index) {
  %t = pto.tpop_from_aic(%r, %c) {split = 0} -> !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  %u = pto.tpop_from_aic {split = 0} -> !pto.tile_buf<vec, 16x16xf32>
  return
}

// -----

// Async DMA moves one contiguous run: a 4x32 memref is not one.
func.func @tput_async_2d(%d: memref<4x32xf32>, %s: memref<4x32xf32>, %x: !pto.async_session) {
  // expected-error@+1 {{'pto.tput_async' op expects dst to be a static flat contiguous logical 1D GM memref}}
  %e = pto.tput_async(%d, %s, %x : memref<4x32xf32>, memref<4x32xf32>, !pto.async_session) -> !pto.async_event
  return
}

// -----

func.func @tget_async_strided(%d: memref<1x128xf32>, %s: memref<1x128xf32, strided<[128, 2]>>, %x: !pto.async_session) {
  // expected-error@+1 {{'pto.tget_async' op expects src to be a static flat contiguous logical 1D GM memref}}
  %e = pto.tget_async(%d, %s, %x : memref<1x128xf32>, memref<1x128xf32, strided<[128, 2]>>, !pto.async_session) -> !pto.async_event
  return
}

// -----

func.func @tput_async_shapes(%d: memref<1x128xf32>, %s: memref<128xf32>, %x: !pto.async_session) {
  // expected-error@+1 {{'pto.tput_async' op expects src and dst to have the same static shape}}
  %e = pto.tput_async(%d, %s, %x : memref<1x128xf32>, memref<128xf32>, !pto.async_session) -> !pto.async_event
  return
}

// -----

func.func @tput_async_elements(%d: memref<128xf32>, %s: memref<128xf16>, %x: !pto.async_session) {
  // expected-error@+1 {{'pto.tput_async' op expects src and dst to have the same element type}}
  %e = pto.tput_async(%d, %s, %x : memref<128xf32>, memref<128xf16>, !pto.async_session) -> !pto.async_event
  return
}

// -----

func.func @tput_async_flat(%d: memref<1x128xf32>, %s: memref<1x128xf32>, %x: !pto.async_session) {
  %e = pto.tput_async(%d, %s, %x : memref<1x128xf32>, memref<1x128xf32>, !pto.async_session) -> !pto.async_event
  return
}

// -----

// Compare-form tgather (ins src, kValue, tmp; outs dst, cdst): A2A3 compares f16/f32,
// and i32 only for equality.
module attributes {pto.target_arch = "a2a3"} {
  func.func @tgather_compare_i16(%s: !pto.tile_buf<vec, 1x32xi16>, %k: i16, %t: !pto.tile_buf<vec, 1x32xi8>, %d: !pto.tile_buf<vec, 1x32xi32>, %c: !pto.tile_buf<vec, 1x32xi32>) {
    // expected-error@+1 {{'pto.tgather' op expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when cmpMode=eq, but got i16 with cmpMode=eq}}
    pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 1x32xi16>, i16, !pto.tile_buf<vec, 1x32xi8>) outs(%d, %c : !pto.tile_buf<vec, 1x32xi32>, !pto.tile_buf<vec, 1x32xi32>)
    return
  }
}

// -----

module attributes {pto.target_arch = "a2a3"} {
  func.func @tgather_compare_i32_gt(%s: !pto.tile_buf<vec, 1x32xi32>, %k: i32, %t: !pto.tile_buf<vec, 1x32xi8>, %d: !pto.tile_buf<vec, 1x32xi32>, %c: !pto.tile_buf<vec, 1x32xi32>) {
    // expected-error@+1 {{'pto.tgather' op expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when cmpMode=eq, but got i32 with cmpMode=gt}}
    pto.tgather ins(%s, %k, %t {cmpMode = #pto<cmp gt>} : !pto.tile_buf<vec, 1x32xi32>, i32, !pto.tile_buf<vec, 1x32xi8>) outs(%d, %c : !pto.tile_buf<vec, 1x32xi32>, !pto.tile_buf<vec, 1x32xi32>)
    return
  }
}

// -----

// A5 also compares i16; A2A3 compares i32 for equality.
module attributes {pto.target_arch = "a5"} {
  func.func @tgather_compare_a5(%s: !pto.tile_buf<vec, 1x32xi16>, %k: i16, %t: !pto.tile_buf<vec, 1x32xi8>, %d: !pto.tile_buf<vec, 1x32xi32>, %c: !pto.tile_buf<vec, 1x32xi32>) {
    pto.tgather ins(%s, %k, %t : !pto.tile_buf<vec, 1x32xi16>, i16, !pto.tile_buf<vec, 1x32xi8>) outs(%d, %c : !pto.tile_buf<vec, 1x32xi32>, !pto.tile_buf<vec, 1x32xi32>)
    return
  }
}

// -----

// The kernels a module exports (those marked pto.entry) return nothing; PTOAS main no
// longer takes a module's only definition for one.
func.func @only_definition(%a: i32) -> i32 {
  return %a : i32
}

// -----

func.func private @declared() -> i32
// expected-error@+1 {{'func.func' op PTO entry functions must return void}}
func.func @marked(%a: i32) -> i32 attributes {pto.entry} {
  return %a : i32
}
func.func @helper(%a: i32) -> i32 {
  return %a : i32
}

// -----

// Helpers may return values; an unmarked module of several definitions has no implicit entry.
func.func @kernel(%a: i32) attributes {pto.entry} {
  %b = func.call @helper(%a) : (i32) -> i32
  return
}
func.func @helper(%a: i32) -> i32 {
  return %a : i32
}

// -----

func.func @ping(%a: i32) attributes {pto.entry} {
  // expected-error@+1 {{'func.call' op recursive function calls are not supported}}
  func.call @pong(%a) : (i32) -> ()
  return
}
func.func @pong(%a: i32) {
  func.call @ping(%a) : (i32) -> ()
  return
}

// -----

// A level-1 kernel returns its tiles; marked as the entry, it must not.
func.func @level_1(%a: !pto.tile<vec, 16x16xf32>) -> !pto.tile<vec, 16x16xf32> {
  return %a : !pto.tile<vec, 16x16xf32>
}

// -----

// expected-error@+1 {{'func.func' op PTO entry functions must return void}}
func.func @level_1_entry(%a: !pto.tile<vec, 16x16xf32>) -> !pto.tile<vec, 16x16xf32> attributes {pto.entry} {
  return %a : !pto.tile<vec, 16x16xf32>
}

// -----

// A2A3 selects 16- and 32-bit elements only; A5 also selects bytes.
module attributes {pto.target_arch = "a2a3"} {
  func.func @tsel_i8(%m: !pto.tile_buf<vec, 2x128xi8>, %a: !pto.tile_buf<vec, 2x128xi8>, %b: !pto.tile_buf<vec, 2x128xi8>, %t: !pto.tile_buf<vec, 1x64xi8>, %d: !pto.tile_buf<vec, 2x128xi8>) {
    // expected-error@+1 {{A2A3 tsel does not support i8 (supported: bf16, f16, f32, i16, i32)}}
    pto.tsel ins(%m, %a, %b, %t : !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 1x64xi8>) outs(%d : !pto.tile_buf<vec, 2x128xi8>)
    return
  }
}

// -----

module attributes {pto.target_arch = "a5"} {
  func.func @tsel_i8_a5(%m: !pto.tile_buf<vec, 2x128xi8>, %a: !pto.tile_buf<vec, 2x128xi8>, %b: !pto.tile_buf<vec, 2x128xi8>, %t: !pto.tile_buf<vec, 1x64xi8>, %d: !pto.tile_buf<vec, 2x128xi8>) {
    pto.tsel ins(%m, %a, %b, %t : !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 2x128xi8>, !pto.tile_buf<vec, 1x64xi8>) outs(%d : !pto.tile_buf<vec, 2x128xi8>)
    return
  }
}
