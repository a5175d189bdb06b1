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

// -----

// A carried accumulator: the init dies at the loop, so the loop carries its
// buffer and the yielded sum is written into it in place; the level-2 loop
// has no iter_args and its result is the buffer.
// CHECK-LABEL: func.func @carried_accumulator
// CHECK:       %init = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:    pto.tload ins(%in : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT:    pto.texp ins(%x : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT:    pto.tadd ins(%init, %x : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tstore ins(%init : {{.*}}) outs(%out : {{.*}})
// CHECK-NOT:   pto.tmov
func.func @carried_accumulator(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!pto.tile<16x16xf32>) {
    %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
    %e = pto.texp %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    %next = pto.tadd %acc, %e : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
    scf.yield %next : !pto.tile<16x16xf32>
  }
  pto.tstore %sum, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}

// -----

// The previous running max is still read after the new one is made (tsub),
// so tmax writes a body buffer and a tmov before the yield moves it into the
// carried buffer. Scalars keep being carried.
// CHECK-LABEL: func.func @read_after_producer
// CHECK:       %m0 = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:  pto.trowmax ins(%x : {{.*}}) outs(%m0 : {{.*}})
// CHECK-NEXT:  %k = scf.for %i = %c0 to %n step %c1 iter_args(%ki = %c0) -> (index) {
// CHECK-NEXT:    %b = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:    pto.trowsum ins(%x : {{.*}}) outs(%b : {{.*}})
// CHECK-NEXT:    pto.tmax ins(%m0, %b : {{.*}}) outs(%b : {{.*}})
// CHECK-NEXT:    %d = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT:    pto.tsub ins(%m0, %b : {{.*}}) outs(%d : {{.*}})
// CHECK-NEXT:    pto.tstore ins(%d : {{.*}}) outs(%out : {{.*}})
// CHECK-NEXT:    %kn = arith.addi %ki, %c1 : index
// CHECK-NEXT:    pto.tmov ins(%b : !pto.tile_buf<vec, 16x1xf32>) outs(%m0 : !pto.tile_buf<vec, 16x1xf32>)
// CHECK-NEXT:    scf.yield %kn : index
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tstore ins(%m0 : {{.*}}) outs(%out : {{.*}})
func.func @read_after_producer(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x1xf32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  %m0 = pto.trowmax %x : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
  %m, %k = scf.for %i = %c0 to %n step %c1 iter_args(%mi = %m0, %ki = %c0) -> (!pto.tile<16x1xf32>, index) {
    %b = pto.trowsum %x : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
    %mn = pto.tmax %mi, %b : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
    %d = pto.tsub %mi, %mn : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
    pto.tstore %d, %out : (!pto.tile<16x1xf32>, !pto.partition_tensor_view<16x1xf32>) -> ()
    %kn = arith.addi %ki, %c1 : index
    scf.yield %mn, %kn : !pto.tile<16x1xf32>, index
  }
  pto.tstore %m, %out : (!pto.tile<16x1xf32>, !pto.partition_tensor_view<16x1xf32>) -> ()
  return %k : index
}

// -----

// Swapping two carried tiles is a parallel copy: the cycle goes through a
// scratch buffer.
// CHECK-LABEL: func.func @swap
// CHECK:       scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    %[[SCRATCH:[0-9a-z_]+]] = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:    pto.tmov ins(%a : {{.*}}) outs(%[[SCRATCH]] : {{.*}})
// CHECK-NEXT:    pto.tmov ins(%b : {{.*}}) outs(%a : {{.*}})
// CHECK-NEXT:    pto.tmov ins(%[[SCRATCH]] : {{.*}}) outs(%b : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tsub ins(%a, %b : {{.*}}) outs(%a : {{.*}})
func.func @swap(%in: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
  %b = pto.texp %a : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %a, %q = %b) -> (!pto.tile<8x8xf32>, !pto.tile<8x8xf32>) {
    scf.yield %q, %p : !pto.tile<8x8xf32>, !pto.tile<8x8xf32>
  }
  %d = pto.tsub %r#0, %r#1 : (!pto.tile<8x8xf32>, !pto.tile<8x8xf32>) -> !pto.tile<8x8xf32>
  pto.tstore %d, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
  return
}

// -----

// Nested loops: the outer iter_arg dies as the inner loop's init, so both
// loops carry the one buffer of %init and nothing is copied.
// CHECK-LABEL: func.func @nested_loops
// CHECK:       %init = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    scf.for %j = %c0 to %n step %c1 {
// CHECK-NEXT:      %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT:      pto.tload ins(%in : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT:      pto.tmax ins(%init, %x : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    pto.tmuls ins(%init, %s : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tstore ins(%init : {{.*}}) outs(%out : {{.*}})
// CHECK-NOT:   pto.tmov
func.func @nested_loops(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %n: index, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (!pto.tile<16x16xf32>) {
    %inner = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %outer) -> (!pto.tile<16x16xf32>) {
      %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
      %next = pto.tmax %acc, %x : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
      scf.yield %next : !pto.tile<16x16xf32>
    }
    %scaled = pto.tmuls %inner, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
    scf.yield %scaled : !pto.tile<16x16xf32>
  }
  pto.tstore %r, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}

// -----

