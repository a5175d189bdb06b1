// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/gelu_bf16/gpu.hlo | filecheck %s

// Our loop emitter on XLA's optimized module, against XLA's emitter output:
// tests/corpus/gpu/gelu_bf16/gpu/loop_multiply_fusion.mlir-passes.log.xz, snapshot 0.
// "XLA:" lines quote it; the CHECK lines below each are written from them (the x ids
// and symbols up to renaming; both thread six grid ids, the y and z ones [0, 0]).

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 639 : index]}
// XLA: %3 = scf.forall (%arg2, %arg3, %arg4) in (128, 1, 1) shared_outs(%arg5 = %arg1)
// CHECK-LABEL: func.func @loop_multiply_fusion(
// CHECK-SAME:    %{{\w+}}: tensor<512x640xbf16>, %[[OUT:\w+]]: tensor<512x640xbf16>) -> tensor<512x640xbf16>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 639 : index]}

// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] ->
// XLA:   ((bl_x * 128 + th_x) / 160, ((bl_x * 128 + th_x) mod 160) * 4 + s0), domain:
// XLA:   th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 639], bl_y in [0, 0],
// XLA:   bl_z in [0, 0], s0 in [0, 3]">
// XLA: %xla_loop = xla.loop (...)[%i] -> (%ra, %rb) in #indexing_map iter_args(%iter = %arg5)
// XLA:   %pure_call = xla.pure_call @fused_multiply_mul_13_1(%arg0, %ra, %rb) : (...) -> bf16
// CHECK:         xla.loop ({{.*}}){{\[}}%{{\w+}}] -> (%[[I:\w+]], %[[J:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]]] -> (([[BL]] * 128 + [[TH]]) {{/|floordiv}} 160, (([[BL]] * 128 + [[TH]]) mod 160) * 4 + [[S0]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 639], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 3]"> iter_args(%[[IT:\w+]] = %[[OUT]])
// CHECK-NEXT:      %[[V:\w+]] = xla.pure_call @fused_multiply_mul_13_1(%{{\w+}}, %[[I]], %[[J]]) : ({{.*}}) -> bf16
// CHECK-NEXT:      tensor.insert %[[V]] into %[[IT]][%[[I]], %[[J]]] : tensor<512x640xbf16>
