// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics
// RUN: not xla-emit-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=PLAIN

// Each case below produces exactly the diagnostic its annotation expects; the
// RUN line fails if an error goes missing, moves, or a new one appears.

func.func @wrong_result_count(%a: i32) -> i32 {
  // expected-error@+1 {{expected [i32], got [i32, i32]}}
  func.return %a, %a : i32, i32
}

// -----

func.func @wrong_result_type(%a: i32) -> i64 {
  func.return %a : i32 // expected-error {{expected [i64], got [i32]}}
}

// The first failing chunk stops a plain run with FILE:LINE:COL, the line and a caret.
// PLAIN: opt-verify-diagnostics.mlir:9:3: error: 'func.return' op Expected arguments to have the same types as the function output types: expected [i32], got [i32, i32]
// PLAIN-NEXT: func.return %a, %a : i32, i32
// PLAIN-NEXT: {{^  \^$}}
