// RUN: xla-emit-opt %s --verify-diagnostics -p xla-lower-to-llvm

// An op the lowering does not know is an error at that op.
func.func @saturating_convert(%f: f32) -> i32 attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-to-llvm: cannot lower 'arith.fptosi'}}
  %i = arith.fptosi %f : f32 to i32
  func.return %i : i32
}
