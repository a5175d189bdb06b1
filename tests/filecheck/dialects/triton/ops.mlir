// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// The xtile, stablehlo, tt and triton_xla ops in the syntax XLA prints; printing is a fixed point.

// CHECK-LABEL: xtile.entry_func @softmax_row(%arg0: memref<64x256xf32, #xtile.layout<[1, 0]>>, %arg1: memref<64x256xf32, #xtile.layout<[1, 0]>>, %arg2: index) attributes {num_opaque_args = 0 : i32} {
xtile.entry_func @softmax_row(%arg0: memref<64x256xf32, #xtile.layout<[1, 0]>>, %arg1: memref<64x256xf32, #xtile.layout<[1, 0]>>, %arg2: index) attributes {num_opaque_args = 0 : i32} {
  %c0 = arith.constant 0 : index
  // CHECK: xtile.extract %arg0[%arg2, %c0] [1, 256] [1, 1] : memref<64x256xf32, #xtile.layout<[1, 0]>> -> tensor<256xf32>
  %0 = xtile.extract %arg0[%arg2, %c0] [1, 256] [1, 1] : memref<64x256xf32, #xtile.layout<[1, 0]>> -> tensor<256xf32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK: stablehlo.reduce(%0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<256xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<256xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<256xf32>
  // CHECK: stablehlo.subtract %0, %{{.*}} : tensor<256xf32>
  %3 = stablehlo.subtract %0, %2 : tensor<256xf32>
  %4 = stablehlo.exponential %3 : tensor<256xf32>
  // CHECK: stablehlo.compare  GT, %{{.*}}, %{{.*}},  FLOAT : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xi1>
  %5 = stablehlo.compare  GT, %4, %3,  FLOAT : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xi1>
  // CHECK: stablehlo.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<256xi1>, tensor<256xf32>
  %6 = stablehlo.select %5, %4, %3 : tensor<256xi1>, tensor<256xf32>
  // CHECK: stablehlo.iota dim = 0 : tensor<256xi32>
  %7 = stablehlo.iota dim = 0 : tensor<256xi32>
  // CHECK: stablehlo.convert %{{.*}} : (tensor<256xi32>) -> tensor<256xf32>
  %8 = stablehlo.convert %7 : (tensor<256xi32>) -> tensor<256xf32>
  // CHECK: stablehlo.reshape %{{.*}} : (tensor<256xf32>) -> tensor<1x256xf32>
  %9 = stablehlo.reshape %8 : (tensor<256xf32>) -> tensor<1x256xf32>
  // CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<1x256xf32>) -> tensor<256x1xf32>
  %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<1x256xf32>) -> tensor<256x1xf32>
  // CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x256xf32>, tensor<256x1xf32>) -> tensor<1x1xf32>
  %11 = stablehlo.dot_general %9, %10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x256xf32>, tensor<256x1xf32>) -> tensor<1x1xf32>
  // CHECK: xtile.mask %{{.*}} bounds [1, 200], %{{.*}} : tensor<1x256xf32>
  %z = arith.constant 0.000000e+00 : f32
  %12 = xtile.mask %9 bounds [1, 200], %z : tensor<1x256xf32>
  // CHECK: xtile.insert %6 into %arg1[%arg2, %c0] [1, 256] [1, 1] : tensor<256xf32> -> memref<64x256xf32, #xtile.layout<[1, 0]>>
  xtile.insert %6 into %arg1[%arg2, %c0] [1, 256] [1, 1] : tensor<256xf32> -> memref<64x256xf32, #xtile.layout<[1, 0]>>
  // CHECK: xtile.return
  xtile.return
}

// The full reducer form (two operands: a max and its index).
// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %cx: tensor<f32>, %ci: tensor<i32>) -> tensor<8xf32> {
  // CHECK: %{{.*}}, %{{.*}} = stablehlo.reduce(%x init: %cx), (%i init: %ci) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  // CHECK-NEXT: reducer(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) (%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>)  {
  // CHECK: stablehlo.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %cx), (%i init: %ci) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
    %gt = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %k = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %m, %k : tensor<f32>, tensor<i32>
  }
  func.return %r#0 : tensor<8xf32>
}

