// RUN: xla-emit-opt %s | xla-emit-opt | filecheck %s

// MTE transfers in PTOAS main's keyword-group syntax print back as written.

// CHECK-LABEL: func.func @transfers
// CHECK: pto.mte_ub_gm %ub, %gm, %a nburst(%a, %b, %b) l2_cache_ctl(%a) loop(%a, %b, %b) : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, loop i64, i64, i64
// CHECK-NEXT: pto.mte_gm_ub %gm, %ub, %a, %b : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64
// CHECK-NEXT: pto.mte_l0c_ub %l0c, %ub, %a, %a, %a, %b, dst_mode(%a), pre_quant(%f, mode = qf322f16_pre_scalar), pre_relu(mode = no_relu, clip = %h), nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, f32, f16
// CHECK-NEXT: pto.mte_gm_l1_frac %gm, %ub, nd2nz, shape(%a, %a), src_layout(%a), dst_group(%a, %a, %a, %b), ctrl(%b, %fa) : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i1
func.func @transfers(%ub: !pto.ptr<f16, ub>, %gm: !pto.ptr<f16, gm>, %a: i64, %b: i64, %f: f32, %l0c: !pto.ptr<f32, l0c>, %h: f16, %fa: i1) {
  pto.mte_ub_gm %ub, %gm, %a
    nburst(%a, %b, %b) l2_cache_ctl(%a) loop(%a, %b, %b)
    : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, loop i64, i64, i64
  pto.mte_gm_ub %gm, %ub, %a, %b : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64
  pto.mte_l0c_ub %l0c, %ub, %a, %a, %a, %b, dst_mode(%a),
      pre_quant(%f, mode = qf322f16_pre_scalar),
      pre_relu(mode = no_relu, clip = %h),
      nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, f32, f16
  pto.mte_gm_l1_frac %gm, %ub, nd2nz, shape(%a, %a), src_layout(%a), dst_group(%a, %a, %a, %b), ctrl(%b, %fa) : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64, i64, i64, i64, i1
  return
}

// Cube multiply-accumulates share the keyword-group syntax; vcvt and mem_bar read
// as PTOAS writes them.
// CHECK-LABEL: func.func @cube_and_vector
// CHECK:      pto.mad %a, %b, %c, %m, %m, %m : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
// CHECK-NEXT: pto.mad %a, %b, %c, %m, %m, %m unit_flag(check_and_set) : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
// CHECK-NEXT: pto.mad_bias %a, %b, %c, %bias, %m, %m, %m : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, !pto.ptr<f32, bt>, i64, i64, i64
// CHECK-NEXT: %y = pto.vcvt %x, %mask {part = "EVEN"} : !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<64xui32>
// CHECK-NEXT: pto.mem_bar "VST_VLD"
func.func @cube_and_vector(%a: !pto.ptr<f16, l0a>, %b: !pto.ptr<f16, l0b>, %c: !pto.ptr<f32, l0c>,
                           %bias: !pto.ptr<f32, bt>, %m: i64, %x: !pto.vreg<128xui16>,
                           %mask: !pto.mask<b16>) {
  pto.mad %a, %b, %c, %m, %m, %m : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  pto.mad %a, %b, %c, %m, %m, %m unit_flag(check_and_set) : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64
  pto.mad_bias %a, %b, %c, %bias, %m, %m, %m : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, !pto.ptr<f32, bt>, i64, i64, i64
  %y = pto.vcvt %x, %mask {part = "EVEN"} : !pto.vreg<128xui16>, !pto.mask<b16> -> !pto.vreg<64xui32>
  pto.mem_bar "VST_VLD"
  return
}

// A type list names its groups too, as PTOAS writes them.
// CHECK-LABEL: func.func @fractal_load
// CHECK: pto.mte_gm_l1_frac %src, %dst, nd2nz, shape(%a, %a), src_layout(%a, %a), dst_group(%a, %a, %a, %a), ctrl(%a, %f) : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz, shape i64, i64, src_layout(i64, i64), dst_group i64, i64, i64, i64, ctrl i64, i1
func.func @fractal_load(%src: !pto.ptr<f16, gm>, %dst: !pto.ptr<f16, l1>, %a: i64, %f: i1) {
  pto.mte_gm_l1_frac %src, %dst, nd2nz,
        shape(%a, %a),
        src_layout(%a, %a),
        dst_group(%a, %a, %a, %a),
        ctrl(%a, %f)
      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>, nd2nz,
        shape i64, i64, src_layout(i64, i64),
        dst_group i64, i64, i64, i64, ctrl i64, i1
  return
}
