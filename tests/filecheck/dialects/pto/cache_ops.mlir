// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// Cache maintenance of global memory: all of it, or the line of one view.

// CHECK-LABEL: func.func @invalidate
// CHECK:      pto.cmo.cacheinvalid %v single_cache_line : !pto.partition_tensor_view<16x16xf32>
// CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
func.func @invalidate(%v: !pto.partition_tensor_view<16x16xf32>) {
  pto.cmo.cacheinvalid %v single_cache_line : !pto.partition_tensor_view<16x16xf32>
  pto.cmo.cacheinvalid all #pto.address_space<gm>
  return
}

// A SIMT launch and a yield without results print their function types as `-> ()`.
// CHECK-LABEL: func.func @launch
// CHECK: pto.simt_launch @body<<<%one, %one, %one>>>() : () -> ()
func.func @launch() {
  %one = arith.constant 1 : i32
  pto.simt_launch @body<<<%one, %one, %one>>>() : () -> ()
  return
}
