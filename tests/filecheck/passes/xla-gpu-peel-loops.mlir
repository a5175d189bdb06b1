// RUN: xla-emit-opt %s --split-input-file -p xla-gpu-peel-loops | filecheck %s

// The constraint can fail only at s0 = 7: a main loop over s0 in [0, 6]
// without it, then a tail at s0 = 7 carrying the main loop's result, where
// the constraint becomes a bound on th_x (896 + th_x <= 999).
func.func @peel_last(%th: index, %init: f32, %t: tensor<1000xf32>) -> f32 {
  %r = xla.loop (%th)[%i] -> (%idx) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 7], s0 * 128 + th_x in [0, 999]"> iter_args(%acc = %init) -> (f32) {
    %e = tensor.extract %t[%idx] : tensor<1000xf32>
    %s = arith.addf %acc, %e : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @peel_last
// CHECK-NEXT:    %[[MAIN:.*]] = xla.loop (%th)[%i] -> (%idx) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 6]"> iter_args(%[[ACC:.*]] = %init) -> (f32) {
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %t[%idx] : tensor<1000xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[E]] : f32
// CHECK-NEXT:      xla.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[TAIL:.*]] = xla.loop (%th)[%{{.*}}] -> (%[[IDX:.*]]) in #xla.indexing_map<"(th_x)[s0] -> (th_x + 896), domain: th_x in [0, 103], s0 in [7, 7]"> iter_args(%[[ACC2:.*]] = %[[MAIN]]) -> (f32) {
// CHECK-NEXT:      %[[E2:.*]] = tensor.extract %t[%[[IDX]]] : tensor<1000xf32>
// CHECK-NEXT:      %[[S2:.*]] = arith.addf %[[ACC2]], %[[E2]] : f32
// CHECK-NEXT:      xla.yield %[[S2]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[TAIL]] : f32

// -----

