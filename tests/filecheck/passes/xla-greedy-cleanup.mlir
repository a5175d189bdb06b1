// RUN: xla-emit-opt %s --split-input-file -p xla-simplify-arith | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p xla-lower-xla-loops-to-scf | filecheck %s --check-prefix=LOOPS

// By default the passes XLA writes with MLIR's greedy driver finish as that
// driver does: `andi` with `true` folds, dead ops go, one constant per value
// stays, at the top of the function (out of the loop). xla-simplify-arith then
// replaces a branch on a constant by the region taken.
func.func @cleanup(%out: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %th = gpu.thread_id x {xla.range = [0 : index, 7 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %out) -> (tensor<8xf32>) {
    %c0_1 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %ge = arith.cmpi sge, %th, %c0_1 : index
    %le = arith.cmpi sle, %th, %c7 : index
    %in = arith.andi %ge, %le : i1
    %n = scf.if %in -> (tensor<8xf32>) {
      %t = tensor.insert %v into %acc[%th] : tensor<8xf32>
      scf.yield %t : tensor<8xf32>
    } else {
      scf.yield %acc : tensor<8xf32>
    }
    scf.yield %n : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @cleanup
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-NOT:     arith.constant
// CHECK:         %[[TH:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[R:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.*]] = %out)
// CHECK-NEXT:      %[[T:.*]] = tensor.insert %v into %[[ACC]][%[[TH]]] : tensor<8xf32>
// CHECK-NEXT:      scf.yield %[[T]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// The checks of a lowered loop that always hold stay (xla-simplify-arith folds
// them); its constants are one per value, at the top of the function.
func.func @loop(%th: index, %out: tensor<512xf32>, %v: f32) -> tensor<512xf32> {
  %r = xla.loop (%th)[%vi] -> (%idx)
      in #xla.indexing_map<"(th_x)[s0] -> (th_x * 4 + s0), domain: th_x in [0, 127], s0 in [0, 3]">
      iter_args(%it = %out) -> (tensor<512xf32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<512xf32>
    xla.yield %n : tensor<512xf32>
  }
  func.return %r : tensor<512xf32>
}
// LOOPS-LABEL: func.func @loop
// LOOPS-DAG:     %[[C0:.*]] = arith.constant 0 : index
// LOOPS-DAG:     %[[C4:.*]] = arith.constant 4 : index
// LOOPS-DAG:     %[[C1:.*]] = arith.constant 1 : index
// LOOPS-DAG:     %[[C127:.*]] = arith.constant 127 : index
// LOOPS-NOT:     arith.constant
// LOOPS:         scf.for %{{.*}} = %[[C0]] to %[[C4]] step %[[C1]]
// LOOPS-NEXT:      %[[GE:.*]] = arith.cmpi sge, %th, %[[C0]] : index
// LOOPS-NEXT:      %[[LE:.*]] = arith.cmpi sle, %th, %[[C127]] : index
// LOOPS-NEXT:      %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// LOOPS-NEXT:      scf.if %[[IN]]
