// RUN: xla-emit-opt %s | filecheck %s
// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// Level-2 forms of PTOAS's tile ops beyond the core set, its attributes in both
// spellings, and its non-tile ops; printed, parsed again and printed the same.
module attributes {pto.target_arch = "a5"} {
  // CHECK-LABEL: func.func @vector_ops
  func.func @vector_ops(%a: !pto.tile_buf<vec, 16x32xf32>, %b: !pto.tile_buf<vec, 16x32xf32>,
                        %i: !pto.tile_buf<vec, 16x32xi32>, %col: !pto.tile_buf<vec, 16x1xf32, valid=16x1>,
                        %row: !pto.tile_buf<vec, 1x32xf32>, %m: !pto.tile_buf<vec, 16x32xui8, valid=16x4>,
                        %s: f32, %n: i32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    // CHECK-NEXT: pto.tand ins(%i, %i : !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    pto.tand ins(%i, %i : !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    // CHECK-NEXT: pto.txor ins(%i, %i, %i : !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    pto.txor ins(%i, %i, %i : !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>, !pto.tile_buf<vec, 16x32xi32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    // CHECK-NEXT: pto.taddc ins(%a, %b, %a : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.taddc ins(%a, %b, %a : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tmaxs ins(%a, %s : !pto.tile_buf<vec, 16x32xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.tmaxs ins(%a, %s : !pto.tile_buf<vec, 16x32xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tshls ins(%i, %n : !pto.tile_buf<vec, 16x32xi32>, i32) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    pto.tshls ins(%i, %n : !pto.tile_buf<vec, 16x32xi32>, i32) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    // CHECK-NEXT: pto.taddsc ins(%a, %s, %b : !pto.tile_buf<vec, 16x32xf32>, f32, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.taddsc ins(%a, %s, %b : !pto.tile_buf<vec, 16x32xf32>, f32, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tdivs ins(%s, %a : f32, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.tdivs ins(%s, %a : f32, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tcmp ins(%a, %b {cmpMode = #pto.cmp<lt>} : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%m : !pto.tile_buf<vec, 16x32xui8, valid=16x4>)
    pto.tcmp ins(%a, %b {cmpMode = #pto<cmp lt>} : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%m : !pto.tile_buf<vec, 16x32xui8, valid=16x4>)
    // CHECK-NEXT: pto.tsel ins(%m, %a, %b, %a : !pto.tile_buf<vec, 16x32xui8, valid=16x4>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.tsel ins(%m, %a, %b, %a : !pto.tile_buf<vec, 16x32xui8, valid=16x4>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.trowmin ins(%a, %b : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%col : !pto.tile_buf<vec, 16x1xf32>)
    pto.trowmin ins(%a, %b : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x32xf32>) outs(%col : !pto.tile_buf<vec, 16x1xf32, valid=16x1>)
    // CHECK-NEXT: pto.tcolprod ins(%a : !pto.tile_buf<vec, 16x32xf32>) outs(%row : !pto.tile_buf<vec, 1x32xf32>)
    pto.tcolprod ins(%a : !pto.tile_buf<vec, 16x32xf32>) outs(%row : !pto.tile_buf<vec, 1x32xf32>)
    // CHECK-NEXT: pto.trowexpandexpdif ins(%a, %col : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x1xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.trowexpandexpdif ins(%a, %col : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 16x1xf32, valid=16x1>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tcolexpandmul ins(%a, %row : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 1x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    pto.tcolexpandmul ins(%a, %row : !pto.tile_buf<vec, 16x32xf32>, !pto.tile_buf<vec, 1x32xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf32>)
    // CHECK-NEXT: pto.tcvt ins(%a {rmode = #pto.round_mode<ROUND>} : !pto.tile_buf<vec, 16x32xf32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    pto.tcvt ins(%a {rmode = #pto<round_mode ROUND>} : !pto.tile_buf<vec, 16x32xf32>) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    // CHECK-NEXT: pto.tci ins(%n {descending = true} : i32) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    pto.tci ins(%n {descending = true} : i32) outs(%i : !pto.tile_buf<vec, 16x32xi32>)
    // CHECK-NEXT: pto.tprint ins(%a : !pto.tile_buf<vec, 16x32xf32>)
    pto.tprint ins(%a : !pto.tile_buf<vec, 16x32xf32>)
    return
  }

  // CHECK-LABEL: func.func @cube_ops
  func.func @cube_ops(%c: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>,
                      %l: !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>,
                      %r: !pto.tile_buf<right, 32x16xf16, slayout=col_major>, %bias: !pto.tile_buf<bias, 1x16xf32>,
                      %mat: !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>,
                      %k: index) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {
    // CHECK-NEXT: pto.tmatmul.acc ins(%c, %l, %r : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x16xf16, slayout=col_major>) outs(%c : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
    pto.tmatmul.acc ins(%c, %l, %r : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>, !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x16xf16, slayout=col_major>) outs(%c : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
    // CHECK-NEXT: pto.tmatmul.bias ins(%l, %r, %bias : !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x16xf16, slayout=col_major>, !pto.tile_buf<bias, 1x16xf32>) outs(%c : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
    pto.tmatmul.bias ins(%l, %r, %bias : !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>, !pto.tile_buf<right, 32x16xf16, slayout=col_major>, !pto.tile_buf<bias, 1x16xf32>) outs(%c : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>)
    // CHECK-NEXT: pto.textract ins(%mat, %k, %k : !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>, index, index) outs(%l : !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>)
    pto.textract ins(%mat, %k, %k : !pto.tile_buf<mat, 32x32xf16, blayout=col_major, slayout=row_major>, index, index) outs(%l : !pto.tile_buf<left, 16x32xf16, blayout=col_major, slayout=row_major>)
    return
  }

  // CHECK-LABEL: func.func @infrastructure
  func.func @infrastructure(%p: !pto.ptr<f32>, %n: index) {
    // CHECK-NEXT: %q = pto.addptr %p, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
    %q = pto.addptr %p, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>
    // CHECK-NEXT: %v = pto.make_tensor_view %q, shape = [%n, %n], strides = [%n, %n] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    %v = pto.make_tensor_view %q, shape = [%n, %n], strides = [%n, %n] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
    // CHECK-NEXT: %b = pto.get_block_idx
    %b = pto.get_block_idx
    // CHECK-NEXT: %arr = pto.declare_eventid_array -> !pto.eventid_array<4>
    %arr = pto.declare_eventid_array -> !pto.eventid_array<4>
    // CHECK-NEXT: pto.eventid_array_set %arr[%n], %n : !pto.eventid_array<4>
    pto.eventid_array_set %arr[%n], %n : !pto.eventid_array<4>
    // CHECK-NEXT: %e = pto.eventid_array_get %arr[%n] : !pto.eventid_array<4>
    %e = pto.eventid_array_get %arr[%n] : !pto.eventid_array<4>
    // CHECK-NEXT: pto.set_flag_dyn[#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]
    pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]
    // CHECK-NEXT: pto.wait_flag_dyn[#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]
    pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %e]
    // CHECK-NEXT: pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, #pto.event<EVENT_ID1>]
    pto.record_event [#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TVEC>, <EVENT_ID1>]
    // CHECK-NEXT: pto.wait_event[#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID1>]
    pto.wait_event [#pto.pipe_event_type<TLOAD>, #pto.pipe_event_type<TVEC>, #pto.event<EVENT_ID1>]
    // CHECK-NEXT: pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    // CHECK-NEXT: pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.wait_flag[#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, #pto.event<EVENT_ID0>]
    // CHECK-NEXT: pto.barrier #pto.pipe<PIPE_ALL>
    pto.barrier <PIPE_ALL>
    // CHECK-NEXT: pto.sync.set <PIPE_FIX>, 3 : i64
    pto.sync.set <PIPE_FIX>, 3
    // CHECK-NEXT: pto.sync.wait <PIPE_V>, 3 : i64
    pto.sync.wait <PIPE_V>, 3
    // CHECK-NEXT: pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]
    pto.get_buf [#pto.pipe_event_type<TLOAD>, 0]
    // CHECK-NEXT: pto.rls_buf[#pto.pipe_event_type<TLOAD>, 0, 1]
    pto.rls_buf [#pto.pipe_event_type<TLOAD>, 0, 1]
    // PTOAS main's spelling: a pipe by name, a slot and a mode.
    // CHECK-NEXT: pto.get_buf "PIPE_MTE2", 2, 0
    pto.get_buf "PIPE_MTE2", 2, 0
    // CHECK-NEXT: pto.section.cube {
    pto.section.cube {
      // CHECK-NEXT: %t = pto.tpop_from_aiv {split = 0 : i64} -> !pto.tile_buf<mat, 16x16xf32, blayout=col_major, slayout=row_major>
      %t = pto.tpop_from_aiv {split = 0} -> !pto.tile_buf<mat, 16x16xf32, blayout=col_major, slayout=row_major>
      // CHECK-NEXT: pto.tfree_from_aiv {split = 0 : i64}
      pto.tfree_from_aiv {split = 0}
    }
    // CHECK: pto.section.vector {
    pto.section.vector {
      // CHECK-NEXT: %buf = pto.reserve_buffer {name = "fifo", size = 4096 : i64, location = #pto.address_space<vec>, auto = true} -> i32
      %buf = pto.reserve_buffer {name = "fifo", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32
    }
    return
  }
}
