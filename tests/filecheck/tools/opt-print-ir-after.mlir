// RUN: xla-emit-opt %s --pass-pipeline='builtin.module(func.func(cse),canonicalize)' --mlir-print-ir-after=cse -o /dev/null 2>&1 | filecheck %s
// RUN: xla-emit-opt %s -p cse,canonicalize --mlir-print-ir-before=canonicalize --mlir-print-ir-after-all --mlir-print-ir-after-change -o /dev/null 2>&1 | filecheck %s --check-prefix=CHANGE
// RUN: xla-emit-opt %examples/gelu.hlo -p xla-gpu-pipeline --mlir-print-ir-after=xla-flatten-tensors -o /dev/null 2>&1 | grep 'IR Dump' | filecheck %s --check-prefix=GELU

// One pass's output, with MLIR's header, and nothing else: a pass nested under
// func.func prints the function it ran on, alone.

func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  func.return %e : i32
}

// CHECK:      // -----// IR Dump After cse ('func.func' operation: @f) //----- //
// CHECK-NEXT: func.func @f(%a: i32) -> i32 {
// CHECK-NEXT:   %c = arith.constant 1 : i32
// CHECK-NEXT:   %b = arith.addi %a, %c : i32
// CHECK-NEXT:   %e = arith.addi %b, %b : i32
// CHECK-NEXT:   func.return %e : i32
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NOT: IR Dump

// cse changes the IR, canonicalize does not: its after-dump is left out.
// CHANGE:     IR Dump After cse
// CHANGE:     IR Dump Before canonicalize
// CHANGE-NOT: IR Dump

// GELU:      // -----// IR Dump After xla-flatten-tensors //----- //
// GELU-EMPTY:
