// RUN: xla-emit-opt %s --split-input-file -p xla-unswitch-loops | filecheck %s

// The condition is loop-invariant: one test before two loops, one per branch.
func.func @unswitch(%c: i1, %x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %s = scf.if %c -> (f32) {
      %a = arith.addf %acc, %x : f32
      scf.yield %a : f32
    } else {
      %m = arith.mulf %acc, %x : f32
      scf.yield %m : f32
    }
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @unswitch
// CHECK:         %[[R:.*]] = scf.if %c -> (f32) {
// CHECK-NEXT:      %[[T:.*]] = scf.for %[[I:i]] = %c0 to %n step %c1 iter_args(%[[ACC:acc]] = %x) -> (f32) {
// CHECK-NEXT:        %[[A:.*]] = arith.addf %[[ACC]], %x : f32
// CHECK-NEXT:        scf.yield %[[A]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[T]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[E:.*]] = scf.for %{{.*}} = %c0 to %n step %c1 iter_args(%[[ACC2:.*]] = %x) -> (f32) {
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[ACC2]], %x : f32
// CHECK-NEXT:        scf.yield %[[M]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[E]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : f32

// -----

// Without an else branch the false side runs no loop at all.
func.func @no_else(%c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.if %c {
      "test.op"(%i) : (index) -> ()
    }
  }
  func.return
}
// CHECK-LABEL: func.func @no_else
// CHECK:         scf.if %c {
// CHECK-NEXT:      scf.for %[[I:i]] = %c0 to %n step %c1 {
// CHECK-NEXT:        "test.op"(%[[I]]) : (index) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Must not fire: the condition depends on the induction variable.
func.func @variant(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %c = arith.cmpi slt, %i, %c1 : index
    %s = scf.if %c -> (f32) {
      %a = arith.addf %acc, %x : f32
      scf.yield %a : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @variant
// CHECK-NEXT:    arith.constant 0
// CHECK-NEXT:    arith.constant 1
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.cmpi
// CHECK-NEXT:      scf.if

// -----

// Must not fire: the body does more than the scf.if.
func.func @more_work(%c: i1, %x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %acc : f32
    %s = scf.if %c -> (f32) {
      %z = arith.mulf %y, %y : f32
      scf.yield %z : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @more_work
// CHECK:         scf.for
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      scf.if %c

// -----

// XLA's pattern looks at the body's size only, and runs with the scf
// canonicalizations: here the scf.if's result is unused, so it goes, and
// then the loop, which only passes %acc through.
func.func @other_yield(%c: i1, %x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %s = scf.if %c -> (f32) {
      scf.yield %x : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %acc : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @other_yield
// CHECK-NOT:     scf.for
// CHECK-NOT:     scf.if
// CHECK:         func.return %x

// -----

// A nest of loops around one scf.if is unswitched level by level; the iter
// arg that only passes the tensor through goes, and the loop of one trip is
// replaced by its body, so the test ends up outside the whole nest.
func.func @nest(%c: i1, %t: tensor<8xf32>, %x: f32) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%ta = %t, %a = %x) -> (tensor<8xf32>, f32) {
    %s:2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%tb = %ta, %b = %a) -> (tensor<8xf32>, f32) {
      %u:2 = scf.if %c -> (tensor<8xf32>, f32) {
        %y = arith.addf %b, %x : f32
        scf.yield %tb, %y : tensor<8xf32>, f32
      } else {
        scf.yield %tb, %b : tensor<8xf32>, f32
      }
      scf.yield %u#0, %u#1 : tensor<8xf32>, f32
    }
    scf.yield %s#0, %s#1 : tensor<8xf32>, f32
  }
  func.return %r#0, %r#1 : tensor<8xf32>, f32
}
// CHECK-LABEL: func.func @nest
// CHECK:         %[[R:.*]] = scf.if %c -> (f32) {
// CHECK-NEXT:      %[[L:.*]] = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%[[B:.*]] = %x) -> (f32) {
// CHECK-NEXT:        %[[Y:.*]] = arith.addf %[[B]], %x : f32
// CHECK-NEXT:        scf.yield %[[Y]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[L]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %x : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %t, %[[R]] : tensor<8xf32>, f32
