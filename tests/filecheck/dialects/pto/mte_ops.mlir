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
