// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// Round trip of every `xla_gpu` op and type: custom form -> custom form, and
// generic form -> custom form.

func.func @allocate_shared() -> tensor<32x1x33xf32> {
  %shmem = xla_gpu.allocate_shared : tensor<32x1x33xf32>
  func.return %shmem : tensor<32x1x33xf32>
}
// CHECK-LABEL: func.func @allocate_shared
// CHECK:         %[[S:[a-z0-9_]+]] = xla_gpu.allocate_shared : tensor<32x1x33xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<32x1x33xf32>

// -----

func.func @sync_threads(%a: tensor<2xf32>, %b: tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>) {
  %x, %y = xla_gpu.sync_threads %a, %b : tensor<2xf32>, tensor<3xi32>
  %z = xla_gpu.sync_threads %x {keep} : tensor<2xf32>
  func.return %z, %y : tensor<2xf32>, tensor<3xi32>
}
// CHECK-LABEL: func.func @sync_threads
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: tensor<2xf32>, %[[B:[a-z0-9_]+]]: tensor<3xi32>)
// CHECK:         %[[X:[a-z0-9_]+]], %[[Y:[a-z0-9_]+]] = xla_gpu.sync_threads %[[A]], %[[B]] : tensor<2xf32>, tensor<3xi32>
// CHECK-NEXT:    %[[Z:[a-z0-9_]+]] = xla_gpu.sync_threads %[[X]] {keep} : tensor<2xf32>
// CHECK-NEXT:    func.return %[[Z]], %[[Y]]

// -----

func.func @do_nothing(%a: f32, %b: i32, %c: f32, %d: i32) -> (f32, i32) {
  func.return %a, %b : f32, i32
}
func.func @shuffle_reduce(%a: f32, %b: i32) -> (f32, i32) {
  %ret:2 = xla_gpu.shuffle_reduce(%a, %b) to 4 combiner=@do_nothing {xla.range = [0 : index, 42 : index]} : f32, i32
  %one = xla_gpu.shuffle_reduce (%ret#0) to 16 combiner=@max: f32
  func.return %one, %ret#1 : f32, i32
}
func.func @max(%a: f32, %b: f32) -> f32 {
  %m = arith.maximumf %a, %b : f32
  func.return %m : f32
}
// CHECK-LABEL: func.func @shuffle_reduce
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: i32)
// CHECK:         %[[R:[a-z0-9_]+]], %[[R1:[a-z0-9_]+]] = xla_gpu.shuffle_reduce(%[[A]], %[[B]]) to 4 combiner=@do_nothing {xla.range = [0 : index, 42 : index]} : f32, i32
// CHECK-NEXT:    %[[ONE:[a-z0-9_]+]] = xla_gpu.shuffle_reduce(%[[R]]) to 16 combiner=@max : f32
// CHECK-NEXT:    func.return %[[ONE]], %[[R1]] : f32, i32

// -----

func.func @add(%a: f32, %b: i32, %c: f32, %d: i32) -> (f32, i32) {
  func.return %a, %b : f32, i32
}
func.func @reduce(%in0: tensor<16x8x4xf32>, %in1: tensor<16x8x4xi32>, %init0: f32, %init1: i32) -> (tensor<8xf32>, tensor<8xi32>) {
  %sum:2 = xla_gpu.reduce (%in0, %in1) inits(%init0, %init1) dimensions=[0, 2] combiner=@add {xla.range = [0 : index, 42 : index]}
    : tensor<16x8x4xf32>, tensor<16x8x4xi32> to tensor<8xf32>, tensor<8xi32>
  func.return %sum#0, %sum#1 : tensor<8xf32>, tensor<8xi32>
}
// CHECK-LABEL: func.func @reduce
// CHECK-SAME:    (%[[IN0:[a-z0-9_]+]]: tensor<16x8x4xf32>, %[[IN1:[a-z0-9_]+]]: tensor<16x8x4xi32>, %[[I0:[a-z0-9_]+]]: f32, %[[I1:[a-z0-9_]+]]: i32)
// CHECK:         xla_gpu.reduce(%[[IN0]], %[[IN1]]) inits(%[[I0]], %[[I1]]) dimensions=[0, 2] combiner=@add {xla.range = [0 : index, 42 : index]}
// CHECK-SAME:      : tensor<16x8x4xf32>, tensor<16x8x4xi32> to tensor<8xf32>, tensor<8xi32>

// -----

