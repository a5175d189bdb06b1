// RUN: xla-emit-opt %s | filecheck %s
// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s
// RUN: xla-emit-opt %s --print-op-generic | xla-emit-opt | filecheck %s

// Every op in its level-1 (SSA) form.
// CHECK-LABEL: func.func @level1
func.func @level1(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>,
                  %s: f32, %l: !pto.tile<left, 16x32xf16>, %r: !pto.tile<right, 32x16xf16>) {
  // CHECK-NEXT: %a = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  %a = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %add = pto.tadd %a, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  %add = pto.tadd %a, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %sub = pto.tsub %add, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  %sub = pto.tsub %add, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %mul = pto.tmul
  %mul = pto.tmul %sub, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %div = pto.tdiv
  %div = pto.tdiv %mul, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %max = pto.tmax
  %max = pto.tmax %div, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %min = pto.tmin
  %min = pto.tmin %max, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %exp = pto.texp %min : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  %exp = pto.texp %min : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %log = pto.tlog
  %log = pto.tlog %exp : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %sqrt = pto.tsqrt
  %sqrt = pto.tsqrt %log : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %rsqrt = pto.trsqrt
  %rsqrt = pto.trsqrt %sqrt : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %abs = pto.tabs
  %abs = pto.tabs %rsqrt : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %relu = pto.trelu
  %relu = pto.trelu %abs : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %adds = pto.tadds %relu, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
  %adds = pto.tadds %relu, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %muls = pto.tmuls %adds, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
  %muls = pto.tmuls %adds, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %cvt = pto.tcvt %muls {rmode = "CAST_RINT"} : !pto.tile<16x16xf32> -> !pto.tile<16x16xf16>
  %cvt = pto.tcvt %muls {rmode = "CAST_RINT"} : !pto.tile<16x16xf32> -> !pto.tile<16x16xf16>
  // CHECK-NEXT: %rs = pto.trowsum %muls : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
  %rs = pto.trowsum %muls : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
  // CHECK-NEXT: %rm = pto.trowmax %muls, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x8xf32, valid=16x1>
  %rm = pto.trowmax %muls, %a : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x8xf32, valid=16x1>
  // CHECK-NEXT: %cs = pto.tcolsum %cvt : !pto.tile<16x16xf16> -> !pto.tile<1x16xf32>
  %cs = pto.tcolsum %cvt : !pto.tile<16x16xf16> -> !pto.tile<1x16xf32>
  // CHECK-NEXT: %cm = pto.tcolmax %muls : !pto.tile<16x16xf32> -> !pto.tile<1x16xf32>
  %cm = pto.tcolmax %muls : !pto.tile<16x16xf32> -> !pto.tile<1x16xf32>
  // CHECK-NEXT: %rx = pto.trowexpand %rs : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
  %rx = pto.trowexpand %rs : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %mm = pto.tmatmul %l, %r : (!pto.tile<left, 16x32xf16>, !pto.tile<right, 32x16xf16>) -> !pto.tile<acc, 16x16xf32>
  %mm = pto.tmatmul %l, %r : (!pto.tile<left, 16x32xf16>, !pto.tile<right, 32x16xf16>) -> !pto.tile<acc, 16x16xf32>
  // CHECK-NEXT: %mov = pto.tmov %mm : !pto.tile<acc, 16x16xf32> -> !pto.tile<16x16xf32>
  %mov = pto.tmov %mm : !pto.tile<acc, 16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: %t = pto.ttrans %mov : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  %t = pto.ttrans %mov : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  // CHECK-NEXT: pto.tassign %t, @tile(0x1000)
  pto.tassign %t, @tile(0x1000)
  // CHECK-NEXT: pto.tstore %t, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  pto.tstore %t, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
  return
}

