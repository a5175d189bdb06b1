// RUN: xla-emit-opt %s --split-input-file -p xla-host-warp-reductions | filecheck %s

// A warp sum of 64 threads read by lane 0 alone: each thread writes its value to a
// slot of shared memory, a barrier, and lane 0 combines its warp's 32 slots in the
// shuffles' order (lane l + lane l + 16, then + 8, 4, 2, 1).
func.func @warp_sum(%in: tensor<64xf32>, %out: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %c32i = arith.constant 32 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %in[%tid] : tensor<64xf32>
  %y16, %v16 = gpu.shuffle down %x, %c16, %c32 : f32
  %s16 = arith.addf %x, %y16 : f32
  %y8, %v8 = gpu.shuffle down %s16, %c8, %c32 : f32
  %s8 = arith.addf %s16, %y8 : f32
  %y4, %v4 = gpu.shuffle down %s8, %c4, %c32 : f32
  %s4 = arith.addf %s8, %y4 : f32
  %y2, %v2 = gpu.shuffle down %s4, %c2, %c32 : f32
  %s2 = arith.addf %s4, %y2 : f32
  %y1, %v1 = gpu.shuffle down %s2, %c1, %c32 : f32
  %s1 = arith.addf %s2, %y1 : f32
  %lane = arith.remui %tid, %c32i : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %r = scf.if %first -> (tensor<2xf32>) {
    %warp = arith.divui %tid, %c32i : index
    %w = tensor.insert %s1 into %out[%warp] : tensor<2xf32>
    scf.yield %w : tensor<2xf32>
  } else {
    scf.yield %out : tensor<2xf32>
  }
  func.return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @warp_sum(
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[X:.*]] = tensor.extract
// CHECK:         %[[SHARED:.*]] = xla_gpu.allocate_shared : tensor<64xf32>
// CHECK:         %[[WRITTEN:.*]] = tensor.insert %[[X]] into %[[SHARED]][%[[TID]]] : tensor<64xf32>
// CHECK:         %[[SYNCED:.*]] = xla_gpu.sync_threads %[[WRITTEN]] : tensor<64xf32>
// CHECK-NOT:     gpu.shuffle
// CHECK:         scf.if
// CHECK:           %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[S0:.*]] = arith.addi %[[TID]], %[[K0]] : index
// CHECK-NEXT:      %[[L0:.*]] = tensor.extract %[[SYNCED]][%[[S0]]] : tensor<64xf32>
// CHECK-NEXT:      %[[K1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[S1:.*]] = arith.addi %[[TID]], %[[K1]] : index
// CHECK-NEXT:      %[[L1:.*]] = tensor.extract %[[SYNCED]][%[[S1]]] : tensor<64xf32>
// CHECK:           %[[K16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[S16:.*]] = arith.addi %[[TID]], %[[K16]] : index
// CHECK-NEXT:      %[[L16:.*]] = tensor.extract %[[SYNCED]][%[[S16]]] : tensor<64xf32>
// CHECK-NEXT:      %[[K17:.*]] = arith.constant 17 : index
// CHECK-NEXT:      %[[S17:.*]] = arith.addi %[[TID]], %[[K17]] : index
// CHECK-NEXT:      %[[L17:.*]] = tensor.extract %[[SYNCED]][%[[S17]]] : tensor<64xf32>
// The first level: lane l's value plus lane l + 16's, l = 0 .. 15.
// CHECK:           %[[A0:.*]] = arith.addf %[[L0]], %[[L16]] : f32
// CHECK-NEXT:      %[[A1:.*]] = arith.addf %[[L1]], %[[L17]] : f32
// CHECK-COUNT-14:  arith.addf
// CHECK-NEXT:      %[[B0:.*]] = arith.addf %[[A0]], %{{.*}} : f32
// CHECK-NEXT:      %[[B1:.*]] = arith.addf %[[A1]], %{{.*}} : f32
// CHECK-COUNT-6:   arith.addf
// CHECK-COUNT-4:   arith.addf
// CHECK-NEXT:      %[[D0:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[D1:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[E0:.*]] = arith.addf %[[D0]], %[[D1]] : f32
// CHECK-NOT:       arith.addf
// CHECK:           tensor.insert %[[E0]] into %{{.*}}[%{{.*}}] : tensor<2xf32>

// -----

// Every lane writes the tree's result: the shuffles stay (xla-host-thread-loops runs them).
func.func @every_lane_reads(%in: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %s = arith.addf %x, %y : f32
  %r = tensor.insert %s into %out[%tid] : tensor<32xf32>
  func.return %r : tensor<32xf32>
}

// CHECK-LABEL: func.func @every_lane_reads(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// The step combines with a value of the thread's own (its id): not the same for every
// thread, so lane 0 could not compute another lane's step.
func.func @per_thread_operand(%in: tensor<32xf32>, %out: tensor<1xf32>) -> tensor<1xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %t = arith.index_cast %tid : index to i32
  %f = arith.sitofp %t : i32 to f32
  %m = arith.mulf %y, %f : f32
  %s = arith.addf %x, %m : f32
  %first = arith.cmpi eq, %tid, %c0 : index
  %r = scf.if %first -> (tensor<1xf32>) {
    %w = tensor.insert %s into %out[%c0] : tensor<1xf32>
    scf.yield %w : tensor<1xf32>
  } else {
    scf.yield %out : tensor<1xf32>
  }
  func.return %r : tensor<1xf32>
}

