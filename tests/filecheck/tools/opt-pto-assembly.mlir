// RUN: xla-emit-opt %examples/pto/ttrans_manual.pto | filecheck %s
// RUN: xla-emit-opt %examples/pto/ttrans_manual.pto -p 'pto-verify-target{target-arch=a2a3}' | filecheck %s

// A .pto file in PTO-AS assembly (instructions without the pto. prefix, .arg
// lines) is read as the MLIR it stands for, and passes run on it.

// CHECK-LABEL: func.func @main(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>)
// CHECK: %[[SRC:.*]] = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT: pto.tassign %[[SRC]], @tile(0x1000)
// CHECK: pto.tload ins(%in : {{.*}}) outs(%[[SRC]] : {{.*}})
// CHECK-NEXT: pto.ttrans ins(%[[SRC]], %{{.*}} : {{.*}}) outs(%[[DST:.*]] : {{.*}})
// CHECK-NEXT: pto.tstore ins(%[[DST]] : {{.*}}) outs(%out : {{.*}})
