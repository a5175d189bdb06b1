// RUN: xla-emit-opt %s --split-input-file -p xla-flatten-tensors | filecheck %s

// Arguments and results become 1-d; an extract with plain indices reads at the
// row-major linear index, whose map bounds each index by its dimension.
func.func @extract_plain_indices(%t: tensor<2x3xf32>, %i: index, %j: index) -> f32 {
  %e = tensor.extract %t[%i, %j] : tensor<2x3xf32>
  func.return %e : f32
}
// CHECK-LABEL: func.func @extract_plain_indices(%t: tensor<6xf32>, %i: index, %j: index) -> f32
// CHECK-NEXT:    %[[L:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 3 + d1), domain: d0 in [0, 1], d1 in [0, 2]">(%i, %j)
// CHECK-NEXT:    %[[E:.*]] = tensor.extract %t[%[[L]]] : tensor<6xf32>
// CHECK-NEXT:    func.return %[[E]] : f32

// -----

// An insert into an N-d result: the returned tensor is the flat one.
func.func @insert_and_return(%t: tensor<4x2x8xi32>, %v: i32, %i: index, %j: index, %k: index) -> tensor<4x2x8xi32> {
  %r = tensor.insert %v into %t[%i, %j, %k] : tensor<4x2x8xi32>
  func.return %r : tensor<4x2x8xi32>
}
// CHECK-LABEL: func.func @insert_and_return(%t: tensor<64xi32>, %v: i32, %i: index, %j: index, %k: index) -> tensor<64xi32>
// CHECK-NEXT:    %[[L:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1, d2) -> (d0 * 16 + d1 * 8 + d2), domain: d0 in [0, 3], d1 in [0, 1], d2 in [0, 7]">(%i, %j, %k)
// CHECK-NEXT:    %[[R:.*]] = tensor.insert %v into %t[%[[L]]] : tensor<64xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<64xi32>
// CHECK-NOT:     unrealized_conversion_cast

// -----

// Indices computed by apply_indexing are composed with the linearization and
// simplified: the seed's three GELU maps give th_x * 4 + bl_x * 512 + vector_index,
// over the producers' operands (symbols become dims), in the producers' spelling.
func.func @composed(%in: tensor<6x512x4096xbf16>, %th: index, %bl: index, %vi: index) -> bf16 {
  %d0 = xla.apply_indexing #xla.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">(%th, %bl)[%vi]
  %d1 = xla.apply_indexing #xla.indexing_map<"(th_x, bl_x)[vector_index] -> ((bl_x floordiv 8) mod 512), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">(%th, %bl)[%vi]
  %d2 = xla.apply_indexing #xla.indexing_map<"(th_x, bl_x)[vector_index] -> ((bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">(%th, %bl)[%vi]
  %e = tensor.extract %in[%d0, %d1, %d2] : tensor<6x512x4096xbf16>
  func.return %e : bf16
}
// CHECK-LABEL: func.func @composed(%in: tensor<12582912xbf16>
// CHECK:         %[[L:.*]] = xla.apply_indexing #xla.indexing_map<"(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">(%th, %bl, %vi)
// CHECK-NEXT:    tensor.extract %in[%[[L]]] : tensor<12582912xbf16>

// -----

// Constant indices fold to a constant linear index: [1, 2] of 2x3 is 5.
func.func @constant_indices(%t: tensor<2x3xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %t[%c1, %c2] : tensor<2x3xf32>
  func.return %e : f32
}
// CHECK-LABEL: func.func @constant_indices(%t: tensor<6xf32>)
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:    tensor.extract %t[%[[C5]]] : tensor<6xf32>
// CHECK-NOT:     apply_indexing

// -----