// CHECK-LABEL: func.func @per_thread_operand(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// 48 threads: the second warp has 16 lanes, so its lane 0 reads sources past the block
// (its own value instead, by the shuffle's rule); the shuffles stay.
func.func @part_of_a_warp(%in: tensor<48xf32>, %out: tensor<2xf32>) -> tensor<2xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %c32i = arith.constant 32 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 47 : index]}
  %x = tensor.extract %in[%tid] : tensor<48xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %s = arith.addf %x, %y : f32
  %lane = arith.remui %tid, %c32i : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %r = scf.if %first -> (tensor<2xf32>) {
    %warp = arith.divui %tid, %c32i : index
    %w = tensor.insert %s into %out[%warp] : tensor<2xf32>
    scf.yield %w : tensor<2xf32>
  } else {
    scf.yield %out : tensor<2xf32>
  }
  func.return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @part_of_a_warp(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// Lane 0 of each 16-lane segment is read under `tid % 8 == 0`, which lane 8 passes
// too: lane 8's result is not lane 0's tree, so the shuffles stay.
func.func @condition_too_weak(%in: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32> attributes {xla.entry} {
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c0 = arith.constant 0 : index
  %c8i = arith.constant 8 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y, %valid = gpu.shuffle down %x, %c8, %c16 : f32
  %s = arith.addf %x, %y : f32
  %lane = arith.remui %tid, %c8i : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %r = scf.if %first -> (tensor<32xf32>) {
    %w = tensor.insert %s into %out[%tid] : tensor<32xf32>
    scf.yield %w : tensor<32xf32>
  } else {
    scf.yield %out : tensor<32xf32>
  }
  func.return %r : tensor<32xf32>
}

// CHECK-LABEL: func.func @condition_too_weak(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// The shuffle's `valid` is read: the shuffles stay.
func.func @valid_is_read(%in: tensor<32xf32>, %out: tensor<1xi1>) -> tensor<1xi1> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 31 : index]}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %s = arith.addf %x, %y : f32
  %first = arith.cmpi eq, %tid, %c0 : index
  %r = scf.if %first -> (tensor<1xi1>) {
    %w = tensor.insert %valid into %out[%c0] : tensor<1xi1>
    scf.yield %w : tensor<1xi1>
  } else {
    scf.yield %out : tensor<1xi1>
  }
  func.return %r : tensor<1xi1>
}

// CHECK-LABEL: func.func @valid_is_read(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads

// -----

// A thread id without a range: the block's size is unknown, the shuffles stay (and
// `xla-host-thread-loops` reports the missing range at the op).
func.func @no_range(%in: tensor<32xf32>, %out: tensor<1xf32>) -> tensor<1xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %s = arith.addf %x, %y : f32
  %first = arith.cmpi eq, %tid, %c0 : index
  %r = scf.if %first -> (tensor<1xf32>) {
    %w = tensor.insert %s into %out[%c0] : tensor<1xf32>
    scf.yield %w : tensor<1xf32>
  } else {
    scf.yield %out : tensor<1xf32>
  }
  func.return %r : tensor<1xf32>
}

// CHECK-LABEL: func.func @no_range(
// CHECK:         gpu.shuffle down
// CHECK-NOT:     xla_gpu.sync_threads