#map = #xla_gpu.indexing_map<"(d0, d1)[s0, s1] -> (d1 * 32 + d0 * 2 + s0, s1), domain: d0 in [0, 32], d1 in [0, 8], s0 in [0, 1], s1 in [0, 1]">
#map1 = #xla_gpu.indexing_map<"(d0, d1) -> (d0 mod 16, d1), domain: d0 in [0, 32], d1 in [0, 2]">
func.func @insert(%input: !xla_gpu.indexed_vector<32x64xf32, #map>, %i: index, %j: index, %output: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = xla_gpu.insert %input(%i, %j) into %output at #map1
    : !xla_gpu.indexed_vector<32x64xf32, #map> -> tensor<32x64xf32>
  func.return %0 : tensor<32x64xf32>
}
// CHECK-LABEL: func.func @insert
// CHECK-SAME:    (%[[IN:[a-z0-9_]+]]: !xla_gpu.indexed_vector<32x64xf32, #xla_gpu.indexing_map<"(d0, d1)[s0, s1] -> (d1 * 32 + d0 * 2 + s0, s1), domain: d0 in [0, 32], d1 in [0, 8], s0 in [0, 1], s1 in [0, 1]">>,
// CHECK-SAME:     %[[I:[a-z0-9_]+]]: index, %[[J:[a-z0-9_]+]]: index, %[[OUT:[a-z0-9_]+]]: tensor<32x64xf32>)
// CHECK:         xla_gpu.insert %[[IN]](%[[I]], %[[J]]) into %[[OUT]] at #xla_gpu.indexing_map<"(d0, d1) -> (d0 mod 16, d1), domain: d0 in [0, 32], d1 in [0, 2]">
// CHECK-SAME:      : !xla_gpu.indexed_vector<32x64xf32, #xla_gpu.indexing_map<"{{.*}}">> -> tensor<32x64xf32>

// -----

// The transpose listing of the seed (with its missing comma restored): shared
// memory, two loops and a barrier in between.
#map = #xla_gpu.indexing_map<"(d0, d1)[s0, s1] -> (d1 floordiv 48, s0 * 4 + d0 floordiv 32, d0 mod 32, d0 floordiv 32 + s0 * 4, 0, d0 mod 32),"
  "domain: d0 in [0, 127], d1 in [0, 959], s0 in [0, 7], s1 in [0, 0]">
#map1 = #xla_gpu.indexing_map<"(d0, d1)[s0, s1] -> (d0 mod 32, d1 floordiv 48, d0 floordiv 32 + s0 * 4),"
  "domain: d0 in [0, 127], d1 in [0, 959], s0 in [0, 7], s1 in [0, 0]">
func.func @transpose(%arg0: tensor<20x160x170xf32>, %arg1: tensor<170x160x20xf32>) -> tensor<170x160x20xf32> {
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 959 : index]}

  %shmem = xla_gpu.allocate_shared : tensor<32x1x33xf32>
  %xla_loop = xla_gpu.loop (%thread_id_x, %block_id_x)[%i, %j]
      -> (%input_dim0, %input_dim1, %input_dim2, %shmem_dim0, %shmem_dim1, %shmem_dim2)
      in #map iter_args(%iter = %shmem) -> (tensor<32x1x33xf32>) {
    %extracted = tensor.extract %arg0[%input_dim0, %input_dim1, %input_dim2] : tensor<20x160x170xf32>
    %0 = math.exp %extracted : f32
    %inserted = tensor.insert %0 into %iter[%shmem_dim0, %shmem_dim1, %shmem_dim2] : tensor<32x1x33xf32>
    xla_gpu.yield %inserted : tensor<32x1x33xf32>
  }

  %synced_tensor = xla_gpu.sync_threads %xla_loop : tensor<32x1x33xf32>

  %xla_loop_0 = xla_gpu.loop (%thread_id_x, %block_id_x)[%i, %j] -> (%dim0, %dim1, %dim2)
      in #map1 iter_args(%iter = %arg1) -> (tensor<170x160x20xf32>) {
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %synced_tensor[%dim0, %c0, %dim2] : tensor<32x1x33xf32>
    %2 = math.absf %extracted : f32
    %inserted = tensor.insert %2 into %iter[%dim0, %dim1, %dim2] : tensor<170x160x20xf32>
    xla_gpu.yield %inserted : tensor<170x160x20xf32>
  }
  return %xla_loop_0 : tensor<170x160x20xf32>
}
// CHECK-LABEL: func.func @transpose
// CHECK:         %[[SHMEM:[a-z0-9_]+]] = xla_gpu.allocate_shared : tensor<32x1x33xf32>
// CHECK:         %[[LOOP:[a-z0-9_]+]] = xla_gpu.loop ({{.*}})[%{{.*}}, %{{.*}}] -> (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) in #xla_gpu.indexing_map<"(d0, d1)[s0, s1] -> (d1 floordiv 48, s0 * 4 + d0 floordiv 32, d0 mod 32, d0 floordiv 32 + s0 * 4, 0, d0 mod 32), domain: d0 in [0, 127], d1 in [0, 959], s0 in [0, 7], s1 in [0, 0]"> iter_args(%{{.*}} = %[[SHMEM]])
// CHECK:         %[[SYNCED:[a-z0-9_]+]] = xla_gpu.sync_threads %[[LOOP]] : tensor<32x1x33xf32>
// CHECK:         xla_gpu.loop
// CHECK:           tensor.extract %[[SYNCED]]
