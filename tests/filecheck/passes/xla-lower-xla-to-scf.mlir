// RUN: xla-emit-opt %s --split-input-file -p xla-lower-xla-to-scf | filecheck %s

// predicated_insert: insert when the condition holds, else the tensor unchanged.
func.func @predicated_insert(%v: i32, %t: tensor<2xi32>, %i: index, %c: i1) -> tensor<2xi32> {
  %r = xla.predicated_insert %v into %t[%i] if %c : tensor<2xi32>
  func.return %r : tensor<2xi32>
}
// CHECK-LABEL: func.func @predicated_insert
// CHECK-NEXT:    %[[R:r]] = scf.if %c -> (tensor<2xi32>) {
// CHECK-NEXT:      %[[N:.*]] = tensor.insert %v into %t[%i] : tensor<2xi32>
// CHECK-NEXT:      scf.yield %[[N]] : tensor<2xi32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %t : tensor<2xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// predicated_extract: extract when the condition holds, else the fallback.
func.func @predicated_extract(%t: tensor<2x3xf32>, %i: index, %j: index, %c: i1, %fb: f32) -> f32 {
  %r = xla.predicated_extract %t[%i, %j] if %c else %fb : tensor<2x3xf32>
  func.return %r : f32
}
// CHECK-LABEL: func.func @predicated_extract
// CHECK-NEXT:    %[[R:r]] = scf.if %c -> (f32) {
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %t[%i, %j] : tensor<2x3xf32>
// CHECK-NEXT:      scf.yield %[[E]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %fb : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// Inside a loop body, and chained: each op becomes its own scf.if, in order.
func.func @chained(%src: tensor<4xf32>, %dst: tensor<4xf32>, %c: i1, %fb: f32) -> tensor<4xf32> {
  %r = xla.loop ()[%i] -> (%idx) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
      iter_args(%it = %dst) -> (tensor<4xf32>) {
    %e = xla.predicated_extract %src[%idx] if %c else %fb : tensor<4xf32>
    %n = xla.predicated_insert %e into %it[%idx] if %c : tensor<4xf32>
    xla.yield %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @chained
// CHECK:         xla.loop
// CHECK:           %[[E:e]] = scf.if %c -> (f32) {
// CHECK:             tensor.extract %src
// CHECK:           %[[N:n]] = scf.if %c -> (tensor<4xf32>) {
// CHECK-NEXT:        tensor.insert %[[E]] into %it
// CHECK:           xla.yield %[[N]]

// -----

// Must not fire: atomic_rmw stays (XLA lowers it together with the tensors),
// and loops are left for xla-lower-xla-loops-to-scf.
func.func @kept(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %r = xla.atomic_rmw %t[%i] : tensor<4xf32> {
  ^bb0(%cur: f32):
    %s = arith.addf %cur, %v : f32
    xla.yield %s : f32
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    xla.atomic_rmw %t[%i] : tensor<4xf32> {
// CHECK-NOT:     scf.if

// -----

// The seed's spelling of the loop is untouched as well.
func.func @loop_untouched(%out: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = xla_gpu.loop ()[%i] -> (%idx) in #xla_gpu.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
      iter_args(%it = %out) -> (tensor<4xf32>) {
    %n = tensor.insert %v into %it[%idx] : tensor<4xf32>
    xla_gpu.yield %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @loop_untouched
// CHECK-NEXT:    xla_gpu.loop ()[%i] -> (%idx)
// CHECK-NOT:     scf.

// -----

// xla_gpu.insert: a loop over the indexed vector's map (dims = the insert's
// indices) that extracts each element of the thread's vector at the induction
// variables and inserts it where the insert's map sends the map results. The
// seed's map spelling gives the seed's loop.
#src = #xla_gpu.indexing_map<"(th_x)[s0, s1] -> (th_x floordiv 4, (th_x mod 4) * 6 + s0 * 3 + s1), domain: th_x in [0, 7], s0 in [0, 1], s1 in [0, 2]">
#ins = #xla_gpu.indexing_map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 1], d1 in [0, 23]">
func.func @insert(%v: !xla_gpu.indexed_vector<2x24xf32, #src>, %th: index, %t: tensor<24x2xf32>) -> tensor<24x2xf32> {
  %r = xla_gpu.insert %v(%th) into %t at #ins : !xla_gpu.indexed_vector<2x24xf32, #src> -> tensor<24x2xf32>
  func.return %r : tensor<24x2xf32>
}
// CHECK-LABEL: func.func @insert
// CHECK-NEXT:    %[[VEC:.*]] = builtin.unrealized_conversion_cast %v : !xla_gpu.indexed_vector<{{.*}}> to vector<2x3xf32>
// CHECK-NEXT:    %[[R:xla_loop]] = xla_gpu.loop (%th)[%[[I:i]], %[[J:j]]] -> (%[[RA:ra]], %[[RB:rb]]) in #xla_gpu.indexing_map<"(th_x)[s0, s1] -> (th_x floordiv 4, (th_x mod 4) * 6 + s0 * 3 + s1), domain: th_x in [0, 7], s0 in [0, 1], s1 in [0, 2]"> iter_args(%[[IT:iter]] = %t) -> (tensor<24x2xf32>) {
// CHECK-NEXT:      %[[E:.*]] = vector.extract %[[VEC]][%[[I]], %[[J]]] : f32 from vector<2x3xf32>
// CHECK-NEXT:      %[[X:[^,]+]], %[[Y:[^ ]+]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 1], d1 in [0, 23]">(%[[RA]], %[[RB]])
// CHECK-NEXT:      %[[N:.*]] = tensor.insert %[[E]] into %[[IT]][%[[X]], %[[Y]]] : tensor<24x2xf32>
// CHECK-NEXT:      xla_gpu.yield %[[N]] : tensor<24x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// Today's spelling; complex elements are a leading dimension of 2 in the
// thread's vector; a range variable not starting at 0 is indexed from its
// lower bound; the insert map's constraint is dropped (the loop's domain
// already decides which points run, and apply_indexing takes none).
#src = #xla.indexing_map<"(th_x)[s0] -> (th_x, s0), domain: th_x in [0, 7], s0 in [2, 3]">
#ins = #xla.indexing_map<"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 7], d1 in [0, 3], d0 + d1 in [0, 9]">
func.func @insert_complex(%v: !xla_gpu.indexed_vector<8x4xcomplex<f32>, #src>, %th: index, %t: tensor<32xcomplex<f32>>) -> tensor<32xcomplex<f32>> {
  %r = xla_gpu.insert %v(%th) into %t at #ins : !xla_gpu.indexed_vector<8x4xcomplex<f32>, #src> -> tensor<32xcomplex<f32>>
  func.return %r : tensor<32xcomplex<f32>>
}
// CHECK-LABEL: func.func @insert_complex
// CHECK-NEXT:    %[[VEC:.*]] = builtin.unrealized_conversion_cast %v : {{.*}} to vector<2x2xf32>
// CHECK-NEXT:    xla.loop (%th)[%[[I:i]]] -> (%[[RA:ra]], %[[RB:rb]]) in #xla.indexing_map<"(th_x)[s0] -> (th_x, s0), domain: th_x in [0, 7], s0 in [2, 3]"> iter_args(%[[IT:iter]] = %t)
// CHECK-NEXT:      %[[C2:c2]] = arith.constant 2 : index
// CHECK-NEXT:      %[[P:.*]] = arith.subi %[[I]], %[[C2]] : index
// CHECK-NEXT:      %[[RE:.*]] = vector.extract %[[VEC]][0, %[[P]]] : f32 from vector<2x2xf32>
// CHECK-NEXT:      %[[IM:.*]] = vector.extract %[[VEC]][1, %[[P]]] : f32 from vector<2x2xf32>
// CHECK-NEXT:      %[[Z:.*]] = complex.create %[[RE]], %[[IM]] : complex<f32>
// CHECK-NEXT:      %[[X:.*]] = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 7], d1 in [0, 3]">(%[[RA]], %[[RB]])
// CHECK-NEXT:      %[[N:.*]] = tensor.insert %[[Z]] into %[[IT]][%[[X]]] : tensor<32xcomplex<f32>>
// CHECK-NEXT:      xla.yield %[[N]]
