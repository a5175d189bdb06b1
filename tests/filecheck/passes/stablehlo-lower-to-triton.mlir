// RUN: xla-emit-opt %s --split-input-file -p stablehlo-lower-to-triton | filecheck %s

// A reduce becomes a tt.reduce over the tile, then the init joins once (XLA's TTIR:
// `%5 = arith.addf %4, %cst : tensor<1xf32>`); a broadcast of the result becomes
// expand_dims + broadcast, a broadcast of a 0-d constant a dense constant.
// CHECK-LABEL: xtile.entry_func @row_sum
// CHECK: %[[T:.*]] = "tt.reduce"(%[[X:.*]]) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: tt.reduce.return %[[S]] : f32
// CHECK-NEXT: }) : (tensor<2x256xf32>) -> tensor<2xf32>
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[R:.*]] = arith.addf %[[T]], %[[INIT]] : tensor<2xf32>
// CHECK: %[[E:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
// CHECK: tt.broadcast %[[E]] : tensor<2x1xf32> -> tensor<2x256xf32>
// CHECK: arith.constant dense<2.000000e+00> : tensor<2x256xf32>
// CHECK-NOT: stablehlo.
xtile.entry_func @row_sum(%in: memref<4x256xf32>, %out: memref<4x256xf32>, %pid: index {xla.range = [0 : index, 1 : index]}) {
  %c0 = arith.constant 0 : index
  %x = xtile.extract %in[%pid, %c0] [2, 256] [1, 1] : memref<4x256xf32> -> tensor<2x256xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) across dimensions = [1] : (tensor<2x256xf32>, tensor<f32>) -> tensor<2xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = arith.addf %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<2xf32>) -> tensor<2x256xf32>
  %two = arith.constant dense<2.000000e+00> : tensor<f32>
  %t = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<2x256xf32>
  %d = arith.mulf %b, %t : tensor<2x256xf32>
  xtile.insert %d into %out[%pid, %c0] [2, 256] [1, 1] : tensor<2x256xf32> -> memref<4x256xf32>
  xtile.return
}

// -----

// Must not fire: a reducer body of more than one op stays a stablehlo.reduce.
// Reshapes and transposes become tt.reshape and tt.trans.
// CHECK-LABEL: xtile.entry_func @left_alone
// CHECK: stablehlo.reduce
// CHECK: tt.reshape %{{.*}} : tensor<4x4xf32> -> tensor<16xf32>
// CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
xtile.entry_func @left_alone(%in: memref<4x4xf32>, %out: memref<4xf32>, %flat: memref<16xf32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %c0 = arith.constant 0 : index
  %x = xtile.extract %in[%c0, %c0] [4, 4] [1, 1] : memref<4x4xf32> -> tensor<4x4xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %s = arith.addf %a, %b : tensor<f32>
    %m = arith.mulf %s, %s : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }
  %f = stablehlo.reshape %x : (tensor<4x4xf32>) -> tensor<16xf32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  xtile.insert %r into %out[%c0] [4] [1] : tensor<4xf32> -> memref<4xf32>
  xtile.insert %f into %flat[%c0] [16] [1] : tensor<16xf32> -> memref<16xf32>
  xtile.return
}

// -----

// Dots: batch tiles wider than 1 in place (leading) give a batched tt.dot as they are;
// a batch dim of 2 elsewhere is no form tt.dot takes, and the dot stays.
// CHECK-LABEL: xtile.entry_func @dots
// CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<2x4x8xbf16> * tensor<2x8x4xbf16> -> tensor<2x4x4xf32>
// CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [1]
// CHECK-NOT: tt.trans
xtile.entry_func @dots(%in: memref<2x4x8xbf16>, %in2: memref<2x8x4xbf16>, %in3: memref<8x2x4xbf16>, %out: memref<2x4x4xf32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %c0 = arith.constant 0 : index
  %a = xtile.extract %in[%c0, %c0, %c0] [2, 4, 8] [1, 1, 1] : memref<2x4x8xbf16> -> tensor<2x4x8xbf16>
  %b = xtile.extract %in2[%c0, %c0, %c0] [2, 8, 4] [1, 1, 1] : memref<2x8x4xbf16> -> tensor<2x8x4xbf16>
  %b2 = xtile.extract %in3[%c0, %c0, %c0] [8, 2, 4] [1, 1, 1] : memref<8x2x4xbf16> -> tensor<8x2x4xbf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<2x4x4xf32>
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) -> tensor<2x4x4xf32>
  %s = arith.addf %acc, %d : tensor<2x4x4xf32>
  %d2 = stablehlo.dot_general %a, %b2, batching_dims = [0] x [1], contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8xbf16>, tensor<8x2x4xbf16>) -> tensor<2x4x4xf32>
  %s2 = arith.addf %s, %d2 : tensor<2x4x4xf32>
  xtile.insert %s2 into %out[%c0, %c0, %c0] [2, 4, 4] [1, 1, 1] : tensor<2x4x4xf32> -> memref<2x4x4xf32>
  xtile.return
}
