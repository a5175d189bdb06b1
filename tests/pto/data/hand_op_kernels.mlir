// One small kernel per hand-parsed or keyword-group op that no other test of ours names
// (atomics, collectives, MTE transfers and cube multiply-accumulates, block queries,
// read-only forms), read by tests/pto/test_pto_op_kernels.py like op_kernels.mlir.

// ----- pto.atomic_and
func.func @k(%q: !pto.ptr<i32, gm>, %x: i32) {
  %o = pto.atomic_and %q, %x l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
  return
}

// ----- pto.atomic_exch
func.func @k(%q: !pto.ptr<i32, gm>, %x: i32) {
  %o = pto.atomic_exch %q, %x l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
  return
}

// ----- pto.atomic_max
func.func @k(%q: !pto.ptr<i32, gm>, %x: i32) {
  %o = pto.atomic_max %q, %x l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
  return
}

// ----- pto.atomic_min
func.func @k(%q: !pto.ptr<i32, gm>, %x: i32) {
  %o = pto.atomic_min %q, %x l2cache(nmfv) unsigned : !pto.ptr<i32, gm>, i32 -> i32
  return
}

// ----- pto.atomic_sub
func.func @k(%q: !pto.ptr<i32, gm>, %x: i32) {
  %o = pto.atomic_sub %q, %x l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
  return
}