// An scf.if result gets a buffer before the branch; the then-branch's texp
// writes it, the else-branch copies the yielded outer value into it.
// CHECK-LABEL: func.func @branch_result
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%a : {{.*}})
// CHECK-NEXT:  %r = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  scf.if %c {
// CHECK-NEXT:    pto.texp ins(%a : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  } else {
// CHECK-NEXT:    pto.tmov ins(%a : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tsub ins(%r, %a : {{.*}}) outs(%r : {{.*}})
func.func @branch_result(%in: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>, %c: i1) {
  %a = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
  %r = scf.if %c -> (!pto.tile<8x8xf32>) {
    %e = pto.texp %a : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
    scf.yield %e : !pto.tile<8x8xf32>
  } else {
    scf.yield %a : !pto.tile<8x8xf32>
  }
  %d = pto.tsub %r, %a : (!pto.tile<8x8xf32>, !pto.tile<8x8xf32>) -> !pto.tile<8x8xf32>
  pto.tstore %d, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
  return
}

// -----

// A branch inside a loop that updates the accumulator or keeps it: the
// branch writes the loop's buffer in place and the else-branch disappears.
// CHECK-LABEL: func.func @branch_in_loop
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK:       scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      %x = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:      pto.tload ins(%in : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT:      pto.tadd ins(%a, %x : {{.*}}) outs(%a : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tstore ins(%a : {{.*}}) outs(%out : {{.*}})
// CHECK-NOT:   pto.tmov
func.func @branch_in_loop(%in: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!pto.tile<8x8xf32>) {
    %next = scf.if %c -> (!pto.tile<8x8xf32>) {
      %x = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
      %sum = pto.tadd %acc, %x : (!pto.tile<8x8xf32>, !pto.tile<8x8xf32>) -> !pto.tile<8x8xf32>
      scf.yield %sum : !pto.tile<8x8xf32>
    } else {
      scf.yield %acc : !pto.tile<8x8xf32>
    }
    scf.yield %next : !pto.tile<8x8xf32>
  }
  pto.tstore %r, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
  return
}

// -----

// The init is read again after the loop: the loop carries a buffer of its
// own, filled from the init by a tmov before the loop.
// CHECK-LABEL: func.func @init_live_after_loop
// CHECK:       %a = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%a : {{.*}})
// CHECK-NEXT:  %r = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tmov ins(%a : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    pto.texp ins(%r : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  pto.tsub ins(%r, %a : {{.*}}) outs(%r : {{.*}})
func.func @init_live_after_loop(%in: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!pto.tile<8x8xf32>) {
    %e = pto.texp %t : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
    scf.yield %e : !pto.tile<8x8xf32>
  }
  %d = pto.tsub %r, %a : (!pto.tile<8x8xf32>, !pto.tile<8x8xf32>) -> !pto.tile<8x8xf32>
  pto.tstore %d, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
  return
}

// -----

// A carried tile the function returns belongs to the caller: its buffer is
// never the (recyclable) init's, and ttrans, which cannot write the buffer it
// reads, goes through a body buffer and a tmov.
// CHECK-LABEL: func.func @returned_and_transposed
// CHECK-SAME:  (%a: !pto.tile_buf<vec, 8x8xf32>, %n: index) -> !pto.tile_buf<vec, 8x8xf32>
// CHECK:       %r = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tmov ins(%a : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    %tr = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:    pto.ttrans ins(%r : {{.*}}) outs(%tr : {{.*}})
// CHECK-NEXT:    pto.tmov ins(%tr : {{.*}}) outs(%r : {{.*}})
// CHECK-NEXT:  }
// CHECK-NEXT:  func.return %r : !pto.tile_buf<vec, 8x8xf32>
func.func @returned_and_transposed(%a: !pto.tile<8x8xf32>, %n: index) -> !pto.tile<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!pto.tile<8x8xf32>) {
    %tr = pto.ttrans %t : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
    scf.yield %tr : !pto.tile<8x8xf32>
  }
  return %r : !pto.tile<8x8xf32>
}

// -----

// The inner loop carries the outer accumulator's buffer on (the outer
// iter_arg dies as its init); its result is still read after %next is made,
// so %next cannot go straight into that buffer: it is copied at the yield.
// CHECK-LABEL: func.func @carried_on_then_read
// CHECK:       %init = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:  pto.tload ins(%in : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:    scf.for %j = %c0 to %n step %c1 {
// CHECK-NEXT:      pto.texp ins(%init : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    %next = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
// CHECK-NEXT:    pto.tload ins(%in : {{.*}}) outs(%next : {{.*}})
// CHECK-NEXT:    pto.tstore ins(%init : {{.*}}) outs(%out : {{.*}})
// CHECK-NEXT:    pto.tmov ins(%next : {{.*}}) outs(%init : {{.*}})
// CHECK-NEXT:  }
func.func @carried_on_then_read(%in: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (!pto.tile<8x8xf32>) {
    %inner = scf.for %j = %c0 to %n step %c1 iter_args(%t = %acc) -> (!pto.tile<8x8xf32>) {
      %e = pto.texp %t : !pto.tile<8x8xf32> -> !pto.tile<8x8xf32>
      scf.yield %e : !pto.tile<8x8xf32>
    }
    %next = pto.tload %in : !pto.partition_tensor_view<8x8xf32> -> !pto.tile<8x8xf32>
    pto.tstore %inner, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
    scf.yield %next : !pto.tile<8x8xf32>
  }
  pto.tstore %r, %out : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()
  return
}
