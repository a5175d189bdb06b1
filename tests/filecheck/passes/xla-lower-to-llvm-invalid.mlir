// RUN: xla-emit-opt %s --verify-diagnostics -p xla-lower-to-llvm

// Control flow is not lowered yet.
func.func @branch(%c: i1) attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-to-llvm: cannot lower 'scf.if'}}
  scf.if %c {
    scf.yield
  }
  func.return
}
