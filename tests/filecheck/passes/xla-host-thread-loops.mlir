// RUN: xla-emit-opt %s --split-input-file -p xla-host-thread-loops | filecheck %s

// A warp sum of 64 threads: the shuffle splits the threads into two loops; the value
// shuffled is kept per thread in a scratch argument (a warp of padding past the 64
// threads) and read at `thread + 16` and at `thread`, unit-stride both, the first
// chosen where the source lane is valid.
func.func @warp_sum(%in: tensor<64xf32>, %out: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %in[%tid] : tensor<64xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %s = arith.addf %x, %y : f32
  %c32i = arith.constant 32 : index
  %warp = arith.divui %tid, %c32i : index
  %r = tensor.insert %s into %out[%warp] : tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @warp_sum(
// CHECK-SAME:    %{{.*}}: tensor<64xf32>, %{{.*}}: tensor<2xf32>, %[[KEPT:.*]]: tensor<96xf32> {xla.host_scratch})
// CHECK:         %[[AFTER:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[K:.*]] = %[[KEPT]])
// CHECK:           %[[X:.*]] = tensor.extract %{{.*}}[%[[T]]] : tensor<64xf32>
// CHECK:           tensor.insert %[[X]] into %[[K]][%[[T]]] : tensor<96xf32>
// The second loop divides the thread by 32 (the warp): it runs as a loop over warps
// around a loop over lanes, the lane innermost, and thread / 32 is the warp's counter.
// CHECK:         scf.for %[[WARP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[BASE:.*]] = arith.muli %[[WARP]], %{{.*}} : index
// CHECK:           scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[T2:.*]] = arith.addi %[[BASE]], %[[LANE]] : index
// CHECK:             %[[OWN:.*]] = tensor.extract %{{.*}}[%[[T2]]] : tensor<96xf32>
// The source is valid where lane % 32 < 32 - 16 (whole warps: it never lies past the block).
// CHECK:             %[[VALID:.*]] = arith.cmpi ult, %[[LANE]], %{{.*}} : index
// CHECK:             %[[OFFSET:.*]] = arith.index_cast %c16 : i32 to index
// CHECK:             %[[SRC:.*]] = arith.addi %[[T2]], %[[OFFSET]] : index
// CHECK:             %[[ABOVE:.*]] = tensor.extract %[[AFTER]][%[[SRC]]] : tensor<96xf32>
// CHECK:             %[[SELF:.*]] = tensor.extract %[[AFTER]][%[[T2]]] : tensor<96xf32>
// CHECK:             %[[Y:.*]] = arith.select %[[VALID]], %[[ABOVE]], %[[SELF]] : f32
// CHECK:             %[[S:.*]] = arith.addf %[[OWN]], %[[Y]] : f32
// CHECK:             tensor.insert %[[S]] into %{{.*}}[%[[WARP]]] : tensor<2xf32>
// CHECK-NOT:     gpu.shuffle
// CHECK-NOT:     gpu.thread_id

// -----

// Shared memory becomes a scratch argument; the barrier is the end of a loop.
func.func @through_shared(%in: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> attributes {xla.entry} {
  %c3 = arith.constant 3 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %shmem = xla_gpu.allocate_shared : tensor<4xf32>
  %x = tensor.extract %in[%tid] : tensor<4xf32>
  %w = tensor.insert %x into %shmem[%tid] : tensor<4xf32>
  %synced = xla_gpu.sync_threads %w : tensor<4xf32>
  %mirror = arith.subi %c3, %tid : index
  %y = tensor.extract %synced[%mirror] : tensor<4xf32>
  %r = tensor.insert %y into %out[%tid] : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @through_shared(
// CHECK-SAME:    %[[SHARED:[^:]*]]: tensor<4xf32> {xla.host_scratch})
// CHECK:         %[[FIRST:.*]] = scf.for {{.*}} iter_args(%[[S:.*]] = %[[SHARED]]) -> (tensor<4xf32>)
// CHECK:           tensor.insert %{{.*}} into %[[S]]
// CHECK:         scf.for {{.*}} iter_args(%[[S2:.*]] = %[[FIRST]], {{.*}})
// CHECK:           tensor.extract %[[S2]]
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// A shuffle's result read after the next split (a complex value's real part shuffled,
// its imaginary part computed, then shuffled): the loop that shuffles keeps the result
// per thread, the next loop reads it back.
func.func @shuffle_read_later(%in: tensor<32xf32>, %out: tensor<1xf32>) -> tensor<1xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %a, %va = gpu.shuffle down %x, %c16, %c32 : f32
  %d = arith.mulf %x, %x : f32
  %b, %vb = gpu.shuffle down %d, %c16, %c32 : f32
  %s = arith.addf %a, %b : f32
  %r = tensor.insert %s into %out[%c0] : tensor<1xf32>
  func.return %r : tensor<1xf32>
}

// CHECK-LABEL: func.func @shuffle_read_later(
// CHECK-SAME:    %[[KEPT:[0-9]+]]: tensor<32xf32> {xla.host_scratch})
// CHECK:         scf.for
// CHECK:         %{{.*}}, %[[KEPT_OUT:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[K:.*]] = %[[KEPT]])
// CHECK:           %[[A:.*]] = arith.select %va, %{{.*}}, %{{.*}} : f32
// CHECK:           tensor.insert %[[A]] into %[[K]][%[[T]]] : tensor<32xf32>
// CHECK:         scf.for %[[T3:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[A3:.*]] = tensor.extract %[[KEPT_OUT]][%[[T3]]] : tensor<32xf32>
// CHECK:           %[[B:.*]] = arith.select %vb, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.addf %[[A3]], %[[B]] : f32
// CHECK-NOT:     gpu.shuffle

// -----

// Each thread reads in[t] and in[t + 64]: over the block's 64 threads the two loads
// read two stretches of memory apart, so they run as two loops, each reading one
// stretch in order; the first load's value is kept per thread between them, and the
// kernel asks LLVM for 256-bit vectors.
func.func @two_stretches(%in: tensor<128xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
  %c64 = arith.constant 64 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %a = tensor.extract %in[%tid] : tensor<128xf32>
  %far = arith.addi %tid, %c64 : index
  %b = tensor.extract %in[%far] : tensor<128xf32>
  %s = arith.addf %a, %b : f32
  %r = tensor.insert %s into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// CHECK-LABEL: func.func @two_stretches(
// CHECK-SAME:    %[[IN:[^:]*]]: tensor<128xf32>, %{{.*}}: tensor<64xf32>, %[[KEPT:.*]]: tensor<64xf32> {xla.host_scratch})
// CHECK-SAME:    attributes {xla.entry, xla.host_vector_bits = 256 : i64}
// CHECK:         %[[FIRST:.*]] = scf.for %[[T:.*]] = {{.*}} iter_args(%[[K:.*]] = %[[KEPT]])
// CHECK:           %[[A:.*]] = tensor.extract %[[IN]][%[[T]]]
// CHECK-NOT:       tensor.extract %[[IN]]
// CHECK:           tensor.insert %[[A]] into %[[K]][%[[T]]]
// CHECK:         scf.for %[[T2:.*]] = {{.*}} iter_args
// CHECK:           %[[FAR:.*]] = arith.addi %[[T2]], %c64
// CHECK:           %[[KEPT_A:.*]] = tensor.extract %[[FIRST]][%[[T2]]]
// CHECK:           %[[B:.*]] = tensor.extract %[[IN]][%[[FAR]]]
// CHECK:           arith.addf %[[KEPT_A]], %[[B]]

// -----

// Each thread reads in[2t] and in[2t + 1]: over the block the two loads interleave in
// one stretch of memory, so one loop reads both.
func.func @one_stretch(%in: tensor<128xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %even = arith.muli %tid, %c2 : index
  %a = tensor.extract %in[%even] : tensor<128xf32>
  %odd = arith.addi %even, %c1 : index
  %b = tensor.extract %in[%odd] : tensor<128xf32>
  %s = arith.addf %a, %b : f32
  %r = tensor.insert %s into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// CHECK-LABEL: func.func @one_stretch(
// CHECK-SAME:    %{{.*}}: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
// CHECK:         scf.for
// CHECK:           tensor.extract
// CHECK:           tensor.extract
// CHECK:           arith.addf
// CHECK-NOT:     scf.for

// -----

// A row of 1000 elements, blocks of 128 threads: the row (block * 128 + t) / 1000
// changes inside a block, so the loop is split where it ends, each part with its row
// computed once (the quotient and its successor).
func.func @row_ends_in_block(%x: tensor<64000xf32>, %m: tensor<64xf32>, %out: tensor<64000xf32>) -> tensor<64000xf32> attributes {xla.entry} {
  %c128 = arith.constant 128 : index
  %c1000 = arith.constant 1000 : index
  %bid = gpu.block_id x {xla.range = [0 : index, 499 : index]}
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %base = arith.muli %bid, %c128 : index
  %i = arith.addi %base, %tid : index
  %row = arith.divui %i, %c1000 : index
  %a = tensor.extract %x[%i] : tensor<64000xf32>
  %b = tensor.extract %m[%row] : tensor<64xf32>
  %s = arith.subf %a, %b : f32
  %r = tensor.insert %s into %out[%i] : tensor<64000xf32>
  func.return %r : tensor<64000xf32>
}

// CHECK-LABEL: func.func @row_ends_in_block(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<64000xf32>, %[[M:[^:]*]]: tensor<64xf32>
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C1000:.*]] = arith.constant 1000 : index
// CHECK:         %[[BASE:.*]] = arith.muli %{{.*}}, %[[C128]]
// CHECK:         %[[ROW:.*]] = arith.divui %[[BASE]], %[[C1000]]
// CHECK:         %[[OFFSET:.*]] = arith.remui %[[BASE]], %[[C1000]]
// CHECK:         %[[LEFT:.*]] = arith.subi %[[C1000]], %[[OFFSET]]
// CHECK:         %[[END:.*]] = arith.minui %[[LEFT]], %{{.*}}
// CHECK:         %[[NEXT:.*]] = arith.addi %[[ROW]], %{{.*}}
// CHECK:         %[[FIRST:.*]] = scf.for %{{.*}} = %{{.*}} to %[[END]]
// CHECK-NOT:       arith.divui %{{.*}}, %[[C1000]]
// CHECK:           tensor.extract %[[M]][%[[ROW]]]
// CHECK:         scf.for %{{.*}} = %[[END]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NOT:       arith.divui %{{.*}}, %[[C1000]]
// CHECK:           tensor.extract %[[M]][%[[NEXT]]]

// -----

// Rows of 1024, a multiple of the block: a block never crosses a row's end, one loop.
func.func @row_fits_block(%x: tensor<65536xf32>, %m: tensor<64xf32>, %out: tensor<65536xf32>) -> tensor<65536xf32> attributes {xla.entry} {
  %c128 = arith.constant 128 : index
  %c1024 = arith.constant 1024 : index
  %bid = gpu.block_id x {xla.range = [0 : index, 511 : index]}
  %tid = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %base = arith.muli %bid, %c128 : index
  %i = arith.addi %base, %tid : index
  %row = arith.divui %i, %c1024 : index
  %a = tensor.extract %x[%i] : tensor<65536xf32>
  %b = tensor.extract %m[%row] : tensor<64xf32>
  %s = arith.subf %a, %b : f32
  %r = tensor.insert %s into %out[%i] : tensor<65536xf32>
  func.return %r : tensor<65536xf32>
}

// CHECK-LABEL: func.func @row_fits_block(
// CHECK-NOT:     arith.minui
// CHECK:         scf.for
// CHECK:           arith.divui %{{.*}}, %c1024
// CHECK-NOT:     scf.for

// -----

// A branch on the lane (`thread % 32 <= 7`: the first eight lanes of each warp read a
// warp's partial sum, the rest take zero, as a reduction's second tree does): a loop over
// warps around a loop over lanes, the branch on the lane counter (LLVM makes a masked
// load of it, where over the threads it ran as scalar code).
func.func @branch_on_lane(%parts: tensor<8xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
  %c7 = arith.constant 7 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %lane = arith.remui %tid, %c32 : index
  %first = arith.cmpi sle, %lane, %c7 : index
  %v = scf.if %first -> (f32) {
    %p = tensor.extract %parts[%lane] : tensor<8xf32>
    scf.yield %p : f32
  } else {
    scf.yield %zero : f32
  }
  %r = tensor.insert %v into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// CHECK-LABEL: func.func @branch_on_lane(
// CHECK:         scf.for %[[WARP:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[BASE:.*]] = arith.muli %[[WARP]], %{{.*}} : index
// CHECK:           scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[T:.*]] = arith.addi %[[BASE]], %[[LANE]] : index
// CHECK:             %[[FIRST:.*]] = arith.cmpi sle, %[[LANE]], %c7 : index
// CHECK:             scf.if %[[FIRST]]
// CHECK:               tensor.extract %{{.*}}[%[[LANE]]] : tensor<8xf32>
// CHECK:             tensor.insert %{{.*}} into %{{.*}}[%[[T]]] : tensor<64xf32>
// CHECK-NOT:     gpu.thread_id

// -----

// A lane only computed with (no comparison reads it): one loop over the threads, which
// LLVM vectorizes as it is (nested loops would only shorten the vector loop).
func.func @lane_computed_with(%parts: tensor<32xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %lane = arith.remui %tid, %c32 : index
  %p = tensor.extract %parts[%lane] : tensor<32xf32>
  %r = tensor.insert %p into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// CHECK-LABEL: func.func @lane_computed_with(
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[LANE:.*]] = arith.remui %[[T]], %c32 : index
// CHECK:           tensor.extract %{{.*}}[%[[LANE]]] : tensor<32xf32>
// CHECK-NOT:       scf.for
