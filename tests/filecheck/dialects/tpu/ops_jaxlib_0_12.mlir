// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// The ops, attributes and forms jaxlib 0.12 adds, in the form its printer gives them,
// survive printing and re-parsing in the custom and the generic form; so do the forms
// only jaxlib 0.10.2 prints (tpu.relayout, tpu.repeat, #tpu.vpad).

// CHECK-LABEL: func.func @memory_ops_0_12
// CHECK: %{{.*}} = tpu.annotate %[[R:[a-z0-9_]+]] {no_hazard = true, no_store = true} : memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: tpu.compress_store_vreg %[[R]][%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: tpu.compress_store_vreg %[[R]][%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {add = true} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: %{{.*}} = tpu.expand_load_vreg %[[R]][%{{.*}}, %{{.*}}], %{{.*}} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: tpu.vector_compress_store %[[R]][%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {compress_dim = 1 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: tpu.vector_compress_store %[[R]][%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} {add = true, compress_dim = 0 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: %{{.*}} = tpu.vector_expand_load %[[R]][%{{.*}}, %{{.*}}], %{{.*}} {expand_dim = 1 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK-NEXT: %{{.*}} = tpu.memref_memory_space_is %[[R]], <vmem> : memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %{{.*}} = tpu.shared_memref_slice %[[R]] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %{{.*}} = tpu.tile_size %[[R]], 1 : memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %{{.*}} = tpu.reinterpret_cast %[[R]] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %{{.*}} = tpu.reinterpret_cast %[[R]] %{{.*}}<%{{.*}}, %{{.*}}> [%{{.*}}, %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-NEXT: %{{.*}} = tpu.reinterpret_cast %[[R]]{{ ?}}[%{{.*}}, %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
func.func @memory_ops_0_12(%r: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %m: vector<8x128xi1>, %i: index, %n: i32) {
  %0 = tpu.annotate %r {no_hazard = true, no_store = true} : memref<8x128xf32, #tpu.memory_space<vmem>>
  tpu.compress_store_vreg %r[%i, %i], %v, %m : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  tpu.compress_store_vreg %r[%i, %i], %v, %m {add = true} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  %1 = tpu.expand_load_vreg %r[%i, %i], %m : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  tpu.vector_compress_store %r[%i, %i], %v, %m {compress_dim = 1 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  tpu.vector_compress_store %r[%i, %i], %v, %m {add = true, compress_dim = 0 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  %2 = tpu.vector_expand_load %r[%i, %i], %m {expand_dim = 1 : i32} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
  %3 = tpu.memref_memory_space_is %r, <vmem> : memref<8x128xf32, #tpu.memory_space<vmem>>
  %4 = tpu.shared_memref_slice %r : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  %5 = tpu.tile_size %r, 1 : memref<8x128xf32, #tpu.memory_space<vmem>>
  %6 = tpu.reinterpret_cast %r : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  %7 = tpu.reinterpret_cast %r %n<%n, %n> [%n, %n] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  %8 = tpu.reinterpret_cast %r [%n, %n] : memref<8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// CHECK-LABEL: func.func @compute_ops_0_12
// CHECK: %{{.*}} = tpu.logistic %[[X:[a-z0-9_]+]] : vector<8x128xf32> -> vector<8x128xf32>
// CHECK-NEXT: tpu.matmul_lhs_fifo %[[X]] {mxu_index = 0 : i32} : vector<8x128xf32>
// CHECK-NEXT: tpu.matmul_lhs_fifo %[[X]] {load_staged_rhs = 2 : i32, mxu_index = 1 : i32} : vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.matmul_pop_fifo 3 : vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.reduce <sum>, %[[X]] [1] : vector<8x128xf32> -> vector<8xf32>
// CHECK-NEXT: %{{.*}} = tpu.reduce <maxsi>, %{{.*}} [0, 1] : vector<8x128xi32> -> vector<i32>
// CHECK-NEXT: %{{.*}} = tpu.reduce_precision %[[X]] {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : vector<8x128xf32> -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.scan <sum>, %[[X]] {dimension = 1 : i64} : vector<8x128xf32>,{{ +}}-> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.scan <maxf>, %[[X]] masked %{{.*}} {dimension = 0 : i64} : vector<8x128xf32>, vector<8x128xi1> -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.scan <minui>, %{{.*}} : vector<8x128xi32>,{{ +}}-> vector<8x128xi32>
// CHECK-NEXT: %{{.*}} = tpu.all_reduce %[[X]] {dim = 0 : i64, kind = #tpu.reduction_kind<minf>} : vector<8x128xf32> -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.matmul %[[X]], %{{.*}}, %{{.*}} {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, precision = #tpu.contract_precision<bf16x3>} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
func.func @compute_ops_0_12(%x: vector<8x128xf32>, %xi: vector<8x128xi32>, %m: vector<8x128xi1>, %w: vector<128x128xf32>) {
  %0 = tpu.logistic %x : vector<8x128xf32> -> vector<8x128xf32>
  tpu.matmul_lhs_fifo %x {mxu_index = 0 : i32} : vector<8x128xf32>
  tpu.matmul_lhs_fifo %x {load_staged_rhs = 2 : i32, mxu_index = 1 : i32} : vector<8x128xf32>
  %1 = tpu.matmul_pop_fifo 3 : vector<8x128xf32>
  %2 = tpu.reduce <sum>, %x [1] : vector<8x128xf32> -> vector<8xf32>
  %3 = tpu.reduce <maxsi>, %xi [0, 1] : vector<8x128xi32> -> vector<i32>
  %4 = tpu.reduce_precision %x {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : vector<8x128xf32> -> vector<8x128xf32>
  %5 = tpu.scan <sum>, %x {dimension = 1 : i64} : vector<8x128xf32>,  -> vector<8x128xf32>
  %6 = tpu.scan <maxf>, %x masked %m {dimension = 0 : i64} : vector<8x128xf32>, vector<8x128xi1> -> vector<8x128xf32>
  %7 = tpu.scan <minui>, %xi : vector<8x128xi32>,  -> vector<8x128xi32>
  %8 = tpu.all_reduce %x {dim = 0 : i64, kind = #tpu.reduction_kind<minf>} : vector<8x128xf32> -> vector<8x128xf32>
  %9 = tpu.matmul %x, %w, %1 {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, precision = #tpu.contract_precision<bf16x3>} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
  return
}

// -----

// CHECK-LABEL: func.func @conv_0_12
// CHECK: %{{.*}} = tpu.conv %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>} : vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32> -> vector<1x6x6x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.conv %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}precision = #tpu.contract_precision<bf16x3>{{.*}}} : vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32> -> vector<1x6x6x128xf32>
func.func @conv_0_12(%lhs: vector<1x8x8x128xf32>, %rhs: vector<3x3x128x128xf32>, %acc: vector<1x6x6x128xf32>) {
  %0 = tpu.conv %lhs, %rhs, %acc {dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>} : vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32> -> vector<1x6x6x128xf32>
  %1 = tpu.conv %lhs, %rhs, %acc {dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, precision = #tpu.contract_precision<bf16x3>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>} : vector<1x8x8x128xf32>, vector<3x3x128x128xf32>, vector<1x6x6x128xf32> -> vector<1x6x6x128xf32>
  return
}

// -----

// jaxlib 0.10.2's forms: a scan without `dimension`, relayout, repeat and vpad layouts.
// CHECK-LABEL: func.func @forms_0_10_2
// CHECK: %{{.*}} = tpu.scan <sum>, %{{.*}} masked %{{.*}} : vector<8x128xf32>, vector<8x128xi1> -> vector<8x128xf32>
// CHECK-NEXT: %[[L:.*]] = tpu.relayout %{{.*}} {in_layout = [#tpu.vpad<"32,{0,0},(8,128)">], out_layout = [#tpu.vpad<"32,{*,0},(8,128),-2">]} : vector<8x128xf32> -> vector<8x128xf32>
// CHECK-NEXT: %{{.*}} = tpu.repeat %[[L]], 1 x 2 {out_layout = [#tpu.vpad<"none">]} : vector<8x128xf32> -> vector<8x256xf32>
func.func @forms_0_10_2(%x: vector<8x128xf32>, %m: vector<8x128xi1>) {
  %0 = tpu.scan <sum>, %x masked %m : vector<8x128xf32>, vector<8x128xi1> -> vector<8x128xf32>
  %1 = tpu.relayout %x {in_layout = [#tpu.vpad<"32,{0,0},(8,128)">], out_layout = [#tpu.vpad<"32,{*,0},(8,128),-2">]} : vector<8x128xf32> -> vector<8x128xf32>
  %2 = tpu.repeat %1, 1 x 2 {out_layout = [#tpu.vpad<"none">]} : vector<8x128xf32> -> vector<8x256xf32>
  return
}
