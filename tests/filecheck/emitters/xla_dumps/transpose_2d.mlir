// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/transpose_2d/gpu.hlo | filecheck %s

// Our transpose emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/transpose_2d/gpu/input_transpose_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]). XLA reads the input
// in a loop over its tile and computes the shared-memory indices with separate
// xla.apply_indexing ops; ours gives the loop map those two results as well. The
// expressions are XLA's.

// XLA: %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
// XLA: %block_id_x = gpu.block_id x {xla.range = [0 : index, 59 : index]}
// XLA: %shmem = xla_gpu.allocate_shared : tensor<32x33xf32>
// CHECK-LABEL: func.func @input_transpose_fusion(
// CHECK-SAME:    tensor<192x320xf32>, %[[OUT:\w+]]: tensor<320x192xf32>) -> tensor<320x192xf32>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 59 : index]}
// CHECK:         %[[SHMEM:\w+]] = xla_gpu.allocate_shared : tensor<32x33xf32>

// XLA: #indexing_map = #xla.indexing_map<"(d0, d1, d2, d3, d4, d5)[s0, s1] ->
// XLA:   ((d3 / 10) * 32 + s0 * 4 + d0 / 32, (d3 mod 10) * 32 + d0 mod 32), domain:
// XLA:   d0 in [0, 127], ..., d3 in [0, 59], ..., s0 in [0, 7], s1 in [0, 0]">
// XLA: #indexing_map1 = "(th_x, ...)[s0, s1] -> ((s0 * 128 + th_x + s1) mod 32)" (shared column)
// XLA: #indexing_map2 = "(th_x, ...)[s0, s1] -> ((s0 * 128 + th_x + s1) / 32)" (shared row)
// CHECK:         %[[TILE:\w+]] = xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]], [[S1:\w+]]] -> (([[BL]] {{/|floordiv}} 10) * 32 + [[S0]] * 4 + [[TH]] {{/|floordiv}} 32, ([[BL]] mod 10) * 32 + [[TH]] mod 32, [[TH]] mod 32, [[S0]] * 4 + [[TH]] {{/|floordiv}} 32), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 59], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 7], [[S1]] in [0, 0]"> iter_args(%{{\w+}} = %[[SHMEM]])

// XLA: %synced_tensor = xla_gpu.sync_threads %xla_loop : tensor<32x33xf32>
// CHECK:         %[[SYNCED:\w+]] = xla_gpu.sync_threads %[[TILE]] : tensor<32x33xf32>

// XLA: #indexing_map5 = #xla.indexing_map<"(d0, d1, d2, d3, d4, d5)[s0, s1] ->
// XLA:   ((d3 mod 10) * 32 + s0 * 4 + d0 / 32, (d3 / 10) * 32 + d0 mod 32), domain: ...">
// XLA: %xla_loop_0 = xla.loop (...)[%i, %j] -> (%ra, %rb) in #indexing_map5 iter_args(%iter = %arg1)
// XLA:   %extracted = tensor.extract %synced_tensor[%0, %1] : tensor<32x33xf32>
// CHECK:         xla.loop ({{.*}}] -> ({{.*}}) in #xla.indexing_map<"([[TH2:\w+]], {{\w+}}, {{\w+}}, [[BL2:\w+]], {{\w+}}, {{\w+}}){{\[}}[[T0:\w+]], [[T1:\w+]]] -> (([[BL2]] mod 10) * 32 + [[T0]] * 4 + [[TH2]] {{/|floordiv}} 32, ([[BL2]] {{/|floordiv}} 10) * 32 + [[TH2]] mod 32), domain: [[TH2]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL2]] in [0, 59], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[T0]] in [0, 7], [[T1]] in [0, 0]"> iter_args(%{{\w+}} = %[[OUT]])
// CHECK:           tensor.extract %[[SYNCED]][%{{\w+}}, %{{\w+}}] : tensor<32x33xf32>
