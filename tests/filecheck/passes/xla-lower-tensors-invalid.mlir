// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p xla-lower-tensors

// A transfer that may leave the buffer has no single vector load to become.
func.func @maybe_out_of_bounds(%in: tensor<10xf32>, %i: index) -> vector<4xf32> attributes {xla.entry} {
  %pad = arith.constant 0.0 : f32
  // expected-error@+1 {{xla-lower-tensors: a transfer must be in bounds (in_bounds = [true])}}
  %v = vector.transfer_read %in[%i], %pad : tensor<10xf32>, vector<4xf32>
  func.return %v : vector<4xf32>
}

// -----

// Tensors must be flat first.
func.func @not_flat(%in: tensor<2x3xf32>, %i: index) -> f32 attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-tensors: tensors must be flat (run xla-flatten-tensors)}}
  %x = tensor.extract %in[%i, %i] : tensor<2x3xf32>
  func.return %x : f32
}

// -----

// An atomic update that is not one add, min or max (XLA loops on a compare-and-swap
// for it) is not lowered.
func.func @atomic_multiply(%acc: tensor<8xf32>, %i: index, %v: f32) -> tensor<8xf32> attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-tensors: only an atomic add, min or max is lowered}}
  %r = xla.atomic_rmw %acc[%i] : tensor<8xf32> {
  ^bb0(%current: f32):
    %p = arith.mulf %current, %v : f32
    xla.yield %p : f32
  }
  func.return %r : tensor<8xf32>
}
