// RUN: xla-emit-opt %s --split-input-file -p "xla-simplify-arith{greedy-cleanup=false}" | filecheck %s

// Thread ids in [0, 127] (xla.range): the lowered loop's bounds checks are
// always true; a comparison the range straddles is kept.
func.func @thread_bounds() -> (i1, i1, i1, i1) {
  %th = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %c0 = arith.constant 0 : index
  %c127 = arith.constant 127 : index
  %c64 = arith.constant 64 : index
  %a = arith.cmpi sge, %th, %c0 : index
  %b = arith.cmpi sle, %th, %c127 : index
  %c = arith.cmpi slt, %th, %c64 : index
  %d = arith.cmpi ugt, %th, %c127 : index
  func.return %a, %b, %c, %d : i1, i1, i1, i1
}
// CHECK-LABEL: func.func @thread_bounds
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK-DAG:     %[[F:.*]] = arith.constant false
// CHECK-DAG:     %[[C:.*]] = arith.cmpi slt, %th, %c64 : index
// CHECK:         func.return %[[T]], %{{.*}}, %[[C]], %[[F]]

// -----

// Function arguments with xla.range, eq/ne of disjoint ranges, and a point
// range compared with the same constant.
func.func @arguments(%i: index {xla.range = [0 : index, 5 : index]}, %j: index {xla.range = [6 : index, 9 : index]}) -> (i1, i1, i1) {
  %c3 = arith.constant 3 : index
  %a = arith.cmpi eq, %i, %j : index
  %b = arith.cmpi ne, %i, %j : index
  %c = arith.cmpi eq, %c3, %c3 : index
  func.return %a, %b, %c : i1, i1, i1
}
// CHECK-LABEL: func.func @arguments
// CHECK-DAG:     %[[F:.*]] = arith.constant false
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK:         func.return %[[F]], %[[T]], %{{.*}}
// CHECK-NOT:     arith.cmpi

// -----

// scf.for induction variables range over [lb, ub - 1]; sums of ranges add up.
func.func @loop_iv(%out: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (i1) {
    %s = arith.addi %i, %c4 : index
    %lt = arith.cmpi slt, %s, %c8 : index
    %ge = arith.cmpi sge, %i, %c4 : index
    %x = arith.xori %lt, %ge : i1
    scf.yield %x : i1
  }
  func.return %r : i1
}
// CHECK-LABEL: func.func @loop_iv
// CHECK:         scf.for
// CHECK-DAG:       %[[T:.*]] = arith.constant true
// CHECK-DAG:       %[[F:.*]] = arith.constant false
// CHECK:           arith.xori %[[T]], %[[F]] : i1
// CHECK-NOT:       arith.cmpi

// -----

// minsi/maxsi whose winner the ranges decide fold to that operand; unknown
// values keep the op.
func.func @min_max(%i: index {xla.range = [0 : index, 7 : index]}, %u: index) -> (index, index, index) {
  %c8 = arith.constant 8 : index
  %a = arith.minsi %i, %c8 : index
  %b = arith.maxsi %c8, %i : index
  %c = arith.minsi %u, %c8 : index
  func.return %a, %b, %c : index, index, index
}
// CHECK-LABEL: func.func @min_max
// CHECK:         %[[C:.*]] = arith.minsi %u, %c8 : index
// CHECK-NEXT:    func.return %i, %c8, %[[C]]

// -----

// apply_indexing results have the range of their expression: th floordiv 32
// is in [0, 3], so the comparison folds (and the unused index goes away).
// Operand ranges narrow the map, which then simplifies: with %j in [0, 7],
// j mod 8 is j.
func.func @apply_indexing_ranges(%th: index {xla.range = [0 : index, 127 : index]}, %j: index {xla.range = [0 : index, 7 : index]}) -> (i1, index) {
  %c4 = arith.constant 4 : index
  %w = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 floordiv 32), domain: d0 in [0, 1023]">(%th)
  %lt = arith.cmpi slt, %w, %c4 : index
  %m = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 mod 8), domain: d0 in [0, 63]">(%j)
  func.return %lt, %m : i1, index
}
// CHECK-LABEL: func.func @apply_indexing_ranges
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[M:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0), domain: d0 in [0, 7]">(%j)
// CHECK-NEXT:    func.return %[[T]], %[[M]]

// -----

// Must not fire: unsigned comparisons of possibly negative values, and
// values without a known range.
func.func @unknown(%i: index {xla.range = [-4 : index, 4 : index]}, %u: index) -> (i1, i1) {
  %c8 = arith.constant 8 : index
  %a = arith.cmpi ult, %i, %c8 : index
  %b = arith.cmpi slt, %u, %c8 : index
  func.return %a, %b : i1, i1
}
// CHECK-LABEL: func.func @unknown
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    arith.cmpi ult, %i, %c8
// CHECK-NEXT:    arith.cmpi slt, %u, %c8

// -----

// Inside an xla loop: the induction variable has its range variable's bounds
// and a map result its expression's range (here [0, 511]).
func.func @xla_loop_args(%th: index, %out: tensor<512xi1>) -> tensor<512xi1> {
  %c512 = arith.constant 512 : index
  %c3 = arith.constant 3 : index
  %r = xla_gpu.loop (%th)[%vi] -> (%idx)
      in #xla_gpu.indexing_map<"(th_x)[vector_index] -> (th_x * 4 + vector_index), domain: th_x in [0, 127], vector_index in [0, 3]">
      iter_args(%it = %out) -> (tensor<512xi1>) {
    %in = arith.cmpi slt, %idx, %c512 : index
    %small = arith.cmpi sle, %vi, %c3 : index
    %both = arith.andi %in, %small : i1
    %n = tensor.insert %both into %it[%idx] : tensor<512xi1>
    xla_gpu.yield %n : tensor<512xi1>
  }
  func.return %r : tensor<512xi1>
}
// CHECK-LABEL: func.func @xla_loop_args
// CHECK:         xla_gpu.loop
// CHECK-NOT:       arith.cmpi
// CHECK:           %[[T:.*]] = arith.constant true
// CHECK:           arith.andi %[[T]], %{{.*}} : i1
