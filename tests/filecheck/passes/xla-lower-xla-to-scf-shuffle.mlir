// RUN: xla-emit-opt %s --split-input-file -p xla-lower-xla-to-scf | filecheck %s

// f32 at distance 4: shuffles at 4, 2, 1, each followed by a call of the
// combiner on (own, shuffled); each step works on the previous call's result.
func.func private @sum(%a: f32, %b: f32) -> f32
func.func @f32_from_4(%x: f32) -> f32 {
  %r = xla_gpu.shuffle_reduce(%x) to 4 combiner=@sum : f32
  func.return %r : f32
}
// CHECK-LABEL: func.func @f32_from_4
// CHECK-NEXT:    %[[W:c32_i32]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[D4:c4_i32]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[S4:shuffleResult]], %{{valid}} = gpu.shuffle down %x, %[[D4]], %[[W]] : f32
// CHECK-NEXT:    %[[P4:pure_call]] = xla_gpu.pure_call @sum(%x, %[[S4]]) : (f32, f32) -> f32
// CHECK-NEXT:    %[[D2:c2_i32]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[S2:shuffleResult_1]], %{{valid_1}} = gpu.shuffle down %[[P4]], %[[D2]], %[[W]] : f32
// CHECK-NEXT:    %[[P2:pure_call_1]] = xla_gpu.pure_call @sum(%[[P4]], %[[S2]]) : (f32, f32) -> f32
// CHECK-NEXT:    %[[D1:c1_i32]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[S1:shuffleResult_2]], %{{valid_2}} = gpu.shuffle down %[[P2]], %[[D1]], %[[W]] : f32
// CHECK-NEXT:    %[[P1:pure_call_2]] = xla_gpu.pure_call @sum(%[[P2]], %[[S1]]) : (f32, f32) -> f32
// CHECK-NEXT:    func.return %[[P1]] : f32

// -----

// Distance 1: one step. 16-bit floats are bitcast to i16 and zero-extended to
// i32 for the shuffle, then truncated and bitcast back.
func.func private @pick(%a: bf16, %b: f16, %c: bf16, %d: f16) -> (bf16, f16)
func.func @half_floats(%x: bf16, %y: f16) -> (bf16, f16) {
  %r:2 = xla_gpu.shuffle_reduce(%x, %y) to 1 combiner=@pick : bf16, f16
  func.return %r#0, %r#1 : bf16, f16
}
// CHECK-LABEL: func.func @half_floats
// CHECK:         %[[XI:.*]] = arith.bitcast %x : bf16 to i16
// CHECK-NEXT:    %[[XW:.*]] = arith.extui %[[XI]] : i16 to i32
// CHECK-NEXT:    %[[XS:.*]], %{{.*}} = gpu.shuffle down %[[XW]], %c1_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[XT:.*]] = arith.trunci %[[XS]] : i32 to i16
// CHECK-NEXT:    %[[XB:.*]] = arith.bitcast %[[XT]] : i16 to bf16
// CHECK-NEXT:    %[[YI:.*]] = arith.bitcast %y : f16 to i16
// CHECK-NEXT:    %[[YW:.*]] = arith.extui %[[YI]] : i16 to i32
// CHECK-NEXT:    %[[YS:.*]], %{{.*}} = gpu.shuffle down %[[YW]], %c1_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[YT:.*]] = arith.trunci %[[YS]] : i32 to i16
// CHECK-NEXT:    %[[YB:.*]] = arith.bitcast %[[YT]] : i16 to f16
// CHECK-NEXT:    %[[R0:[^,]+]], %[[R1:[^ ]+]] = xla_gpu.pure_call @pick(%x, %y, %[[XB]], %[[YB]]) : (bf16, f16, bf16, f16) -> (bf16, f16)
// CHECK-NEXT:    func.return %[[R0]], %[[R1]] : bf16, f16
// CHECK-NOT:     gpu.shuffle

