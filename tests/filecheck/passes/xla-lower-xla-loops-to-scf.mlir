// RUN: xla-emit-opt %s --split-input-file -p "xla-lower-xla-loops-to-scf{greedy-cleanup=false}" | filecheck %s

// One range variable: one scf.for over [0, 4); both dims are checked against
// their bounds, the map result comes from an apply_indexing in the then-branch,
// the else-branch passes the iter arg through.
func.func @one_range_var(%th: index, %out: tensor<512xf32>, %v: f32) -> tensor<512xf32> {
  %r = xla_gpu.loop (%th)[%vi] -> (%idx)
      in #xla_gpu.indexing_map<"(th_x)[vector_index] -> (th_x * 4 + vector_index), domain: th_x in [0, 127], vector_index in [0, 3]">
      iter_args(%it = %out) -> (tensor<512xf32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<512xf32>
    xla_gpu.yield %n : tensor<512xf32>
  }
  func.return %r : tensor<512xf32>
}
// CHECK-LABEL: func.func @one_range_var
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[R:.*]] = scf.for %[[VI:vi]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[IT:it]] = %out) -> (tensor<512xf32>) {
// CHECK:           %[[GE:.*]] = arith.cmpi sge, %th, %{{.*}} : index
// CHECK:           %[[C127:.*]] = arith.constant 127 : index
// CHECK:           %[[LE:.*]] = arith.cmpi sle, %th, %[[C127]] : index
// CHECK:           %[[IN:inbounds]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK:           %[[IF:.*]] = scf.if %[[IN]] -> (tensor<512xf32>) {
// CHECK-NEXT:        %[[IDX:idx]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(th_x)[vector_index] -> (th_x * 4 + vector_index), domain: th_x in [0, 127], vector_index in [0, 3]">(%th)[%[[VI]]]
// CHECK-NEXT:        %[[N:.*]] = tensor.insert %v into %[[IT]][%[[IDX]]] : tensor<512xf32>
// CHECK-NEXT:        scf.yield %[[N]] : tensor<512xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[IT]] : tensor<512xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[IF]] : tensor<512xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
// CHECK-NOT:     xla_gpu.loop

// -----

// Two range variables nest with s0 outermost; each loop carries the iter args.
// A point constraint is checked with eq on its apply_indexing value, and the
// bounds [1, 3] of s1 become the loop bounds [1, 4).
func.func @two_range_vars_and_constraint(%out: tensor<16xi32>, %v: i32) -> tensor<16xi32> {
  %r = xla.loop ()[%i, %j] -> (%idx)
      in #xla.indexing_map<"()[s0, s1] -> (s0 * 4 + s1), domain: s0 in [0, 3], s1 in [1, 3], (s0 + s1) mod 2 in [0, 0]">
      iter_args(%it = %out) -> (tensor<16xi32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<16xi32>
    xla.yield %n : tensor<16xi32>
  }
  func.return %r : tensor<16xi32>
}
// CHECK-LABEL: func.func @two_range_vars_and_constraint
// CHECK:         %[[OUTER:.*]] = scf.for %[[I:i]] = %c0 to %c4 step %c1 iter_args(%[[IT0:.*]] = %out)
// CHECK:           %[[INNER:.*]] = scf.for %[[J:j]] = %c1{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%[[IT1:.*]] = %[[IT0]])
// CHECK-NEXT:        %[[PARITY:.*]] = xla.apply_indexing #xla.indexing_map<"()[s0, s1] -> ((s0 + s1) mod 2), domain: s0 in [0, 3], s1 in [1, 3]">[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[EQ:inbounds]] = arith.cmpi eq, %[[PARITY]], %[[ZERO]] : index
// CHECK-NEXT:        %[[IF:.*]] = scf.if %[[EQ]]
// CHECK-NEXT:          xla.apply_indexing #xla.indexing_map<"()[s0, s1] -> (s0 * 4 + s1), domain: s0 in [0, 3], s1 in [1, 3]">[%[[I]], %[[J]]]
// CHECK:             } else {
// CHECK-NEXT:          scf.yield %[[IT1]]
// CHECK:             scf.yield %[[IF]]
// CHECK:           scf.yield %[[INNER]]
// CHECK:         func.return %[[OUTER]]

// -----

// No range variables: no loop, only the domain check around the body.
func.func @no_range_vars(%d: index, %out: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %r = xla_gpu.loop (%d)[] -> (%idx)
      in #xla_gpu.indexing_map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 15]">
      iter_args(%it = %out) -> (tensor<8xf32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<8xf32>
    xla_gpu.yield %n : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @no_range_vars
// CHECK-NOT:     scf.for
// CHECK:         %[[IF:.*]] = scf.if %inbounds -> (tensor<8xf32>) {
// CHECK-NEXT:      xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 15]">(%d)
// CHECK:         func.return %[[IF]]

// -----

// Nothing to check (no dims, no constraints): the body runs unguarded, and
// several iter args are carried.
func.func @unguarded(%a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = xla_gpu.loop ()[%i] -> (%idx)
      in #xla_gpu.indexing_map<"()[s0] -> (3 - s0), domain: s0 in [0, 3]">
      iter_args(%x = %a, %y = %b) -> (tensor<4xf32>, tensor<4xf32>) {
    %nx = tensor.insert %v into %x[%idx] : tensor<4xf32>
    %ny = tensor.insert %v into %y[%i] : tensor<4xf32>
    xla_gpu.yield %nx, %ny : tensor<4xf32>, tensor<4xf32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @unguarded
// CHECK:         %[[R:.*]], %[[R1:.*]] = scf.for %[[I:i]] = %c0 to %c4 step %c1 iter_args(%[[X:x]] = %a, %[[Y:y]] = %b)
// CHECK-NOT:       scf.if
// CHECK-NEXT:      %[[IDX:idx]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"()[s0] -> (-s0 + 3), domain: s0 in [0, 3]">[%[[I]]]
// CHECK-NEXT:      %[[NX:.*]] = tensor.insert %v into %[[X]][%[[IDX]]]
// CHECK-NEXT:      %[[NY:.*]] = tensor.insert %v into %[[Y]][%[[I]]]
// CHECK-NEXT:      scf.yield %[[NX]], %[[NY]]
// CHECK:         func.return %[[R]], %[[R1]]

// -----

// Must not fire: ops other than xla loops are left alone.
func.func @not_a_loop(%d: index) -> index {
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 * 2), domain: d0 in [0, 7]">(%d)
  func.return %r : index
}
// CHECK-LABEL: func.func @not_a_loop
// CHECK-NEXT:    %[[R:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 * 2), domain: d0 in [0, 7]">(%d)
// CHECK-NEXT:    func.return %[[R]]
