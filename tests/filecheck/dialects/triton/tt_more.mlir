// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// The rest of Triton's tt ops in Triton's own syntax (TritonOps.td's formats).

// CHECK-LABEL: tt.func @more(%base: !tt.ptr<f16>, %n: i64, %s: i64, %o: i32, %x: tensor<32xf32>, %y: tensor<32xf32>, %i: tensor<32xi32>, %pi: i64) -> f32 {
// CHECK: %b = tt.make_tensor_ptr %base, [%n, %n], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
// CHECK: %b2 = tt.advance %b, [%o, %o] : <tensor<64x64xf16>>
// CHECK: %v = tt.load %b2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
// CHECK: %np = tt.get_num_programs y : i32
// CHECK: %c = tt.cat %x, %y : tensor<32xf32> -> tensor<64xf32>
// CHECK: %j = tt.join %x, %y : tensor<32xf32> -> tensor<32x2xf32>
// CHECK: %l, %r = tt.split %j : tensor<32x2xf32> -> tensor<32xf32>
// CHECK: %cl = tt.clampf %x, %y, %y, propagateNan = all : tensor<32xf32>
// CHECK: %sq = tt.precise_sqrt %x : tensor<32xf32>
// CHECK: %dv = tt.precise_divf %x, %y : tensor<32xf32>
// CHECK: %mh = tt.mulhiui %i, %i : tensor<32xi32>
// CHECK: %p = tt.int_to_ptr %pi : i64 -> !tt.ptr<f32>
// CHECK: %q = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
// CHECK: tt.assert %cond, "bad" : tensor<32xi1>
// CHECK: %call = tt.call @helper(%red) : (f32) -> f32
// CHECK: tt.return %call : f32
// CHECK-LABEL: tt.func private @helper(%a: f32) -> f32 {
// CHECK: tt.return %a : f32

tt.func @more(%base: !tt.ptr<f16>, %n: i64, %s: i64, %o: i32, %x: tensor<32xf32>, %y: tensor<32xf32>, %i: tensor<32xi32>, %pi: i64) -> f32 {
  %b = tt.make_tensor_ptr %base, [%n, %n], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : <tensor<64x64xf16>>
  %b2 = tt.advance %b, [%o, %o] : <tensor<64x64xf16>>
  %v = tt.load %b2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x64xf16>>
  %np = tt.get_num_programs y : i32
  %c = tt.cat %x, %y : tensor<32xf32> -> tensor<64xf32>
  %j = tt.join %x, %y : tensor<32xf32> -> tensor<32x2xf32>
  %l, %r = tt.split %j : tensor<32x2xf32> -> tensor<32xf32>
  %cl = tt.clampf %x, %y, %y, propagateNan = all : tensor<32xf32>
  %sq = tt.precise_sqrt %x : tensor<32xf32>
  %dv = tt.precise_divf %x, %y : tensor<32xf32>
  %mh = tt.mulhiui %i, %i : tensor<32xi32>
  %p = tt.int_to_ptr %pi : i64 -> !tt.ptr<f32>
  %q = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %cond = arith.constant dense<true> : tensor<32xi1>
  tt.assert %cond, "bad" : tensor<32xi1>
  %sc = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %e: f32):
    %t = arith.addf %a, %e : f32
    tt.scan.return %t : f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  %red = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %e: f32):
    %t = arith.maxnumf %a, %e : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  %call = tt.call @helper(%red) : (f32) -> f32
  tt.return %call : f32
}
tt.func private @helper(%a: f32) -> f32 {
  tt.return %a : f32
}
