// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p pto-to-dps

// scf.while is not lowered: it would need its before and after regions to
// agree on one buffer per carried tile.
func.func @while_carried(%a: !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32> {
  // expected-error@+1 {{pto-to-dps does not lower 'scf.while' carrying a !pto.tile value; carry tiles through scf.for iter_args and scf.if results}}
  %r = scf.while (%t = %a) : (!pto.tile<16x16xf32>) -> !pto.tile<16x16xf32> {
    %c = arith.constant false
    scf.condition(%c) %t : !pto.tile<16x16xf32>
  } do {
  ^bb0(%u: !pto.tile<16x16xf32>):
    %e = pto.texp %u : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    scf.yield %e : !pto.tile<16x16xf32>
  }
  return %r : !pto.tile<16x16xf32>
}

// -----

func.func @placed_iter_arg(%a: !pto.tile<16x16xf32>, %n: index) -> !pto.tile<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!pto.tile<16x16xf32>) {
    // expected-error@+1 {{pto-to-dps places a loop-carried tile through its init value, not the iter_arg (one buffer holds it for the whole loop)}}
    pto.tassign %t, @tile(0x1000)
    %e = pto.texp %t : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    scf.yield %e : !pto.tile<16x16xf32>
  }
  return %r : !pto.tile<16x16xf32>
}

// -----

func.func @dynamic_valid(%a: !pto.tile<16x16xf32, valid=?x?>) -> !pto.tile<16x16xf32, valid=?x?> {
  // expected-error@+1 {{pto-to-dps cannot allocate !pto.tile_buf<vec, 16x16xf32, valid=?x?>: its valid shape is dynamic; write this op at level 2 with `pto.alloc_tile valid_row = ... valid_col = ...`}}
  %e = pto.texp %a : !pto.tile<16x16xf32, valid=?x?> -> !pto.tile<16x16xf32, valid=?x?>
  return %e : !pto.tile<16x16xf32, valid=?x?>
}

// -----

func.func @ssa_tassign(%a: !pto.tile<16x16xf32>, %addr: i64) -> !pto.tile<16x16xf32> {
  %e = pto.texp %a : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // expected-error@+1 {{pto-to-dps binds level-1 tiles with `pto.tassign %t, @tile(ADDRESS)`; the address-operand form is for level-2 buffers}}
  %f = pto.tassign %e, %addr : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  return %f : !pto.tile<16x16xf32>
}

// -----

// A carried tile whose init belongs to the caller needs a buffer of its own,
// which cannot be allocated with a dynamic valid shape.
func.func @carried_dynamic(%a: !pto.tile<8x8xf32, valid=?x?>, %n: index) -> !pto.tile<8x8xf32, valid=?x?> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{pto-to-dps cannot allocate !pto.tile_buf<vec, 8x8xf32, valid=?x?>: its valid shape is dynamic; write this op at level 2 with `pto.alloc_tile valid_row = ... valid_col = ...`}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!pto.tile<8x8xf32, valid=?x?>) {
    scf.yield %t : !pto.tile<8x8xf32, valid=?x?>
  }
  return %r : !pto.tile<8x8xf32, valid=?x?>
}
