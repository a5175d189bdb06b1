// RUN: not xla-emit-opt %s --emit=llvm 2>&1 | filecheck %s

// A module not yet in the llvm dialect has no LLVM IR: one located error, no traceback.
func.func @f() {
  func.return
}

// CHECK:     emit-llvm-not-lowered.mlir:4:1: error: 'func.func' op LLVM IR: cannot translate 'func.func' at module level (run xla-lower-tensors,xla-lower-to-llvm first)
// CHECK-NOT: Traceback
