// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// One case per verifier message of the `xla` ops (and their seed spellings).

#map0 = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
func.func @apply_indexing_operand_count(%d0: index) -> (index, index) {
  // expected-error@+1 {{operand count 1 does not match the sum of dimensions 2 and symbols 1 in the symbolic map}}
  %0:2 = xla.apply_indexing #map0 (%d0)
  func.return %0#0, %0#1 : index, index
}

// -----

#map0 = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32], d0 mod 2 in [0, 1], d0 + s0 in [1, 10]">
func.func @apply_indexing_constraints(%d0: index, %d1: index, %s0: index) -> (index, index) {
  // expected-error@+1 {{apply indexing op cannot have any constraints}}
  %0:2 = xla_gpu.apply_indexing #map0 (%d0, %d1)[%s0]
  func.return %0#0, %0#1 : index, index
}

// -----

func.func @apply_indexing_result_count(%d0: index) -> index {
  // expected-error@+1 {{expected 2 results, but got 1. There is one result per indexing map result}}
  %0 = "xla.apply_indexing"(%d0) <{indexing_map_attr = #xla.indexing_map<"(d0) -> (d0, d0), domain: d0 in [0, 3]">}> : (index) -> index
  func.return %0 : index
}

// -----

#map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 1024], s1 in [0, 32]">
func.func @loop_result_count(%input: tensor<1024x32xf32>, %init: f32) -> f32 {
  // expected-error@+1 {{mismatch in number of loop-carried values and results}}
  %sum:2 = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> (f32, f32)
  func.return %sum#0 : f32
}

// -----

#map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 1024], s1 in [0, 32]">
func.func @loop_too_few_block_arguments(%init: f32) -> f32 {
  // expected-error@+1 {{expected at least 3 block arguments, but got 2}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%r0: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0, s0), domain: s0 in [0, 1024]">
func.func @loop_induction_variable_count(%init: f32) -> f32 {
  // expected-error@+1 {{mismatch in number of induction variables 2 and RangeVars in the indexing map}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"(d0)[s0, s1] -> (s0, s1), domain: d0 in [0, 3], s0 in [0, 1024], s1 in [0, 32]">
func.func @loop_dims_count(%input: tensor<1024x32xf32>, %init: f32) -> f32 {
  // expected-error@+1 {{mismatch in number of dims operands 0 and DimVars in the indexing map}}
  %sum = xla.loop ()[%i, %j] -> (%r0, %r1) in #map iter_args(%sum_ = %init) -> (f32) {
    %t = tensor.extract %input[%i, %j] : tensor<1024x32xf32>
    %add = arith.addf %sum_, %t : f32
    xla.yield %add : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
func.func @loop_block_argument_not_index(%init: f32) -> f32 {
  // expected-error@+1 {{expected block argument #1 to be index, but got i32}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %r0: i32, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0, s1] -> (s0, s1), domain: s0 in [0, 1024], s1 in [0, 32]">
func.func @loop_iter_arg_types(%init: f32) -> i32 {
  // expected-error@+1 {{block iter arg type = 'f32', result type = 'i32' and init operand type = 'f32' should match}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %j: index, %r0: index, %r1: index, %iter: f32):
    xla.yield %iter : f32
  }) : (f32) -> i32
  func.return %sum : i32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
func.func @loop_without_terminator(%init: f32) -> f32 {
  // expected-error@+1 {{expected the body to end with a yield, but got arith.addf}}
  %sum = "xla.loop"(%init) <{indexing_map_attr = #map, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%i: index, %r0: index, %iter: f32):
    %x = arith.addf %iter, %iter : f32
  }) : (f32) -> f32
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
func.func @loop_yield_count(%init: f32) -> f32 {
  // expected-error@+1 {{expected the yield to return 1 values, but got 0}}
  %sum = xla_gpu.loop ()[%i] -> (%r0) in #map iter_args(%iter = %init) -> (f32) {
    %x = arith.addf %iter, %iter : f32
  }
  func.return %sum : f32
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
func.func @loop_yield_type(%init: f32) -> f32 {
  // expected-error@+1 {{expected yielded value #0 to be f32, but got index}}
  %sum = xla.loop ()[%i] -> (%r0) in #map iter_args(%iter = %init) -> (f32) {
    xla.yield %r0 : index
  }
  func.return %sum : f32
}

// -----

func.func @yield_outside_loop(%a: f32) -> f32 {
  %r = scf.execute_region -> f32 {
    // expected-error@+1 {{expected the parent op to be a loop or xla.atomic_rmw, but got scf.execute_region}}
    xla.yield %a : f32
  }
  func.return %r : f32
}

// -----

func.func @pure_call_undefined(%a: f32) -> f32 {
  // expected-error@+1 {{'f' attribute refers to an undefined function: @missing}}
  %0 = xla.pure_call @missing(%a) : (f32) -> f32
  func.return %0 : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32
func.func @pure_call_argument_count(%a: f32) -> f32 {
  // expected-error@+1 {{argument count mismatch: 'operands' has 1 arguments, but '@add' expects 2}}
  %0 = xla_gpu.pure_call @add(%a) : (f32) -> f32
  func.return %0 : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32
func.func @pure_call_argument_type(%a: f32, %b: i32) -> f32 {
  // expected-error@+1 {{expected operand #1 to be f32, but got i32. Operands must match the signature of @add}}
  %0 = xla.pure_call @add(%a, %b) : (f32, i32) -> f32
  func.return %0 : f32
}

// -----

func.func private @add(%a: f32, %b: f32) -> f32
func.func @pure_call_result_types(%a: f32) -> (f32, f32) {
  // expected-error@+1 {{expected result types (f32), but got (f32, f32). Results must match the signature of @add}}
  %0:2 = xla.pure_call @add(%a, %a) : (f32, f32) -> (f32, f32)
  func.return %0#0, %0#1 : f32, f32
}

// -----

func.func @atomic_rmw_index_count(%in: tensor<2x3xf32>, %i: index) -> tensor<2x3xf32> {
  // expected-error@+1 {{expected 2 indices, but got 1. There is one index per dimension of tensor<2x3xf32>}}
  %ret = xla.atomic_rmw %in[%i] : tensor<2x3xf32> {
  ^bb0(%current : f32):
    xla.yield %current : f32
  }
  func.return %ret : tensor<2x3xf32>
}

// -----

func.func @atomic_rmw_block_arguments(%in: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  // expected-error@+1 {{expected 1 block argument, but got 2. The body takes the current value}}
  %ret = xla.atomic_rmw %in[%i] : tensor<4xf32> {
  ^bb0(%current : f32, %other : f32):
    xla.yield %current : f32
  }
  func.return %ret : tensor<4xf32>
}

// -----

func.func @atomic_rmw_mismatch_yield(%in: tensor<2x3xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  // expected-error@+1 {{mismatch in the block argument type and the yielded type}}
  %ret = xla.atomic_rmw %in[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current : f32):
    %c42 = arith.constant 420 : i32
    xla.yield %c42 : i32
  }
  func.return %ret : tensor<2x3xf32>
}

// -----

func.func @atomic_rmw_vector_rank(%in: tensor<16xf32>, %i: index) -> tensor<16xf32> {
  // expected-error@+1 {{expected a rank-1 vector type for the block argument}}
  %ret = xla.atomic_rmw %in[%i] : tensor<16xf32> {
  ^bb0(%current : vector<2x2xf32>):
    xla.yield %current : vector<2x2xf32>
  }
  func.return %ret : tensor<16xf32>
}

// -----

func.func @atomic_rmw_vector_element_type(%in: tensor<16xf32>, %i: index) -> tensor<16xf32> {
  // expected-error@+1 {{mismatch in the result element type and the block argument vector element type}}
  %ret = xla.atomic_rmw %in[%i] : tensor<16xf32> {
  ^bb0(%current : vector<2xi32>):
    xla.yield %current : vector<2xi32>
  }
  func.return %ret : tensor<16xf32>
}

// -----

func.func @atomic_rmw_element_type(%in: tensor<2x3xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  // expected-error@+1 {{mismatch in the result element type and the block argument type}}
  %ret = xla.atomic_rmw %in[%i, %j] : tensor<2x3xf32> {
  ^bb0(%current : i32):
    xla.yield %current : i32
  }
  func.return %ret : tensor<2x3xf32>
}

// -----

func.func @predicated_insert_value_type(%v: f32, %t: tensor<2xi32>, %i: index, %c: i1) -> tensor<2xi32> {
  // expected-error@+1 {{expected the inserted value to be i32, but got f32. It must have the element type of the destination}}
  %r = "xla.predicated_insert"(%v, %t, %i, %c) : (f32, tensor<2xi32>, index, i1) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @predicated_extract_fallback_type(%v: f32, %t: tensor<2xi32>, %i: index, %c: i1) -> f32 {
  // expected-error@+1 {{expected the fallback to be i32, but got f32. It must have the element type of the source}}
  %r = "xla.predicated_extract"(%t, %i, %c, %v) : (tensor<2xi32>, index, i1, f32) -> f32
  func.return %r : f32
}

// -----

func.func @predicated_extract_result_type(%v: i32, %t: tensor<2xi32>, %i: index, %c: i1) -> i64 {
  // expected-error@+1 {{expected the result to be i32, but got i64. It must have the element type of the source}}
  %r = "xla.predicated_extract"(%t, %i, %c, %v) : (tensor<2xi32>, index, i1, i32) -> i64
  func.return %r : i64
}

// -----

// A syntax error inside a map string points into the string.
func.func @bad_map(%d0: index) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1),"
    // expected-error@+1 {{invalid indexing map}}
    " domain: d0 in [0, q]"> (%d0)
  func.return %0 : index
}

// -----

func.func @not_a_map(%d0: index) -> index {
  // expected-error@+1 {{expected an indexing map attribute, but got 3 : i64}}
  %0 = xla.apply_indexing 3 (%d0)
  func.return %0 : index
}

// -----

#map = #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 7]">
func.func @loop_iter_args_type_count(%a: f32, %b: f32) -> f32 {
  // expected-error@+1 {{expected 2 types, one per iter_arg, but got 1}}
  %r = xla.loop ()[%i] -> (%r0) in #map iter_args(%x = %a, %y = %b) -> (f32) {
    xla.yield %x : f32
  }
  func.return %r : f32
}

// -----

func.func @predicated_insert_not_a_tensor(%v: i32, %t: i32, %i: index, %c: i1) -> i32 {
  // expected-error@+1 {{expected a tensor type, but got i32}}
  %r = xla.predicated_insert %v into %t[%i] if %c : i32
  func.return %r : i32
}

// -----

func.func @predicated_extract_not_a_tensor(%v: i32, %t: i32, %i: index, %c: i1) -> i32 {
  // expected-error@+1 {{expected a tensor type, but got i32}}
  %r = xla.predicated_extract %t[%i] if %c else %v : i32
  func.return %r : i32
}
