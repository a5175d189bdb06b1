// RUN: xla-emit-run %s --random-inputs 1 -o %t.npz
// RUN: python -c "import numpy as np; print(np.load('%t.npz')['out0'].tolist())" | filecheck %s
// RUN: sed 's/step (3)/step (%%zero)/' %s > %t.mlir
// RUN: not xla-emit-run %t.mlir --random-inputs 1 2>&1 | filecheck %s --check-prefix=STEP

// An scf.forall whose upper bound is read at run time (here the input's length)
// runs its iterations in the lane that reaches it: i = 1, 4, 7 write 10 * i.
// CHECK: [0, 10, 0, 0, 40, 0, 0, 70, 0, 0]

// A step that is not positive is an error naming the op, its line and the lane.
// STEP: error: 'scf.forall' op has a non-positive step 0 (thread 0, block 0)
// STEP-NEXT: %r = scf.forall
// STEP-NOT: Traceback

func.func @main(%a: tensor<10xf32>, %out: tensor<10xi64>) -> tensor<10xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<10xf32>
  %zero = arith.subi %n, %n : index
  %r = scf.forall (%i) = (1) to (%n) step (3) shared_outs(%o = %out) -> (tensor<10xi64>) {
    %c10 = arith.constant 10 : index
    %v = arith.muli %i, %c10 : index
    %x = arith.index_cast %v : index to i64
    %piece = tensor.from_elements %x : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%i] [1] [1] : tensor<1xi64> into tensor<10xi64>
    }
  }
  return %r : tensor<10xi64>
}
