// RUN: xla-emit-opt %s --split-input-file -p pto-plan-memory | filecheck %s

// Buffers whose lives do not overlap share address 0.
// CHECK-LABEL: func.func @sequential_reuse
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %a, @tile(0x0)
// CHECK:       %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %b, @tile(0x0)
// CHECK:       %c = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf16>
// CHECK-NEXT:  pto.tassign %c, @tile(0x0)
func.func @sequential_reuse(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %in16: !pto.partition_tensor_view<8x8xf16>) {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  pto.tstore ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.tstore ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  %c = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf16>
  pto.tload ins(%in16 : !pto.partition_tensor_view<8x8xf16>) outs(%c : !pto.tile_buf<vec, 8x8xf16>)
  return
}

// -----

// Live at once: disjoint addresses, each rounded up to 32 bytes
// (3x3xf32 = 36 bytes takes 64; 16x1xf32 = 64 bytes).
// CHECK-LABEL: func.func @overlapping_lives
// CHECK:       pto.tassign %a, @tile(0x0)
// CHECK:       pto.tassign %b, @tile(0x40)
// CHECK:       pto.tassign %c, @tile(0x80)
func.func @overlapping_lives() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 3x3xf32>
  %b = pto.alloc_tile : !pto.tile_buf<vec, 3x3xf32>
  %c = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32, valid=3x1>
  pto.tadd ins(%a, %b : !pto.tile_buf<vec, 3x3xf32>, !pto.tile_buf<vec, 3x3xf32>) outs(%a : !pto.tile_buf<vec, 3x3xf32>)
  pto.trowsum ins(%a : !pto.tile_buf<vec, 3x3xf32>) outs(%c : !pto.tile_buf<vec, 16x1xf32, valid=3x1>)
  return
}

// -----

// Each location has its own memory.
// CHECK-LABEL: func.func @locations
// CHECK:       pto.tassign %l, @tile(0x0)
// CHECK:       pto.tassign %r, @tile(0x0)
// CHECK:       pto.tassign %acc, @tile(0x0)
func.func @locations() {
  %l = pto.alloc_tile : !pto.tile_buf<left, 16x16xf16>
  %r = pto.alloc_tile : !pto.tile_buf<right, 16x16xf16>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32>
  pto.tmatmul ins(%l, %r : !pto.tile_buf<left, 16x16xf16>, !pto.tile_buf<right, 16x16xf16>) outs(%acc : !pto.tile_buf<acc, 16x16xf32>)
  return
}

// -----

// %x is read in every iteration: a buffer allocated inside the loop must not
// take its place, even after %x's last use in program order.
// CHECK-LABEL: func.func @loop_keeps_outer_buffer_live
// CHECK:       pto.tassign %x, @tile(0x0)
// CHECK:       scf.for
// CHECK:         pto.tassign %y, @tile(0x400)
func.func @loop_keeps_outer_buffer_live(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  scf.for %i = %c0 to %n step %c1 {
    pto.texp ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%x : !pto.tile_buf<vec, 16x16xf32>)
    %y = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tabs ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%y : !pto.tile_buf<vec, 16x16xf32>)
  }
  return
}

// -----

// Manual mode: the user's address stays, the other buffer goes around it.
// CHECK-LABEL: func.func @manual_and_planned
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %a, @tile(0x0)
// CHECK-NEXT:  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %b, @tile(0x400)
// CHECK-NOT:   pto.tassign
func.func @manual_and_planned() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tassign %a, @tile(0x0)
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