// The inner variable is peeled (the outer one is unconstrained); the seed's
// spelling is kept.
func.func @peel_inner(%d: index, %init: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
  %r = xla_gpu.loop (%d)[%i, %j] -> (%a, %b) in #xla_gpu.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 3], s1 in [0, 7], s1 * 4 + d0 in [0, 29]"> iter_args(%it = %init) -> (tensor<4x8xf32>) {
    %n = tensor.insert %v into %it[%a, %b] : tensor<4x8xf32>
    xla_gpu.yield %n : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @peel_inner
// CHECK-NEXT:    %[[MAIN:.*]] = xla_gpu.loop (%d)[%i, %j] -> (%a, %b) in #xla_gpu.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 3], s1 in [0, 6]"> iter_args(%it = %init)
// CHECK:           xla_gpu.yield
// CHECK:         %[[TAIL:.*]] = xla_gpu.loop (%d)[{{.*}}] -> ({{.*}}) in #xla_gpu.indexing_map<"(d0)[s0, s1] -> (s0, 7), domain: d0 in [0, 1], s0 in [0, 3], s1 in [7, 7]"> iter_args(%{{.*}} = %[[MAIN]])
// CHECK:           xla_gpu.yield
// CHECK:         func.return %[[TAIL]]

// -----

// Both variables peeled: s1 first (innermost), then s0 of the main part. The
// loops run main, the s0 tail, then the s1 tail.
func.func @peel_both(%d: index, %init: f32, %t: tensor<64xf32>) -> f32 {
  %r = xla.loop (%d)[%i, %j] -> (%x) in #xla.indexing_map<"(d0)[s0, s1] -> (s0 * 16 + s1 * 2 + d0), domain: d0 in [0, 1], s0 in [0, 3], s1 in [0, 6], s1 * 2 + d0 in [0, 12], s0 * 16 + d0 in [0, 48]"> iter_args(%acc = %init) -> (f32) {
    %e = tensor.extract %t[%x] : tensor<64xf32>
    %s = arith.addf %acc, %e : f32
    xla.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @peel_both
// CHECK-NEXT:    %[[MAIN:.*]] = xla.loop {{.*}} #xla.indexing_map<"(d0)[s0, s1] -> (s0 * 16 + s1 * 2 + d0), domain: d0 in [0, 1], s0 in [0, 2], s1 in [0, 5]"> iter_args(%{{.*}} = %init)
// CHECK:         %[[S0TAIL:.*]] = xla.loop {{.*}} #xla.indexing_map<"(d0)[s0, s1] -> (s1 * 2 + 48), domain: d0 in [0, 0], s0 in [3, 3], s1 in [0, 5]"> iter_args(%{{.*}} = %[[MAIN]])
// CHECK:         %[[S1TAIL:.*]] = xla.loop {{.*}} #xla.indexing_map<"(d0)[s0, s1] -> (s0 * 16 + 12), domain: d0 in [0, 0], s0 in [0, 3], s1 in [6, 6]"> iter_args(%{{.*}} = %[[S0TAIL]])
// CHECK:         func.return %[[S1TAIL]]

// -----

// A tail whose domain is empty (896 + th_x mod 64 > 850 for every thread) is
// not emitted: only the main loop remains. (With [0, 850] the simplifier alone
// would turn the constraint into s0 in [0, 6], as XLA's does, and nothing would
// be peeled; a lower end below 0 keeps XLA's rule from applying.)
func.func @empty_tail(%th: index, %init: f32) -> f32 {
  %r = xla.loop (%th)[%i] -> (%x) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 7], s0 * 128 + th_x mod 64 in [-64, 850]"> iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @empty_tail
// CHECK-NEXT:    %[[MAIN:.*]] = xla.loop (%th)[%i] -> (%x) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 6]"> iter_args(%acc = %init)
// CHECK-NEXT:      xla.yield %acc : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[MAIN]] : f32

// -----

// Must not fire: the constraint's lower end (>= 100) cuts the first values of
// s0, so the main part would still be constrained.
func.func @lower_end(%th: index, %init: f32) -> f32 {
  %r = xla.loop (%th)[%i] -> (%x) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 7], s0 * 128 + th_x in [100, 999]"> iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @lower_end
// CHECK-NEXT:    %r = xla.loop (%th)[%i] -> (%x) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 7], s0 * 128 + th_x in [100, 999]">
// CHECK-NOT:     xla.loop

// -----

// Must not fire: the unconstrained inner s1 already spans 64 iterations, so
// the walk outwards stops before the constrained s0.
func.func @trip_count_budget(%th: index, %init: f32) -> f32 {
  %r = xla.loop (%th)[%i, %j] -> (%x) in #xla.indexing_map<"(th_x)[s0, s1] -> (s0 * 64 + s1 + th_x), domain: th_x in [0, 127], s0 in [0, 7], s1 in [0, 63], s0 * 64 + th_x in [0, 499]"> iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @trip_count_budget
// CHECK-NEXT:    %r = xla.loop (%th)[%i, %j] -> (%x) {{.*}} s0 in [0, 7], s1 in [0, 63], s0 * 64 + th_x in [0, 499]">
// CHECK-NOT:     xla.loop

// -----

// Must not fire: the constrained s1 is a single value, and a loop without
// constraints has nothing to peel.
func.func @nothing_to_peel(%th: index, %init: f32) -> (f32, f32) {
  %r = xla.loop (%th)[%i, %j] -> (%x) in #xla.indexing_map<"(th_x)[s0, s1] -> (s0 * 128 + th_x + s1), domain: th_x in [0, 127], s0 in [0, 3], s1 in [5, 5], s1 * 128 + th_x mod 64 in [0, 700]"> iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  %q = xla.loop (%th)[%i] -> (%x) in #xla.indexing_map<"(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 7]"> iter_args(%acc = %init) -> (f32) {
    xla.yield %acc : f32
  }
  func.return %r, %q : f32, f32
}
// CHECK-LABEL: func.func @nothing_to_peel
// CHECK-NEXT:    %r = xla.loop {{.*}} s1 in [5, 5], s1 * 128 + th_x mod 64 in [0, 700]">
// CHECK:         %q = xla.loop {{.*}} domain: th_x in [0, 127], s0 in [0, 7]">
// CHECK-NOT:     xla.loop
