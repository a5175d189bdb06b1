// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// Round trip of every `xla` op and of the seed's `xla_gpu.` spellings of the
// four shared ops: custom form -> custom form, and generic form -> custom form.

#map = #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">
func.func @apply_indexing(%d0: index, %d1: index, %s0: index) -> (index, index) {
  %0:2 = xla.apply_indexing #map (%d0, %d1)[%s0]
  func.return %0#0, %0#1 : index, index
}
// CHECK-LABEL: func.func @apply_indexing
// CHECK-SAME:    (%[[D0:[a-z0-9_]+]]: index, %[[D1:[a-z0-9_]+]]: index, %[[S0:[a-z0-9_]+]]: index)
// CHECK:         %[[R:[a-z0-9_]+]], %[[R1:[a-z0-9_]+]] = xla.apply_indexing #xla.indexing_map<"(d0, d1)[s0] -> (d0, d1 + s0), domain: d0 in [1, 2], d1 in [5, 8], s0 in [0, 32]">(%[[D0]], %[[D1]])[%[[S0]]]
// CHECK-NEXT:    func.return %[[R]], %[[R1]] : index, index

// -----

func.func @apply_indexing_seed_spelling(%d0: index) -> index {
  %0 = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 15]">(%d0) {keep = 1 : i32}
  func.return %0 : index
}
// CHECK-LABEL: func.func @apply_indexing_seed_spelling
// CHECK:         xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 15]">(%{{.*}}) {keep = 1 : i32}

// -----

// Only symbols, no dims: the dims parentheses are left out.
func.func @apply_indexing_symbols_only(%s0: index) -> index {
  %0 = xla.apply_indexing #xla.indexing_map<"()[s0] -> (s0 * 2), domain: s0 in [0, 7]">[%s0]
  func.return %0 : index
}
// CHECK-LABEL: func.func @apply_indexing_symbols_only
// CHECK:         xla.apply_indexing #xla.indexing_map<"()[s0] -> (s0 * 2), domain: s0 in [0, 7]">[%{{.*}}]
// CHECK-NOT:     (

// -----

// A map given as adjacent string literals, `/` for floor division and a
// constraint; printing joins the pieces and canonicalizes the map text.
#map = #xla.indexing_map<"(d0, d1)[s0, s1] -> (d0 / 2 + s0,"
  " d1 + s1), domain: d0 in [0, 31], d1 in [0, 3],"
  " s0 in [0, 7], s1 in [0, 1], d0 + s0 in [0, 20]">
func.func @loop(%d0: index, %d1: index, %init: tensor<32x4xf32>) -> tensor<32x4xf32> {
  %sum = xla.loop (%d0, %d1)[%i, %j] -> (%ra, %rb) in #map iter_args(%iter = %init) -> (tensor<32x4xf32>) {
    %v = tensor.extract %iter[%ra, %rb] : tensor<32x4xf32>
    %w = arith.addf %v, %v : f32
    %inserted = tensor.insert %w into %iter[%ra, %rb] : tensor<32x4xf32>
    xla.yield %inserted : tensor<32x4xf32>
  } {xla.range = [0 : index, 42 : index]}
  func.return %sum : tensor<32x4xf32>
}
// CHECK-LABEL: func.func @loop
// CHECK-SAME:    (%[[D0:[a-z0-9_]+]]: index, %[[D1:[a-z0-9_]+]]: index, %[[INIT:[a-z0-9_]+]]: tensor<32x4xf32>)
// CHECK:         %[[SUM:[a-z0-9_]+]] = xla.loop (%[[D0]], %[[D1]])[%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]]] -> (%[[RA:[a-z0-9_]+]], %[[RB:[a-z0-9_]+]])
// CHECK-SAME:      in #xla.indexing_map<"(d0, d1)[s0, s1] -> (d0 floordiv 2 + s0, d1 + s1), domain: d0 in [0, 31], d1 in [0, 3], s0 in [0, 7], s1 in [0, 1], d0 + s0 in [0, 20]">
// CHECK-SAME:      iter_args(%[[ITER:[a-z0-9_]+]] = %[[INIT]]) -> (tensor<32x4xf32>) {
// CHECK-NEXT:      %[[V:[a-z0-9_]+]] = tensor.extract %[[ITER]][%[[RA]], %[[RB]]] : tensor<32x4xf32>
// CHECK-NEXT:      %[[W:[a-z0-9_]+]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT:      %[[INS:[a-z0-9_]+]] = tensor.insert %[[W]] into %[[ITER]][%[[RA]], %[[RB]]] : tensor<32x4xf32>
// CHECK-NEXT:      xla.yield %[[INS]] : tensor<32x4xf32>
// CHECK-NEXT:    } {xla.range = [0 : index, 42 : index]}
// CHECK-NEXT:    func.return %[[SUM]] : tensor<32x4xf32>

