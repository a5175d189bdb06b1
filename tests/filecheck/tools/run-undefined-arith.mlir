// RUN: not xla-emit-run %s --random-inputs 1 2>&1 | filecheck %s

// Integer division by zero is undefined in MLIR: the interpreter reports the
// op, its line and the first lane that divides by zero, and the run fails.
// CHECK: run-undefined-arith.mlir:14:3: error: 'arith.divsi' op divides {{-?[0-9]+}} by zero, which is undefined (thread 0, block 0)
// CHECK-NEXT: %q = arith.divsi %x, %zero : i32
// CHECK-NEXT: ^
// CHECK-NOT: Traceback

func.func @main(%a: tensor<16xi32>, %out: tensor<16xi32>) -> tensor<16xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 15 : index]}
  %x = tensor.extract %a[%t] : tensor<16xi32>
  %zero = arith.constant 0 : i32
  %q = arith.divsi %x, %zero : i32
  %o = tensor.insert %q into %out[%t] : tensor<16xi32>
  return %o : tensor<16xi32>
}
