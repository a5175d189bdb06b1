// RUN: xla-emit-opt %s --split-input-file -p xla-respell | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p 'xla-respell{spelling="xla_gpu"}' | filecheck %s --check-prefix=SEED
// RUN: xla-emit-opt %s --split-input-file --emit=xla | filecheck %s

// The seed's spelling becomes today's: ops, nested loop bodies and the map attribute.
// CHECK-LABEL: func.func @seed_loop
// CHECK: %[[R:.*]] = xla.loop (%{{.*}})[%[[I:.*]]] -> (%[[D:.*]]) in #xla.indexing_map<"(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 7], s0 in [0, 3]"> iter_args(%[[IT:.*]] = %{{.*}}) -> (tensor<32xf32>)
// CHECK: %[[V:.*]] = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 mod 8), domain: d0 in [0, 31]">(%[[D]])
// CHECK: %[[C:.*]] = xla.pure_call @elem(%{{.*}}, %[[V]])
// CHECK: xla.yield %{{.*}} : tensor<32xf32>
// CHECK-NOT: xla_gpu.
// SEED-LABEL: func.func @seed_loop
// SEED: xla_gpu.loop
// SEED: xla_gpu.apply_indexing #xla_gpu.indexing_map
// SEED: xla_gpu.pure_call @elem
// SEED: xla_gpu.yield
func.func @seed_loop(%in: tensor<32xf32>, %out: tensor<32xf32>, %t: index) -> tensor<32xf32> {
  %r = xla_gpu.loop (%t)[%i] -> (%d) in #xla_gpu.indexing_map<"(d0)[s0] -> (d0 * 4 + s0), domain: d0 in [0, 7], s0 in [0, 3]">
      iter_args(%iter = %out) -> (tensor<32xf32>) {
    %v = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 mod 8), domain: d0 in [0, 31]">(%d)
    %c = xla_gpu.pure_call @elem(%in, %v) : (tensor<32xf32>, index) -> f32
    %ins = tensor.insert %c into %iter[%d] : tensor<32xf32>
    xla_gpu.yield %ins : tensor<32xf32>
  }
  func.return %r : tensor<32xf32>
}
func.func private @elem(%t: tensor<32xf32>, %i: index) -> f32 {
  %e = tensor.extract %t[%i] : tensor<32xf32>
  func.return %e : f32
}

// -----

// Ops already in the requested spelling, and other dialects, are untouched.
// CHECK-LABEL: func.func @already_today
// CHECK-NEXT: %{{.*}} = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 3]">
// CHECK-NEXT: %{{.*}} = arith.addi
// SEED-LABEL: func.func @already_today
// SEED-NEXT: xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 3]">
func.func @already_today(%a: index) -> index {
  %r = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 3]">(%a)
  %s = arith.addi %r, %a : index
  func.return %s : index
}
