// RUN: xla-emit-opt %examples/pto/softmax_columns.mlir -p pto-level2-pipeline | filecheck %s

// The column softmax example through the whole level-2 pipeline: every value
// in a planned vec buffer, both transposes with a scratch tile, dead buffers'
// addresses reused (3 KB of UB at the peak).

// CHECK-LABEL: func.func @softmax_columns
// CHECK:      %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT: pto.tassign %x, @tile(0x0)
// CHECK-NEXT: pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%x : !pto.tile_buf<vec, 16x16xf32>)
// CHECK-NEXT: %xt = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT: pto.tassign %xt, @tile(0x400)
// CHECK-NEXT: %tmp = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT: pto.tassign %tmp, @tile(0x800)
// CHECK-NEXT: pto.ttrans ins(%x, %tmp : {{.*}}) outs(%xt : {{.*}})
// CHECK-NEXT: %max = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// CHECK-NEXT: pto.tassign %max, @tile(0x800)
// CHECK-NEXT: pto.trowmax ins(%xt : {{.*}}) outs(%max : {{.*}})
// CHECK-NEXT: pto.trowexpand ins(%max : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT: pto.tsub ins(%xt, %x : {{.*}}) outs(%xt : {{.*}})
// CHECK-NEXT: pto.texp ins(%xt : {{.*}}) outs(%xt : {{.*}})
// CHECK-NEXT: pto.trowsum ins(%xt : {{.*}}) outs(%max : {{.*}})
// CHECK-NEXT: pto.trowexpand ins(%max : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT: pto.tdiv ins(%xt, %x : {{.*}}) outs(%xt : {{.*}})
// CHECK-NEXT: %tmp_1 = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// CHECK-NEXT: pto.tassign %tmp_1, @tile(0x800)
// CHECK-NEXT: pto.ttrans ins(%xt, %tmp_1 : {{.*}}) outs(%x : {{.*}})
// CHECK-NEXT: pto.tstore ins(%x : {{.*}}) outs(%out : !pto.partition_tensor_view<16x16xf32>)
// CHECK-NEXT: func.return