// -----

// No iter args and no yield: the parser adds the implicit empty yield, the
// printer shows it, and XLA's empty `iter_args() -> ()` comes back.
func.func @loop_without_results(%d0: index) {
  xla_gpu.loop (%d0)[%i] -> (%ra) in #xla_gpu.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1]"> {
    %x = arith.addi %i, %ra : index
  }
  func.return
}
// CHECK-LABEL: func.func @loop_without_results
// CHECK:         xla_gpu.loop (%{{.*}})[%[[I:[a-z0-9_]+]]] -> (%[[RA:[a-z0-9_]+]]) in #xla_gpu.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1]"> iter_args() -> () {
// CHECK-NEXT:      arith.addi %[[I]], %[[RA]] : index
// CHECK-NEXT:      xla_gpu.yield
// CHECK-NEXT:    }

// -----

// The seed spelling with two loop-carried values.
func.func @loop_two_iter_args(%a: f32, %b: i32) -> (f32, i32) {
  %r:2 = xla_gpu.loop ()[%i] -> () in #xla_gpu.indexing_map<"()[s0] -> (), domain: s0 in [0, 9]"> iter_args(%x = %a, %y = %b) -> (f32, i32) {
    xla_gpu.yield %x, %y : f32, i32
  }
  func.return %r#0, %r#1 : f32, i32
}
// CHECK-LABEL: func.func @loop_two_iter_args
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: i32)
// CHECK:         %[[R:[a-z0-9_]+]], %[[R1:[a-z0-9_]+]] = xla_gpu.loop ()[%{{.*}}] -> () in #xla_gpu.indexing_map<"()[s0] -> (), domain: s0 in [0, 9]"> iter_args(%[[X:[a-z0-9_]+]] = %[[A]], %[[Y:[a-z0-9_]+]] = %[[B]]) -> (f32, i32) {
// CHECK-NEXT:      xla_gpu.yield %[[X]], %[[Y]] : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]], %[[R1]] : f32, i32

// -----

func.func private @add(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}
func.func @pure_call(%a: f32, %b: f32) -> (f32, f32) {
  %0 = xla.pure_call @add(%a, %b) {noinline} : (f32, f32) -> f32
  %1 = xla_gpu.pure_call @add(%0, %b) : (f32, f32) -> (f32)
  func.return %0, %1 : f32, f32
}
// CHECK-LABEL: func.func @pure_call
// CHECK-SAME:    (%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32)
// CHECK:         %[[C0:[a-z0-9_]+]] = xla.pure_call @add(%[[A]], %[[B]]) {noinline} : (f32, f32) -> f32
// CHECK-NEXT:    %[[C1:[a-z0-9_]+]] = xla_gpu.pure_call @add(%[[C0]], %[[B]]) : (f32, f32) -> f32

// -----

