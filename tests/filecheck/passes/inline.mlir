// RUN: xla-emit-opt %s --split-input-file -p inline | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p 'inline{max-caller-ops=7}' | filecheck %s --check-prefix=CAP

// A pure_call in a loop body is replaced by the callee's body; the private
// callee, now unused, is erased.
func.func @caller(%t: tensor<8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = xla_gpu.loop ()[%i] -> (%d) in #xla_gpu.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
      iter_args(%it = %init) -> (tensor<8xf32>) {
    %v = xla_gpu.pure_call @negate(%t, %d) : (tensor<8xf32>, index) -> f32
    %n = tensor.insert %v into %it[%d] : tensor<8xf32>
    xla_gpu.yield %n : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}
func.func private @negate(%t: tensor<8xf32>, %i: index) -> f32 {
  %e = tensor.extract %t[%i] : tensor<8xf32>
  %n = arith.negf %e : f32
  func.return %n : f32
}
// CHECK-LABEL: func.func @caller(%t: tensor<8xf32>, %init: tensor<8xf32>)
// CHECK:         xla_gpu.loop ()[%i] -> (%[[D:.*]]) in
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %t[%[[D]]] : tensor<8xf32>
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK-NEXT:      tensor.insert %[[N]] into
// CHECK-NOT:     pure_call
// CHECK-NOT:     func.func private @negate
// CAP-LABEL:   func.func @caller
// CAP:           xla_gpu.pure_call @negate
// CAP:         func.func private @negate

// -----

// func.call is inlined too, through a chain of callees; a public callee stays.
func.func @outer(%x: f32) -> f32 {
  %y = func.call @middle(%x) : (f32) -> f32
  func.return %y : f32
}
func.func @middle(%x: f32) -> f32 {
  %y = func.call @inner(%x) : (f32) -> f32
  %z = arith.addf %y, %x : f32
  func.return %z : f32
}
func.func private @inner(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  func.return %y : f32
}
// CHECK-LABEL: func.func @outer(%x: f32) -> f32
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %x, %x : f32
// CHECK-NEXT:    %[[Z:.*]] = arith.addf %[[Y]], %x : f32
// CHECK-NEXT:    func.return %[[Z]] : f32
// CHECK:       func.func @middle(%x: f32) -> f32
// CHECK-NEXT:    arith.mulf %x, %x
// CHECK-NOT:   func.func private @inner

// -----

// A callee called twice from one caller keeps a single copy and is not
// inlined, unless it has no compute (then it is always inlined).
func.func @twice(%x: f32) -> (f32, f32, f32, f32) {
  %a = xla_gpu.pure_call @work(%x) : (f32) -> f32
  %b = xla_gpu.pure_call @work(%a) : (f32) -> f32
  %c = xla_gpu.pure_call @reshape_only(%x) : (f32) -> f32
  %d = xla_gpu.pure_call @reshape_only(%c) : (f32) -> f32
  func.return %a, %b, %c, %d : f32, f32, f32, f32
}
func.func private @work(%x: f32) -> f32 {
  %y = math.exp %x : f32
  func.return %y : f32
}
func.func private @reshape_only(%x: f32) -> f32 attributes {xla.has_no_compute} {
  func.return %x : f32
}
// CHECK-LABEL: func.func @twice(%x: f32)
// CHECK-NEXT:    %[[A:.*]] = xla_gpu.pure_call @work(%x)
// CHECK-NEXT:    %[[B:.*]] = xla_gpu.pure_call @work(%[[A]])
// CHECK-NEXT:    func.return %[[A]], %[[B]], %x, %x
// CHECK:       func.func private @work
// CHECK-NOT:   @reshape_only

// -----

// noinline on the call or on the callee blocks inlining.
func.func @blocked(%x: f32) -> (f32, f32) {
  %a = xla_gpu.pure_call @plain(%x) {noinline} : (f32) -> f32
  %b = xla_gpu.pure_call @marked(%x) : (f32) -> f32
  func.return %a, %b : f32, f32
}
func.func private @plain(%x: f32) -> f32 {
  %y = math.exp %x : f32
  func.return %y : f32
}
func.func private @marked(%x: f32) -> f32 attributes {noinline} {
  %y = math.log %x : f32
  func.return %y : f32
}
// CHECK-LABEL: func.func @blocked
// CHECK-NEXT:    xla_gpu.pure_call @plain(%x) {noinline}
// CHECK-NEXT:    xla_gpu.pure_call @marked(%x)
// CHECK:       func.func private @plain
// CHECK:       func.func private @marked

// -----

// Recursive functions are never inlined, into themselves or into others.
func.func @entry(%x: i32) -> i32 {
  %y = func.call @even(%x) : (i32) -> i32
  func.return %y : i32
}
func.func private @even(%x: i32) -> i32 {
  %y = func.call @odd(%x) : (i32) -> i32
  func.return %y : i32
}
func.func private @odd(%x: i32) -> i32 {
  %y = func.call @even(%x) : (i32) -> i32
  func.return %y : i32
}
// CHECK-LABEL: func.func @entry
// CHECK-NEXT:    func.call @even(%x)
// CHECK:       func.func private @even
// CHECK-NEXT:    func.call @odd(%x)
// CHECK:       func.func private @odd
// CHECK-NEXT:    func.call @even(%x)

// -----

// The size cap counts caller plus callee ops: 2 + 8 > 7 blocks it (and 5 + 3 > 7
// blocks the first case).
func.func @big_callee(%x: f32) -> f32 {
  %y = xla_gpu.pure_call @big(%x) : (f32) -> f32
  func.return %y : f32
}
func.func private @big(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.addf %a, %x : f32
  %c = arith.addf %b, %x : f32
  %d = arith.addf %c, %x : f32
  %e = arith.addf %d, %x : f32
  %f = arith.addf %e, %x : f32
  %g = arith.addf %f, %x : f32
  func.return %g : f32
}
// CHECK-LABEL: func.func @big_callee
// CHECK-COUNT-7: arith.addf
// CHECK-NOT:   func.func private @big
// CAP-LABEL:   func.func @big_callee
// CAP-NEXT:      xla_gpu.pure_call @big(%x)
