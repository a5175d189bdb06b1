// RUN: xla-emit-opt %s --split-input-file -p 'xla-vectorize-loads-stores{greedy-cleanup=false}' | filecheck %s
// RUN: xla-emit-opt %s --split-input-file -p xla-vectorize-loads-stores | filecheck %s --check-prefix=FOLD

// The seed's case: load and store contiguous in %i and aligned (th * 4 + i):
// one transfer_read before the loop, vector.extract inside; the store becomes
// a vector iter arg and one transfer_write after the loop.
#map = #xla_gpu.indexing_map<"(th, i) -> (th * 4 + i), domain: th in [0, 127], i in [0, 3]">
func.func @load_and_store(%in: tensor<512xbf16>, %out: tensor<512xbf16>, %th: index) -> tensor<512xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %out) -> (tensor<512xbf16>) {
    %idx = xla_gpu.apply_indexing #map(%th, %i)
    %x = tensor.extract %in[%idx] : tensor<512xbf16>
    %y = arith.addf %x, %x : bf16
    %n = tensor.insert %y into %it[%idx] : tensor<512xbf16>
    scf.yield %n : tensor<512xbf16>
  }
  func.return %r : tensor<512xbf16>
}
// CHECK-LABEL: func.func @load_and_store
// CHECK:         arith.constant 4 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[BASE:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(th, i) -> (th * 4 + i), domain: th in [0, 127], i in [0, 3]">(%th, %[[C0]])
// CHECK:         %[[PAD:.*]] = ub.poison : bf16
// CHECK:         %[[V:.*]] = vector.transfer_read %in[%[[BASE]]], %[[PAD]] {in_bounds = [true]} : tensor<512xbf16>, vector<4xbf16>
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xbf16>
// CHECK:         %[[WB:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(th, i) -> (th * 4 + i), domain: th in [0, 127], i in [0, 3]">(%th, %{{.*}})
// CHECK:         %[[R:.*]], %[[RV:.*]] = scf.for %[[I:i]] = %c0 to %c4 step %c1 iter_args(%[[IT:it]] = %out, %[[ACC:iter_vector]] = %[[ZERO]]) -> (tensor<512xbf16>, vector<4xbf16>) {
// CHECK-NOT:       tensor.extract
// CHECK:           %[[X:.*]] = vector.extract %[[V]][%[[I]]] : bf16 from vector<4xbf16>
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[X]], %[[X]] : bf16
// CHECK-NEXT:      %[[NV:.*]] = vector.insert %[[Y]], %[[ACC]] [%[[I]]] : bf16 into vector<4xbf16>
// CHECK-NEXT:      scf.yield %[[IT]], %[[NV]] : tensor<512xbf16>, vector<4xbf16>
// CHECK:         %[[W:.*]] = vector.transfer_write %[[RV]], %out[%[[WB]]] {in_bounds = [true]} : vector<4xbf16>, tensor<512xbf16>
// CHECK-NEXT:    func.return %[[W]]
// By default the pass folds as XLA's greedy driver does: the constants go to
// the function's start, one per value (those the pass made ahead of the ones
// already leading the function, last made first), and the scalar index
// computations left unused in the loop are erased.
// FOLD-LABEL: func.func @load_and_store
// FOLD-NEXT:    %[[FZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xbf16>
// FOLD-NEXT:    %[[FPAD:.*]] = ub.poison : bf16
// FOLD-NEXT:    %[[FC0:.*]] = arith.constant 0 : index
// FOLD:         %[[FBASE:.*]] = xla_gpu.apply_indexing #{{.*}}(%th, %[[FC0]])
// FOLD-NEXT:    %[[FV:.*]] = vector.transfer_read %in[%[[FBASE]]], %[[FPAD]] {in_bounds = [true]}
// FOLD-NEXT:    %[[FWB:.*]] = xla_gpu.apply_indexing #{{.*}}(%th, %[[FC0]])
// FOLD-NEXT:    scf.for {{.*}} iter_args(%{{.*}} = %out, %{{.*}} = %[[FZERO]])
// FOLD-NEXT:      vector.extract %[[FV]]
// FOLD:         vector.transfer_write

// -----

// The induction variable itself as the index: base 0; 8 x i32 = 256 bits is allowed.
func.func @iv_index(%in: tensor<64xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (i32) {
    %x = tensor.extract %in[%i] : tensor<64xi32>
    %s = arith.addi %acc, %x : i32
    scf.yield %s : i32
  }
  func.return %r : i32
}
// CHECK-LABEL: func.func @iv_index
// CHECK:         arith.constant 0 : i32
// CHECK-NEXT:    %[[BASE:.*]] = arith.constant 0 : index
// CHECK:         %[[V:.*]] = vector.transfer_read %in[%[[BASE]]], %{{.*}} {in_bounds = [true]} : tensor<64xi32>, vector<8xi32>
// CHECK:         scf.for %[[I:i]] =
// CHECK-NEXT:      vector.extract %[[V]][%[[I]]] : i32 from vector<8xi32>

// -----