// scf.for iter args and scf.if results carry the flat type.
func.func @loop_and_if(%t: tensor<2x2xf32>, %v: f32, %c: i1) -> tensor<2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%it = %t) -> (tensor<2x2xf32>) {
    %s = scf.if %c -> (tensor<2x2xf32>) {
      %n = tensor.insert %v into %it[%i, %i] : tensor<2x2xf32>
      scf.yield %n : tensor<2x2xf32>
    } else {
      scf.yield %it : tensor<2x2xf32>
    }
    scf.yield %s : tensor<2x2xf32>
  }
  func.return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @loop_and_if(%t: tensor<4xf32>, %v: f32, %c: i1) -> tensor<4xf32>
// CHECK:         %[[R:.*]] = scf.for %[[I:i]] = {{.*}} iter_args(%[[IT:it]] = %t) -> (tensor<4xf32>)
// CHECK-NEXT:      %[[S:.*]] = scf.if %c -> (tensor<4xf32>)
// CHECK-NEXT:        %[[L:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 * 3), domain: d0 in [0, 1]">(%[[I]])
// CHECK-NEXT:        %[[N:.*]] = tensor.insert %v into %[[IT]][%[[L]]] : tensor<4xf32>
// CHECK-NEXT:        scf.yield %[[N]] : tensor<4xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[IT]] : tensor<4xf32>
// CHECK:           scf.yield %[[S]] : tensor<4xf32>
// CHECK:         func.return %[[R]] : tensor<4xf32>
// CHECK-NOT:     unrealized_conversion_cast

// -----

// Dense constants keep their row-major data; shared memory is allocated flat
// and passes flat through sync_threads.
func.func @constant_and_shared(%i: index) -> (f32, f32) {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.extract %cst[%i, %i] : tensor<2x2xf32>
  %shmem = xla_gpu.allocate_shared : tensor<32x33xf32>
  %synced = xla_gpu.sync_threads %shmem : tensor<32x33xf32>
  %s = tensor.extract %synced[%i, %i] : tensor<32x33xf32>
  func.return %e, %s : f32, f32
}
// CHECK-LABEL: func.func @constant_and_shared
// CHECK:         %[[CST:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK:         tensor.extract %[[CST]][%{{.*}}] : tensor<4xf32>
// CHECK:         %[[SH:.*]] = xla_gpu.allocate_shared : tensor<1056xf32>
// CHECK-NEXT:    %[[SY:.*]] = xla_gpu.sync_threads %[[SH]] : tensor<1056xf32>
// CHECK:         xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 * 34), domain: d0 in [0, 31]">
// CHECK:         tensor.extract %[[SY]][%{{.*}}] : tensor<1056xf32>

// -----

