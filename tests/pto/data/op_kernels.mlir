// One small kernel per op of the `pto` dialect whose syntax is a declarative format
// (VPTO micro-ops, `pto.vmi.*`, `ub.*`, `comm.*`, SIMT and config ops), read by
// tests/pto/test_pto_op_kernels.py: each reads, verifies, and prints back as written.
// Types and attributes are ones PTOAS's verifiers accept for the op (an f16 result for
// vcvt, a `mat` source for the L1 loads, one-lane results of full reductions, ...).

// ----- pto.absf
func.func @k(%value: f32) {
  %result = pto.absf %value : f32 -> f32
  return
}

// ----- pto.alloc_multi_tile
func.func @k(%addr: i64, %valid_row: index, %valid_col: index) {
  %result = pto.alloc_multi_tile addr = %addr valid_row = %valid_row valid_col = %valid_col : !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf32, valid=?x?>, count=2>
  return
}

// ----- pto.castptr
func.func @k(%input: !pto.ptr<f32, ub>) {
  %result = pto.castptr %input : !pto.ptr<f32, ub> -> !pto.ptr<i32, ub>
  return
}

// ----- pto.ceil
func.func @k(%value: f32) {
  %result = pto.ceil %value : f32 -> f32
  return
}

// ----- pto.chistv2
func.func @k(%acc: !pto.vreg<64xf32>, %source: !pto.vreg<64xf32>, %mask: !pto.mask<b8>, %bin: i32) {
  %result = pto.chistv2 %acc, %source, %mask, %bin : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b8>, i32 -> !pto.vreg<64xf32>
  return
}

// ----- pto.comm.build_async_session
func.func @k(%scratch: !pto.tile_buf<vec, 16x16xf32>, %workspace: !pto.ptr<f32, ub>) {
  %session = pto.comm.build_async_session(%scratch, %workspace : !pto.tile_buf<vec, 16x16xf32>, !pto.ptr<f32, ub>) -> !pto.async_session
  return
}

// ----- pto.comm.test_async_event
func.func @k(%event: !pto.async_event, %session: !pto.async_session) {
  %completed = pto.comm.test_async_event(%event, %session : !pto.async_event, !pto.async_session) -> i1
  return
}

// ----- pto.comm.tget
func.func @k(%dst: !pto.partition_tensor_view<4x256xi8>, %src: !pto.partition_tensor_view<4x256xi8>, %ping: !pto.tile_buf<vec, 1x256xi8>, %pong: !pto.tile_buf<vec, 1x256xi8>) {
  pto.comm.tget(%dst, %src, buf(%ping, %pong) : !pto.partition_tensor_view<4x256xi8>, !pto.partition_tensor_view<4x256xi8>, !pto.tile_buf<vec, 1x256xi8>, !pto.tile_buf<vec, 1x256xi8>)
  return
}

// ----- pto.comm.tget_async
func.func @k(%dst: !pto.partition_tensor_view<1x256xi8>, %src: !pto.partition_tensor_view<1x256xi8>, %session: !pto.async_session) {
  %event = pto.comm.tget_async(%dst, %src, %session : !pto.partition_tensor_view<1x256xi8>, !pto.partition_tensor_view<1x256xi8>, !pto.async_session) -> !pto.async_event
  return
}

// ----- pto.comm.tnotify
func.func @k(%signal: !pto.partition_tensor_view<1xi32>, %value: i32) {
  pto.comm.tnotify(%signal, %value : !pto.partition_tensor_view<1xi32>, i32) {notifyOp = #pto.notify_op<set>}
  return
}

// ----- pto.comm.tput
func.func @k(%dst: !pto.partition_tensor_view<4x256xi8>, %src: !pto.partition_tensor_view<4x256xi8>, %ping: !pto.tile_buf<vec, 1x256xi8>, %pong: !pto.tile_buf<vec, 1x256xi8>) {
  pto.comm.tput(%dst, %src, buf(%ping, %pong) : !pto.partition_tensor_view<4x256xi8>, !pto.partition_tensor_view<4x256xi8>, !pto.tile_buf<vec, 1x256xi8>, !pto.tile_buf<vec, 1x256xi8>)
  return
}

// ----- pto.comm.tput_async
func.func @k(%dst: !pto.partition_tensor_view<1x256xi8>, %src: !pto.partition_tensor_view<1x256xi8>, %session: !pto.async_session) {
  %event = pto.comm.tput_async(%dst, %src, %session : !pto.partition_tensor_view<1x256xi8>, !pto.partition_tensor_view<1x256xi8>, !pto.async_session) -> !pto.async_event
  return
}

// ----- pto.comm.ttest
func.func @k(%signal: !pto.partition_tensor_view<1xi32>, %cmpValue: i32) {
  %result = pto.comm.ttest(%signal, %cmpValue : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto.wait_cmp<ge>} -> i1
  return
}

// ----- pto.comm.twait
func.func @k(%signal: !pto.partition_tensor_view<1xi32>, %cmpValue: i32) {
  pto.comm.twait(%signal, %cmpValue : !pto.partition_tensor_view<1xi32>, i32) {cmp = #pto.wait_cmp<ge>}
  return
}

// ----- pto.comm.wait_async_event
func.func @k(%event: !pto.async_event, %session: !pto.async_session) {
  %completed = pto.comm.wait_async_event(%event, %session : !pto.async_event, !pto.async_session) -> i1
  return
}

// ----- pto.copy_cbuf_to_bt
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %conv_control: i1, %n_burst: i64, %len_burst: i64, %source_gap: i64, %dst_gap: i64) {
  pto.copy_cbuf_to_bt %source, %destination, %conv_control, %n_burst, %len_burst, %source_gap, %dst_gap : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i1, i64, i64, i64, i64
  return
}

// ----- pto.copy_cbuf_to_fbuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %n_burst: i64, %len_burst: i64, %source_gap: i64, %dst_gap: i64) {
  pto.copy_cbuf_to_fbuf %source, %destination, %n_burst, %len_burst, %source_gap, %dst_gap : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64
  return
}

// ----- pto.copy_cbuf_to_ubuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.copy_cbuf_to_ubuf %source, %destination, %sid, %n_burst, %len_burst, %src_stride, %dst_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.copy_gm_to_cbuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.copy_gm_to_cbuf %source, %destination, %n_burst, %len_burst, %src_stride, %dst_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64
  return
}

// ----- pto.copy_gm_to_cbuf_multi_dn2nz
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %loop1_src_stride: i64, %l2_cache_ctrl: i64, %n_value: i64, %d_value: i64, %loop4_src_stride: i64, %smallc0_en: i1) {
  pto.copy_gm_to_cbuf_multi_dn2nz %source, %destination, %sid, %loop1_src_stride, %l2_cache_ctrl, %n_value, %d_value, %loop4_src_stride, %smallc0_en : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i1
  return
}

// ----- pto.copy_gm_to_cbuf_multi_nd2nz
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %loop1_src_stride: i64, %l2_cache_ctrl: i64, %n_value: i64, %d_value: i64, %loop4_src_stride: i64, %smallc0_en: i1) {
  pto.copy_gm_to_cbuf_multi_nd2nz %source, %destination, %sid, %loop1_src_stride, %l2_cache_ctrl, %n_value, %d_value, %loop4_src_stride, %smallc0_en : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i1
  return
}

// ----- pto.copy_gm_to_ubuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %n_burst: i64, %len_burst: i64, %left_padding_count: i64, %right_padding_count: i64, %data_select_bit: i1, %l2_cache_ctl: i64, %gm_stride: i64, %ub_stride: i64) {
  pto.copy_gm_to_ubuf %source, %destination, %sid, %n_burst, %len_burst, %left_padding_count, %right_padding_count, %data_select_bit, %l2_cache_ctl, %gm_stride, %ub_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i1, i64, i64, i64
  return
}

// ----- pto.copy_matrix_cc_to_cbuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %config0: i64, %config1: i64) {
  pto.copy_matrix_cc_to_cbuf %source, %destination, %config0, %config1 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
  return
}

// ----- pto.copy_matrix_cc_to_gm
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %xm: i64, %xt: i64) {
  pto.copy_matrix_cc_to_gm %source, %destination, %xm, %xt : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
  return
}

// ----- pto.copy_matrix_cc_to_ub
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %config0: i64, %config1: i64) {
  pto.copy_matrix_cc_to_ub %source, %destination, %config0, %config1 : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
  return
}

