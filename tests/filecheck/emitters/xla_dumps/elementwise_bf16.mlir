// RUN: xla-emit-opt --emit=xla %S/../../../corpus/gpu/elementwise_bf16/gpu.hlo | filecheck %s

// Our loop emitter on XLA's optimized module, against the loop emitter's output in
// tests/corpus/gpu/elementwise_bf16/gpu/loop_subtract_fusion.mlir-passes.log.xz,
// snapshot 0. Lines quoted after "XLA:" are XLA's; the CHECK lines below each are
// written from them. Both thread six ids (th_x, th_y, th_z, bl_x, bl_y, bl_z) through
// their maps, the y and z ids all [0, 0]; the CHECK lines match the x ids and the
// symbols up to renaming.

// XLA: %0 = xla.workgroup_id x {xla.range = [0 : index, 639 : index]}
// XLA: %3 = scf.forall (%arg3, %arg4, %arg5) in (128, 1, 1) shared_outs(%arg6 = %arg2)
// CHECK-LABEL: func.func @loop_subtract_fusion(
// CHECK-SAME:    tensor<512x640xbf16>, %{{.*}}: tensor<512x640xbf16>, %[[OUT:.*]]: tensor<512x640xbf16>) -> tensor<512x640xbf16>
// CHECK:         gpu.thread_id {{ *}}x {xla.range = [0 : index, 127 : index]}
// CHECK:         gpu.block_id {{ *}}x {xla.range = [0 : index, 639 : index]}

// XLA: #indexing_map = #xla.indexing_map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0] ->
// XLA:   ((bl_x * 128 + th_x) / 160, ((bl_x * 128 + th_x) mod 160) * 4 + s0), domain:
// XLA:   th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 639], bl_y in [0, 0],
// XLA:   bl_z in [0, 0], s0 in [0, 3]">
// XLA: %xla_loop = xla.loop (%arg3, %arg4, %arg5, %0, %1, %2)[%i] -> (%ra, %rb) in #indexing_map iter_args(%iter = %arg6)
// CHECK:         xla.loop ({{.*}}){{\[}}%{{\w+}}] -> (%[[I:\w+]], %[[J:\w+]]) in #xla.indexing_map<"([[TH:\w+]], {{\w+}}, {{\w+}}, [[BL:\w+]], {{\w+}}, {{\w+}}){{\[}}[[S0:\w+]]] -> (([[BL]] * 128 + [[TH]]) {{/|floordiv}} 160, (([[BL]] * 128 + [[TH]]) mod 160) * 4 + [[S0]]), domain: [[TH]] in [0, 127], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[BL]] in [0, 639], {{\w+}} in [0, 0], {{\w+}} in [0, 0], [[S0]] in [0, 3]"> iter_args(%[[IT:\w+]] = %[[OUT]])
// XLA: %pure_call = xla.pure_call @fused_subtract_sub_3_1(%arg0, %arg1, %ra, %rb) : (...) -> bf16
// XLA: %inserted = tensor.insert %pure_call into %iter[%ra, %rb] : tensor<512x640xbf16>
// CHECK-NEXT:      %[[V:\w+]] = xla.pure_call @fused_subtract_sub_3_1(%{{\w+}}, %{{\w+}}, %[[I]], %[[J]]) : ({{.*}}) -> bf16
// CHECK-NEXT:      tensor.insert %[[V]] into %[[IT]][%[[I]], %[[J]]] : tensor<512x640xbf16>

// XLA: func.func private @fused_subtract_sub_3_1(%arg0: tensor<512x640xbf16>, %arg1: tensor<512x640xbf16>,
// XLA:   %arg2: index {xla.range = [0 : index, 511 : index]}, %arg3: index {xla.range = [0 : index, 639 : index]}) -> bf16
// CHECK-LABEL: func.func private @fused_subtract_sub_3_1(
// CHECK-SAME:    %{{\w+}}: index {xla.range = [0 : index, 511 : index]}, %{{\w+}}: index {xla.range = [0 : index, 639 : index]}) -> bf16
