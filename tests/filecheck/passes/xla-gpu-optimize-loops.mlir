// RUN: xla-emit-opt %s --split-input-file -p 'xla-gpu-optimize-loops{greedy-cleanup=false}' | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p xla-gpu-optimize-loops | filecheck %s --check-prefix=FOLD
// RUN: xla-emit-opt %s --split-input-file -p 'xla-gpu-optimize-loops{max-unroll-factor=16}' | filecheck %s --check-prefix=MAX16
// RUN: xla-emit-opt %s --split-input-file -p 'xla-gpu-optimize-loops{max-unroll-factor=1000000}' | filecheck %s --check-prefix=HUGE
// RUN: xla-emit-opt %s --split-input-file -p 'xla-gpu-optimize-loops{max_unroll_factor=3}' | filecheck %s --check-prefix=MAX3

// A 4-trip vector loop (the seed's) unrolls fully: four copies of the body at
// constant positions named after the induction variable.
func.func @full_unroll(%v: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %v) -> (vector<4xf32>) {
    %e = vector.extract %v[%i] : f32 from vector<4xf32>
    %t = math.tanh %e : f32
    %n = vector.insert %t, %acc [%i] : f32 into vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
  func.return %r : vector<4xf32>
}
// CHECK-LABEL: func.func @full_unroll
// CHECK-NOT:   scf.for
// CHECK:       %[[I0:i]] = arith.constant 0 : index
// CHECK:       %[[E0:.*]] = vector.extract %v[%[[I0]]]
// CHECK-NEXT:  math.tanh %[[E0]]
// CHECK:       %[[N0:.*]] = vector.insert %{{.*}}, %v [%[[I0]]]
// CHECK:       %[[I1:i_1]] = arith.constant 1 : index
// CHECK:       %[[N1:.*]] = vector.insert %{{.*}}, %[[N0]] [%[[I1]]]
// CHECK:       %[[I2:i_2]] = arith.constant 2 : index
// CHECK:       %[[N2:.*]] = vector.insert %{{.*}}, %[[N1]] [%[[I2]]]
// CHECK:       %[[I3:i_3]] = arith.constant 3 : index
// CHECK:       %[[N3:.*]] = vector.insert %{{.*}}, %[[N2]] [%[[I3]]]
// CHECK:       func.return %[[N3]]
// By default the pass folds as XLA's greedy driver does: the copies take
// their positions as static ones and the loop's constants, now unused, go.
// FOLD-LABEL: func.func @full_unroll
// FOLD-NOT:   arith.constant
// FOLD:       %[[E0:.*]] = vector.extract %v[0] : f32 from vector<4xf32>
// FOLD-NEXT:  %[[T0:.*]] = math.tanh %[[E0]]
// FOLD-NEXT:  %[[N0:.*]] = vector.insert %[[T0]], %v [0]
// FOLD:       %[[N1:.*]] = vector.insert %{{.*}}, %[[N0]] [1]
// FOLD:       %[[N2:.*]] = vector.insert %{{.*}}, %[[N1]] [2]
// FOLD:       %[[N3:.*]] = vector.insert %{{.*}}, %[[N2]] [3]
// FOLD-NEXT:  func.return %[[N3]]

// -----

