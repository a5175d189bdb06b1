// RUN: xla-emit-opt %s --split-input-file -p stablehlo-lower-to-arith | filecheck %s

// Elementwise stablehlo on tiles becomes arith/math, floats and integers apart; the
// converts become extf/truncf; a convert to its own type disappears.
// CHECK-LABEL: xtile.entry_func @elementwise
// CHECK: %[[S:.*]] = arith.subf %{{.*}}, %{{.*}} : tensor<2x64xbf16>
// CHECK: %[[W:.*]] = arith.extf %[[S]] : tensor<2x64xbf16> to tensor<2x64xf32>
// CHECK: %[[M:.*]] = arith.maximumf %[[W]], %[[W]] : tensor<2x64xf32>
// CHECK: %[[N:.*]] = arith.truncf %[[M]] : tensor<2x64xf32> to tensor<2x64xbf16>
// CHECK: arith.addi %{{.*}}, %{{.*}} : tensor<2x64xi32>
// CHECK: xtile.insert %[[N]]
// CHECK-NOT: stablehlo.
xtile.entry_func @elementwise(%in: memref<4x64xbf16>, %ints: memref<4x64xi32>, %out: memref<4x64xbf16>, %outi: memref<4x64xi32>, %pid: index {xla.range = [0 : index, 1 : index]}) {
  %c0 = arith.constant 0 : index
  %x = xtile.extract %in[%pid, %c0] [2, 64] [1, 1] : memref<4x64xbf16> -> tensor<2x64xbf16>
  %i = xtile.extract %ints[%pid, %c0] [2, 64] [1, 1] : memref<4x64xi32> -> tensor<2x64xi32>
  %s = stablehlo.subtract %x, %x : tensor<2x64xbf16>
  %w = stablehlo.convert %s : (tensor<2x64xbf16>) -> tensor<2x64xf32>
  %m = stablehlo.maximum %w, %w : tensor<2x64xf32>
  %n = stablehlo.convert %m : (tensor<2x64xf32>) -> tensor<2x64xbf16>
  %same = stablehlo.convert %n : (tensor<2x64xbf16>) -> tensor<2x64xbf16>
  %j = stablehlo.add %i, %i : tensor<2x64xi32>
  xtile.insert %same into %out[%pid, %c0] [2, 64] [1, 1] : tensor<2x64xbf16> -> memref<4x64xbf16>
  xtile.insert %j into %outi[%pid, %c0] [2, 64] [1, 1] : tensor<2x64xi32> -> memref<4x64xi32>
  xtile.return
}

// -----

// Compares give tiles of i1 (cmpf with the direction's ordered predicate); selects stay
// elementwise. Reduces and broadcasts are left for stablehlo-lower-to-triton.
// CHECK-LABEL: xtile.entry_func @compare_select
// CHECK: %[[P:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : tensor<16xf32>
// CHECK: arith.select %[[P]], %{{.*}}, %{{.*}} : tensor<16xi1>, tensor<16xf32>
// CHECK: stablehlo.reduce
// CHECK: arith.addf %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: stablehlo.broadcast_in_dim
xtile.entry_func @compare_select(%in: memref<16xf32>, %out: memref<16xf32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %x = xtile.extract %in[%pid] [16] [1] : memref<16xf32> -> tensor<16xf32>
  %lt = stablehlo.compare LT, %x, %x : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
  %y = stablehlo.select %lt, %x, %x : tensor<16xi1>, tensor<16xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
  %b = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<16xf32>
  xtile.insert %b into %out[%pid] [16] [1] : tensor<16xf32> -> memref<16xf32>
  xtile.return
}

// -----

// Integer negate is `0 - x` (arith has no integer negation), bitwise not `x xor -1`.
// CHECK-LABEL: xtile.entry_func @integer_negate_and_not
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<8xi32>
// CHECK: %[[N:.*]] = arith.subi %[[Z]], %[[X:.*]] : tensor<8xi32>
// CHECK: %[[ONES:.*]] = arith.constant dense<-1> : tensor<8xi32>
// CHECK: arith.xori %[[N]], %[[ONES]] : tensor<8xi32>
// CHECK-NOT: stablehlo.
xtile.entry_func @integer_negate_and_not(%in: memref<8xi32>, %out: memref<8xi32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %x = xtile.extract %in[%pid] [8] [1] : memref<8xi32> -> tensor<8xi32>
  %n = stablehlo.negate %x : tensor<8xi32>
  %m = stablehlo.not %n : tensor<8xi32>
  xtile.insert %m into %out[%pid] [8] [1] : tensor<8xi32> -> memref<8xi32>
  xtile.return
}

// -----

// Integer abs is `math.absi`, as XLA's Triton emitter writes it; float abs `math.absf`.
// CHECK-LABEL: xtile.entry_func @integer_abs
// CHECK: math.absi %{{.*}} : tensor<8xi32>
// CHECK-NOT: stablehlo.
xtile.entry_func @integer_abs(%in: memref<8xi32>, %out: memref<8xi32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %x = xtile.extract %in[%pid] [8] [1] : memref<8xi32> -> tensor<8xi32>
  %a = stablehlo.abs %x : tensor<8xi32>
  xtile.insert %a into %out[%pid] [8] [1] : tensor<8xi32> -> memref<8xi32>
  xtile.return
}

