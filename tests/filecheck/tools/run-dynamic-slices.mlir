// RUN: python -c "import numpy as np; np.savez('%t.in.npz', arg0=np.arange(32, dtype=np.int32).reshape(4, 8))"
// RUN: xla-emit-run %s --inputs %t.in.npz -o %t.npz
// RUN: python -c "import numpy as np; print(np.load('%t.npz')['out0'].tolist())" | filecheck %s
// RUN: sed 's/arith.subi %%n0, %%c2/arith.subi %%n0, %%c0/' %s > %t.mlir
// RUN: not xla-emit-run %t.mlir --inputs %t.in.npz 2>&1 | filecheck %s --check-prefix=BOUNDS

// Slices outside scf.forall, with per-thread offsets and a size read at run time (the
// result type is tensor<?xi32>): thread t copies n = 4 - 2 = 2 elements of row t, every
// second one from column t mod 2, into row t of the output.
// CHECK: {{\[\[}}0, 2], [9, 11], [16, 18], [25, 27]]

// With n = 4 - 0, the extracts fit (thread 0 reads columns 0, 2, 4, 6) but 4 elements
// do not fit in a row of the output's 2 columns.
// BOUNDS: error: 'tensor.insert_slice' op inserts a slice at offsets [0, 0] with sizes [1, 4] and strides [1, 1] outside output argument 1 of shape [4, 2] (dimension 1) (thread 0, block 0)
// BOUNDS-NEXT: %r = tensor.insert_slice
// BOUNDS-NOT: Traceback

func.func @main(%a: tensor<4x8xi32>, %out: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n0 = tensor.dim %out, %c0 : tensor<4x2xi32>
  %n = arith.subi %n0, %c2 : index
  %from = arith.remui %t, %c2 : index
  %s = tensor.extract_slice %a[%t, %from] [1, %n] [1, %c2] : tensor<4x8xi32> to tensor<?xi32>
  %r = tensor.insert_slice %s into %out[%t, 0] [1, %n] [1, 1] : tensor<?xi32> into tensor<4x2xi32>
  return %r : tensor<4x2xi32>
}
