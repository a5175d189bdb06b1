// RUN: xla-emit-opt %s --split-input-file -p convert-complex-to-standard | filecheck %s

// Multiplication is the plain formula in the element type; the sum after it reads the
// product's parts off its `create` (no re/im between the two ops).
func.func @mul_add(%a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %p = complex.mul %a, %b : complex<f32>
  %s = complex.add %p, %a : complex<f32>
  func.return %s : complex<f32>
}

// CHECK-LABEL: func.func @mul_add
// CHECK:         %[[X:.*]] = complex.re %a : complex<f32>
// CHECK-NEXT:    %[[Y:.*]] = complex.im %a : complex<f32>
// CHECK-NEXT:    %[[U:.*]] = complex.re %b : complex<f32>
// CHECK-NEXT:    %[[V:.*]] = complex.im %b : complex<f32>
// CHECK-NEXT:    %[[XU:.*]] = arith.mulf %[[X]], %[[U]] : f32
// CHECK-NEXT:    %[[YV:.*]] = arith.mulf %[[Y]], %[[V]] : f32
// CHECK-NEXT:    %[[RE:.*]] = arith.subf %[[XU]], %[[YV]] : f32
// CHECK-NEXT:    %[[YU:.*]] = arith.mulf %[[Y]], %[[U]] : f32
// CHECK-NEXT:    %[[XV:.*]] = arith.mulf %[[X]], %[[V]] : f32
// CHECK-NEXT:    %[[IM:.*]] = arith.addf %[[YU]], %[[XV]] : f32
// CHECK-NOT:     complex.create
// CHECK:         %[[SRE:.*]] = arith.addf %[[RE]], %{{.*}} : f32
// CHECK-NEXT:    %[[SIM:.*]] = arith.addf %[[IM]], %{{.*}} : f32
// CHECK-NEXT:    %[[S:.*]] = complex.create %[[SRE]], %[[SIM]] : complex<f32>
// CHECK-NEXT:    func.return %[[S]] : complex<f32>

// -----

// Division: Smith's method (the larger part of the divisor divides), then Annex G's
// infinities where both parts came out NaN.
func.func @div(%a: complex<f32>, %b: complex<f32>) -> complex<f32> {
  %q = complex.div %a, %b : complex<f32>
  func.return %q : complex<f32>
}

// CHECK-LABEL: func.func @div
// CHECK:         %[[U:.*]] = complex.re %b
// CHECK-NEXT:    %[[V:.*]] = complex.im %b
// CHECK-NEXT:    %{{.*}} = arith.divf %[[U]], %[[V]] : f32
// CHECK:         %[[AU:.*]] = math.absf %[[U]] : f32
// CHECK-NEXT:    %[[AV:.*]] = math.absf %[[V]] : f32
// CHECK-NEXT:    %[[BYV:.*]] = arith.cmpf olt, %[[AU]], %[[AV]] : f32
// CHECK-NEXT:    %[[RE:.*]] = arith.select %[[BYV]]
// CHECK-NEXT:    %[[IM:.*]] = arith.select %[[BYV]]
// CHECK:         %[[INF:.*]] = arith.constant 0x7f800000 : f32
// CHECK:         math.copysign %[[INF]], %[[U]] : f32
// CHECK:         %[[NRE:.*]] = arith.cmpf uno, %[[RE]], %[[RE]] : f32
// CHECK-NEXT:    %[[NIM:.*]] = arith.cmpf uno, %[[IM]], %[[IM]] : f32
// CHECK-NEXT:    %[[LOST:.*]] = arith.andi %[[NRE]], %[[NIM]] : i1
// CHECK-NEXT:    %[[QRE:.*]] = arith.select %[[LOST]], %{{.*}}, %[[RE]] : f32
// CHECK-NEXT:    %[[QIM:.*]] = arith.select %[[LOST]], %{{.*}}, %[[IM]] : f32
// CHECK-NEXT:    complex.create %[[QRE]], %[[QIM]] : complex<f32>

// -----

// eq: both parts ordered-equal; neq: either part unordered-or-unequal (NaN != NaN).
func.func @compare(%a: complex<f64>, %b: complex<f64>) -> (i1, i1) {
  %e = complex.eq %a, %b : complex<f64>
  %n = complex.neq %a, %b : complex<f64>
  func.return %e, %n : i1, i1
}

// CHECK-LABEL: func.func @compare
// CHECK:         %[[R:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[I:.*]] = arith.cmpf oeq, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[E:.*]] = arith.andi %[[R]], %[[I]] : i1
// CHECK:         %[[NR:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[NI:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:    %[[N:.*]] = arith.ori %[[NR]], %[[NI]] : i1
// CHECK-NEXT:    func.return %[[E]], %[[N]] : i1, i1

// -----

// A constant is its two parts; |z| = max * sqrt(1 + (min/max)^2), min where that is NaN.
func.func @constant_abs() -> f32 {
  %c = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>
  %m = complex.abs %c : complex<f32>
  func.return %m : f32
}

// CHECK-LABEL: func.func @constant_abs
// CHECK-NEXT:    %[[X:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %[[Y:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-NEXT:    %[[AX:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:    %[[AY:.*]] = math.absf %[[Y]] : f32
// CHECK-NEXT:    %[[MAX:.*]] = arith.maximumf %[[AX]], %[[AY]] : f32
// CHECK-NEXT:    %[[MIN:.*]] = arith.minimumf %[[AX]], %[[AY]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.divf %[[MIN]], %[[MAX]] : f32
// CHECK-NEXT:    %[[R2:.*]] = arith.mulf %[[R]], %[[R]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[R2]], %[[ONE]] : f32
// CHECK-NEXT:    %[[ROOT:.*]] = math.sqrt %[[S]] : f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[MAX]], %[[ROOT]] : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[M]], %[[M]] : f32
// CHECK-NEXT:    %[[ABS:.*]] = arith.select %[[NAN]], %[[MIN]], %[[M]] : f32
// CHECK-NEXT:    func.return %[[ABS]] : f32
