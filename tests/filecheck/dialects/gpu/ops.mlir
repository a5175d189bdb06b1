// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// MLIR's custom syntax for the gpu ops XLA's kernels use. MLIR prints two
// spaces before the dimension; one space parses too.

func.func @ids() -> (index, index, index, index) {
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %thread_id_y = gpu.thread_id y
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
  %block_id_z = gpu.block_id z
  func.return %thread_id_x, %thread_id_y, %block_id_x, %block_id_z : index, index, index, index
}
// CHECK-LABEL: func.func @ids
// CHECK-NEXT:    %[[TX:[a-z0-9_]+]] = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
// CHECK-NEXT:    %[[TY:[a-z0-9_]+]] = gpu.thread_id  y
// CHECK-NEXT:    %[[BX:[a-z0-9_]+]] = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
// CHECK-NEXT:    %[[BZ:[a-z0-9_]+]] = gpu.block_id  z
// CHECK-NEXT:    func.return %[[TX]], %[[TY]], %[[BX]], %[[BZ]]

// -----

func.func @barrier() {
  gpu.barrier
  gpu.barrier {xla.note = "second"}
  func.return
}
// CHECK-LABEL: func.func @barrier
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    gpu.barrier {xla.note = "second"}
// CHECK-NEXT:    func.return

// -----

func.func @shuffle(%v: f32, %offset: i32, %width: i32) -> (f32, i1) {
  %r, %valid = gpu.shuffle down %v, %offset, %width : f32
  %x, %x_valid = gpu.shuffle xor %r, %offset, %width {keep} : f32
  func.return %x, %valid : f32, i1
}
// CHECK-LABEL: func.func @shuffle
// CHECK-SAME:    (%[[V:[a-z0-9_]+]]: f32, %[[OFF:[a-z0-9_]+]]: i32, %[[W:[a-z0-9_]+]]: i32)
// CHECK-NEXT:    %[[R:[a-z0-9_]+]], %[[VALID:[a-z0-9_]+]] = gpu.shuffle down %[[V]], %[[OFF]], %[[W]] : f32
// CHECK-NEXT:    %[[X:[a-z0-9_]+]], %{{.*}} = gpu.shuffle xor %[[R]], %[[OFF]], %[[W]] {keep} : f32
// CHECK-NEXT:    func.return %[[X]], %[[VALID]] : f32, i1

// -----

// xDSL's other gpu ops stay available.
func.func @other_gpu_ops() -> index {
  %lane = "gpu.lane_id"() : () -> index
  func.return %lane : index
}
// CHECK-LABEL: func.func @other_gpu_ops
// CHECK-NEXT:    gpu.lane_id
