// RUN: xla-emit-opt %s --split-input-file -p xla-safe-integer-arithmetic | filecheck %s

// A signed divide marked `xla.guard_ub` gets XLA's guard, op for op as XLA's pass writes
// it (jax 0.10.2's triton-to-llvm log of an s32 divide in a __triton reduce): the divisor
// is 1 where b = 0 or a / b overflows, then INT_MIN and -1 are selected in.
// CHECK-LABEL: func.func @signed_divide
// CHECK-DAG:  %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-DAG:  %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:  %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:  %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK:      %[[BYZERO:.*]] = arith.cmpi eq, %[[B:.*]], %[[ZERO]] : i32
// CHECK-NEXT: %[[ISMIN:.*]] = arith.cmpi eq, %[[A:.*]], %[[MIN]] : i32
// CHECK-NEXT: %[[ISM1:.*]] = arith.cmpi eq, %[[B]], %[[ALL]] : i32
// CHECK-NEXT: %[[OVER:.*]] = arith.andi %[[ISMIN]], %[[ISM1]] : i1
// CHECK-NEXT: %[[BAD:.*]] = arith.ori %[[BYZERO]], %[[OVER]] : i1
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[BAD]], %[[ONE]], %[[B]] : i32
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[A]], %[[SAFE]] : i32
// CHECK-NEXT: %[[QM:.*]] = arith.select %[[OVER]], %[[MIN]], %[[Q]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[BYZERO]], %[[ALL]], %[[QM]] : i32
// CHECK-NEXT: func.return %[[R]] : i32
func.func @signed_divide(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b {xla.guard_ub} : i32
  func.return %q : i32
}

// -----

// On tiles: splat constants; a remainder is 0 where INT_MIN % -1 and `a` where b = 0.
// CHECK-LABEL: func.func @tile_remainder
// CHECK-DAG:  %[[ZERO:.*]] = arith.constant dense<0> : tensor<4xi8>
// CHECK:      %[[BYZERO:.*]] = arith.cmpi eq, %[[B:.*]], %[[ZERO]] : tensor<4xi8>
// CHECK:      %[[OVER:.*]] = arith.andi
// CHECK:      %[[R:.*]] = arith.remsi %[[A:.*]], %{{.*}} : tensor<4xi8>
// CHECK-NEXT: %[[RM:.*]] = arith.select %[[OVER]], %[[ZERO]], %[[R]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NEXT: %[[OUT:.*]] = arith.select %[[BYZERO]], %[[A]], %[[RM]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NEXT: func.return %[[OUT]] : tensor<4xi8>
func.func @tile_remainder(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %r = arith.remsi %a, %b {xla.guard_ub} : tensor<4xi8>
  func.return %r : tensor<4xi8>
}

// -----

// Unsigned: only the divisor 0 is guarded (all ones, as XLA defines it). Unmarked
// divisions are left alone.
// CHECK-LABEL: func.func @unsigned_and_unmarked
// CHECK:      %[[BYZERO:.*]] = arith.cmpi eq, %[[B:.*]], %{{.*}} : i16
// CHECK-NEXT: %[[SAFE:.*]] = arith.select %[[BYZERO]], %{{.*}}, %[[B]] : i16
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[A:.*]], %[[SAFE]] : i16
// CHECK-NEXT: %[[R:.*]] = arith.select %[[BYZERO]], %{{.*}}, %[[Q]] : i16
// CHECK-NEXT: %[[PLAIN:.*]] = arith.divsi %[[A]], %[[B]] : i16
// CHECK-NEXT: func.return %[[R]], %[[PLAIN]] : i16, i16
func.func @unsigned_and_unmarked(%a: i16, %b: i16) -> (i16, i16) {
  %q = arith.divui %a, %b {xla.guard_ub} : i16
  %p = arith.divsi %a, %b : i16
  func.return %q, %p : i16, i16
}
