// RUN: xla-emit-opt %s --split-input-file -p xla-simplify-affine | filecheck %s

// Sums and products become addi/muli over the operands (dims, then symbols).
func.func @linear(%a: index, %b: index, %s: index) -> index {
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1)[s0] -> (d0 * 4 + d1 * 512 + s0), domain: d0 in [0, 127], d1 in [0, 99], s0 in [0, 3]">(%a, %b)[%s]
  func.return %r : index
}
// CHECK-LABEL: func.func @linear
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[A4:.*]] = arith.muli %a, %[[C4]] : index
// CHECK-DAG:     %[[B512:.*]] = arith.muli %b, %[[C512]] : index
// CHECK:         %[[SUM:.*]] = arith.addi %[[A4]], %[[B512]] : index
// CHECK:         %[[R:.*]] = arith.addi %[[SUM]], %s : index
// CHECK-NEXT:    func.return %[[R]]
// CHECK-NOT:     apply_indexing

// -----

// Non-negative dividends (the domain says so) use unsigned division and
// remainder; a subexpression used by two results is computed once.
func.func @unsigned(%a: index) -> (index, index) {
  %q, %m = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 floordiv 8, d0 mod 8 + d0 floordiv 8), domain: d0 in [0, 63]">(%a)
  func.return %q, %m : index, index
}
// CHECK-LABEL: func.func @unsigned
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %a, %[[C8]] : index
// CHECK:         %[[M:.*]] = arith.remui %a, %{{.*}} : index
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[M]], %[[Q]] : index
// CHECK-NEXT:    func.return %[[Q]], %[[S]]
// CHECK-NOT:     divui

// -----

// A dividend that may be negative keeps floor semantics: floordivsi, and
// remsi corrected by the divisor when the remainder is negative. (The map
// simplifier rewrites (d0 - 10) mod 4 as (d0 - 2) mod 4 first.)
func.func @signed(%a: index) -> (index, index) {
  %q, %m = xla.apply_indexing #xla.indexing_map<"(d0) -> ((d0 - 10) floordiv 4, (d0 - 10) mod 4), domain: d0 in [0, 20]">(%a)
  func.return %q, %m : index, index
}
// CHECK-LABEL: func.func @signed
// CHECK:         %[[X:.*]] = arith.addi %a, %{{.*}} : index
// CHECK:         %[[Q:.*]] = arith.floordivsi %[[X]], %[[C4:.*]] : index
// CHECK:         %[[Y:.*]] = arith.addi %a, %{{.*}} : index
// CHECK:         %[[REM:.*]] = arith.remsi %[[Y]], %[[C4]] : index
// CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %{{.*}} : index
// CHECK:         %[[UP:.*]] = arith.addi %[[REM]], %[[C4]] : index
// CHECK:         %[[M:.*]] = arith.select %[[NEG]], %[[UP]], %[[REM]] : index
// CHECK:         func.return %[[Q]], %[[M]]

// -----

// Operand ranges narrow the map first: a constant operand folds away, and a
// range known from xla.range drops a mod that cannot wrap.
func.func @narrowed(%th: index {xla.range = [0 : index, 7 : index]}) -> (index, index) {
  %c0 = arith.constant 0 : index
  %a = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 127], d1 in [0, 3]">(%th, %c0)
  %b = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 mod 16), domain: d0 in [0, 127]">(%th)
  func.return %a, %b : index, index
}
// CHECK-LABEL: func.func @narrowed
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[A:.*]] = arith.muli %th, %[[C4]] : index
// CHECK-NEXT:    func.return %[[A]], %th
// CHECK-NOT:     arith.remui

// -----

// Constant results become constants; min and max become minsi/maxsi.
func.func @constants_min_max(%a: index, %b: index) -> (index, index, index) {
  %k, %lo, %hi = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (7, min(d0, d1), max(d0, d1)), domain: d0 in [0, 10], d1 in [0, 10]">(%a, %b)
  func.return %k, %lo, %hi : index, index, index
}
// CHECK-LABEL: func.func @constants_min_max
// CHECK:         %[[K:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[LO:.*]] = arith.minsi %a, %b : index
// CHECK-NEXT:    %[[HI:.*]] = arith.maxsi %a, %b : index
// CHECK-NEXT:    func.return %[[K]], %[[LO]], %[[HI]]
