// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// One case per verifier message of the `xla_gpu` ops.

func.func @allocate_shared_dynamic() -> tensor<?x4xf32> {
  // expected-error@+1 {{expected a statically shaped tensor, but got tensor<?x4xf32>}}
  %shmem = xla_gpu.allocate_shared : tensor<?x4xf32>
  func.return %shmem : tensor<?x4xf32>
}

// -----

func.func @sync_threads_result_count(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{expected 1 results, one per operand, but got 2}}
  %x:2 = "xla_gpu.sync_threads"(%a) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %x#0 : tensor<2xf32>
}

// -----

func.func @sync_threads_result_type(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{expected result #0 to be tensor<2xf32>, but got tensor<3xf32>}}
  %x = "xla_gpu.sync_threads"(%a) : (tensor<2xf32>) -> tensor<3xf32>
  func.return %x : tensor<3xf32>
}

// -----

func.func @max(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @shuffle_distance_not_power_of_two(%a: f32) -> f32 {
  // expected-error@+1 {{expected the shuffle distance to be 0 or a power of 2 below the warp size 32, but got 12}}
  %r = xla_gpu.shuffle_reduce(%a) to 12 combiner=@max : f32
  func.return %r : f32
}

// -----

func.func @max(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @shuffle_distance_warp_size(%a: f32) -> f32 {
  // expected-error@+1 {{expected the shuffle distance to be 0 or a power of 2 below the warp size 32, but got 32}}
  %r = xla_gpu.shuffle_reduce(%a) to 32 combiner=@max : f32
  func.return %r : f32
}

// -----

func.func @max(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @shuffle_result_types(%a: f32) -> i32 {
  // expected-error@+1 {{expected the result types to be the operand types (f32), but got (i32)}}
  %r = "xla_gpu.shuffle_reduce"(%a) <{combiner = @max, max_distance = 16 : i64}> : (f32) -> i32
  func.return %r : i32
}

// -----

func.func @shuffle_combiner_missing(%a: f32) -> f32 {
  // expected-error@+1 {{combiner `@max` not found}}
  %r = xla_gpu.shuffle_reduce(%a) to 16 combiner=@max : f32
  func.return %r : f32
}

// -----

func.func @max(%a: f32) -> f32 {
  func.return %a : f32
}
func.func @shuffle_combiner_type(%a: f32) -> f32 {
  // expected-error@+1 {{provided combiner `@max` expected to have type (f32, f32) -> f32 but got (f32) -> f32}}
  %r = xla_gpu.shuffle_reduce(%a) to 16 combiner=@max : f32
  func.return %r : f32
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_init_count(%in: tensor<4x8xf32>, %init: f32) -> tensor<8xf32> {
  // expected-error@+1 {{expected 1 inits, one per input, but got 2}}
  %r = "xla_gpu.reduce"(%in, %init, %init) <{combiner = @add, dimensions = array<i64: 0>, operandSegmentSizes = array<i32: 1, 2>}> : (tensor<4x8xf32>, f32, f32) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @add(%a: f32, %b: i32, %c: f32, %d: i32) -> (f32, i32) {
  func.return %a, %b : f32, i32
}
func.func @reduce_input_shapes(%a: tensor<4x8xf32>, %b: tensor<4x9xi32>, %ia: f32, %ib: i32) -> (tensor<8xf32>, tensor<9xi32>) {
  // expected-error@+1 {{expected all inputs to have one shape, but got tensor<4x8xf32>, tensor<4x9xi32>}}
  %r:2 = xla_gpu.reduce (%a, %b) inits(%ia, %ib) dimensions=[0] combiner=@add : tensor<4x8xf32>, tensor<4x9xi32> to tensor<8xf32>, tensor<9xi32>
  func.return %r#0, %r#1 : tensor<8xf32>, tensor<9xi32>
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_dimensions_unsorted(%in: tensor<4x8x2xf32>, %init: f32) -> tensor<8xf32> {
  // expected-error@+1 {{expected strictly increasing dimensions, but got [2, 0]}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[2, 0] combiner=@add : tensor<4x8x2xf32> to tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_dimension_out_of_range(%in: tensor<4x8xf32>, %init: f32) -> tensor<4xf32> {
  // expected-error@+1 {{expected dimensions in [0, 1], the input rank is 2, but got [2]}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[2] combiner=@add : tensor<4x8xf32> to tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_init_type(%in: tensor<4x8xf32>, %init: i32) -> tensor<8xf32> {
  // expected-error@+1 {{init type i32 does not match inferred type f32}}
  %r = "xla_gpu.reduce"(%in, %init) <{combiner = @add, dimensions = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1>}> : (tensor<4x8xf32>, i32) -> tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_result_type(%in: tensor<4x8xf32>, %init: f32) -> tensor<4xf32> {
  // expected-error@+1 {{expected result types (tensor<8xf32>), but got (tensor<4xf32>). The reduced dimensions are dropped}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[0] combiner=@add : tensor<4x8xf32> to tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @reduce_combiner_missing(%in: tensor<4x8xf32>, %init: f32) -> tensor<8xf32> {
  // expected-error@+1 {{combiner `@add` not found}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[0] combiner=@add : tensor<4x8xf32> to tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

func.func @add(%a: f32, %b: f32) -> (f32, f32) {
  func.return %a, %b : f32, f32
}
func.func @reduce_combiner_type(%in: tensor<4x8xf32>, %init: f32) -> tensor<8xf32> {
  // expected-error@+1 {{provided combiner `@add` expected to have type (f32, f32) -> f32 but got (f32, f32) -> (f32, f32)}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[0] combiner=@add : tensor<4x8xf32> to tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// -----

#map = #xla.indexing_map<"(d0, d1)[s0, s1] -> (d1*32+d0*2+s0, s1), domain: d0 in [0, 32], d1 in [0, 8], s0 in [0, 1], s1 in [0, 1]">
#map1 = #xla.indexing_map<"(d0, d1)[s0] -> (d0 mod 16 + s0, d1), domain: d0 in [0, 32], d1 in [0, 2], s0 in [0, 1]">
func.func @insert_map_symbols(%input: !xla_gpu.indexed_vector<32x64xf32, #map>, %i: index, %j: index, %output: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error@+1 {{insert_op map must not have any symbols}}
  %0 = xla_gpu.insert %input(%i, %j) into %output at #map1
    : !xla_gpu.indexed_vector<32x64xf32, #map> -> tensor<32x64xf32>
  func.return %0 : tensor<32x64xf32>
}

// -----

#map = #xla.indexing_map<"(d0, d1)[s0, s1] -> (d1*32+d0*2+s0, s1), domain: d0 in [0, 32], d1 in [0, 8], s0 in [0, 1], s1 in [0, 1]">
#map1 = #xla.indexing_map<"(d0, d1, d2) -> (d0 mod 16, d1, d2), domain: d0 in [0, 32], d1 in [0, 2], d2 in [0, 5]">
func.func @insert_map_dims(%input: !xla_gpu.indexed_vector<32x64xf32, #map>, %i: index, %j: index, %output: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error@+1 {{source map result count must equal insert_op's map's dimension count}}
  %0 = xla_gpu.insert %input(%i, %j) into %output at #map1
    : !xla_gpu.indexed_vector<32x64xf32, #map> -> tensor<32x64xf32>
  func.return %0 : tensor<32x64xf32>
}

// -----

#map = #xla.indexing_map<"(d0, d1)[s0, s1] -> (d1*32+d0*2+s0, s1), domain: d0 in [0, 32], d1 in [0, 8], s0 in [0, 1], s1 in [0, 1]">
#map1 = #xla.indexing_map<"(d0, d1) -> (d0 mod 16, d1), domain: d0 in [0, 32], d1 in [0, 2]">
func.func @insert_index_count(%input: !xla_gpu.indexed_vector<32x64xf32, #map>, %i: index, %output: tensor<32x64xf32>) -> tensor<32x64xf32> {
  // expected-error@+1 {{expected 2 indices, one per dimension of the source's map, but got 1}}
  %0 = xla_gpu.insert %input(%i) into %output at #map1
    : !xla_gpu.indexed_vector<32x64xf32, #map> -> tensor<32x64xf32>
  func.return %0 : tensor<32x64xf32>
}

// -----

// expected-error@+1 {{expected an indexing map attribute, but got "(d0) -> (d0)"}}
func.func private @indexed_vector_without_map(!xla_gpu.indexed_vector<32xf32, "(d0) -> (d0)">)

// -----

func.func @allocate_shared_not_a_tensor() -> f32 {
  // expected-error@+1 {{expected a tensor type, but got f32}}
  %shmem = xla_gpu.allocate_shared : f32
  func.return %shmem : f32
}

// -----

#map = #xla.indexing_map<"(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 15], s0 in [0, 1]">
func.func @insert_without_map(%input: !xla_gpu.indexed_vector<32xf32, #map>, %i: index, %output: tensor<32xf32>) -> tensor<32xf32> {
  // expected-error@+1 {{expected an indexing map attribute, but got [1 : i64, 2 : i64]}}
  %0 = xla_gpu.insert %input(%i) into %output at [1, 2]
    : !xla_gpu.indexed_vector<32xf32, #map> -> tensor<32xf32>
  func.return %0 : tensor<32xf32>
}

// -----

// The seed's transpose listing writes `(%thread_id_x %block_id_x)`; XLA's
// parser needs the comma, and so does ours.
#map = #xla_gpu.indexing_map<"(d0, d1)[s0] -> (d0), domain: d0 in [0, 127], d1 in [0, 3], s0 in [0, 1]">
func.func @loop_missing_comma(%tx: index, %bx: index) {
  // expected-error@+1 {{')' expected}}
  xla_gpu.loop (%tx %bx)[%i] -> (%r) in #map {
  }
  func.return
}

// -----

func.func @add(%a: f32, %b: f32) -> f32 {
  func.return %a : f32
}
func.func @reduce_scalar_input(%in: f32, %init: f32) -> f32 {
  // expected-error@+1 {{expected tensor input types, but got f32}}
  %r = xla_gpu.reduce (%in) inits(%init) dimensions=[] combiner=@add : f32 to f32
  func.return %r : f32
}
