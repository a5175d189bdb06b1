// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p xla-host-thread-loops

// Loops are split at the top level only, where XLA's emitters put barriers and shuffles.
func.func @shuffle_in_branch(%in: tensor<32xf32>, %c: i1) -> f32 attributes {xla.entry} {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %r = scf.if %c -> (f32) {
    // expected-error@+1 {{xla-host-thread-loops: 'gpu.shuffle' inside a loop or branch is not split}}
    %y, %v = gpu.shuffle xor %x, %c1, %c32 : f32
    scf.yield %y : f32
  } else {
    scf.yield %x : f32
  }
  func.return %r : f32
}
