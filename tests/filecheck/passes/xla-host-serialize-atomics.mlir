// RUN: xla-emit-opt %s -p xla-host-serialize-atomics | filecheck %s

// An atomic add becomes a read, the body and a write, and its function is marked so that
// the native engine runs its blocks one after the other (their order fixes the sum's bits).

func.func @scatter_add(%out: tensor<8xf32>, %i: index, %v: f32) -> tensor<8xf32> attributes {xla.entry} {
  %r = xla.atomic_rmw %out[%i] : tensor<8xf32> {
  ^bb0(%current : f32):
    %sum = arith.addf %current, %v : f32
    xla.yield %sum : f32
  }
  func.return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:    xla.host_blocks_in_order
// CHECK:         %[[CURRENT:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<8xf32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[CURRENT]], %{{.*}} : f32
// CHECK-NEXT:    %[[R:.*]] = tensor.insert %[[SUM]] into %{{.*}}[%{{.*}}] : tensor<8xf32>
// CHECK-NEXT:    func.return %[[R]]

func.func @no_atomics(%out: tensor<8xf32>) -> tensor<8xf32> attributes {xla.entry} {
  func.return %out : tensor<8xf32>
}

// CHECK-LABEL: func.func @no_atomics
// CHECK-NOT:     xla.host_blocks_in_order
// CHECK:         func.return