func.func @atomic_rmw(%in: tensor<2x3xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  %ret = xla.atomic_rmw %in[%i, %j] : tensor<2x3xf32> {
    ^bb0(%current : f32):
      %c42 = arith.constant 1.0 : f32
      %add = arith.minimumf %current, %c42 : f32
      xla.yield %add : f32
  }
  func.return %ret : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @atomic_rmw
// CHECK-SAME:    (%[[IN:[a-z0-9_]+]]: tensor<2x3xf32>, %[[I:[a-z0-9_]+]]: index, %[[J:[a-z0-9_]+]]: index)
// CHECK:         %[[RET:[a-z0-9_]+]] = xla.atomic_rmw %[[IN]][%[[I]], %[[J]]] : tensor<2x3xf32> {
// CHECK-NEXT:    ^{{.*}}(%[[CUR:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[C:[a-z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[ADD:[a-z0-9_]+]] = arith.minimumf %[[CUR]], %[[C]] : f32
// CHECK-NEXT:      xla.yield %[[ADD]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[RET]] : tensor<2x3xf32>

// -----

// A vector block argument updates consecutive elements at once.
func.func @atomic_rmw_vector(%in: tensor<16xf32>, %i: index) -> tensor<16xf32> {
  %ret = xla.atomic_rmw %in[%i] : tensor<16xf32> {
    ^bb0(%current : vector<2xf32>):
      xla.yield %current : vector<2xf32>
  } {xla.note = "vector"}
  func.return %ret : tensor<16xf32>
}
// CHECK-LABEL: func.func @atomic_rmw_vector
// CHECK:         xla.atomic_rmw %{{.*}}[%{{.*}}] : tensor<16xf32> {
// CHECK-NEXT:    ^{{.*}}(%[[CUR:[a-z0-9_]+]]: vector<2xf32>):
// CHECK-NEXT:      xla.yield %[[CUR]] : vector<2xf32>
// CHECK-NEXT:    } {xla.note = "vector"}

// -----

func.func @predicated_insert(%v: i32, %tensor: tensor<2xi32>, %index: index, %cond: i1) -> tensor<2xi32> {
  %ret = xla.predicated_insert %v into %tensor[%index] if %cond : tensor<2xi32>
  func.return %ret : tensor<2xi32>
}
// CHECK-LABEL: func.func @predicated_insert
// CHECK-SAME:    (%[[V:[a-z0-9_]+]]: i32, %[[T:[a-z0-9_]+]]: tensor<2xi32>, %[[IDX:[a-z0-9_]+]]: index, %[[C:[a-z0-9_]+]]: i1)
// CHECK:         xla.predicated_insert %[[V]] into %[[T]][%[[IDX]]] if %[[C]] : tensor<2xi32>

// -----

func.func @predicated_extract(%v: i32, %tensor: tensor<2x2xi32>, %index: index, %cond: i1) -> i32 {
  %ret = xla.predicated_extract %tensor[%index, %index] if %cond else %v : tensor<2x2xi32>
  func.return %ret : i32
}
// CHECK-LABEL: func.func @predicated_extract
// CHECK-SAME:    (%[[V:[a-z0-9_]+]]: i32, %[[T:[a-z0-9_]+]]: tensor<2x2xi32>, %[[IDX:[a-z0-9_]+]]: index, %[[C:[a-z0-9_]+]]: i1)
// CHECK:         xla.predicated_extract %[[T]][%[[IDX]], %[[IDX]]] if %[[C]] else %[[V]] : tensor<2x2xi32>

// -----

func.func @workgroup_id() -> (index, index, index) {
  %x = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}
  %y = xla.workgroup_id  y
  %z = xla.workgroup_id z
  func.return %x, %y, %z : index, index, index
}
// CHECK-LABEL: func.func @workgroup_id
// CHECK:         xla.workgroup_id  x {xla.range = [0 : index, 1023 : index]}
// CHECK-NEXT:    xla.workgroup_id  y
// CHECK-NEXT:    xla.workgroup_id  z

// -----

// XLA's unquoted map form of Aug-Sep 2024, with its `is_simplified` flag,
// prints as today's quoted form.
func.func @unquoted_map(%d0: index) -> index {
  %0 = xla_gpu.apply_indexing #xla_gpu.indexing_map<(d0) -> (d0 mod 4), domain: d0 in [0, 31], is_simplified: true>(%d0)
  func.return %0 : index
}
// CHECK-LABEL: func.func @unquoted_map
// CHECK:         xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0 mod 4), domain: d0 in [0, 31]">(%{{.*}})

// -----

// Custom variable names survive, and both map spellings can be mixed with
// both op spellings.
func.func @mixed_spellings(%th: index, %bl: index) -> index {
  %0 = xla.apply_indexing #xla_gpu.indexing_map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 3]">(%th, %bl)
  func.return %0 : index
}
// CHECK-LABEL: func.func @mixed_spellings
// CHECK:         xla.apply_indexing #xla_gpu.indexing_map<"(th_x, bl_x) -> (bl_x * 128 + th_x), domain: th_x in [0, 127], bl_x in [0, 3]">