// Manual addresses may overlap when the buffers are not live together.
// CHECK-LABEL: func.func @manual_disjoint_lives
// CHECK:       pto.tassign %a, @tile(0x1000)
// CHECK:       pto.tassign %b, @tile(0x1000)
func.func @manual_disjoint_lives(%in: !pto.partition_tensor_view<16x16xf32>) {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tassign %a, @tile(0x1000)
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tassign %b, @tile(0x1000)
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

// A 200 KB buffer fits A5's 256 KB UB.
// CHECK-LABEL: func.func @a5_capacity
// CHECK:       pto.tassign %big, @tile(0x0)
module attributes {pto.target_arch = "a5"} {
  func.func @a5_capacity() {
    %big = pto.alloc_tile : !pto.tile_buf<vec, 200x256xf32>
    pto.texp ins(%big : !pto.tile_buf<vec, 200x256xf32>) outs(%big : !pto.tile_buf<vec, 200x256xf32>)
    return
  }
}

// -----

// A loop-carried buffer (allocated before the loop, written in the body) is
// bound once, before the loop; the body's buffers are bound inside it, right
// after their alloc_tile, to addresses clear of everything live in the loop.
// CHECK-LABEL: func.func @carried_buffer
// CHECK:       %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tassign %x, @tile(0x0)
// CHECK:       %m = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:  pto.tassign %m, @tile(0x400)
// CHECK-NEXT:  pto.trowmax
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    %b = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:    pto.tassign %b, @tile(0x440)
// CHECK:         %d = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:    pto.tassign %d, @tile(0x480)
// CHECK-NOT:     pto.tassign
// CHECK:       func.return
func.func @carried_buffer(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x1xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%x : !pto.tile_buf<vec, 16x16xf32>)
  %m = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
  pto.trowmax ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%m : !pto.tile_buf<vec, 16x1xf32>)
  scf.for %i = %c0 to %n step %c1 {
    %b = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
    pto.trowsum ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x1xf32>)
    pto.tmax ins(%m, %b : !pto.tile_buf<vec, 16x1xf32>, !pto.tile_buf<vec, 16x1xf32>) outs(%b : !pto.tile_buf<vec, 16x1xf32>)
    %d = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
    pto.tsub ins(%m, %b : !pto.tile_buf<vec, 16x1xf32>, !pto.tile_buf<vec, 16x1xf32>) outs(%d : !pto.tile_buf<vec, 16x1xf32>)
    pto.tstore ins(%d : !pto.tile_buf<vec, 16x1xf32>) outs(%out : !pto.partition_tensor_view<16x1xf32>)
    pto.tmov ins(%b : !pto.tile_buf<vec, 16x1xf32>) outs(%m : !pto.tile_buf<vec, 16x1xf32>)
  }
  pto.tstore ins(%m : !pto.tile_buf<vec, 16x1xf32>) outs(%out : !pto.partition_tensor_view<16x1xf32>)
  return
}

// -----

// A buffer allocated in a loop body has one address for every iteration; it
// avoids %c, live across the loop, but not %a, dead before it.
// CHECK-LABEL: func.func @loop_local
// CHECK:       pto.tassign %a, @tile(0x0)
// CHECK:       pto.tassign %c, @tile(0x0)
// CHECK:       scf.for
// CHECK-NEXT:    %t = pto.alloc_tile
// CHECK-NEXT:    pto.tassign %t, @tile(0x400)
func.func @loop_local(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  pto.tstore ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  %c = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%c : !pto.tile_buf<vec, 16x16xf32>)
  scf.for %i = %c0 to %n step %c1 {
    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)
    pto.tstore ins(%t : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  }
  pto.tstore ins(%c : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  return
}

// -----

// %o, allocated in the outer body, is read in every trip of the inner loop:
// %p must not take its place although %o's last use comes first in program
// order; %q, after the inner loop, may.
// CHECK-LABEL: func.func @nested
// CHECK:       scf.for %i
// CHECK-NEXT:    %o = pto.alloc_tile
// CHECK-NEXT:    pto.tassign %o, @tile(0x0)
// CHECK:         scf.for %j
// CHECK:           pto.tassign %p, @tile(0x400)
// CHECK:         pto.tassign %q, @tile(0x0)
func.func @nested(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %o = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%o : !pto.tile_buf<vec, 16x16xf32>)
    scf.for %j = %c0 to %n step %c1 {
      pto.texp ins(%o : !pto.tile_buf<vec, 16x16xf32>) outs(%o : !pto.tile_buf<vec, 16x16xf32>)
      %p = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
      pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%p : !pto.tile_buf<vec, 16x16xf32>)
      pto.tstore ins(%p : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
    }
    %q = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%q : !pto.tile_buf<vec, 16x16xf32>)
    pto.tstore ins(%q : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  }
  return
}

// -----

// Buffers of the two branches of an scf.if are never live together.
// CHECK-LABEL: func.func @branches
// CHECK:       pto.tassign %r, @tile(0x0)
// CHECK:       scf.if
// CHECK:         pto.tassign %t, @tile(0x400)
// CHECK:       } else {
// CHECK:         pto.tassign %e, @tile(0x400)
func.func @branches(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %c: i1) {
  %r = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  scf.if %c {
    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)
    pto.texp ins(%t : !pto.tile_buf<vec, 16x16xf32>) outs(%r : !pto.tile_buf<vec, 16x16xf32>)
  } else {
    %e = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%e : !pto.tile_buf<vec, 16x16xf32>)
    pto.tabs ins(%e : !pto.tile_buf<vec, 16x16xf32>) outs(%r : !pto.tile_buf<vec, 16x16xf32>)
  }
  pto.tstore ins(%r : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  return
}