// Calls: operands, results and the callee's signature are flattened together.
func.func @caller(%t: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = func.call @callee(%t) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %p = xla_gpu.pure_call @callee(%r) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %p : tensor<2x4xf32>
}
func.func private @callee(%t: tensor<2x4xf32>) -> tensor<2x4xf32> {
  func.return %t : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @caller(%t: tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @callee(%t) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[P:.*]] = xla_gpu.pure_call @callee(%[[R]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    func.return %[[P]] : tensor<8xf32>
// CHECK:       func.func private @callee(%t: tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    func.return %t : tensor<8xf32>

// -----

// Vector transfers along the minor dimension read and write the flat tensor.
func.func @transfers(%t: tensor<4x8xf32>, %i: index, %j: index) -> tensor<4x8xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %t[%i, %j], %pad {in_bounds = [true]} : tensor<4x8xf32>, vector<4xf32>
  %w = vector.transfer_write %v, %t[%j, %i] {in_bounds = [true]} : vector<4xf32>, tensor<4x8xf32>
  func.return %w : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @transfers(%t: tensor<32xf32>, %i: index, %j: index) -> tensor<32xf32>
// CHECK:         %[[RI:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]">(%i, %j)
// CHECK-NEXT:    %[[V:.*]] = vector.transfer_read %t[%[[RI]]], %pad {in_bounds = [true]} : tensor<32xf32>, vector<4xf32>
// CHECK-NEXT:    %[[WI:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]">(%j, %i)
// CHECK-NEXT:    %[[W:.*]] = vector.transfer_write %[[V]], %t[%[[WI]]] {in_bounds = [true]} : vector<4xf32>, tensor<32xf32>
// CHECK-NEXT:    func.return %[[W]]

// -----

// Must not fire: rank-1 and rank-0 tensors and dynamic shapes stay as they are.
func.func @already_flat(%a: tensor<8xf32>, %b: tensor<f32>, %c: tensor<?x4xf32>, %i: index) -> (f32, f32) {
  %x = tensor.extract %a[%i] : tensor<8xf32>
  %y = tensor.extract %b[] : tensor<f32>
  func.return %x, %y : f32, f32
}
// CHECK-LABEL: func.func @already_flat(%a: tensor<8xf32>, %b: tensor<f32>, %c: tensor<?x4xf32>, %i: index) -> (f32, f32)
// CHECK-NEXT:    tensor.extract %a[%i] : tensor<8xf32>
// CHECK-NEXT:    tensor.extract %b[] : tensor<f32>
// CHECK-NOT:     apply_indexing


// -----

// xla loops carry flat iter args (flattening may run before loop lowering);
// atomic_rmw updates the flat tensor at the linear index.
func.func @xla_loop_and_atomic(%t: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
  %r = xla.loop ()[%i, %j] -> (%a, %b)
      in #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 3], s1 in [0, 7]">
      iter_args(%it = %t) -> (tensor<4x8xf32>) {
    %n = xla.atomic_rmw %it[%a, %b] : tensor<4x8xf32> {
    ^bb0(%cur: f32):
      %s = arith.addf %cur, %v : f32
      xla.yield %s : f32
    }
    xla.yield %n : tensor<4x8xf32>
  }
  func.return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @xla_loop_and_atomic(%t: tensor<32xf32>, %v: f32) -> tensor<32xf32>
// CHECK-NEXT:    %[[R:.*]] = xla.loop ()[%i, %j] -> (%a, %b) in {{.*}} iter_args(%[[IT:.*]] = %t) -> (tensor<32xf32>) {
// CHECK-NEXT:      %[[L:.*]] = xla.apply_indexing #xla.indexing_map<"(d0, d1) -> (d0 * 8 + d1), domain: d0 in [0, 3], d1 in [0, 7]">(%a, %b)
// CHECK-NEXT:      %[[N:.*]] = xla.atomic_rmw %[[IT]][%[[L]]] : tensor<32xf32> {
// CHECK:             arith.addf
// CHECK:           xla.yield %[[N]] : tensor<32xf32>
// CHECK:         func.return %[[R]] : tensor<32xf32>
// CHECK-NOT:     unrealized_conversion_cast

// -----

// A 2-d vector built from scalars and read element by element becomes 1-d, read
// at the row-major position: static positions fold, dynamic ones go through a
// map bounded by the vector's dimensions (XLA's packed transpose).
func.func @vector_from_elements(%a: f32, %b: f32, %c: f32, %d: f32, %i: index, %j: index) -> (f32, f32) {
  %v = vector.from_elements %a, %b, %c, %d : vector<2x2xf32>
  %x = vector.extract %v[%i, %j] : f32 from vector<2x2xf32>
  %y = vector.extract %v[1, 0] : f32 from vector<2x2xf32>
  func.return %x, %y : f32, f32
}
// CHECK-LABEL: func.func @vector_from_elements
// CHECK:         %[[V:.*]] = vector.from_elements %a, %b, %c, %d : vector<4xf32>
// CHECK:         %[[L:.*]] = {{xla(_gpu)?}}.apply_indexing #{{xla(_gpu)?}}.indexing_map<"(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 1], d1 in [0, 1]">(%i, %j)
// CHECK:         %[[X:.*]] = vector.extract %[[V]][%[[L]]] : f32 from vector<4xf32>
// CHECK:         %[[Y:.*]] = vector.extract %[[V]][2] : f32 from vector<4xf32>
// CHECK:         func.return %[[X]], %[[Y]] : f32, f32
