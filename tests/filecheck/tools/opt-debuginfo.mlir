// RUN: xla-emit-opt %s --mlir-print-debuginfo | filecheck %s
// RUN: xla-emit-opt %s --mlir-print-debuginfo | xla-emit-opt --mlir-print-debuginfo | filecheck %s --check-prefix=AGAIN
// RUN: xla-emit-opt %s | filecheck %s --check-prefix=PLAIN

// Locations as a Pallas kernel's MLIR carries them (aliases after the module, ranges,
// names, call sites); printed back with MLIR's alias numbering.

func.func @kernel(%x: i32 loc("x")) -> i32 {
  %0 = arith.addi %x, %x : i32 loc(#loc4)
  %1 = arith.muli %0, %0 : i32 loc(fused<"CSE">[#loc1, "k.py":20:1])
  func.return %1 : i32 loc(unknown)
} loc(#loc)
#loc = loc("k.py":1:1)
#loc1 = loc("k.py":12:8 to :30)
#loc2 = loc("kernel"(#loc1))
#loc3 = loc("k.py":40:0)
#loc4 = loc(callsite(#loc2 at #loc3))

// Worked by MLIR's rules: locations are visited op by op (an op's own, then its
// block arguments', then nested ops), a location before the ones nested in it;
// aliases are numbered by nesting depth, then in visiting order; argument
// locations print inline and their aliases (unused) come before the module.
// CHECK:      #loc2 = loc("x")
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @kernel(%x: i32 loc("x")) -> i32 {
// CHECK-NEXT:     %0 = arith.addi %x, %x : i32 loc(#loc9)
// CHECK-NEXT:     %1 = arith.muli %0, %0 : i32 loc(#loc8)
// CHECK-NEXT:     func.return %1 : i32 loc(#loc6)
// CHECK-NEXT:   } loc(#loc1)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc = loc("{{.*}}opt-debuginfo.mlir":0:0)
// CHECK-NEXT: #loc1 = loc("k.py":1:1)
// CHECK-NEXT: #loc3 = loc("k.py":12:8 to :30)
// CHECK-NEXT: #loc4 = loc("k.py":40:0)
// CHECK-NEXT: #loc5 = loc("k.py":20:1)
// CHECK-NEXT: #loc6 = loc(unknown)
// CHECK-NEXT: #loc7 = loc("kernel"(#loc3))
// CHECK-NEXT: #loc8 = loc(fused<"CSE">[#loc3, #loc5])
// CHECK-NEXT: #loc9 = loc(callsite(#loc7 at #loc4))
// CHECK-EMPTY:

// AGAIN: #loc9 = loc(callsite(#loc7 at #loc4))

// PLAIN-NOT: loc