// ----- pto.barrier_sync
func.func @k() {
  pto.barrier_sync[#pto.sync_op_type<TVEC>]
  return
}

// ----- pto.bind_tile
func.func @k(%m: memref<16x16xf32>, %r: index, %c: index) {
  %t = pto.bind_tile %m, %r, %c : memref<16x16xf32> -> memref<16x16xf32>
  return
}

// ----- pto.bitcast
func.func @k(%t: !pto.tile_buf<vec, 8x8xf32>) {
  %r = pto.bitcast %t : !pto.tile_buf<vec, 8x8xf32> -> !pto.tile_buf<vec, 8x8xi32>
  return
}

// ----- pto.comm.tgather
func.func @k(%dst: !pto.partition_tensor_view<128xf32>, %ping: !pto.tile_buf<vec, 1x128xf32>, %g0: !pto.partition_tensor_view<128xf32>, %g1: !pto.partition_tensor_view<128xf32>) {
  pto.comm.tgather(%dst, recv(%ping), group(%g0, %g1) : !pto.partition_tensor_view<128xf32>, !pto.tile_buf<vec, 1x128xf32>, !pto.partition_tensor_view<128xf32>, !pto.partition_tensor_view<128xf32>) {root = 0 : i32}
  return
}

// ----- pto.comm.tscatter
func.func @k(%src: !pto.partition_tensor_view<128xf32>, %ping: !pto.tile_buf<vec, 1x128xf32>, %g0: !pto.partition_tensor_view<128xf32>, %g1: !pto.partition_tensor_view<128xf32>) {
  pto.comm.tscatter(%src, recv(%ping), group(%g0, %g1) : !pto.partition_tensor_view<128xf32>, !pto.tile_buf<vec, 1x128xf32>, !pto.partition_tensor_view<128xf32>, !pto.partition_tensor_view<128xf32>) {root = 1 : i32}
  return
}

// ----- pto.declare_tile
func.func @k() {
  %t = pto.declare_tile -> !pto.tile_buf<vec, 8x16xf32>
  return
}

// ----- pto.declare_tile_memref
func.func @k() {
  %m = pto.declare_tile_memref -> memref<16x16xf32>
  return
}

// ----- pto.get_block_num
func.func @k() {
  %n = pto.get_block_num
  return
}

// ----- pto.get_subblock_num
func.func @k() {
  %n = pto.get_subblock_num
  return
}

// ----- pto.initialize_l2g2l_pipe
func.func @k(%gm: memref<256xf32, #pto.address_space<gm>>, %z: i32) {
  %pipe = pto.initialize_l2g2l_pipe {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 8 : i64, local_slot_num = 8 : i64, flag_base = 0 : i64}(%gm : memref<256xf32, #pto.address_space<gm>>, %z : i32) -> !pto.pipe
  return
}

// ----- pto.mad_acc
func.func @k(%a: !pto.ptr<f16, l0a>, %b: !pto.ptr<f16, l0b>, %c: !pto.ptr<f32, l0c>, %m: i64) {
  pto.mad_acc %a, %b, %c, %m, %m, %m unit_flag(check_and_set) : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  return
}

// ----- pto.mad_mx
func.func @k(%a: !pto.ptr<f8E4M3FN, l0a>, %b: !pto.ptr<f8E4M3FN, l0b>, %c: !pto.ptr<f32, l0c>, %m: i64) {
  pto.mad_mx %a, %b, %c, %m, %m, %m : !pto.ptr<f8E4M3FN, l0a>, !pto.ptr<f8E4M3FN, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  return
}

// ----- pto.mad_mx_acc
func.func @k(%a: !pto.ptr<f8E4M3FN, l0a>, %b: !pto.ptr<f8E4M3FN, l0b>, %c: !pto.ptr<f32, l0c>, %m: i64) {
  pto.mad_mx_acc %a, %b, %c, %m, %m, %m nosat : !pto.ptr<f8E4M3FN, l0a>, !pto.ptr<f8E4M3FN, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  return
}

// ----- pto.mad_mx_bias
func.func @k(%a: !pto.ptr<f8E4M3FN, l0a>, %b: !pto.ptr<f8E4M3FN, l0b>, %c: !pto.ptr<f32, l0c>, %bias: !pto.ptr<f32, bt>, %m: i64) {
  pto.mad_mx_bias %a, %b, %c, %bias, %m, %m, %m : !pto.ptr<f8E4M3FN, l0a>, !pto.ptr<f8E4M3FN, l0b>, !pto.ptr<f32, l0c>, !pto.ptr<f32, bt>, i64, i64, i64
  return
}

// ----- pto.mte_gm_l1
func.func @k(%gm: !pto.ptr<f16, gm>, %l1: !pto.ptr<f16, l1>, %a: i64, %b: i64) {
  pto.mte_gm_l1 %gm, %l1, %a nburst(%b, %b, %b) : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l0c_l1
func.func @k(%src: !pto.ptr<f32, l0c>, %dst: !pto.ptr<f16, l1>, %a: i64, %b: i64, %f: f32) {
  pto.mte_l0c_l1 %src, %dst, %a, %a, %a, %b, pre_quant(%f, mode = qf322f16_pre_scalar), nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<f16, l1>, i64, i64, i64, i64, f32
  return
}

// ----- pto.mte_l1_bt
func.func @k(%l1: !pto.ptr<f16, l1>, %bt: !pto.ptr<f32, bt>, %a: i64, %b: i64) {
  pto.mte_l1_bt %l1, %bt, %a nburst(%b, %b, %b) : !pto.ptr<f16, l1>, !pto.ptr<f32, bt>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_fb
func.func @k(%l1: !pto.ptr<f32, l1>, %fb: !pto.ptr<f32, fb>, %a: i64, %b: i64) {
  pto.mte_l1_fb %l1, %fb, %a nburst(%b, %b, %b) : !pto.ptr<f32, l1>, !pto.ptr<f32, fb>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_l0a
func.func @k(%src: memref<?xf16, #pto.address_space<mat>>, %dst: memref<?xf16, #pto.address_space<left>>, %a: i64, %z: i64) {
  pto.mte_l1_l0a %src, %dst, %a, %a, %z, %z : memref<?xf16, #pto.address_space<mat>>, memref<?xf16, #pto.address_space<left>>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_l0a_mx
func.func @k(%src: memref<?xf16, #pto.address_space<mat>>, %dst: memref<?xf16, #pto.address_space<left>>, %a: i64, %z: i64) {
  pto.mte_l1_l0a_mx %src, %dst, %a, %a, %z, %z : memref<?xf16, #pto.address_space<mat>>, memref<?xf16, #pto.address_space<left>>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_l0b
func.func @k(%src: memref<?xf16, #pto.address_space<mat>>, %dst: memref<?xf16, #pto.address_space<right>>, %a: i64, %z: i64) {
  pto.mte_l1_l0b %src, %dst, %a, %a, %z, %z : memref<?xf16, #pto.address_space<mat>>, memref<?xf16, #pto.address_space<right>>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_l0b_mx
func.func @k(%src: memref<?xf16, #pto.address_space<mat>>, %dst: memref<?xf16, #pto.address_space<right>>, %a: i64, %z: i64) {
  pto.mte_l1_l0b_mx %src, %dst, %a, %a, %z, %z : memref<?xf16, #pto.address_space<mat>>, memref<?xf16, #pto.address_space<right>>, i64, i64, i64, i64
  return
}

// ----- pto.mte_l1_ub
func.func @k(%l1: !pto.ptr<f16, l1>, %ub: !pto.ptr<f16, ub>, %a: i64, %b: i64) {
  pto.mte_l1_ub %l1, %ub, %a nburst(%b, %a, %a) loop(%b, %a, %a) : !pto.ptr<f16, l1>, !pto.ptr<f16, ub>, i64, i64, i64, i64, loop i64, i64, i64
  return
}

// ----- pto.pointer_cast
func.func @k(%addr: i64) {
  %m = pto.pointer_cast(%addr) : memref<16x16xf32>
  return
}

// ----- pto.set_ffts
func.func @k(%p: memref<256xi64>) {
  pto.set_ffts %p : memref<256xi64>
  return
}

// ----- pto.subset
func.func @k(%t: !pto.tile_buf<vec, 64x64xf32>, %i: index, %j: index) {
  %s = pto.subset %t[%i, %j] sizes [32 : i64, 32 : i64] : !pto.tile_buf<vec, 64x64xf32>
  return
}

// ----- pto.test_async_event
func.func @k(%e: !pto.async_event, %s: !pto.async_session) {
  %done = pto.test_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1
  return
}

// ----- pto.tprefetch
func.func @k(%pv: !pto.partition_tensor_view<16x16xf32>, %t: !pto.tile_buf<vec, 16x16xf32>) {
  pto.tprefetch ins(%pv : !pto.partition_tensor_view<16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// ----- pto.trap
func.func @k() {
  pto.trap
  return
}

// ----- pto.tsync
func.func @k(%a: !pto.partition_tensor_view<32x32xf32>, %b: !pto.partition_tensor_view<32x32xf32>) {
  pto.tsync ins(%a, %b : !pto.partition_tensor_view<32x32xf32>, !pto.partition_tensor_view<32x32xf32>)
  return
}

// ----- pto.wait_cross_block
func.func @k() {
  pto.wait_cross_block <PIPE_MTE3>, 0
  return
}
