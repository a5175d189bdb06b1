// The TPU passes reject a hardware generation they do not know.
// RUN: not xla-emit-opt %s -p 'tpu-verify-alignment{hardware-generation=9}' 2>&1 | filecheck %s
// RUN: not xla-emit-opt %s -p 'tpu-infer-memref-layout{hardware-generation=1}' 2>&1 | filecheck %s --check-prefix=LOW
// RUN: not xla-emit-opt %s -p 'tpu-realign-accesses{hardware-generation=0}' 2>&1 | filecheck %s --check-prefix=ZERO

// CHECK: error: [tpu-verify-alignment] hardware-generation must be between 2 and 7, but got 9
// LOW: error: [tpu-infer-memref-layout] hardware-generation must be between 2 and 7, but got 1
// ZERO: error: [tpu-realign-accesses] hardware-generation must be between 2 and 7, but got 0
func.func @empty() {
  return
}