// -----

// 64-bit values: split into two i32 chunks through a one-element vector, each
// chunk shuffled, then put back together. An integer needs no bitcast; a
// float is bitcast to i64 first.
func.func private @pick(%a: i64, %b: f64, %c: i64, %d: f64) -> (i64, f64)
func.func @wide(%x: i64, %y: f64) -> (i64, f64) {
  %r:2 = xla_gpu.shuffle_reduce(%x, %y) to 1 combiner=@pick : i64, f64
  func.return %r#0, %r#1 : i64, f64
}
// CHECK-LABEL: func.func @wide
// CHECK:         %[[XV:.*]] = vector.from_elements %x : vector<1xi64>
// CHECK-NEXT:    %[[XC:.*]] = vector.bitcast %[[XV]] : vector<1xi64> to vector<2xi32>
// CHECK-NEXT:    %[[X0:.*]] = vector.extract %[[XC]][0] : i32 from vector<2xi32>
// CHECK-NEXT:    %[[S0:.*]], %{{.*}} = gpu.shuffle down %[[X0]], %c1_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[X1:.*]] = vector.extract %[[XC]][1] : i32 from vector<2xi32>
// CHECK-NEXT:    %[[S1:.*]], %{{.*}} = gpu.shuffle down %[[X1]], %c1_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[J:.*]] = vector.from_elements %[[S0]], %[[S1]] : vector<2xi32>
// CHECK-NEXT:    %[[JV:.*]] = vector.bitcast %[[J]] : vector<2xi32> to vector<1xi64>
// CHECK-NEXT:    %[[XS:.*]] = vector.extract %[[JV]][0] : i64 from vector<1xi64>
// CHECK-NEXT:    %[[YI:.*]] = arith.bitcast %y : f64 to i64
// CHECK-NEXT:    vector.from_elements %[[YI]] : vector<1xi64>
// CHECK-COUNT-2: gpu.shuffle down
// CHECK:         %[[YJ:.*]] = vector.extract %{{.*}}[0] : i64 from vector<1xi64>
// CHECK-NEXT:    %[[YS:.*]] = arith.bitcast %[[YJ]] : i64 to f64
// CHECK-NEXT:    xla_gpu.pure_call @pick(%x, %y, %[[XS]], %[[YS]]) : (i64, f64, i64, f64) -> (i64, f64)

// -----

// Several operands (argmax's value and index) in a module written in the
// seed's spelling: the combiner is called with xla_gpu.pure_call. i32 is
// shuffled as it is, i1 and i8 zero-extended without a bitcast.
func.func private @argmax(%v: f32, %i: i32, %p: i1, %q: i8, %w: f32, %j: i32, %r: i1, %s: i8) -> (f32, i32, i1, i8)
func.func @several(%v: f32, %i: i32, %p: i1, %q: i8, %t: tensor<4xf32>) -> (f32, i32, i1, i8) {
  %r:4 = xla_gpu.shuffle_reduce(%v, %i, %p, %q) to 2 combiner=@argmax : f32, i32, i1, i8
  func.return %r#0, %r#1, %r#2, %r#3 : f32, i32, i1, i8
}
func.func @seed_spelling(%t: tensor<4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %x = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 2]">(%c0)
  func.return %x : index
}
// CHECK-LABEL: func.func @several
// CHECK:         %[[V2:.*]], %{{.*}} = gpu.shuffle down %v, %c2_i32, %c32_i32 : f32
// CHECK-NEXT:    %[[I2:.*]], %{{.*}} = gpu.shuffle down %i, %c2_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[PW:.*]] = arith.extui %p : i1 to i32
// CHECK-NEXT:    %[[PS:.*]], %{{.*}} = gpu.shuffle down %[[PW]], %c2_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[P2:.*]] = arith.trunci %[[PS]] : i32 to i1
// CHECK-NEXT:    %[[QW:.*]] = arith.extui %q : i8 to i32
// CHECK-NEXT:    %[[QS:.*]], %{{.*}} = gpu.shuffle down %[[QW]], %c2_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[Q2:.*]] = arith.trunci %[[QS]] : i32 to i8
// CHECK-NEXT:    %[[R0:[^,]+]], %[[R1:[^,]+]], %[[R2:[^,]+]], %[[R3:[^ ]+]] = xla_gpu.pure_call @argmax(%v, %i, %p, %q, %[[V2]], %[[I2]], %[[P2]], %[[Q2]])
// CHECK:         gpu.shuffle down %[[R0]], %c1_i32, %c32_i32 : f32
// CHECK-NEXT:    gpu.shuffle down %[[R1]], %c1_i32, %c32_i32 : i32
// CHECK:         xla_gpu.pure_call @argmax(%[[R0]], %[[R1]], %[[R2]], %[[R3]],
// CHECK-NOT:     xla.pure_call