// A loop that never runs is left alone: its unroll factor min(0, 400 // size)
// is below 2, and XLA's pass only unrolls by a factor of 2 or more.
func.func @zero_trips(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %acc : f32
    scf.yield %y : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @zero_trips(%x: f32)
// CHECK:       scf.for
// CHECK-NEXT:    arith.addf
// CHECK-NOT:   arith.addf

// -----

// 8 trips > 4: partial unrolling. The body costs 5 * 20 (tanh) + 1 + yield
// = 102, so f = 400 // 102 = 3, lowered to 2 to divide 8: step 2, two copies,
// the second at %i + 1. A max-unroll-factor of 16 does not raise it.
func.func @partial_unroll(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (f32) {
    %a = math.tanh %acc : f32
    %b = math.tanh %a : f32
    %c = math.tanh %b : f32
    %d = math.tanh %c : f32
    %e = math.tanh %d : f32
    %f = arith.addf %e, %x : f32
    scf.yield %f : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @partial_unroll
// CHECK:       %[[STEP:.*]] = arith.constant 2 : index
// CHECK:       scf.for %[[IV:i]] = %{{.*}} to %{{.*}} step %[[STEP]] iter_args(%[[ACC:acc]] = %x)
// CHECK-COUNT-5: math.tanh
// CHECK:       %[[F0:.*]] = arith.addf %{{.*}}, %x
// CHECK:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK:       %{{.*}} = arith.addi %[[IV]], %[[ONE]] : index
// CHECK:       math.tanh %[[F0]]
// CHECK-COUNT-4: math.tanh
// CHECK:       %[[F1:.*]] = arith.addf %{{.*}}, %x
// CHECK:       scf.yield %[[F1]]
// Fully unrolled, the 8 trips would cost 8 * 102 > 400, XLA's cap on an
// unrolled body: max-unroll-factor only caps, it never raises the factor.
// MAX16-LABEL: func.func @partial_unroll
// MAX16:       arith.constant 2 : index
// MAX16:       scf.for
// MAX16-COUNT-10: math.tanh
// MAX16-NOT:   math.tanh

// -----

// Must not fire: lower bound not 0, step not 1, dynamic upper bound.
func.func @not_canonical(%x: f32, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %a = scf.for %i = %c1 to %c4 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  %b = scf.for %i = %c0 to %c4 step %c2 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  func.return %a, %b, %c : f32, f32, f32
}
// CHECK-LABEL: func.func @not_canonical
// CHECK:       scf.for %{{.*}} = %c1 to %c4 step %c1
// CHECK-NEXT:    arith.addf
// CHECK:       scf.for %{{.*}} = %c0 to %c4 step %c2
// CHECK-NEXT:    arith.addf
// CHECK:       scf.for %{{.*}} = %c0 to %n step %c1
// CHECK-NEXT:    arith.addf
// CHECK-NOT:   arith.addf

// -----

// Must not fire: a call in the body, a nested loop, an expensive inverse
// trigonometric function.
func.func private @callee(f32) -> f32

func.func @blocked(%x: f32, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = func.call @callee(%acc) : (f32) -> f32
    scf.yield %y : f32
  }
  %b = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f32) {
    %inner = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (f32) {
      %y = arith.addf %acc2, %x : f32
      scf.yield %y : f32
    }
    scf.yield %inner : f32
  }
  %c = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = math.asin %acc : f32
    scf.yield %y : f32
  }
  func.return %a, %b, %c : f32, f32, f32
}
// CHECK-LABEL: func.func @blocked
// CHECK:       scf.for
// CHECK-NEXT:    func.call @callee
// CHECK-NOT:   func.call
// CHECK:       scf.for
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addf
// CHECK-NOT:   arith.addf
// CHECK:       scf.for
// CHECK-NEXT:    math.asin
// CHECK-NOT:   math.asin

// -----

// Vector results count once per element: 16 trips of a body whose vector
// tanh costs 20 * 8 = 160 (+ yield) give f = 400 // 161 = 2.
func.func @vector_cost(%x: vector<8xf32>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %x) -> (vector<8xf32>) {
    %y = math.tanh %acc : vector<8xf32>
    scf.yield %y : vector<8xf32>
  }
  func.return %r : vector<8xf32>
}
// CHECK-LABEL: func.func @vector_cost
// CHECK:       %[[STEP:.*]] = arith.constant 2 : index
// CHECK:       scf.for {{.*}} step %[[STEP]]
// CHECK-COUNT-2: math.tanh
// CHECK-NOT:   math.tanh
// MAX16-LABEL: func.func @vector_cost
// MAX16:       scf.for
// MAX16-COUNT-2: math.tanh
// MAX16-NOT:   math.tanh

// -----

// 16 trips of a 2-op body (32 <= 400) unroll fully: XLA unrolls by the size
// budget alone, and a factor equal to the trip count leaves no loop. A cap of
// 16 does not hold it down.
func.func @cheap_body(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @cheap_body
// CHECK-NOT:   scf.for
// CHECK-COUNT-16: arith.addf
// CHECK-NOT:   arith.addf
// MAX16-LABEL: func.func @cheap_body
// MAX16-NOT:   scf.for
// MAX16-COUNT-16: arith.addf
// MAX16-NOT:   arith.addf
// A cap of 3 holds it to 2, the largest divisor of 16 not above 3.
// MAX3-LABEL:  func.func @cheap_body
// MAX3:        %[[STEP:.*]] = arith.constant 2 : index
// MAX3:        scf.for {{.*}} step %[[STEP]]
// MAX3-COUNT-2: arith.addf
// MAX3-NOT:    arith.addf

// -----

// A huge max-unroll-factor cannot blow a 100000-trip loop up into 100000
// copies: the body is capped at 400 // 2 = 200 copies (200 divides 100000).
// A max-unroll-factor of 16 holds the factor down to 16 (it divides 100000).
func.func @huge_factor(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 100000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @huge_factor
// CHECK:       arith.constant 200 : index
// MAX16-LABEL: func.func @huge_factor
// MAX16:       %[[STEP:.*]] = arith.constant 16 : index
// MAX16:       scf.for {{.*}} step %[[STEP]]
// MAX16-COUNT-16: arith.addf
// MAX16-NOT:   arith.addf
// MAX3-LABEL:  func.func @huge_factor
// MAX3:        arith.constant 2 : index
// MAX3-COUNT-2: arith.addf
// MAX3-NOT:    arith.addf
// HUGE-LABEL:  func.func @huge_factor
// HUGE:        %[[STEP:.*]] = arith.constant 200 : index
// HUGE:        scf.for {{.*}} step %[[STEP]]
// HUGE-COUNT-200: arith.addf
// HUGE-NOT:    arith.addf
