// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{entry function arguments should be of the form (arg: memref..., tile_id: index)}}
xtile.entry_func @tile_id_first(%tile_id: index, %input: memref<1024xf32>) {
  xtile.return
}

// -----

func.func @rank(%arg: memref<1024xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{full tile shape size: 2 does not match rank of buffer: 1}}
  %t = xtile.extract %arg[%c0] [10, 1] [1] : memref<1024xf32> -> tensor<10xf32>
  func.return %t : tensor<10xf32>
}

// -----

func.func @reduction(%arg: memref<16x1024xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{full tile shape: [16, 10] does not reduce to tile shape: [10]}}
  %t = xtile.extract %arg[%c0, %c0] [16, 10] [1, 1] : memref<16x1024xf32> -> tensor<10xf32>
  func.return %t : tensor<10xf32>
}

// -----

func.func @element(%src: tensor<24xf64>, %dst: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{buffer element type: 'f32' does not match element type of tile: 'f64'}}
  xtile.insert %src into %dst[%c0] [24] [1] : tensor<24xf64> -> memref<1024xf32>
  func.return
}

// -----

func.func @broadcast(%x: tensor<4xf32>) -> tensor<8x3xf32> {
  // expected-error@+1 {{expected operand dimension 0 (size 4) to map to a result dimension of size 1 or 4, but got dimension 1 of tensor<8x3xf32>}}
  %b = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<8x3xf32>
  func.return %b : tensor<8x3xf32>
}

// -----

func.func @reduce(%x: tensor<8x16xf32>, %c: tensor<f32>) -> tensor<16xf32> {
  // expected-error@+1 {{expected result type tensor<8xf32>, but got tensor<16xf32>}}
  %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  func.return %r : tensor<16xf32>
}

// -----

func.func @range() -> tensor<64xi32> {
  // expected-error@+1 {{expected 128 elements (end - start), but got 64}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
  func.return %r : tensor<64xi32>
}

// -----

func.func @dot(%a: tensor<16x32xf32>, %b: tensor<16x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error@+1 {{expected shapes [M, K] * [K, N] -> [M, N], but got [16, 32] * [16, 8] -> [16, 8]}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<16x8xf32> -> tensor<16x8xf32>
  func.return %d : tensor<16x8xf32>
}

// -----

func.func @broadcast_tt(%x: tensor<2x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{expected only size-1 dimensions to change, but got tensor<2x8xf32> -> tensor<4x8xf32>}}
  %b = tt.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  func.return %b : tensor<4x8xf32>
}

// -----

func.func @reduce_tt(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{expected the combine region to take (f32, f32), but got (f32)}}
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
