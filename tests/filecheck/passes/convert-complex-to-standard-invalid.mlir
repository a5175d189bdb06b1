// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p convert-complex-to-standard

// A complex function the pass has no formula for is an error at the op, not a later
// pass's "cannot lower".
func.func @tanh(%a: complex<f32>) -> complex<f32> {
  // expected-error@+1 {{convert-complex-to-standard: 'complex.tanh' is not lowered}}
  %t = complex.tanh %a : complex<f32>
  func.return %t : complex<f32>
}
