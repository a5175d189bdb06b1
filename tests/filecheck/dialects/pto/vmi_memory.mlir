// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// VMI's unified load and store: the operands after the brackets are a group's row
// stride, or block and repeat strides, then a store's mask.

// CHECK-LABEL: func.func @vmi_memory
// CHECK:      %a, %a_1 = pto.vmi.vload %p[%c0] {dist_mode = "dintlv"} : !pto.ptr<ui32, ub> -> !pto.vmi.vreg<256xui32>, !pto.vmi.vreg<256xui32>
// CHECK-NEXT: %g = pto.vmi.vload %p[%c0], %s {group = 8 : i64} : !pto.ptr<ui32, ub> -> !pto.vmi.vreg<8xui32, #pto.vmi.layout<num_groups = 8>>
// CHECK-NEXT: pto.vmi.vstore %a, %p[%c0], %m : !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>, !pto.vmi.mask<256xpred>
// CHECK-NEXT: pto.vmi.vstore %a, %a_1, %p[%c0] {dist_mode = "dintlv"} : !pto.vmi.vreg<256xui32>, !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>
// CHECK-NEXT: pto.vmi.vstore %a, %p[%c0], %b, %b, %m : !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>, !pto.vmi.mask<256xpred>
func.func @vmi_memory(%p: !pto.ptr<ui32, ub>, %m: !pto.vmi.mask<256xpred>, %s: index, %b: i16) {
  %c0 = arith.constant 0 : index
  %a:2 = pto.vmi.vload %p[%c0] {dist_mode = "dintlv"} : !pto.ptr<ui32, ub> -> !pto.vmi.vreg<256xui32>, !pto.vmi.vreg<256xui32>
  %g = pto.vmi.vload %p[%c0], %s {group = 8 : i64} : !pto.ptr<ui32, ub> -> !pto.vmi.vreg<8xui32, #pto.vmi.layout<num_groups = 8>>
  pto.vmi.vstore %a#0, %p[%c0], %m : !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>, !pto.vmi.mask<256xpred>
  pto.vmi.vstore %a#0, %a#1, %p[%c0] {dist_mode = "dintlv"} : !pto.vmi.vreg<256xui32>, !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>
  pto.vmi.vstore %a#0, %p[%c0], %b, %b, %m : !pto.vmi.vreg<256xui32>, !pto.ptr<ui32, ub>, !pto.vmi.mask<256xpred>
  return
}