// -----

// Integer divide and remainder are `divsi`/`remsi` marked `xla.guard_ub`, as XLA's TTIR
// has them; `xla-safe-integer-arithmetic` writes XLA's guard later (x / 0 is -1).
// CHECK-LABEL: xtile.entry_func @integer_divide
// CHECK: %[[Q:.*]] = arith.divsi %[[X:.*]], %[[X]] {xla.guard_ub} : tensor<4xi32>
// CHECK: arith.remsi %[[Q]], %[[X]] {xla.guard_ub} : tensor<4xi32>
// CHECK-NOT: stablehlo.
xtile.entry_func @integer_divide(%in: memref<4xi32>, %out: memref<4xi32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
  %x = xtile.extract %in[%pid] [4] [1] : memref<4xi32> -> tensor<4xi32>
  %q = stablehlo.divide %x, %x : tensor<4xi32>
  %r = stablehlo.remainder %q, %x : tensor<4xi32>
  xtile.insert %r into %out[%pid] [4] [1] : tensor<4xi32> -> memref<4xi32>
  xtile.return
}

// -----

// A float -> integer convert saturates as XLA's Triton emitter writes it (its TTIR for
// `convert(f32 -> s32)`): fptosi, then INT_MIN where x <= -2**31, INT_MAX where x >= 2**31
// (INT_MAX rounded to f32) and 0 for NaN selected in; bf16 is extended to f32 first; f16's
// limits round to infinities.
// CHECK-LABEL: xtile.entry_func @float_to_integer
// CHECK: %[[R:.*]] = arith.fptosi %[[X:.*]] : tensor<1x4xf32> to tensor<1x4xi32>
// CHECK: %[[LO:.*]] = arith.constant dense<-2.14748365e+09> : tensor<1x4xf32>
// CHECK: %[[B:.*]] = arith.cmpf ole, %[[X]], %[[LO]] : tensor<1x4xf32>
// CHECK: %[[MIN:.*]] = arith.constant dense<-2147483648> : tensor<1x4xi32>
// CHECK: %[[S1:.*]] = arith.select %[[B]], %[[MIN]], %[[R]] : tensor<1x4xi1>, tensor<1x4xi32>
// CHECK: %[[HI:.*]] = arith.constant dense<2.14748365e+09> : tensor<1x4xf32>
// CHECK: %[[A:.*]] = arith.cmpf oge, %[[X]], %[[HI]] : tensor<1x4xf32>
// CHECK: %[[MAX:.*]] = arith.constant dense<2147483647> : tensor<1x4xi32>
// CHECK: %[[S2:.*]] = arith.select %[[A]], %[[MAX]], %[[S1]]
// CHECK: %[[N:.*]] = arith.cmpf uno, %[[X]], %[[X]] : tensor<1x4xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<1x4xi32>
// CHECK: %[[I:.*]] = arith.select %[[N]], %[[Z]], %[[S2]]
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<1x4xbf16> to tensor<1x4xf32>
// CHECK: arith.fptosi %[[W]] : tensor<1x4xf32> to tensor<1x4xi32>
// CHECK: arith.cmpf ole, %[[W]]
// CHECK: arith.fptosi %{{.*}} : tensor<1x4xf16> to tensor<1x4xi32>
// CHECK: arith.constant dense<0xfc00> : tensor<1x4xf16>
// CHECK: arith.constant dense<0x7c00> : tensor<1x4xf16>
// CHECK: xtile.insert %[[I]]
// CHECK-NOT: stablehlo.
xtile.entry_func @float_to_integer(%in: memref<2x4xf32>, %inb: memref<2x4xbf16>, %inh: memref<2x4xf16>, %out: memref<2x4xi32>, %outb: memref<2x4xi32>, %outh: memref<2x4xi32>, %pid: index {xla.range = [0 : index, 1 : index]}) {
  %c0 = arith.constant 0 : index
  %x = xtile.extract %in[%pid, %c0] [1, 4] [1, 1] : memref<2x4xf32> -> tensor<1x4xf32>
  %b = xtile.extract %inb[%pid, %c0] [1, 4] [1, 1] : memref<2x4xbf16> -> tensor<1x4xbf16>
  %h = xtile.extract %inh[%pid, %c0] [1, 4] [1, 1] : memref<2x4xf16> -> tensor<1x4xf16>
  %i = stablehlo.convert %x : (tensor<1x4xf32>) -> tensor<1x4xi32>
  %j = stablehlo.convert %b : (tensor<1x4xbf16>) -> tensor<1x4xi32>
  %k = stablehlo.convert %h : (tensor<1x4xf16>) -> tensor<1x4xi32>
  xtile.insert %i into %out[%pid, %c0] [1, 4] [1, 1] : tensor<1x4xi32> -> memref<2x4xi32>
  xtile.insert %j into %outb[%pid, %c0] [1, 4] [1, 1] : tensor<1x4xi32> -> memref<2x4xi32>
  xtile.insert %k into %outh[%pid, %c0] [1, 4] [1, 1] : tensor<1x4xi32> -> memref<2x4xi32>
  xtile.return
}