// Stride 2 in the induction variable: not contiguous, stays scalar.
func.func @stride_two(%in: tensor<64xf32>, %b: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %idx = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 8 + d1 * 2), domain: d0 in [0, 7], d1 in [0, 3]">(%b, %i)
    %x = tensor.extract %in[%idx] : tensor<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @stride_two
// CHECK-NOT:     vector.
// CHECK:         tensor.extract %in

// -----

// Base not a multiple of the trip count (b * 2 + i with 4 trips): unaligned, scalar.
func.func @unaligned(%in: tensor<64xf32>, %b: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %idx = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 29], d1 in [0, 3]">(%b, %i)
    %x = tensor.extract %in[%idx] : tensor<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT:     vector.
// CHECK:         tensor.extract %in

// -----

// 16 x f32 = 512 bits exceeds the 256-bit vector limit: scalar.
func.func @too_wide(%in: tensor<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = tensor.extract %in[%i] : tensor<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @too_wide
// CHECK-NOT:     vector.
// CHECK:         tensor.extract %in

// -----

// Trip counts 3 (not a power of 2) and 64 (above 32), lower bound 1, step 2: scalar.
func.func @bad_trip_counts(%in: tensor<256xi8>) -> (i8, i8, i8, i8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  %a = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (i8) {
    %x = tensor.extract %in[%i] : tensor<256xi8>
    scf.yield %x : i8
  }
  %b = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %z) -> (i8) {
    %x = tensor.extract %in[%i] : tensor<256xi8>
    scf.yield %x : i8
  }
  %c = scf.for %i = %c1 to %c5 step %c1 iter_args(%acc = %z) -> (i8) {
    %x = tensor.extract %in[%i] : tensor<256xi8>
    scf.yield %x : i8
  }
  %d = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %z) -> (i8) {
    %x = tensor.extract %in[%i] : tensor<256xi8>
    scf.yield %x : i8
  }
  func.return %a, %b, %c, %d : i8, i8, i8, i8
}
// CHECK-LABEL: func.func @bad_trip_counts
// CHECK-NOT:     vector.
// CHECK-COUNT-4: tensor.extract %in

// -----

// Not 1-d (a 2-d tensor), and a size not divisible by the trip count: scalar.
func.func @shapes(%m: tensor<4x4xf32>, %odd: tensor<10xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = tensor.extract %m[%c0, %i] : tensor<4x4xf32>
    scf.yield %x : f32
  }
  %b = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = tensor.extract %odd[%i] : tensor<10xf32>
    scf.yield %x : f32
  }
  func.return %a, %b : f32, f32
}
// CHECK-LABEL: func.func @shapes
// CHECK-NOT:     vector.
// CHECK:         tensor.extract %m
// CHECK:         tensor.extract %odd

// -----

// The induction variable used twice in the index map, an operand defined in
// the loop, and an access nested in an scf.if: scalar.
func.func @index_shapes(%in: tensor<64xf32>, %c: i1) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %a = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %idx = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 + d1 * 0), domain: d0 in [0, 3], d1 in [0, 3]">(%i, %i)
    %x = tensor.extract %in[%idx] : tensor<64xf32>
    scf.yield %x : f32
  }
  %b = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %k = arith.addi %i, %c4 : index
    %idx = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0, d1) -> (d0 * 4 + d1), domain: d0 in [0, 7], d1 in [0, 3]">(%k, %i)
    %x = tensor.extract %in[%idx] : tensor<64xf32>
    scf.yield %x : f32
  }
  %d = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = scf.if %c -> (f32) {
      %e = tensor.extract %in[%i] : tensor<64xf32>
      scf.yield %e : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %x : f32
  }
  func.return %a, %b, %d : f32, f32, f32
}
// CHECK-LABEL: func.func @index_shapes
// CHECK-NOT:     vector.
// CHECK-COUNT-3: tensor.extract %in

// -----

// A store whose result is used by more than the yield, or whose iter arg is
// also read in the loop, stays scalar; so does a load from the loop's own iter arg.
func.func @stores_kept(%out: tensor<64xf32>, %v: f32) -> (tensor<64xf32>, tensor<64xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a, %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %out, %acc = %v) -> (tensor<64xf32>, f32) {
    %n = tensor.insert %v into %it[%i] : tensor<64xf32>
    %e = tensor.extract %n[%c0] : tensor<64xf32>
    scf.yield %n, %e : tensor<64xf32>, f32
  }
  %b = scf.for %i = %c0 to %c4 step %c1 iter_args(%it = %out) -> (tensor<64xf32>) {
    %e = tensor.extract %it[%i] : tensor<64xf32>
    %n = tensor.insert %e into %it[%i] : tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  }
  func.return %a, %b, %s : tensor<64xf32>, tensor<64xf32>, f32
}
// CHECK-LABEL: func.func @stores_kept
// CHECK-NOT:     vector.
// CHECK:         tensor.insert %v into %it
// CHECK:         tensor.extract %it
// CHECK-NEXT:    tensor.insert %{{.*}} into %it