// Every op in its level-2 (DPS) form.
// CHECK-LABEL: func.func @level2
func.func @level2(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %s: f32) {
  // CHECK-NEXT: %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %tmp = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %h = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf16>
  %row = pto.alloc_tile : !pto.tile_buf<vec, 16x1xf32>
  %col = pto.alloc_tile : !pto.tile_buf<vec, 1x16xf32>
  %l = pto.alloc_tile : !pto.tile_buf<left, 16x32xf16>
  %r = pto.alloc_tile : !pto.tile_buf<right, 32x16xf16>
  %acc = pto.alloc_tile : !pto.tile_buf<acc, 16x16xf32>
  // CHECK: pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tsub ins(%b, %a
  pto.tsub ins(%b, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tmul ins(%b, %a
  pto.tmul ins(%b, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tdiv ins(%b, %a
  pto.tdiv ins(%b, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tmax ins(%b, %a
  pto.tmax ins(%b, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tmin ins(%b, %a
  pto.tmin ins(%b, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.texp ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.texp ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tlog ins(%b
  pto.tlog ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tsqrt ins(%b
  pto.tsqrt ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.trsqrt ins(%b
  pto.trsqrt ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tabs ins(%b
  pto.tabs ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.trelu ins(%b
  pto.trelu ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tadds ins(%b, %s : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.tadds ins(%b, %s : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tmuls ins(%b, %s
  pto.tmuls ins(%b, %s : !pto.tile_buf<vec, 16x16xf32>, f32) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tcvt ins(%b {rmode = "CAST_RINT"} : !pto.tile_buf<vec, 16x16xf32>) outs(%h : !pto.tile_buf<vec, 16x16xf16>)
  pto.tcvt ins(%b {rmode = "CAST_RINT"} : !pto.tile_buf<vec, 16x16xf32>) outs(%h : !pto.tile_buf<vec, 16x16xf16>)
  // CHECK-NEXT: pto.trowsum ins(%b, %tmp : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%row : !pto.tile_buf<vec, 16x1xf32>)
  pto.trowsum ins(%b, %tmp : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%row : !pto.tile_buf<vec, 16x1xf32>)
  // CHECK-NEXT: pto.trowmax ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%row : !pto.tile_buf<vec, 16x1xf32>)
  pto.trowmax ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%row : !pto.tile_buf<vec, 16x1xf32>)
  // CHECK-NEXT: pto.tcolsum ins(%b, %tmp {isBinary = false} : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%col : !pto.tile_buf<vec, 1x16xf32>)
  pto.tcolsum ins(%b, %tmp {isBinary = false} : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%col : !pto.tile_buf<vec, 1x16xf32>)
  // CHECK-NEXT: pto.tcolmax ins(%b
  pto.tcolmax ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%col : !pto.tile_buf<vec, 1x16xf32>)
  // CHECK-NEXT: pto.trowexpand ins(%row : !pto.tile_buf<vec, 16x1xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.trowexpand ins(%row : !pto.tile_buf<vec, 16x1xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tmatmul ins(%l, %r : !pto.tile_buf<left, 16x32xf16>, !pto.tile_buf<right, 32x16xf16>) outs(%acc : !pto.tile_buf<acc, 16x16xf32>)
  pto.tmatmul ins(%l, %r : !pto.tile_buf<left, 16x32xf16>, !pto.tile_buf<right, 32x16xf16>) outs(%acc : !pto.tile_buf<acc, 16x16xf32>)
  // CHECK-NEXT: pto.tmov ins(%acc : !pto.tile_buf<acc, 16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  pto.tmov ins(%acc : !pto.tile_buf<acc, 16x16xf32>) outs(%a : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.ttrans ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.ttrans ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.ttrans ins(%a, %tmp : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  pto.ttrans ins(%a, %tmp : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.tstore ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  pto.tstore ins(%b : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  return
}

// Buffers, addresses, views and synchronization.
// CHECK-LABEL: func.func @infrastructure
func.func @infrastructure(%ptr: !pto.ptr<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %addr = arith.constant 8192 : i64
  // CHECK: %v = pto.make_tensor_view %ptr, shape = [%n, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  %v = pto.make_tensor_view %ptr, shape = [%n, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>
  // CHECK-NEXT: %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
  // CHECK-NEXT: %t = pto.alloc_tile addr = %addr : !pto.tile_buf<vec, 16x16xf32>
  %t = pto.alloc_tile addr = %addr : !pto.tile_buf<vec, 16x16xf32>
  // CHECK-NEXT: %d = pto.alloc_tile valid_row = %c16 valid_col = %n : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  %d = pto.alloc_tile valid_row = %c16 valid_col = %n : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  // CHECK-NEXT: pto.tassign %t, @tile(0x2000)
  pto.tassign %t, @tile(0x2000)
  // CHECK-NEXT: %t2 = pto.tassign %t, %addr : !pto.tile_buf<vec, 16x16xf32> -> !pto.tile_buf<vec, 16x16xf32>
  %t2 = pto.tassign %t, %addr : !pto.tile_buf<vec, 16x16xf32> -> !pto.tile_buf<vec, 16x16xf32>
  // CHECK-NEXT: pto.tload ins(%p : !pto.partition_tensor_view<16x16xf32>) outs(%t2 : !pto.tile_buf<vec, 16x16xf32>)
  pto.tload ins(%p : !pto.partition_tensor_view<16x16xf32>) outs(%t2 : !pto.tile_buf<vec, 16x16xf32>)
  // CHECK-NEXT: pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  // CHECK-NEXT: pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
  // CHECK-NEXT: pto.barrier #pto.pipe<PIPE_ALL>
  pto.barrier #pto.pipe<PIPE_ALL>
  return
}