// CHECK-LABEL: tt.func @kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>)
tt.func @kernel(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>) {
  // CHECK: tt.get_program_id x : i32
  %pid = tt.get_program_id x : i32
  // CHECK: tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // CHECK: tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %s = tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %p = tt.addptr %s, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %c = arith.constant dense<200> : tensor<256xi32>
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<256xi32>
  %m = arith.cmpi slt, %r, %c : tensor<256xi32>
  %z = arith.constant dense<0.000000e+00> : tensor<256xf32>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  %v = tt.load %p, %m, %z : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} cacheModifier = cg evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
  %w = tt.load %p cacheModifier = cg evictionPolicy = evict_last : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
  %e = tt.expand_dims %v {axis = 0 : i32} : tensor<256xf32> -> tensor<1x256xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<1x256xf32> -> tensor<4x256xf32>
  %b = tt.broadcast %e : tensor<1x256xf32> -> tensor<4x256xf32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "libdevice.10.bc", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32>
  %x = tt.extern_elementwise %v {libname = "", libpath = "libdevice.10.bc", pure = true, symbol = "__nv_expf"} : (tensor<256xf32>) -> tensor<256xf32>
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}} : f32
  %red = "tt.reduce"(%b) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %q: f32):
    %sum = arith.addf %a, %q : f32
    tt.reduce.return %sum : f32
  }) : (tensor<4x256xf32>) -> tensor<4xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x256xf32> -> tensor<256x4xf32>
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<4x256xf32> -> tensor<256x4xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<4x256xf32> -> tensor<1024xf32>
  %rs = tt.reshape %b : tensor<4x256xf32> -> tensor<1024xf32>
  %acc = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<4x256xf32> * tensor<256x4xf32> -> tensor<4x4xf32>
  %d = tt.dot %b, %t, %acc, inputPrecision = tf32 : tensor<4x256xf32> * tensor<256x4xf32> -> tensor<4x4xf32>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<256xf32> -> tensor<256xf8E5M2>
  %f8 = tt.fp_to_fp %x, rounding = rtne : tensor<256xf32> -> tensor<256xf8E5M2>
  // CHECK: tt.bitcast %{{.*}} : tensor<256xf32> -> tensor<256xi32>
  %bc = tt.bitcast %x : tensor<256xf32> -> tensor<256xi32>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  tt.store %p, %x, %m : tensor<256x!tt.ptr<f32>>
  // CHECK: tt.return
  tt.return
}

// CHECK-LABEL: func.func @lowered(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>)
func.func @lowered(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>) {
  %pid = tt.get_program_id x : i32
  %i = arith.index_cast %pid : i32 to index
  // CHECK: triton_xla.extract from %arg0 as memref<64x256xf32, #xtile.layout<[1, 0]>> [%{{.*}}, 0] [1, 256] [1, 1] : tensor<1x256xf32>
  %t = triton_xla.extract from %arg0 as memref<64x256xf32, #xtile.layout<[1, 0]>> [%i, 0] [1, 256] [1, 1] : tensor<1x256xf32>
  // CHECK: triton_xla.squeeze_dims %{{.*}} {axis = 0 : i32} : tensor<1x256xf32> -> tensor<256xf32>
  %s = triton_xla.squeeze_dims %t {axis = 0 : i32} : tensor<1x256xf32> -> tensor<256xf32>
  // CHECK: triton_xla.insert %{{.*}} into %arg1 as memref<64x256xf32, #xtile.layout<[1, 0]>> [%{{.*}}, 0] [1, 256] [1, 1] : tensor<1x256xf32>
  triton_xla.insert %t into %arg1 as memref<64x256xf32, #xtile.layout<[1, 0]>> [%i, 0] [1, 256] [1, 1] : tensor<1x256xf32>
  func.return
}

// CHECK-LABEL: func.func @xtile_scan_and_dot_scaled
func.func @xtile_scan_and_dot_scaled(%x: tensor<8x16xf32>, %c: tensor<8xf32>, %lhs: tensor<128x128xf32>, %ls: tensor<128x4xi8>, %rhs: tensor<128x256xf32>, %rs: tensor<256x4xi8>) -> tensor<8x16xf32> {
  // CHECK: xtile.scan(%x) inits(%c) dimension = 1 {scan_dim_size = 16 : i64} : (tensor<8x16xf32>), (tensor<8xf32>) -> (tensor<8x16xf32>), (tensor<8xf32>) {
  // CHECK: xtile.yield %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>
  %o, %k = xtile.scan(%x) inits(%c) dimension = 1 {scan_dim_size = 16 : i64} : (tensor<8x16xf32>), (tensor<8xf32>) -> (tensor<8x16xf32>), (tensor<8xf32>) {
  ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
    %s = arith.addf %a, %b : tensor<8xf32>
    xtile.yield %s, %s : tensor<8xf32>, tensor<8xf32>
  }
  // CHECK: xtile.dot_scaled %lhs scale %ls, %rhs scale %rs {fastMath = true, lhs_elem_type = f32, rhs_elem_type = f32} : tensor<128x128xf32>, tensor<128x4xi8> * tensor<128x256xf32>, tensor<256x4xi8> -> tensor<128x256xf32>
  %d = xtile.dot_scaled %lhs scale %ls, %rhs scale %rs {fastMath = true, lhs_elem_type = f32, rhs_elem_type = f32} : tensor<128x128xf32>, tensor<128x4xi8> * tensor<128x256xf32>, tensor<256x4xi8> -> tensor<128x256xf32>
  // CHECK: nvvm.griddepcontrol wait
  nvvm.griddepcontrol wait
  // CHECK: tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %lhs : tensor<128x128xf32> -> tensor<128x128xf32>
  %r = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %lhs : tensor<128x128xf32> -> tensor<128x128xf32>
  func.return %o : tensor<8x16xf32>
}
