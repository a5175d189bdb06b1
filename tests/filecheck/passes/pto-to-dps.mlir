// RUN: xla-emit-opt %s --split-input-file -p pto-to-dps | filecheck %s

// Each value gets a buffer; elementwise ops write the buffer of an operand
// whose last use they are; ttrans never writes the buffer it reads.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>)
// CHECK-NEXT:  %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%x : !pto.tile_buf<vec, 16x16xf32>)
// CHECK-NEXT:  pto.texp ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%x : !pto.tile_buf<vec, 16x16xf32>)
// CHECK-NEXT:  %y = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.ttrans ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%y : !pto.tile_buf<vec, 16x16xf32>)
// CHECK-NEXT:  pto.tadd ins(%y, %y : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%y : !pto.tile_buf<vec, 16x16xf32>)
// CHECK-NEXT:  pto.tstore ins(%y : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
// CHECK-NEXT:  func.return
func.func @chain(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>) {
  %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  %e = pto.texp %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  %y = pto.ttrans %e : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  %z = pto.tadd %y, %y : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  pto.tstore %z, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}

// -----

// A value still live is not overwritten; a dead value's buffer of the same
// type is taken by the next op, even a ttrans (it reads another buffer).
// CHECK-LABEL: func.func @reuse_after_death
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>
// CHECK:       %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>
// CHECK-NEXT:  pto.texp ins(%a : {{.*}}) outs(%b : {{.*}})
// CHECK-NEXT:  pto.tadd ins(%a, %b : {{.*}}) outs(%a : {{.*}})
// CHECK-NEXT:  pto.ttrans ins(%a : {{.*}}) outs(%b : {{.*}})
// CHECK-NEXT:  pto.tstore ins(%b : {{.*}}) outs(%out : {{.*}})
// CHECK-NOT:   pto.alloc_tile
func.func @reuse_after_death(%in: !pto.partition_tensor_view<16x16xf16>, %out: !pto.partition_tensor_view<16x16xf16>) {
  %a = pto.tload %in : !pto.partition_tensor_view<16x16xf16> -> !pto.tile<16x16xf16>
  %b = pto.texp %a : !pto.tile<16x16xf16> -> !pto.tile<16x16xf16>
  %c = pto.tadd %a, %b : (!pto.tile<16x16xf16>, !pto.tile<16x16xf16>) -> !pto.tile<16x16xf16>
  %d = pto.ttrans %c : !pto.tile<16x16xf16> -> !pto.tile<16x16xf16>
  pto.tstore %d, %out : (!pto.tile<16x16xf16>, !pto.partition_tensor_view<16x16xf16>) -> ()
  return
}

// -----

// Buffers are reused only for the same type; arguments and returned values
// are the caller's and never recycled.
// CHECK-LABEL: func.func @arguments_and_results
// CHECK-SAME: (%a: !pto.tile_buf<vec, 8x8xf32>) -> (!pto.tile_buf<vec, 8x8xf32>, !pto.tile_buf<vec, 8x1xf32>)
// CHECK-NEXT:  %e = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.texp ins(%a : {{.*}}) outs(%e : {{.*}})
// CHECK-NEXT:  %r = pto.alloc_tile : !pto.tile_buf<vec, 8x1xf32>
// CHECK-NEXT:  pto.trowmax ins(%e : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  %n = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tabs ins(%e
// CHECK-SAME:  outs(%n
// CHECK-NEXT:  func.return %n, %r : !pto.tile_buf<vec, 8x8xf32>, !pto.tile_buf<vec, 8x1xf32>
func.func @arguments_and_results(%a: !pto.tile<8x8xf32>) -> (!pto.tile<8x8xf32>, !pto.tile<8x1xf32>) {
  %e = pto.texp %a : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
  %r = pto.trowmax %e : !pto.tile<8x8xf32> -> !pto.tile<8x1xf32>
  %n = pto.tabs %e : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
  return %n, %r : !pto.tile<8x8xf32>, !pto.tile<8x1xf32>
}

// -----

// A tassign'ed value keeps its own buffer, bound right after its alloc_tile
// (manual mode): the address holds for the value's whole life.
// CHECK-LABEL: func.func @manual_placement
// CHECK-NEXT:  %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %x, @tile(0x1000)
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT:  %y = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %y, @tile(0x2000)
// CHECK-NEXT:  pto.texp ins(%x : {{.*}}) outs(%y : {{.*}})
// CHECK-NEXT:  pto.tstore ins(%y
func.func @manual_placement(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>) {
  %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  pto.tassign %x, @tile(0x1000)
  %y = pto.texp %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  pto.tassign %y, @tile(0x2000)
  pto.tstore %y, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}

// -----

// A value read inside a loop stays live through the whole loop: the loop
// body's values get buffers of their own, recycled inside the body; after
// the loop the value dies at its last use and relu writes it in place.
// CHECK-LABEL: func.func @loop
// CHECK:       %x = pto.alloc_tile
// CHECK:       scf.for
// CHECK-NEXT:    %e = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:    pto.texp ins(%x : {{.*}}) outs(%e : {{.*}})
// CHECK-NEXT:    pto.tabs ins(%e : {{.*}}) outs(%e : {{.*}})
// CHECK-NEXT:    pto.tstore ins(%e
// CHECK:       }
// CHECK-NEXT:  pto.trelu ins(%x : {{.*}}) outs(%x : {{.*}})
func.func @loop(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  scf.for %i = %c0 to %n step %c1 {
    %e = pto.texp %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    %a = pto.tabs %e : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    pto.tstore %a, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  }
  %z = pto.trelu %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  pto.tstore %z, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}
