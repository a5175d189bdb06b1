// RUN: not xla-emit-opt %s --verify-diagnostics 2>&1 | filecheck %s

// An annotation that is not produced and an error that is not annotated are
// both reported, and the tool fails.

func.func @f(%a: i32) -> i64 {
  // expected-error@+2 {{this message is never produced}}
  // CHECK-DAG: opt-verify-diagnostics-mismatch.mlir:9: error: unexpected error: 'func.return' op {{.*}}expected [i64], got [i32]
  func.return %a : i32
}
// CHECK-DAG: opt-verify-diagnostics-mismatch.mlir:7: error: expected error "this message is never produced" was not produced