// ----- pto.copy_ubuf_to_cbuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.copy_ubuf_to_cbuf %source, %destination, %sid, %n_burst, %len_burst, %src_stride, %dst_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.copy_ubuf_to_gm
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %n_burst: i64, %len_burst: i64, %l2_cache_ctl: i64, %burst_dst_stride: i64, %burst_src_stride: i64) {
  pto.copy_ubuf_to_gm %source, %destination, %sid, %n_burst, %len_burst, %l2_cache_ctl, %burst_dst_stride, %burst_src_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.copy_ubuf_to_ubuf
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %sid: i64, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.copy_ubuf_to_ubuf %source, %destination, %sid, %n_burst, %len_burst, %src_stride, %dst_stride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.cos
func.func @k(%value: f32) {
  %result = pto.cos %value : f32 -> f32
  return
}

// ----- pto.create_cbuf_matrix
func.func @k(%dst: !pto.ptr<ui32, l1>, %raw_value: i32, %repeat_times: i64, %block_num_32b: i64, %dst_gap_32b: i64) {
  pto.create_cbuf_matrix %dst, %raw_value, %repeat_times, %block_num_32b, %dst_gap_32b {fill_word_bits = 32 : i64} : !pto.ptr<ui32, l1>, i32, i64, i64, i64
  return
}

// ----- pto.declare_global
func.func @k() {
  %entry = pto.declare_global -> !pto.tensor_view<16x16xf32>
  return
}

// ----- pto.declare_local_array
func.func @k() {
  %array = pto.declare_local_array -> !pto.local_array<8xi32>
  return
}

// ----- pto.declare_struct
func.func @k() {
  %s = pto.declare_struct -> !pto.struct<i32, f32>
  return
}

// ----- pto.dhistv2
func.func @k(%acc: !pto.vreg<64xf32>, %source: !pto.vreg<64xf32>, %mask: !pto.mask<b8>, %bin: i32) {
  %result = pto.dhistv2 %acc, %source, %mask, %bin : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b8>, i32 -> !pto.vreg<64xf32>
  return
}

// ----- pto.exp
func.func @k(%value: f32) {
  %result = pto.exp %value : f32 -> f32
  return
}

// ----- pto.fence.barrier_all
func.func @k() {
  pto.fence.barrier_all #pto.fence_scope<gm>
  return
}

// ----- pto.floor
func.func @k(%value: f32) {
  %result = pto.floor %value : f32 -> f32
  return
}

// ----- pto.fma
func.func @k(%lhs: f32, %rhs: f32, %acc: f32) {
  %result = pto.fma %lhs, %rhs, %acc : f32, f32, f32 -> f32
  return
}

// ----- pto.fmax
func.func @k(%lhs: f32, %rhs: f32) {
  %result = pto.fmax %lhs, %rhs : f32, f32 -> f32
  return
}

// ----- pto.fmin
func.func @k(%lhs: f32, %rhs: f32) {
  %result = pto.fmin %lhs, %rhs : f32, f32 -> f32
  return
}

// ----- pto.fusion_region
func.func @k(%x: f32) {
  %outputs = pto.fusion_region {
    pto.yield(%x) : (f32) -> ()
  } : f32
  return
}

// ----- pto.get_block_dim_x
func.func @k() {
  %result = pto.get_block_dim_x : i32
  return
}

// ----- pto.get_block_dim_y
func.func @k() {
  %result = pto.get_block_dim_y : i32
  return
}

// ----- pto.get_block_dim_z
func.func @k() {
  %result = pto.get_block_dim_z : i32
  return
}

// ----- pto.get_block_idx_x
func.func @k() {
  %result = pto.get_block_idx_x : i32
  return
}

// ----- pto.get_block_idx_y
func.func @k() {
  %result = pto.get_block_idx_y : i32
  return
}

// ----- pto.get_block_idx_z
func.func @k() {
  %result = pto.get_block_idx_z : i32
  return
}

// ----- pto.get_clock32
func.func @k() {
  %result = pto.get_clock32 : i32
  return
}

// ----- pto.get_clock64
func.func @k() {
  %result = pto.get_clock64 : i64
  return
}

// ----- pto.get_ctrl
func.func @k() {
  %result = pto.get_ctrl : i64
  return
}

// ----- pto.get_grid_dim_x
func.func @k() {
  %result = pto.get_grid_dim_x : i32
  return
}

// ----- pto.get_grid_dim_y
func.func @k() {
  %result = pto.get_grid_dim_y : i32
  return
}

// ----- pto.get_grid_dim_z
func.func @k() {
  %result = pto.get_grid_dim_z : i32
  return
}

// ----- pto.get_laneid
func.func @k() {
  %result = pto.get_laneid : i32
  return
}

// ----- pto.get_lanemask_eq
func.func @k() {
  %result = pto.get_lanemask_eq : i32
  return
}

// ----- pto.get_lanemask_ge
func.func @k() {
  %result = pto.get_lanemask_ge : i32
  return
}

// ----- pto.get_lanemask_gt
func.func @k() {
  %result = pto.get_lanemask_gt : i32
  return
}

// ----- pto.get_lanemask_le
func.func @k() {
  %result = pto.get_lanemask_le : i32
  return
}

// ----- pto.get_lanemask_lt
func.func @k() {
  %result = pto.get_lanemask_lt : i32
  return
}

// ----- pto.get_prefetch_async_session
func.func @k(%ctx: !pto.prefetch_async_context) {
  %session = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session
  return
}

// ----- pto.get_tensor_view_stride
func.func @k(%tensor_view: f32, %dim_index: index) {
  %result = pto.get_tensor_view_stride %tensor_view, %dim_index : f32 -> index
  return
}

// ----- pto.get_tid_x
func.func @k() {
  %result = pto.get_tid_x : i32
  return
}

// ----- pto.get_tid_y
func.func @k() {
  %result = pto.get_tid_y : i32
  return
}

// ----- pto.get_tid_z
func.func @k() {
  %result = pto.get_tid_z : i32
  return
}

// ----- pto.get_validshape
func.func @k(%source: !pto.tile_buf<vec, 16x16xf32>) {
  %valid_row, %valid_col = pto.get_validshape %source : !pto.tile_buf<vec, 16x16xf32>
  return
}

// ----- pto.get_veccoreid
func.func @k() {
  %result = pto.get_veccoreid : i32
  return
}

// ----- pto.get_vms4_sr
func.func @k() {
  %list0, %list1, %list2, %list3 = pto.get_vms4_sr : i16, i16, i16, i16
  return
}

// ----- pto.init_align
func.func @k() {
  %result = pto.init_align : !pto.align
  return
}

// ----- pto.inttoptr
func.func @k(%addr: i64) {
  %result = pto.inttoptr %addr : i64 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.keep
func.func @k(%payload: f32) {
  pto.keep %payload {slot = 0 : i64} : f32
  return
}

// ----- pto.ld_dev
func.func @k(%ptr: !pto.ptr<i32, gm>, %offset: index) attributes {pto.aicore} {
  %value = pto.ld_dev %ptr[%offset] : !pto.ptr<i32, gm> -> i32
  return
}

// ----- pto.load
func.func @k(%ptr: !pto.ptr<f32, ub>, %offset: index) {
  %value = pto.load %ptr[%offset] : !pto.ptr<f32, ub> -> f32
  return
}

// ----- pto.load_cbuf_to_ca
func.func @k(%source: !pto.ptr<f32, l1>, %destination: !pto.ptr<f32, l0a>, %m_start: i64, %k_start: i64, %m_step: i64, %k_step: i64, %src_stride: i64, %dst_stride: i64) {
  pto.load_cbuf_to_ca %source, %destination, %m_start, %k_start, %m_step, %k_step, %src_stride, %dst_stride : !pto.ptr<f32, l1>, !pto.ptr<f32, l0a>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.load_cbuf_to_ca_mx
func.func @k(%source: !pto.ptr<f32, l1>, %destination: !pto.ptr<f32, l0a>, %x_start_position: i64, %y_start_position: i64, %x_step: i64, %y_step: i64, %src_stride: i64, %dst_stride: i64) {
  pto.load_cbuf_to_ca_mx %source, %destination, %x_start_position, %y_start_position, %x_step, %y_step, %src_stride, %dst_stride : !pto.ptr<f32, l1>, !pto.ptr<f32, l0a>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.load_cbuf_to_ca_s4
func.func @k(%source: !pto.ptr<!pto.f4E2M1x2, l1>, %destination: !pto.ptr<!pto.f4E2M1x2, l0a>, %m_start: i64, %k_start: i64, %m_step: i64, %k_step: i64, %src_stride: i64, %dst_stride: i64, %transpose: i64) {
  pto.load_cbuf_to_ca_s4 %source, %destination, %m_start, %k_start, %m_step, %k_step, %src_stride, %dst_stride, %transpose : !pto.ptr<!pto.f4E2M1x2, l1>, !pto.ptr<!pto.f4E2M1x2, l0a>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.load_cbuf_to_cb
func.func @k(%source: !pto.ptr<f32, l1>, %destination: !pto.ptr<f32, l0b>, %m_start: i64, %k_start: i64, %m_step: i64, %k_step: i64, %src_stride: i64, %dst_stride: i64) {
  pto.load_cbuf_to_cb %source, %destination, %m_start, %k_start, %m_step, %k_step, %src_stride, %dst_stride : !pto.ptr<f32, l1>, !pto.ptr<f32, l0b>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.load_cbuf_to_cb_mx
func.func @k(%source: !pto.ptr<f32, l1>, %destination: !pto.ptr<f32, l0b>, %x_start_position: i64, %y_start_position: i64, %x_step: i64, %y_step: i64, %src_stride: i64, %dst_stride: i64) {
  pto.load_cbuf_to_cb_mx %source, %destination, %x_start_position, %y_start_position, %x_step, %y_step, %src_stride, %dst_stride : !pto.ptr<f32, l1>, !pto.ptr<f32, l0b>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.load_cbuf_to_cb_s4
func.func @k(%source: !pto.ptr<!pto.f4E2M1x2, l1>, %destination: !pto.ptr<!pto.f4E2M1x2, l0b>, %m_start: i64, %k_start: i64, %m_step: i64, %k_step: i64, %src_stride: i64, %dst_stride: i64, %transpose: i64) {
  pto.load_cbuf_to_cb_s4 %source, %destination, %m_start, %k_start, %m_step, %k_step, %src_stride, %dst_stride, %transpose : !pto.ptr<!pto.f4E2M1x2, l1>, !pto.ptr<!pto.f4E2M1x2, l0b>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.local_array_get
func.func @k(%array: !pto.local_array<8xi32>, %indices: index) {
  %result = pto.local_array_get %array[%indices] : !pto.local_array<8xi32> -> i32
  return
}

// ----- pto.local_array_set
func.func @k(%array: !pto.local_array<8xi32>, %indices: index, %value: i32) {
  pto.local_array_set %array[%indices], %value : !pto.local_array<8xi32>, i32
  return
}

// ----- pto.log
func.func @k(%value: f32) {
  %result = pto.log %value : f32 -> f32
  return
}

// ----- pto.mad_bias_raw
func.func @k(%lhs: !pto.ptr<f32, ub>, %rhs: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %bias: !pto.ptr<f32, ub>, %xt: i64) {
  pto.mad_bias_raw %lhs, %rhs, %dst, %bias, %xt : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64
  return
}

// ----- pto.mad_mx_bias_raw
func.func @k(%lhs: !pto.ptr<f32, ub>, %rhs: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %bias: !pto.ptr<f32, ub>, %xt: i64) {
  pto.mad_mx_bias_raw %lhs, %rhs, %dst, %bias, %xt : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64
  return
}

// ----- pto.mad_mx_raw
func.func @k(%lhs: !pto.ptr<f32, ub>, %rhs: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %xt: i64) {
  pto.mad_mx_raw %lhs, %rhs, %dst, %xt : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64
  return
}

// ----- pto.mad_raw
func.func @k(%lhs: !pto.ptr<f32, ub>, %rhs: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %xt: i64) {
  pto.mad_raw %lhs, %rhs, %dst, %xt : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64
  return
}

// ----- pto.make_prefetch_async_context
func.func @k(%workspace: !pto.ptr<f32, ub>) {
  %ctx = pto.make_prefetch_async_context(%workspace : !pto.ptr<f32, ub>) -> !pto.prefetch_async_context
  return
}

// ----- pto.mem_bar
func.func @k() {
  pto.mem_bar "all"
  return
}

// ----- pto.mte_ub_l1
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.mte_ub_l1 %source, %destination, %len_burst nburst(%n_burst, %src_stride, %dst_stride) : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64
  return
}

// ----- pto.mte_ub_ub
func.func @k(%source: !pto.ptr<f32, ub>, %destination: !pto.ptr<f32, ub>, %n_burst: i64, %len_burst: i64, %src_stride: i64, %dst_stride: i64) {
  pto.mte_ub_ub %source, %destination, %len_burst nburst(%n_burst, %src_stride, %dst_stride) : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64
  return
}

// ----- pto.multi_tile_get
func.func @k(%source: !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf32>, count=2>, %slot: index) {
  %result = pto.multi_tile_get %source[%slot] : !pto.multi_tile_buf<!pto.tile_buf<vec, 16x16xf32>, count=2> -> !pto.tile_buf<vec, 16x16xf32>
  return
}

// ----- pto.pand
func.func @k(%src0: !pto.mask<b32>, %src1: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result = pto.pand %src0, %src1, %mask : !pto.mask<b32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.pbitcast
func.func @k(%input: !pto.mask<b32>) {
  %result = pto.pbitcast %input : !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.pdintlv_b16
func.func @k(%lhs: !pto.mask<b16>, %rhs: !pto.mask<b16>) {
  %low, %high = pto.pdintlv_b16 %lhs, %rhs : !pto.mask<b16>, !pto.mask<b16> -> !pto.mask<b16>, !pto.mask<b16>
  return
}

// ----- pto.pdintlv_b32
func.func @k(%lhs: !pto.mask<b32>, %rhs: !pto.mask<b32>) {
  %low, %high = pto.pdintlv_b32 %lhs, %rhs : !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>, !pto.mask<b32>
  return
}

// ----- pto.pdintlv_b8
func.func @k(%lhs: !pto.mask<b8>, %rhs: !pto.mask<b8>) {
  %low, %high = pto.pdintlv_b8 %lhs, %rhs : !pto.mask<b8>, !pto.mask<b8> -> !pto.mask<b8>, !pto.mask<b8>
  return
}

// ----- pto.pge_b16
func.func @k() {
  %result = pto.pge_b16 "PAT_ALL" : !pto.mask<b16>
  return
}

// ----- pto.pge_b32
func.func @k() {
  %result = pto.pge_b32 "PAT_ALL" : !pto.mask<b32>
  return
}

// ----- pto.pge_b8
func.func @k() {
  %result = pto.pge_b8 "PAT_ALL" : !pto.mask<b8>
  return
}

// ----- pto.pintlv_b16
func.func @k(%lhs: !pto.mask<b16>, %rhs: !pto.mask<b16>) {
  %low, %high = pto.pintlv_b16 %lhs, %rhs : !pto.mask<b16>, !pto.mask<b16> -> !pto.mask<b16>, !pto.mask<b16>
  return
}

// ----- pto.pintlv_b32
func.func @k(%lhs: !pto.mask<b32>, %rhs: !pto.mask<b32>) {
  %low, %high = pto.pintlv_b32 %lhs, %rhs : !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>, !pto.mask<b32>
  return
}

// ----- pto.pintlv_b8
func.func @k(%lhs: !pto.mask<b8>, %rhs: !pto.mask<b8>) {
  %low, %high = pto.pintlv_b8 %lhs, %rhs : !pto.mask<b8>, !pto.mask<b8> -> !pto.mask<b8>, !pto.mask<b8>
  return
}

// ----- pto.pldi
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %result, %updated_base = pto.pldi %source[%offset], "NORM" : !pto.ptr<f32, ub>, index -> !pto.mask<b32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.plds
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %result, %updated_base = pto.plds %source[%offset], "NORM" : !pto.ptr<f32, ub>, index -> !pto.mask<b32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.plt_b16
func.func @k(%scalar: i32) {
  %mask, %scalar_out = pto.plt_b16 %scalar : i32 -> !pto.mask<b16>, i32
  return
}

// ----- pto.plt_b32
func.func @k(%scalar: i32) {
  %mask, %scalar_out = pto.plt_b32 %scalar : i32 -> !pto.mask<b32>, i32
  return
}

// ----- pto.plt_b8
func.func @k(%scalar: i32) {
  %mask, %scalar_out = pto.plt_b8 %scalar : i32 -> !pto.mask<b8>, i32
  return
}

// ----- pto.pltm_b16
func.func @k(%loop: i16, %bound: i32) {
  %mask = pto.pltm_b16 %loop, %bound : i16, i32 -> !pto.mask<b16>
  return
}

// ----- pto.pltm_b32
func.func @k(%loop: i16, %bound: i32) {
  %mask = pto.pltm_b32 %loop, %bound : i16, i32 -> !pto.mask<b32>
  return
}

// ----- pto.pltm_b8
func.func @k(%loop: i16, %bound: i32) {
  %mask = pto.pltm_b8 %loop, %bound : i16, i32 -> !pto.mask<b8>
  return
}

// ----- pto.pnot
func.func @k(%input: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result = pto.pnot %input, %mask : !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.por
func.func @k(%src0: !pto.mask<b32>, %src1: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result = pto.por %src0, %src1, %mask : !pto.mask<b32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.pow
func.func @k(%lhs: f32, %rhs: f32) {
  %result = pto.pow %lhs, %rhs : f32, f32 -> f32
  return
}

// ----- pto.ppack
func.func @k(%input: !pto.mask<b32>) {
  %result = pto.ppack %input, "LOWER" : !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.prmt
func.func @k(%lhs: i32, %rhs: i32, %selector: i32) {
  %result = pto.prmt %lhs, %rhs, %selector : i32, i32, i32 -> i32
  return
}

// ----- pto.psel
func.func @k(%src0: !pto.mask<b32>, %src1: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result = pto.psel %src0, %src1, %mask : !pto.mask<b32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.pset_b16
func.func @k() {
  %result = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
  return
}

// ----- pto.pset_b32
func.func @k() {
  %result = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
  return
}

// ----- pto.pset_b8
func.func @k() {
  %result = pto.pset_b8 "PAT_ALL" : !pto.mask<b8>
  return
}

// ----- pto.psti
func.func @k(%value: !pto.mask<b32>, %destination: !pto.ptr<f32, ub>, %offset: index) {
  %updated_base = pto.psti %value, %destination[%offset], "NORM" : !pto.mask<b32>, !pto.ptr<f32, ub>, index -> !pto.ptr<f32, ub>
  return
}

// ----- pto.psts
func.func @k(%value: !pto.mask<b32>, %destination: !pto.ptr<f32, ub>, %offset: index) {
  %updated_base = pto.psts %value, %destination[%offset], "NORM" : !pto.mask<b32>, !pto.ptr<f32, ub>, index -> !pto.ptr<f32, ub>
  return
}

// ----- pto.pstu
func.func @k(%align_in: !pto.align, %value: !pto.mask<b32>, %base: !pto.ptr<f32, ub>) {
  %align_out, %base_out = pto.pstu %align_in, %value, %base : !pto.align, !pto.mask<b32>, !pto.ptr<f32, ub> -> !pto.align, !pto.ptr<f32, ub>
  return
}

// ----- pto.ptrtoint
func.func @k(%ptr: !pto.ptr<f32, ub>) {
  %result = pto.ptrtoint %ptr : !pto.ptr<f32, ub> -> i64
  return
}

// ----- pto.punpack
func.func @k(%input: !pto.mask<b32>) {
  %result = pto.punpack %input, "LOWER" : !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.pxor
func.func @k(%src0: !pto.mask<b32>, %src1: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result = pto.pxor %src0, %src1, %mask : !pto.mask<b32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.raw_fill_l1
func.func @k(%dst: !pto.ptr<f32, l1>, %byte_offset: i64, %raw_value: i32, %repeat_times: i64, %block_num_32b: i64, %dst_gap_32b: i64) {
  pto.raw_fill_l1 %dst, %byte_offset, %raw_value, %repeat_times, %block_num_32b, %dst_gap_32b {fill_word_bits = 32 : i64} : !pto.ptr<f32, l1>, i64, i32, i64, i64, i64
  return
}

// ----- pto.resume
func.func @k() {
  %result = pto.resume {slot = 0 : i64} : f32
  return
}

// ----- pto.rint
func.func @k(%value: f32) {
  %result = pto.rint %value : f32 -> f32
  return
}

// ----- pto.round
func.func @k(%value: f32) {
  %result = pto.round %value : f32 -> f32
  return
}

// ----- pto.sbitset0
func.func @k(%first: i64, %second: i64) {
  %result = pto.sbitset0 %first, %second : i64, i64 -> i64
  return
}

// ----- pto.sbitset1
func.func @k(%first: i64, %second: i64) {
  %result = pto.sbitset1 %first, %second : i64, i64 -> i64
  return
}

// ----- pto.section.simt
func.func @k() {
  pto.section.simt<<<32 : i32, 1 : i32, 1 : i32>>> {
  }
  return
}

// ----- pto.set_atomic_add
func.func @k() {
  pto.set_atomic_add
  return
}

// ----- pto.set_atomic_bf16
func.func @k() {
  pto.set_atomic_bf16
  return
}

// ----- pto.set_atomic_f16
func.func @k() {
  pto.set_atomic_f16
  return
}

// ----- pto.set_atomic_f32
func.func @k() {
  pto.set_atomic_f32
  return
}

// ----- pto.set_atomic_max
func.func @k() {
  pto.set_atomic_max
  return
}

// ----- pto.set_atomic_min
func.func @k() {
  pto.set_atomic_min
  return
}

// ----- pto.set_atomic_none
func.func @k() {
  pto.set_atomic_none
  return
}

// ----- pto.set_atomic_s16
func.func @k() {
  pto.set_atomic_s16
  return
}

// ----- pto.set_atomic_s32
func.func @k() {
  pto.set_atomic_s32
  return
}

// ----- pto.set_atomic_s8
func.func @k() {
  pto.set_atomic_s8
  return
}

// ----- pto.set_channel_para
func.func @k(%first: i64, %second: i64) {
  pto.set_channel_para %first, %second : i64, i64
  return
}

// ----- pto.set_ctrl
func.func @k(%value: i64) {
  pto.set_ctrl %value : i64
  return
}

// ----- pto.set_fix_clip_relu
func.func @k(%value: i64) {
  pto.set_fix_clip_relu %value : i64
  return
}

// ----- pto.set_fpc
func.func @k(%value: i64) {
  pto.set_fpc %value : i64
  return
}

// ----- pto.set_loop1_stride_outtol1
func.func @k(%value: i64) {
  pto.set_loop1_stride_outtol1 %value : i64
  return
}

// ----- pto.set_loop1_stride_outtoub
func.func @k(%first: i64, %second: i64) {
  pto.set_loop1_stride_outtoub %first, %second : i64, i64
  return
}

// ----- pto.set_loop1_stride_ubtoout
func.func @k(%first: i64, %second: i64) {
  pto.set_loop1_stride_ubtoout %first, %second : i64, i64
  return
}

// ----- pto.set_loop2_stride_outtol1
func.func @k(%value: i64) {
  pto.set_loop2_stride_outtol1 %value : i64
  return
}

// ----- pto.set_loop2_stride_outtoub
func.func @k(%first: i64, %second: i64) {
  pto.set_loop2_stride_outtoub %first, %second : i64, i64
  return
}

// ----- pto.set_loop2_stride_ubtoout
func.func @k(%first: i64, %second: i64) {
  pto.set_loop2_stride_ubtoout %first, %second : i64, i64
  return
}

// ----- pto.set_loop3_para
func.func @k(%first: i64, %second: i64) {
  pto.set_loop3_para %first, %second : i64, i64
  return
}

// ----- pto.set_loop_size_outtol1
func.func @k(%value: i64) {
  pto.set_loop_size_outtol1 %value : i64
  return
}

// ----- pto.set_loop_size_outtoub
func.func @k(%first: i64, %second: i64) {
  pto.set_loop_size_outtoub %first, %second : i64, i64
  return
}

// ----- pto.set_loop_size_ubtoout
func.func @k(%first: i64, %second: i64) {
  pto.set_loop_size_ubtoout %first, %second : i64, i64
  return
}

// ----- pto.set_mov_pad_val
func.func @k(%value: f32) {
  pto.set_mov_pad_val %value : f32
  return
}

// ----- pto.set_mte2_nz_para
func.func @k(%value: i64) {
  pto.set_mte2_nz_para %value : i64
  return
}

// ----- pto.set_pad_val_outtol1
func.func @k(%value: i64) {
  pto.set_pad_val_outtol1 %value : i64
  return
}

// ----- pto.set_quant_pre
func.func @k(%value: i64) {
  pto.set_quant_pre %value : i64
  return
}

// ----- pto.set_quant_scalar
func.func @k(%scale: f32, %gm: memref<256xf32, #pto.address_space<gm>>, %z: i32) {
  pto.set_quant_scalar(%scale : f32) {id =}
  %pipe = pto.initialize_l2g2l_pipe {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 8 : i64, local_slot_num = 8 : i64, flag_base = 0 : i64, __pto.frontend_id = 0 : i32, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = deqf16_scalar, relu = no_relu>}(%gm : memref<256xf32, #pto.address_space<gm>>, %z : i32) -> !pto.pipe
  return
}

// ----- pto.set_quant_vector
func.func @k(%scaling_tile: !pto.tile_buf<scaling, 1x32xi64>, %gm: memref<256xf32, #pto.address_space<gm>>, %z: i32) {
  pto.set_quant_vector(%scaling_tile : !pto.tile_buf<scaling, 1x32xi64>) {id =}
  %pipe = pto.initialize_l2g2l_pipe {dir_mask = 1 : i64, slot_size = 1024 : i64, slot_num = 8 : i64, local_slot_num = 8 : i64, flag_base = 0 : i64, __pto.frontend_id = 0 : i32, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, quant = deqf16_vec, relu = no_relu>}(%gm : memref<256xf32, #pto.address_space<gm>>, %z : i32) -> !pto.pipe
  return
}

// ----- pto.set_relu_alpha
func.func @k(%value: i64) {
  pto.set_relu_alpha %value : i64
  return
}

// ----- pto.set_store_atomic_cfg
func.func @k(%value: i64) {
  pto.set_store_atomic_cfg %value : i64
  return
}

// ----- pto.shuffle_bfly
func.func @k(%value: f32, %mask: i32) {
  %result = pto.shuffle_bfly %value, %mask : f32, i32 -> f32
  return
}

// ----- pto.shuffle_down
func.func @k(%value: f32, %offset: i32) {
  %result = pto.shuffle_down %value, %offset : f32, i32 -> f32
  return
}

// ----- pto.shuffle_idx
func.func @k(%value: f32, %index: i32) {
  %result = pto.shuffle_idx %value, %index : f32, i32 -> f32
  return
}

// ----- pto.shuffle_up
func.func @k(%value: f32, %offset: i32) {
  %result = pto.shuffle_up %value, %offset : f32, i32 -> f32
  return
}

// ----- pto.simt_launch
func.func @k(%dimX: i32, %dimY: i32, %dimZ: i32, %args: f32) {
  pto.simt_launch @simt_body<<<%dimX, %dimY, %dimZ>>>(%args) : (f32) -> ()
  return
}

// ----- pto.sin
func.func @k(%value: f32) {
  %result = pto.sin %value : f32 -> f32
  return
}

// ----- pto.sprclr
func.func @k() {
  pto.sprclr "AR"
  return
}

// ----- pto.sprsti
func.func @k(%destination: !pto.ptr<f32, ub>, %offset: i32) {
  %updated_base = pto.sprsti "AR", %destination[%offset] : !pto.ptr<f32, ub>, i32 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.sprsts
func.func @k(%destination: !pto.ptr<f32, ub>, %offset: i32) {
  %updated_base = pto.sprsts "AR", %destination[%offset] : !pto.ptr<f32, ub>, i32 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.sqrt
func.func @k(%value: f32) {
  %result = pto.sqrt %value : f32 -> f32
  return
}

// ----- pto.st_dev
func.func @k(%value: i32, %ptr: !pto.ptr<i32, gm>, %offset: index) attributes {pto.aicore} {
  pto.st_dev %value, %ptr[%offset] : !pto.ptr<i32, gm>, i32
  return
}

// ----- pto.store
func.func @k(%ptr: !pto.ptr<f32, ub>, %offset: index, %value: f32) {
  pto.store %value, %ptr[%offset] : !pto.ptr<f32, ub>, f32
  return
}

// ----- pto.store_vfsimt_info
func.func @k(%dimZ: i32, %dimY: i32, %dimX: i32) {
  pto.store_vfsimt_info %dimZ, %dimY, %dimX : i32, i32, i32
  return
}

// ----- pto.strict_vecscope
func.func @k(%x: !pto.ptr<f32, ub>) {
  pto.strict_vecscope(%x) {
  ^bb0(%p: !pto.ptr<f32, ub>):
  } : (!pto.ptr<f32, ub>) -> ()
  return
}

// ----- pto.syncthreads
func.func @k() {
  pto.syncthreads
  return
}

// ----- pto.taddrelu
func.func @k(%src0: f32, %src1: f32, %dst: f32) {
  pto.taddrelu ins(%src0, %src1 : f32, f32) outs(%dst : f32)
  return
}

// ----- pto.talloc
func.func @k(%entry: !pto.tensor_view<16x16xf32>, %pipe_handle: !pto.pipe) {
  pto.talloc(%entry, %pipe_handle : !pto.tensor_view<16x16xf32>, !pto.pipe) {split = 0 : i8}
  return
}

// ----- pto.talloc_to_aic
func.func @k() {
  %entry = pto.talloc_to_aic{split = 0 : i8} -> !pto.tensor_view<16x16xf32>
  return
}

// ----- pto.talloc_to_aiv
func.func @k() {
  %entry = pto.talloc_to_aiv{split = 0 : i8} -> !pto.tensor_view<16x16xf32>
  return
}

// ----- pto.tconcatidx
func.func @k(%src0: f32, %src1: f32, %src0Idx: f32, %src1Idx: f32, %dst: f32) {
  pto.tconcatidx ins(%src0, %src1, %src0Idx, %src1Idx : f32, f32, f32, f32) outs(%dst : f32)
  return
}

// ----- pto.tensor_view_addr
func.func @k(%src: f32) {
  %dst = pto.tensor_view_addr %src : f32 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.threadfence
func.func @k() {
  pto.threadfence
  return
}

// ----- pto.threadfence_block
func.func @k() {
  pto.threadfence_block
  return
}

// ----- pto.tile_buf_addr
func.func @k(%src: f32) {
  %dst = pto.tile_buf_addr %src : f32 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.tile_valid_cols
func.func @k(%src: !pto.tile_buf<vec, 16x16xf32>) {
  %result = pto.tile_valid_cols %src : !pto.tile_buf<vec, 16x16xf32> -> index
  return
}

// ----- pto.tile_valid_rows
func.func @k(%src: !pto.tile_buf<vec, 16x16xf32>) {
  %result = pto.tile_valid_rows %src : !pto.tile_buf<vec, 16x16xf32> -> index
  return
}

// ----- pto.tpartargmax
func.func @k(%src0: f32, %src1: f32, %src0Idx: f32, %src1Idx: f32, %dst: f32, %dstIdx: f32) {
  pto.tpartargmax ins(%src0, %src1, %src0Idx, %src1Idx : f32, f32, f32, f32) outs(%dst, %dstIdx : f32, f32)
  return
}

// ----- pto.tpartargmin
func.func @k(%src0: f32, %src1: f32, %src0Idx: f32, %src1Idx: f32, %dst: f32, %dstIdx: f32) {
  pto.tpartargmin ins(%src0, %src1, %src0Idx, %src1Idx : f32, f32, f32, f32) outs(%dst, %dstIdx : f32, f32)
  return
}

// ----- pto.tprefetch_async
func.func @k(%src: !pto.partition_tensor_view<1x256xi8>, %ctx: !pto.prefetch_async_context) {
  %event = pto.tprefetch_async(%src, %ctx : !pto.partition_tensor_view<1x256xi8>, !pto.prefetch_async_context) -> !pto.async_event
  return
}

// ----- pto.ub.set_mask
func.func @k(%mask0: i64, %mask1: i64) {
  pto.ub.set_mask %mask0, %mask1 : i64, i64
  return
}

// ----- pto.ub.set_mask_count
func.func @k() {
  pto.ub.set_mask_count
  return
}

// ----- pto.ub.set_mask_norm
func.func @k() {
  pto.ub.set_mask_norm
  return
}

// ----- pto.ub.vabs
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vabs %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vadd
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vadd %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vaddrelu
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vaddrelu %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vadds
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vadds %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vand
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vand %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vdiv
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vdiv %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vdup
func.func @k(%dst: !pto.ptr<f32, ub>, %scalar: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vdup %dst, %scalar, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vexp
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vexp %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vln
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vln %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmax
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vmax %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmaxs
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vmaxs %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmin
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vmin %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmins
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vmins %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmul
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vmul %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vmuls
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vmuls %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vnot
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vnot %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vor
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vor %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vrelu
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vrelu %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vrsqrt
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vrsqrt %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vshl
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vshl %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vshr
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %shiftDist: i64, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vshr %dst, %src, %shiftDist, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vsqrt
func.func @k(%dst: !pto.ptr<f32, ub>, %src: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %srcBlockStride: i64, %dstRepeatStride: i64, %srcRepeatStride: i64) {
  pto.ub.vsqrt %dst, %src, %repeat, %dstBlockStride, %srcBlockStride, %dstRepeatStride, %srcRepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64
  return
}

// ----- pto.ub.vsub
func.func @k(%dst: !pto.ptr<f32, ub>, %src0: !pto.ptr<f32, ub>, %src1: !pto.ptr<f32, ub>, %repeat: i64, %dstBlockStride: i64, %src0BlockStride: i64, %src1BlockStride: i64, %dstRepeatStride: i64, %src0RepeatStride: i64, %src1RepeatStride: i64) {
  pto.ub.vsub %dst, %src0, %src1, %repeat, %dstBlockStride, %src0BlockStride, %src1BlockStride, %dstRepeatStride, %src0RepeatStride, %src1RepeatStride : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64
  return
}

// ----- pto.uvld
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %result = pto.uvld %source[%offset] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vabs
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vabs %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vadd
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vadd %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vaddc
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result, %carry = pto.vaddc %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.mask<b32>
  return
}

// ----- pto.vaddcs
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %carry_in: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result, %carry = pto.vaddcs %lhs, %rhs, %carry_in, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.mask<b32>
  return
}

// ----- pto.vaddreluconv
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %result = pto.vaddreluconv %lhs, %rhs : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vadds
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vadds %input, %scalar, %mask : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vand
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vand %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vaxpy
func.func @k(%src0: !pto.vreg<64xf32>, %src1: !pto.vreg<64xf32>, %alpha: f32, %mask: !pto.mask<b32>) {
  %result = pto.vaxpy %src0, %src1, %alpha, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vbitcast
func.func @k(%input: !pto.vreg<64xf32>) {
  %result = pto.vbitcast %input : !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vbitsort
func.func @k(%destination: !pto.ptr<f32, ub>, %source: !pto.ptr<f32, ub>, %indices: !pto.ptr<f32, ub>, %repeat_times: index) {
  pto.vbitsort %destination, %source, %indices, %repeat_times : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, index
  return
}

// ----- pto.vbr
func.func @k(%value: f32) {
  %result = pto.vbr %value : f32 -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcadd
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcadd %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcbmax
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %value, %predicate = pto.vcbmax %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.mask<b32>
  return
}

// ----- pto.vcbmin
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %value, %predicate = pto.vcbmin %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.mask<b32>
  return
}

// ----- pto.vcgadd
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcgadd %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcgmax
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcgmax %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcgmin
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcgmin %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vci
func.func @k(%index: f32) {
  %result = pto.vci %index : f32 -> !pto.vreg<64xi32>
  return
}

// ----- pto.vcmax
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcmax %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcmin
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcmin %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcmp
func.func @k(%src0: !pto.vreg<64xf32>, %src1: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcmp %src0, %src1, %mask, "lt" : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.vcmps
func.func @k(%src: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vcmps %src, %scalar, %mask, "lt" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.mask<b32>
  return
}

// ----- pto.vcpadd
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcpadd %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vcvt
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vcvt %input, %mask {rnd = "R", sat = "SAT", part = "EVEN"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>
  return
}

// ----- pto.vdintlv
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %low, %high = pto.vdintlv %lhs, %rhs : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>, !pto.vreg<64xf32>
  return
}

// ----- pto.vdintlvv2
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %result = pto.vdintlvv2 %lhs, %rhs, "LOWER" : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vdiv
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vdiv %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vdup
func.func @k(%input: f32, %mask: !pto.mask<b32>) {
  %result = pto.vdup %input, %mask : f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vecscope
func.func @k() {
  pto.vecscope {
  }
  return
}

// ----- pto.vexp
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vexp %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vexpdif
func.func @k(%input: !pto.vreg<64xf32>, %max: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vexpdif %input, %max, %mask, "ODD" : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vgather2
func.func @k(%source: !pto.ptr<f32, ub>, %offsets: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vgather2 %source, %offsets, %mask : !pto.ptr<f32, ub>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vgather2_bc
func.func @k(%source: !pto.ptr<f32, ub>, %offsets: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vgather2_bc %source, %offsets, %mask : !pto.ptr<f32, ub>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vgatherb
func.func @k(%source: !pto.ptr<f32, ub>, %offsets: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vgatherb %source, %offsets, %mask : !pto.ptr<f32, ub>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vintlv
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %low, %high = pto.vintlv %lhs, %rhs : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>, !pto.vreg<64xf32>
  return
}

// ----- pto.vintlvv2
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %result = pto.vintlvv2 %lhs, %rhs, "LOWER" : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vldas
func.func @k(%source: !pto.ptr<f32, ub>) {
  %result = pto.vldas %source : !pto.ptr<f32, ub> -> !pto.align
  return
}

// ----- pto.vlds
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %result, %updated_base = pto.vlds %source[%offset] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vldsx2
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %low, %high, %updated_base = pto.vldsx2 %source[%offset], "DINTLV_B32" : !pto.ptr<f32, ub>, index -> !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vldus
func.func @k(%source: !pto.ptr<f32, ub>, %align: !pto.align, %increment: index) {
  %result, %updated_align, %updated_base = pto.vldus %source, %align, %increment : !pto.ptr<f32, ub>, !pto.align, index -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>
  return
}

// ----- pto.vln
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vln %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vlrelu
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vlrelu %input, %scalar, %mask : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmadd
func.func @k(%acc: !pto.vreg<64xf32>, %lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vmadd %acc, %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmax
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vmax %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmaxs
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vmaxs %input, %scalar, %mask : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmi.absf
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.absf %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.absi
func.func @k(%source: !pto.vmi.vreg<64xsi32>) {
  %result = pto.vmi.absi %source : !pto.vmi.vreg<64xsi32> -> !pto.vmi.vreg<64xsi32>
  return
}

// ----- pto.vmi.active_prefix_index
func.func @k(%mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.active_prefix_index %mask : !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.addf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.addf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.addi
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.addi %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.andi
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.andi %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.bitcast
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.bitcast %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.broadcast
func.func @k(%value: f32) {
  %result = pto.vmi.broadcast %value : f32 -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.channel_merge
func.func @k(%a: !pto.vmi.vreg<64xf32>, %b: !pto.vmi.vreg<64xf32>) {
  %result = "pto.vmi.channel_merge"(%a, %b) : (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>) -> !pto.vmi.vreg<128xf32>
  return
}

// ----- pto.vmi.channel_split
func.func @k(%source: !pto.vmi.vreg<128xf32>) {
  %a, %b = "pto.vmi.channel_split"(%source) : (!pto.vmi.vreg<128xf32>) -> (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>)
  return
}

// ----- pto.vmi.cmpf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.cmpf "olt", %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.cmpi
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.cmpi "slt", %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.compress
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.compress %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.compress_store
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.compress_store %value, %destination[%offset], %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.constant
func.func @k() {
  %result = "pto.vmi.constant"() <{value = dense<1.000000e+00> : vector<64xf32>}> : () -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.constant_mask
func.func @k() {
  %result = "pto.vmi.constant_mask"() <{value = dense<true> : vector<64xi1>}> : () -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.create_group_mask
func.func @k(%active_elems_per_group: index) {
  %result = pto.vmi.create_group_mask %active_elems_per_group {num_groups = 2 : i64, group_size = 32 : i64} : index -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.create_mask
func.func @k(%active_lanes: index) {
  %result = pto.vmi.create_mask %active_lanes : index -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.deinterleave_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %low, %high = pto.vmi.deinterleave_load %source[%offset] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.divf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.divf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.ensure_layout
func.func @k(%source: !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>) {
  %result = pto.vmi.ensure_layout %source : !pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>> -> !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>
  return
}

// ----- pto.vmi.ensure_mask_granularity
func.func @k(%source: !pto.vmi.mask<64xb32>) {
  %result = pto.vmi.ensure_mask_granularity %source : !pto.vmi.mask<64xb32> -> !pto.vmi.mask<64xb16>
  return
}

// ----- pto.vmi.ensure_mask_layout
func.func @k(%source: !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous>>) {
  %result = pto.vmi.ensure_mask_layout %source : !pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous>> -> !pto.vmi.mask<64xb32, #pto.vmi.layout<deinterleaved = 2>>
  return
}

// ----- pto.vmi.exp
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.exp %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.expand_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.vmi.mask<64xpred>, %passthru: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.expand_load %source[%offset], %mask, %passthru : !pto.ptr<f32, ub>, !pto.vmi.mask<64xpred>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.extf
func.func @k(%source: !pto.vmi.vreg<64xf16>) {
  %result = pto.vmi.extf %source : !pto.vmi.vreg<64xf16> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.extsi
func.func @k(%source: !pto.vmi.vreg<64xsi16>) {
  %result = pto.vmi.extsi %source : !pto.vmi.vreg<64xsi16> -> !pto.vmi.vreg<64xsi32>
  return
}

// ----- pto.vmi.extui
func.func @k(%source: !pto.vmi.vreg<64xui16>) {
  %result = pto.vmi.extui %source : !pto.vmi.vreg<64xui16> -> !pto.vmi.vreg<64xui32>
  return
}

// ----- pto.vmi.fma
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %acc: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.fma %lhs, %rhs, %acc : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.fptosi
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.fptosi %source {saturate = "SAT"} : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xsi32>
  return
}

// ----- pto.vmi.fptoui
func.func @k(%source: !pto.vmi.vreg<64xf16>) {
  %result = pto.vmi.fptoui %source {saturate = "SAT"} : !pto.vmi.vreg<64xf16> -> !pto.vmi.vreg<64xui8>
  return
}

// ----- pto.vmi.gather
func.func @k(%source: !pto.ptr<f32, ub>, %indices: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>, %passthru: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.gather %source[%indices], %mask, %passthru : !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.group_broadcast
func.func @k(%source: !pto.vmi.vreg<2xf32>) {
  %result = pto.vmi.group_broadcast %source {num_groups = 2 : i64} : !pto.vmi.vreg<2xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.group_broadcast_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %source_group_stride: index) {
  %result = pto.vmi.group_broadcast_load %source[%offset], %source_group_stride {num_groups = 2 : i64} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.group_iota
func.func @k(%base: f32) {
  %result = pto.vmi.group_iota %base {group = 2 : i64} : f32 -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.group_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %row_stride: index) {
  %result = pto.vmi.group_load %source[%offset], %row_stride {num_groups = 2 : i64} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.group_reduce_addf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_addf %source, %mask {num_groups = 2 : i64, reassoc} : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xf32>
  return
}

// ----- pto.vmi.group_reduce_addi
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_addi %source, %mask {num_groups = 2 : i64} : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xi32>
  return
}

// ----- pto.vmi.group_reduce_maxf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_maxf %source, %mask {num_groups = 2 : i64} : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xf32>
  return
}

// ----- pto.vmi.group_reduce_maxi
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_maxi %source, %mask {num_groups = 2 : i64} : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xi32>
  return
}

// ----- pto.vmi.group_reduce_minf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_minf %source, %mask {num_groups = 2 : i64} : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xf32>
  return
}

// ----- pto.vmi.group_reduce_mini
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.group_reduce_mini %source, %mask {num_groups = 2 : i64} : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<2xi32>
  return
}

// ----- pto.vmi.group_slot_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %source_group_stride: index) {
  %result = pto.vmi.group_slot_load %source[%offset], %source_group_stride {num_groups = 2 : i64} : !pto.ptr<f32, ub> -> !pto.vmi.vreg<2xf32>
  return
}

// ----- pto.vmi.group_store
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %row_stride: index) {
  pto.vmi.group_store %value, %destination[%offset], %row_stride {num_groups = 2 : i64} : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vmi.interleave_store
func.func @k(%low: !pto.vmi.vreg<64xf32>, %high: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index) {
  pto.vmi.interleave_store %low, %high, %destination[%offset] : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vmi.iota
func.func @k(%base: f32) {
  %result = pto.vmi.iota %base : f32 -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.ln
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.ln %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index) {
  %result = pto.vmi.load %source[%offset] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.mask_and
func.func @k(%lhs: !pto.vmi.mask<64xpred>, %rhs: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.mask_and %lhs, %rhs : !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.mask_not
func.func @k(%source: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.mask_not %source : !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.mask_or
func.func @k(%lhs: !pto.vmi.mask<64xpred>, %rhs: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.mask_or %lhs, %rhs : !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.mask_xor
func.func @k(%lhs: !pto.vmi.mask<64xpred>, %rhs: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.mask_xor %lhs, %rhs : !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.masked_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.vmi.mask<64xpred>, %passthru: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.masked_load %source[%offset], %mask, %passthru : !pto.ptr<f32, ub>, !pto.vmi.mask<64xpred>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.masked_store
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.masked_store %value, %destination[%offset], %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.maxf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.maxf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.maxi
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.maxi %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.minf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.minf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.mini
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.mini %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.mulf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.mulf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.muli
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.muli %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.negf
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.negf %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.negi
func.func @k(%source: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.negi %source : !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.not
func.func @k(%source: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.not %source : !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.ori
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.ori %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.pack
func.func @k(%even: !pto.vreg<64xf32>, %odd: !pto.vreg<64xf32>) {
  %result = "pto.vmi.pack"(%even, %odd) : (!pto.vreg<64xf32>, !pto.vreg<64xf32>) -> !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>
  return
}

// ----- pto.vmi.pge
func.func @k() {
  %result = pto.vmi.pge "PAT_VL8" : !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.plt
func.func @k(%scalar: i32) {
  %mask, %scalar_out = pto.vmi.plt %scalar : i32 -> !pto.vmi.mask<64xpred>, i32
  return
}

// ----- pto.vmi.pset
func.func @k() {
  %result = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.reduce_addf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_addf %source, %mask {reassoc} : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.reduce_addi
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_addi %source, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xi32>
  return
}

// ----- pto.vmi.reduce_maxf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_maxf %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.reduce_maxi
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_maxi %source, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xi32>
  return
}

// ----- pto.vmi.reduce_minf
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_minf %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.reduce_mini
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.reduce_mini %source, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xi32>
  return
}

// ----- pto.vmi.relu
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.relu %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.scatter
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %indices: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.scatter %value, %destination[%indices], %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.select
func.func @k(%mask: !pto.vmi.mask<64xpred>, %true_value: !pto.vmi.vreg<64xf32>, %false_value: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.select %mask, %true_value, %false_value : !pto.vmi.mask<64xpred>, !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.shli
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.shli %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.shrsi
func.func @k(%lhs: !pto.vmi.vreg<64xsi32>, %rhs: !pto.vmi.vreg<64xsi32>) {
  %result = pto.vmi.shrsi %lhs, %rhs : !pto.vmi.vreg<64xsi32>, !pto.vmi.vreg<64xsi32> -> !pto.vmi.vreg<64xsi32>
  return
}

// ----- pto.vmi.shrui
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.shrui %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.shuffle
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.shuffle %source[array<i64: 0, 1, 2, 3>] : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<4xf32>
  return
}

// ----- pto.vmi.sitofp
func.func @k(%source: !pto.vmi.vreg<64xsi32>) {
  %result = pto.vmi.sitofp %source : !pto.vmi.vreg<64xsi32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.sqrt
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.sqrt %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.store
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index) {
  pto.vmi.store %value, %destination[%offset] : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vmi.stride_load
func.func @k(%source: !pto.ptr<f32, ub>, %offset: index, %block_stride: i16, %repeat_stride: i16, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.stride_load %source[%offset], %block_stride, %repeat_stride, %mask : !pto.ptr<f32, ub>, i16, i16, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.stride_store
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %block_stride: i16, %repeat_stride: i16, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.stride_store %value, %destination[%offset], %block_stride, %repeat_stride, %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, i16, i16, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.subf
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.subf %lhs, %rhs : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.subi
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.subi %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.truncf
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.truncf %source {saturate = "SAT"} : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf16>
  return
}

// ----- pto.vmi.trunci
func.func @k(%source: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.trunci %source {saturate = "SAT"} : !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi16>
  return
}

// ----- pto.vmi.unpack
func.func @k(%source: !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>) {
  %even, %odd = "pto.vmi.unpack"(%source) : (!pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)
  return
}

// ----- pto.vmi.vabs
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vabs %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vadd
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vadd %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vaddc
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result, %carry = pto.vmi.vaddc %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vaddcs
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %carry_in: !pto.vmi.mask<64xpred>, %mask: !pto.vmi.mask<64xpred>) {
  %result, %carry = pto.vmi.vaddcs %lhs, %rhs, %carry_in, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vadds
func.func @k(%src: !pto.vmi.vreg<64xf32>, %scalar: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vadds %src, %scalar, %mask : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vand
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vand %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vaxpy
func.func @k(%x: !pto.vmi.vreg<64xf32>, %acc: !pto.vmi.vreg<64xf32>, %alpha: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = "pto.vmi.vaxpy"(%x, %acc, %alpha, %mask) : (!pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred>) -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vbrc
func.func @k(%value: f32) {
  %result = pto.vmi.vbrc %value : f32 -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vcadd
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vcadd %source, %mask {reassoc} : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.vchist
func.func @k(%acc: !pto.vmi.vreg<256xui16>, %source: !pto.vmi.vreg<256xui8>, %mask: !pto.vmi.mask<256xpred>) {
  %result = pto.vmi.vchist %acc, %source, %mask : !pto.vmi.vreg<256xui16>, !pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xpred> -> !pto.vmi.vreg<256xui16>
  return
}

// ----- pto.vmi.vci
func.func @k(%base: i32) {
  %result = pto.vmi.vci %base : i32 -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vcmax
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vcmax %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.vcmin
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vcmin %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>
  return
}

// ----- pto.vmi.vcmp
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %seed: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vcmp %lhs, %rhs, %seed {cmp = "lt"} : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vcmps
func.func @k(%src: !pto.vmi.vreg<64xf32>, %scalar: f32, %seed: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vcmps %src, %scalar, %seed {cmp = "lt"} : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vcvt
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.vcvt %source {saturate = "SAT"} : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf16>
  return
}

// ----- pto.vmi.vdhist
func.func @k(%acc: !pto.vmi.vreg<256xui16>, %source: !pto.vmi.vreg<256xui8>, %mask: !pto.vmi.mask<256xpred>) {
  %result = pto.vmi.vdhist %acc, %source, %mask : !pto.vmi.vreg<256xui16>, !pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xpred> -> !pto.vmi.vreg<256xui16>
  return
}

// ----- pto.vmi.vdintlv
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %low, %high = pto.vmi.vdintlv %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vdiv
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vdiv %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vexp
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vexp %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vexpdif
func.func @k(%x: !pto.vmi.vreg<64xf32>, %max: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vexpdif %x, %max, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vgather
func.func @k(%source: !pto.ptr<f32, ub>, %offsets: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vgather %source, %offsets, %mask : !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vgatherb
func.func @k(%source: !pto.ptr<f32, ub>, %offsets: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vgatherb %source, %offsets, %mask : !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vinterpret_cast
func.func @k(%source: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.vinterpret_cast %source : !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vintlv
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %low, %high = pto.vmi.vintlv %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vln
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vln %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vlrelu
func.func @k(%x: !pto.vmi.vreg<64xf32>, %slope: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = "pto.vmi.vlrelu"(%x, %slope, %mask) : (!pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred>) -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmax
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmax %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmaxs
func.func @k(%src: !pto.vmi.vreg<64xf32>, %scalar: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmaxs %src, %scalar, %mask : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmin
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmin %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmins
func.func @k(%src: !pto.vmi.vreg<64xf32>, %scalar: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmins %src, %scalar, %mask : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmul
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmul %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmula
func.func @k(%acc: !pto.vmi.vreg<64xf32>, %lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmula %acc, %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vmull
func.func @k(%a: !pto.vmi.vreg<64xi32>, %b: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %low, %high = pto.vmi.vmull %a, %b, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vmuls
func.func @k(%src: !pto.vmi.vreg<64xf32>, %scalar: f32, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vmuls %src, %scalar, %mask : !pto.vmi.vreg<64xf32>, f32, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vneg
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vneg %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vnot
func.func @k(%source: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vnot %source, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vor
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vor %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vprelu
func.func @k(%x: !pto.vmi.vreg<64xf32>, %alpha: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vprelu %x, %alpha, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vrelu
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vrelu %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vscatter
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offsets: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.vscatter %value, %destination, %offsets, %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vsel
func.func @k(%mask: !pto.vmi.mask<64xpred>, %true_value: !pto.vmi.vreg<64xf32>, %false_value: !pto.vmi.vreg<64xf32>) {
  %result = pto.vmi.vsel %mask, %true_value, %false_value : !pto.vmi.mask<64xpred>, !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vselr
func.func @k(%source: !pto.vmi.vreg<64xf32>, %index: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.vselr %source, %index : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vshl
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vshl %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vshls
func.func @k(%src: !pto.vmi.vreg<64xi32>, %scalar: i16, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vshls %src, %scalar, %mask : !pto.vmi.vreg<64xi32>, i16, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vshr
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vshr %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vshrs
func.func @k(%src: !pto.vmi.vreg<64xi32>, %scalar: i16, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vshrs %src, %scalar, %mask : !pto.vmi.vreg<64xi32>, i16, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.vsqrt
func.func @k(%source: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vsqrt %source, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vsstb
func.func @k(%value: !pto.vmi.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %block_stride: i16, %mask: !pto.vmi.mask<64xpred>) {
  pto.vmi.vsstb %value, %destination[%offset], %block_stride, %mask : !pto.vmi.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vmi.mask<64xpred>
  return
}

// ----- pto.vmi.vsub
func.func @k(%lhs: !pto.vmi.vreg<64xf32>, %rhs: !pto.vmi.vreg<64xf32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vsub %lhs, %rhs, %mask : !pto.vmi.vreg<64xf32>, !pto.vmi.vreg<64xf32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf32>
  return
}

// ----- pto.vmi.vxor
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>, %mask: !pto.vmi.mask<64xpred>) {
  %result = pto.vmi.vxor %lhs, %rhs, %mask : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmi.xori
func.func @k(%lhs: !pto.vmi.vreg<64xi32>, %rhs: !pto.vmi.vreg<64xi32>) {
  %result = pto.vmi.xori %lhs, %rhs : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi32>
  return
}

// ----- pto.vmin
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vmin %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmins
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vmins %input, %scalar, %mask : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmrgsort4
func.func @k(%destination: !pto.ptr<f32, ub>, %source0: !pto.ptr<f32, ub>, %source1: !pto.ptr<f32, ub>, %source2: !pto.ptr<f32, ub>, %source3: !pto.ptr<f32, ub>, %count: i64, %config: i64) {
  pto.vmrgsort4 %destination, %source0, %source1, %source2, %source3, %count, %config : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64
  return
}

// ----- pto.vmul
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vmul %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmula
func.func @k(%acc: !pto.vreg<64xf32>, %lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vmula %acc, %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmulconv
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>) {
  %result = pto.vmulconv %lhs, %rhs : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmull
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %low, %high = pto.vmull %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.vreg<64xi32>
  return
}

// ----- pto.vmuls
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vmuls %input, %scalar, %mask : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vmulscvt
func.func @k(%input: !pto.vreg<64xf32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vmulscvt %input, %scalar, %mask, "A", "EVEN" : !pto.vreg<64xf32>, f32, !pto.mask<b32> -> !pto.vreg<128xf16>
  return
}

// ----- pto.vneg
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vneg %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vnot
func.func @k(%input: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vnot %input, %mask : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vor
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vor %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vote_all
func.func @k(%pred: i1) {
  %result = pto.vote_all %pred : i1 -> i1
  return
}

// ----- pto.vote_any
func.func @k(%pred: i1) {
  %result = pto.vote_any %pred : i1 -> i1
  return
}

// ----- pto.vote_ballot
func.func @k(%pred: i1) {
  %result = pto.vote_ballot %pred : i1 -> i32
  return
}

// ----- pto.vote_uni
func.func @k(%pred: i1) {
  %result = pto.vote_uni %pred : i1 -> i1
  return
}

// ----- pto.vpack
func.func @k(%src: !pto.vreg<64xf32>) {
  %result = pto.vpack %src, "LOWER" : !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vprelu
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vprelu %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vrelu
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vrelu %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vscatter
func.func @k(%value: !pto.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offsets: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  pto.vscatter %value, %destination, %offsets, %mask : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.vreg<64xi32>, !pto.mask<b32>
  return
}

// ----- pto.vsel
func.func @k(%src0: !pto.vreg<64xf32>, %src1: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vsel %src0, %src1, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vselr
func.func @k(%src0: !pto.vreg<64xf32>, %src1: !pto.vreg<64xf32>) {
  %result = pto.vselr %src0, %src1 : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vselrv2
func.func @k(%src0: !pto.vreg<64xf32>, %src1: !pto.vreg<64xf32>) {
  %result = pto.vselrv2 %src0, %src1 : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vshl
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xsi32>, %mask: !pto.mask<b32>) {
  %result = pto.vshl %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xsi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vshls
func.func @k(%input: !pto.vreg<64xi32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vshls %input, %scalar, %mask : !pto.vreg<64xi32>, f32, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vshr
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xsi32>, %mask: !pto.mask<b32>) {
  %result = pto.vshr %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xsi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vshrs
func.func @k(%input: !pto.vreg<64xi32>, %scalar: f32, %mask: !pto.mask<b32>) {
  %result = pto.vshrs %input, %scalar, %mask : !pto.vreg<64xi32>, f32, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vsldb
func.func @k(%source: !pto.ptr<f32, ub>, %block_stride: i16, %repeat_stride: i16, %mask: !pto.mask<b32>) {
  %result, %updated_base = pto.vsldb %source, %block_stride, %repeat_stride, %mask : !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.vreg<64xf32>, !pto.ptr<f32, ub>
  return
}

// ----- pto.vsqrt
func.func @k(%input: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vsqrt %input, %mask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vsqz
func.func @k(%input: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vsqz %input, %mask : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vsstb
func.func @k(%value: !pto.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %block_stride: i16, %repeat_stride: i16, %mask: !pto.mask<b32>) {
  %updated_base = pto.vsstb %value, %destination, %block_stride, %repeat_stride, %mask : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32> -> !pto.ptr<f32, ub>
  return
}

// ----- pto.vstar
func.func @k(%value: !pto.align, %destination: !pto.ptr<f32, ub>) {
  pto.vstar %value, %destination : !pto.align, !pto.ptr<f32, ub>
  return
}

// ----- pto.vstas
func.func @k(%value: !pto.align, %destination: !pto.ptr<f32, ub>, %offset: i32) {
  %updated_base = pto.vstas %value, %destination, %offset : !pto.align, !pto.ptr<f32, ub>, i32 -> !pto.ptr<f32, ub>
  return
}

// ----- pto.vsts
func.func @k(%value: !pto.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.mask<b32>) {
  %updated_base = pto.vsts %value, %destination[%offset], %mask : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32> -> !pto.ptr<f32, ub>
  return
}

// ----- pto.vstsx2
func.func @k(%low: !pto.vreg<64xf32>, %high: !pto.vreg<64xf32>, %destination: !pto.ptr<f32, ub>, %offset: index, %mask: !pto.mask<b32>) {
  pto.vstsx2 %low, %high, %destination[%offset], "INTLV_B32", %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.ptr<f32, ub>, index, !pto.mask<b32>
  return
}

// ----- pto.vstur
func.func @k(%align_in: !pto.align, %value: !pto.vreg<64xf32>, %base: !pto.ptr<f32, ub>) {
  %align_out = pto.vstur %align_in, %value, %base, "POST_UPDATE" : !pto.align, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align
  return
}

// ----- pto.vstus
func.func @k(%align_in: !pto.align, %offset: i32, %value: !pto.vreg<64xf32>, %base: !pto.ptr<f32, ub>) {
  %align_out, %base_out = pto.vstus %align_in, %offset, %value, %base : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align, !pto.ptr<f32, ub>
  return
}

// ----- pto.vsub
func.func @k(%lhs: !pto.vreg<64xf32>, %rhs: !pto.vreg<64xf32>, %mask: !pto.mask<b32>) {
  %result = pto.vsub %lhs, %rhs, %mask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vsubc
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result, %carry = pto.vsubc %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.mask<b32>
  return
}

// ----- pto.vsubcs
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %carry_in: !pto.mask<b32>, %mask: !pto.mask<b32>) {
  %result, %carry = pto.vsubcs %lhs, %rhs, %carry_in, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32>, !pto.mask<b32> -> !pto.vreg<64xi32>, !pto.mask<b32>
  return
}

// ----- pto.vsunpack
func.func @k(%src: !pto.vreg<64xf32>, %part: index) {
  %result = pto.vsunpack %src, %part : !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.vusqz
func.func @k(%src: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vusqz %src, %mask : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vxor
func.func @k(%lhs: !pto.vreg<64xi32>, %rhs: !pto.vreg<64xi32>, %mask: !pto.mask<b32>) {
  %result = pto.vxor %lhs, %rhs, %mask : !pto.vreg<64xi32>, !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>
  return
}

// ----- pto.vzunpack
func.func @k(%src: !pto.vreg<64xf32>, %part: index) {
  %result = pto.vzunpack %src, %part : !pto.vreg<64xf32> -> !pto.vreg<64xf32>
  return
}

// ----- pto.yield
func.func @k(%values: f32) {
  %outputs = pto.fusion_region {
    pto.yield(%values) : (f32) -> ()
  } : f32
  return
}
