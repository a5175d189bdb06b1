// RUN: xla-emit-opt %examples/pto/softmax_columns.mlir -p pto-level2-pipeline | filecheck %s
// RUN: xla-emit-opt %examples/pto/online_softmax.mlir -p pto-level2-pipeline | filecheck %s --check-prefix=ONLINE

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

// The online softmax: the running max %m0 and sum %s0 are planned once,
// before the loop that carries them (no iter_args at level 2); the new sum is
// written into %s0 in place, the new max is copied into %m0 at the end of the
// body because the old one is read after the new one is made; the body's
// buffers are bound inside the loop (4352 bytes of UB at the peak).
// ONLINE-LABEL: func.func @online_softmax
// ONLINE:      %m0 = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// ONLINE-NEXT: pto.tassign %m0, @tile(0x400)
// ONLINE:      %s0 = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// ONLINE-NEXT: pto.tassign %s0, @tile(0x840)
// ONLINE-NEXT: pto.trowsum ins(%x0 : {{.*}}) outs(%s0 : {{.*}})
// ONLINE-NEXT: scf.for %j = %c16 to %c64 step %c16 {
// ONLINE:        %x = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
// ONLINE-NEXT:   pto.tassign %x, @tile(0x880)
// ONLINE:        pto.tmax ins(%m0, %bm : {{.*}}) outs(%bm : {{.*}})
// ONLINE:        pto.tmul ins(%s0, %dm : {{.*}}) outs(%dm : {{.*}})
// ONLINE:        %bs = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
// ONLINE-NEXT:   pto.tassign %bs, @tile(0xd00)
// ONLINE-NEXT:   pto.trowsum ins(%x : {{.*}}) outs(%bs : {{.*}})
// ONLINE-NEXT:   pto.tadd ins(%dm, %bs : {{.*}}) outs(%s0 : {{.*}})
// ONLINE-NEXT:   pto.tmov ins(%bm : {{.*}}) outs(%m0 : {{.*}})
// ONLINE-NEXT: }
// ONLINE-NEXT: pto.trowexpand ins(%m0 : {{.*}}) outs(%x0 : {{.*}})
// ONLINE-NEXT: pto.trowexpand ins(%s0 : {{.*}}) outs(%m0b : {{.*}})
// ONLINE-NEXT: scf.for %j_1 = %c0 to %c64 step %c16 {
// ONLINE-NOT:  iter_args
