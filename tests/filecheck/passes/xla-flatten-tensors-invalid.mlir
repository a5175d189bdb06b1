// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p xla-flatten-tensors
// RUN: not xla-emit-opt %s --split-input-file -p xla-flatten-tensors 2>&1 | filecheck %s

// The pass's post-condition (as in XLA): no bridging cast may survive.
// An N-d tensor reaching an op no pattern flattens: the pass fails at that op.
func.func @unknown_user(%t: tensor<2x3xf32>, %i: index) -> tensor<?x3xf32> {
  // expected-error@+2 {{FlattenTensorsPass failed to converge}}
  // expected-note@+1 {{no pattern flattens the tensor<6xf32> -> tensor<2x3xf32> value it uses}}
  %r = tensor.cast %t : tensor<2x3xf32> to tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

// The same for a tensor produced inside the function.
func.func @unknown_producer(%i: index) -> f32 {
  // expected-error@+2 {{FlattenTensorsPass failed to converge}}
  // expected-note@+1 {{no pattern flattens the tensor<2x3xf32> -> tensor<6xf32> value it uses}}
  %t = tensor.empty() : tensor<2x3xf32>
  %e = tensor.extract %t[%i, %i] : tensor<2x3xf32>
  func.return %e : f32
}

// CHECK: xla-flatten-tensors-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: [xla-flatten-tensors] 'tensor.cast' op FlattenTensorsPass failed to converge
// CHECK: note: no pattern flattens the tensor<6xf32> -> tensor<2x3xf32> value it uses
