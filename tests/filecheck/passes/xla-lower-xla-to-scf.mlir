// RUN: xla-emit-opt %s --split-input-file -p xla-lower-xla-to-scf | filecheck %s

// predicated_insert: insert when the condition holds, else the tensor unchanged.
func.func @predicated_insert(%v: i32, %t: tensor<2xi32>, %i: index, %c: i1) -> tensor<2xi32> {
  %r = xla.predicated_insert %v into %t[%i] if %c : tensor<2xi32>
  func.return %r : tensor<2xi32>
}
// CHECK-LABEL: func.func @predicated_insert
// CHECK-NEXT:    %[[R:r]] = scf.if %c -> (tensor<2xi32>) {
// CHECK-NEXT:      %[[N:.*]] = tensor.insert %v into %t[%i] : tensor<2xi32>
// CHECK-NEXT:      scf.yield %[[N]] : tensor<2xi32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %t : tensor<2xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// predicated_extract: extract when the condition holds, else the fallback.
func.func @predicated_extract(%t: tensor<2x3xf32>, %i: index, %j: index, %c: i1, %fb: f32) -> f32 {
  %r = xla.predicated_extract %t[%i, %j] if %c else %fb : tensor<2x3xf32>
  func.return %r : f32
}
// CHECK-LABEL: func.func @predicated_extract
// CHECK-NEXT:    %[[R:r]] = scf.if %c -> (f32) {
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %t[%i, %j] : tensor<2x3xf32>
// CHECK-NEXT:      scf.yield %[[E]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %fb : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// Inside a loop body, and chained: each op becomes its own scf.if, in order.
func.func @chained(%src: tensor<4xf32>, %dst: tensor<4xf32>, %c: i1, %fb: f32) -> tensor<4xf32> {
  %r = xla.loop ()[%i] -> (%idx) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
      iter_args(%it = %dst) -> (tensor<4xf32>) {
    %e = xla.predicated_extract %src[%idx] if %c else %fb : tensor<4xf32>
    %n = xla.predicated_insert %e into %it[%idx] if %c : tensor<4xf32>
    xla.yield %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @chained
// CHECK:         xla.loop
// CHECK:           %[[E:e]] = scf.if %c -> (f32) {
// CHECK:             tensor.extract %src
// CHECK:           %[[N:n]] = scf.if %c -> (tensor<4xf32>) {
// CHECK-NEXT:        tensor.insert %[[E]] into %it
// CHECK:           xla.yield %[[N]]

// -----

// Must not fire: atomic_rmw stays (XLA lowers it together with the tensors),
// and loops are left for xla-lower-xla-loops-to-scf.
func.func @kept(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %r = xla.atomic_rmw %t[%i] : tensor<4xf32> {
  ^bb0(%cur: f32):
    %s = arith.addf %cur, %v : f32
    xla.yield %s : f32
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    xla.atomic_rmw %t[%i] : tensor<4xf32> {
// CHECK-NOT:     scf.if

// -----

// The seed's spelling of the loop is untouched as well.
func.func @loop_untouched(%out: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = xla_gpu.loop ()[%i] -> (%idx) in #xla_gpu.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
      iter_args(%it = %out) -> (tensor<4xf32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<4xf32>
    xla_gpu.yield %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @loop_untouched
// CHECK-NEXT:    xla_gpu.loop ()[%i] -> (%idx)
// CHECK-NOT:     scf.
