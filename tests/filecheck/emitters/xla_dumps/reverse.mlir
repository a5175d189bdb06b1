// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/reverse/gpu.hlo | filecheck %s

// Our loop emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/reverse/gpu/loop_add_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 639 : index]}
// XLA: %3 = scf.forall (%arg2, %arg3, %arg4) in (128, 1, 1) shared_outs(%arg5 = %arg1)
// CHECK-LABEL: func.func @loop_add_fusion(
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 639 : index]}

// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] ->
// XLA:   ((bl_x * 128 + th_x) / 160, ((bl_x * 128 + th_x) mod 160) * 4 + s0), domain:
// XLA:   th_x in [0, 127], ..., bl_x in [0, 639], ..., s0 in [0, 3]">
// CHECK:         xla.loop ({{.*}}){{\[}}%{{\w+}}] -> (%{{\w+}}, %{{\w+}}) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]]] -> (([[BL]] * 128 + [[TH]]) {{/|floordiv}} 160, (([[BL]] * 128 + [[TH]]) mod 160) * 4 + [[S0]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 639], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 3]">

// The reversed operand is read through the reversing maps.
// XLA: #indexing_map1 = #xla.indexing_map<"(d0, d1) -> (-d0 + 511), domain: d0 in [0, 511], d1 in [0, 639]">
// XLA: #indexing_map2 = #xla.indexing_map<"(d0, d1) -> (-d1 + 639), domain: d0 in [0, 511], d1 in [0, 639]">
// XLA: %0 = xla.apply_indexing #indexing_map1(%arg1, %arg2)
// XLA: %1 = xla.apply_indexing #indexing_map2(%arg1, %arg2)
// XLA: %extracted = tensor.extract %arg0[%0, %1] : tensor<512x640xf32>
// CHECK-LABEL: func.func private @
// CHECK-DAG:     %[[R0:\w+]] = xla.apply_indexing #xla.indexing_map<"([[D0:\w+]], [[D1:\w+]]) -> (-[[D0]] + 511), domain: [[D0]] in [0, 511], [[D1]] in [0, 639]">
// CHECK-DAG:     %[[R1:\w+]] = xla.apply_indexing #xla.indexing_map<"([[E0:\w+]], [[E1:\w+]]) -> (-[[E1]] + 639), domain: [[E0]] in [0, 511], [[E1]] in [0, 639]">
// CHECK:         tensor.extract %{{\w+}}[%[[R0]], %[[R1]]] : tensor<512x640xf32>
