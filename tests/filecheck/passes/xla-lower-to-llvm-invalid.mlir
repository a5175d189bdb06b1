// RUN: xla-emit-opt %s --verify-diagnostics -p xla-lower-to-llvm

// An op the lowering does not know is an error at that op.
func.func @remainder(%f: f32) -> f32 attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-to-llvm: cannot lower 'arith.remf'}}
  %r = arith.remf %f, %f : f32
  func.return %r : f32
}
