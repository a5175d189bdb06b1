// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// PTOAS main's register-level ops, in its syntax: one small kernel per family reads
// and prints back unchanged.

// VPTO micro-ops: y = max(a + b, a) on 64 f32 lanes of the unified buffer, under a
// mask of the first n lanes.
// CHECK-LABEL: func.func @vpto_add_max
// CHECK:      %m, %rest = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32
// CHECK-NEXT: %full = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
// CHECK-NEXT: %a = pto.vlds %x[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
// CHECK-NEXT: %b = pto.vlds %x[%c64] {dist = "NORM"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
// CHECK-NEXT: %s = pto.vadd %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
// CHECK-NEXT: %y = pto.vmax %s, %a, %full : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
// CHECK-NEXT: pto.vsts %y, %x[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
func.func @vpto_add_max(%x: !pto.ptr<f32, ub>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  pto.vecscope {
    %m, %rest = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32
    %full = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    %a = pto.vlds %x[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %b = pto.vlds %x[%c64] {dist = "NORM"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
    %s = pto.vadd %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
    %y = pto.vmax %s, %a, %full : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>
    pto.vsts %y, %x[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
  }
  return
}

// VMI: logical vectors of any length; a masked add and a grouped reduction.
// CHECK-LABEL: func.func @vmi_add_reduce
// CHECK:      %m = pto.vmi.create_mask %n : index -> !pto.vmi.mask<128xpred>
// CHECK-NEXT: %s = pto.vmi.vadd %a, %b, %m {pmode = "zero"} : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.vreg<128xf32>
// CHECK-NEXT: %t = pto.vmi.vadd %s, %b : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xf32> -> !pto.vmi.vreg<128xf32>
// CHECK-NEXT: %r = pto.vmi.vcadd %t, %m {reassoc} : !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.vreg<1xf32>
func.func @vmi_add_reduce(%a: !pto.vmi.vreg<128xf32>, %b: !pto.vmi.vreg<128xf32>, %n: index)
    -> !pto.vmi.vreg<1xf32> {
  %m = pto.vmi.create_mask %n : index -> !pto.vmi.mask<128xpred>
  %s = pto.vmi.vadd %a, %b, %m {pmode = "zero"} : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.vreg<128xf32>
  %t = pto.vmi.vadd %s, %b : !pto.vmi.vreg<128xf32>, !pto.vmi.vreg<128xf32> -> !pto.vmi.vreg<128xf32>
  %r = pto.vmi.vcadd %t, %m {reassoc} : !pto.vmi.vreg<128xf32>, !pto.vmi.mask<128xpred> -> !pto.vmi.vreg<1xf32>
  return %r : !pto.vmi.vreg<1xf32>
}

// ub.*: a repeat-strided add over unified-buffer pointers; a pointer cast.
// CHECK-LABEL: func.func @ub_add
// CHECK:      pto.ub.vadd %d, %s, %s, %one, %one, %one, %one, %eight, %eight, %eight : !pto.ptr<f16, ub>, !pto.ptr<f16, ub>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, i64, i64
// CHECK-NEXT: %p = pto.castptr %d : !pto.ptr<f16, ub> -> !pto.ptr<i16, ub>
func.func @ub_add(%d: !pto.ptr<f16, ub>, %s: !pto.ptr<f16, ub>) {
  %one = arith.constant 1 : i64
  %eight = arith.constant 8 : i64
  pto.ub.vadd %d, %s, %s, %one, %one, %one, %one, %eight, %eight, %eight : !pto.ptr<f16, ub>, !pto.ptr<f16, ub>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, i64, i64
  %p = pto.castptr %d : !pto.ptr<f16, ub> -> !pto.ptr<i16, ub>
  return
}

// PTOAS's register-level kernels name pipes and events as strings.
// CHECK-LABEL: func.func @string_flags
// CHECK:      pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
// CHECK-NEXT: pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
func.func @string_flags() {
  pto.set_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
  pto.wait_flag["PIPE_MTE2", "PIPE_V", "EVENT_ID0"]
  return
}
