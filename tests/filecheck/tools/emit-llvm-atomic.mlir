// RUN: xla-emit-opt %s --emit=llvm | filecheck %s
// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s --check-prefix=MLIR

// `llvm.atomicrmw` reads and prints back as MLIR spells it (XLA's scatter kernels)
// and is LLVM IR's `atomicrmw`.
builtin.module {
  llvm.func @add(%p: !llvm.ptr, %v: f32) {
    %old = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, f32
    llvm.return
  }
}

// MLIR:       %old = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, f32
// CHECK:      define void @add(ptr %[[P:v[0-9]+]], float %[[V:v[0-9]+]]) {
// CHECK-NEXT:   %{{v[0-9]+}} = atomicrmw fadd ptr %[[P]], float %[[V]] monotonic
// CHECK-NEXT:   ret void
