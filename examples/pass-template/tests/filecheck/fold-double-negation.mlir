// RUN: xla-emit-opt %s -p fold-double-negation | filecheck %s

func.func @twice(%x: f32) -> f32 {
  %n = arith.negf %x : f32
  %m = arith.negf %n : f32
  return %m : f32
}
// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    func.return %x : f32

func.func @once(%x: f32) -> f32 {
  %n = arith.negf %x : f32
  return %n : f32
}
// CHECK-LABEL: func.func @once
// CHECK-NEXT:    %n = arith.negf %x : f32
// CHECK-NEXT:    func.return %n : f32
