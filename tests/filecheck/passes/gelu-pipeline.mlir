// RUN: xla-emit-opt %s -p xla-gpu-pipeline | filecheck %s
// RUN: xla-emit-opt %s -p xla-gpu-pipeline --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=STAGES

// The seed's GELU as the loop emitter writes it (first listing of seed 002),
// through every stage of the pipeline. The result is the seed's final shape:
// one 4 x bf16 vector read, four unrolled element computations at constant
// positions, one vector write; no loop, no xla_gpu.loop, no 3-d tensor.

#map = #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, (bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">
func.func @main(%input: tensor<6x512x4096xbf16>, %output: tensor<6x512x4096xbf16>) -> tensor<6x512x4096xbf16> {
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
  %xla_loop = xla_gpu.loop (%thread_id_x, %block_id_x)[%vector_index] -> (%dim0, %dim1, %dim2)
      in #map iter_args(%iter = %output) -> (tensor<6x512x4096xbf16>) {
    %pure_call = xla_gpu.pure_call @gelu(%input, %dim0, %dim1, %dim2)
        : (tensor<6x512x4096xbf16>, index, index, index) -> bf16
    %inserted = tensor.insert %pure_call into %iter[%dim0, %dim1, %dim2] : tensor<6x512x4096xbf16>
    xla_gpu.yield %inserted : tensor<6x512x4096xbf16>
  }
  return %xla_loop : tensor<6x512x4096xbf16>
}
func.func private @gelu(%arg0: tensor<6x512x4096xbf16>, %i: index, %j: index, %k: index) -> bf16 {
  %cst = arith.constant 5.000000e-01 : bf16
  %cst_0 = arith.constant 1.000000e+00 : bf16
  %cst_1 = arith.constant 7.968750e-01 : bf16
  %cst_2 = arith.constant 4.467770e-02 : bf16
  %extracted = tensor.extract %arg0[%i, %j, %k] : tensor<6x512x4096xbf16>
  %0 = arith.mulf %extracted, %extracted : bf16
  %1 = arith.mulf %0, %extracted : bf16
  %2 = arith.mulf %1, %cst_2 : bf16
  %3 = arith.addf %extracted, %2 : bf16
  %4 = arith.mulf %3, %cst_1 : bf16
  %5 = math.tanh %4 : bf16
  %6 = arith.addf %5, %cst_0 : bf16
  %7 = arith.mulf %6, %cst : bf16
  %8 = arith.mulf %extracted, %7 : bf16
  return %8 : bf16
}

// CHECK-LABEL: func.func @main(%input: tensor<12582912xbf16>, %output: tensor<12582912xbf16>) -> tensor<12582912xbf16>
// CHECK-NOT:   func.func @gelu
// CHECK-NOT:   xla_gpu.loop
// CHECK-NOT:   scf.for
// CHECK-NOT:   6x512x4096
// CHECK-DAG:   %[[TH:.*]] = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
// CHECK-DAG:   %[[BL:.*]] = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[BASE:.*]] = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">(%[[TH]], %[[BL]], %[[C0]])
// CHECK:       %[[V:.*]] = vector.transfer_read %input[%[[BASE]]], %{{.*}} {in_bounds = [true]} : tensor<12582912xbf16>, vector<4xbf16>
// CHECK:       %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xbf16>
// CHECK:       %[[X0:.*]] = vector.extract %[[V]][%[[C0]]] : bf16 from vector<4xbf16>
// CHECK:       math.tanh
// CHECK:       %[[R0:.*]] = arith.mulf %[[X0]], %{{.*}} : bf16
// CHECK:       %[[A0:.*]] = vector.insert %[[R0]], %[[ZERO]] [%[[C0]]] : bf16 into vector<4xbf16>
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[X1:.*]] = vector.extract %[[V]][%[[C1]]]
// CHECK:       math.tanh
// CHECK:       %[[A1:.*]] = vector.insert %{{.*}}, %[[A0]] [%[[C1]]]
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       vector.extract %[[V]][%[[C2]]]
// CHECK:       math.tanh
// CHECK:       %[[A2:.*]] = vector.insert %{{.*}}, %[[A1]] [%[[C2]]]
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       vector.extract %[[V]][%[[C3]]]
// CHECK:       math.tanh
// CHECK:       %[[A3:.*]] = vector.insert %{{.*}}, %[[A2]] [%[[C3]]]
// CHECK-NOT:   math.tanh
// CHECK:       %[[W:.*]] = vector.transfer_write %[[A3]], %output[%[[BASE]]] {in_bounds = [true]} : vector<4xbf16>, tensor<12582912xbf16>
// CHECK-NEXT:  func.return %[[W]] : tensor<12582912xbf16>
// CHECK-NOT:   vector.transfer_read
// CHECK-NOT:   vector.transfer_write