// -----

// Complex values shuffle their parts; unsigned integers go through a signless
// cast (arith takes signless integers only).
func.func private @pick(%a: complex<f32>, %b: ui16, %c: complex<f32>, %d: ui16) -> (complex<f32>, ui16)
func.func @complex_and_unsigned(%z: complex<f32>, %u: ui16) -> (complex<f32>, ui16) {
  %r:2 = xla_gpu.shuffle_reduce(%z, %u) to 1 combiner=@pick : complex<f32>, ui16
  func.return %r#0, %r#1 : complex<f32>, ui16
}
// CHECK-LABEL: func.func @complex_and_unsigned
// CHECK:         %[[RE:.*]] = complex.re %z : complex<f32>
// CHECK-NEXT:    %[[RS:.*]], %{{.*}} = gpu.shuffle down %[[RE]], %c1_i32, %c32_i32 : f32
// CHECK-NEXT:    %[[IM:.*]] = complex.im %z : complex<f32>
// CHECK-NEXT:    %[[IS:.*]], %{{.*}} = gpu.shuffle down %[[IM]], %c1_i32, %c32_i32 : f32
// CHECK-NEXT:    %[[Z:.*]] = complex.create %[[RS]], %[[IS]] : complex<f32>
// CHECK-NEXT:    %[[S:.*]] = builtin.unrealized_conversion_cast %u : ui16 to i16
// CHECK-NEXT:    %[[SW:.*]] = arith.extui %[[S]] : i16 to i32
// CHECK-NEXT:    %[[SS:.*]], %{{.*}} = gpu.shuffle down %[[SW]], %c1_i32, %c32_i32 : i32
// CHECK-NEXT:    %[[ST:.*]] = arith.trunci %[[SS]] : i32 to i16
// CHECK-NEXT:    %[[U:.*]] = builtin.unrealized_conversion_cast %[[ST]] : i16 to ui16
// CHECK-NEXT:    xla_gpu.pure_call @pick(%z, %u, %[[Z]], %[[U]])

// -----

// Inside a loop body: the shuffles and calls take the op's place.
func.func private @sum(%a: f32, %b: f32) -> f32
func.func @inside_loop(%x: f32, %out: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.loop ()[%i] -> (%idx) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 3]">
      iter_args(%it = %out) -> (tensor<4xf32>) {
    %s = xla_gpu.shuffle_reduce(%x) to 1 combiner=@sum : f32
    %n = tensor.insert %s into %it[%idx] : tensor<4xf32>
    xla.yield %n : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @inside_loop
// CHECK:         xla.loop
// CHECK-NEXT:      %[[W:c32_i32]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[D:c1_i32]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[S:.*]], %{{.*}} = gpu.shuffle down %x, %[[D]], %[[W]] : f32
// CHECK-NEXT:      %[[C:.*]] = xla.pure_call @sum(%x, %[[S]])
// CHECK-NEXT:      tensor.insert %[[C]] into %it[%idx]
