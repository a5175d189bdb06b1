// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p pto-to-dps

func.func @carried_tile(%a: !pto.tile<16x16xf32>, %n: index) -> !pto.tile<16x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{pto-to-dps does not lower 'scf.for' carrying a !pto.tile value; pass tiles into loops and branches as values defined outside them}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!pto.tile<16x16xf32>) {
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