// Each stage in the seed's order shows the seed's intermediate shape.
// STAGES-LABEL: IR Dump After inline
// STAGES-NOT:   xla_gpu.pure_call
// STAGES:       xla_gpu.loop
// STAGES:       tensor.extract %input[%dim0, %dim1, %dim2] : tensor<6x512x4096xbf16>
// STAGES-LABEL: IR Dump After xla-lower-xla-loops-to-scf
// STAGES:       scf.for %vector_index = %c0 to %c4 step %c1 iter_args(%iter = %output) -> (tensor<6x512x4096xbf16>)
// STAGES:       arith.cmpi sge, %thread_id_x, %c0
// STAGES:       arith.cmpi sle, %thread_id_x, %c127
// STAGES:       %inbounds = arith.andi
// STAGES:       scf.if %inbounds
// STAGES:       xla_gpu.apply_indexing {{.*}} -> (bl_x floordiv 4096)
// STAGES-LABEL: IR Dump After xla-flatten-tensors
// STAGES:       func.func @main(%input: tensor<12582912xbf16>, %output: tensor<12582912xbf16>)
// STAGES:       scf.for %vector_index
// STAGES:       xla_gpu.apply_indexing #xla_gpu.indexing_map<"(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index)
// STAGES-LABEL: IR Dump After xla-vectorize-loads-stores
// STAGES:       vector.transfer_read %input
// STAGES:       scf.for %vector_index = %c0 to %c4 step %c1 iter_args(%iter = %output, %iter_vector = %vector) -> (tensor<12582912xbf16>, vector<4xbf16>)
// STAGES:       vector.extract
// STAGES:       vector.insert
// STAGES:       scf.yield %iter, %iter_vector
// STAGES:       vector.transfer_write
// STAGES-LABEL: IR Dump After xla-gpu-optimize-loops
// STAGES-NOT:   scf.for
// STAGES:       vector.transfer_write

// RUN: xla-emit-opt %s -p xla-gpu-to-standard | filecheck %s --check-prefix=STD
// With the index arithmetic lowered, only standard dialects and gpu ids remain:
// the base is th_x * 4 + bl_x * 512 (vector_index is 0 there).
// STD-LABEL: func.func @main
// STD-NOT:   xla_gpu.
// STD-DAG:   %[[TH:.*]] = gpu.thread_id  x
// STD-DAG:   %[[BL:.*]] = gpu.block_id  x
// STD-DAG:   %[[C4:.*]] = arith.constant 4 : index
// STD-DAG:   %[[C512:.*]] = arith.constant 512 : index
// STD-DAG:   %[[A:.*]] = arith.muli %[[TH]], %[[C4]] : index
// STD-DAG:   %[[B:.*]] = arith.muli %[[BL]], %[[C512]] : index
// STD:       %[[BASE:.*]] = arith.addi %[[A]], %[[B]] : index
// STD:       vector.transfer_read %input[%[[BASE]]]
// STD:       vector.transfer_write %{{.*}}, %output[%[[BASE]]]
// STD-NOT:   xla_gpu.
