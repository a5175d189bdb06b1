// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p convert-complex-to-standard
// RUN: not xla-emit-opt %s -p convert-complex-to-standard 2>&1 | filecheck %s

// A complex op the pass has no formula for (XLA's emitters write none of these) is an
// error at the op, not a later pass's "cannot lower".
func.func @angle(%a: complex<f32>) -> f32 {
  // expected-error@+1 {{convert-complex-to-standard: 'complex.angle' is not lowered}}
  %t = complex.angle %a : complex<f32>
  func.return %t : f32
}

// CHECK: convert-complex-to-standard-invalid.mlir:8:3: error: [convert-complex-to-standard] 'complex.angle' op convert-complex-to-standard: 'complex.angle' is not lowered
// CHECK-NEXT: %t = complex.angle %a : complex<f32>
// CHECK-NEXT: ^
