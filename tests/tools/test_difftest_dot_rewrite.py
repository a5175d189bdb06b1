"""The differential tester's rule for small 16-bit dots XLA:GPU rewrites (tools/difftest).

XLA:GPU wrote seed 704666's `bf16[2,1,3] x bf16[2,3,4]` dot as a bf16 multiply (each
product rounded) and an f32 reduce; XLA:CPU computes the dot with f32 products. The module
below is XLA's H100 module for it (jax 0.10.2, the dot's part, two names shortened); the
inputs and XLA:CPU's outputs are the run's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from check import _rules
from dot_rewrite import has_sixteen_bit_dot, rewritten_dot_outputs

from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime.module_runtime import ModuleRuntime

_REWRITTEN = """HloModule difftest, is_scheduled=true

%add (scalar_lhs: f32[], scalar_rhs: f32[]) -> f32[] {
  %scalar_rhs = f32[] parameter(1)
  %scalar_lhs = f32[] parameter(0)
  ROOT %add.1 = f32[] add(%scalar_lhs, %scalar_rhs)
}

%fused_reduce (param_0.25: bf16[2,3,4], param_1.24: bf16[2,1,3]) -> (f16[2,4], u16[2,4]) {
  %param_1.24 = bf16[2,1,3]{2,1,0} parameter(1)
  %bitcast.14 = bf16[2,3]{1,0} bitcast(%param_1.24)
  %broadcast.1.11 = bf16[2,3,4]{2,1,0} broadcast(%bitcast.14), dimensions={0,1}
  %param_0.25 = bf16[2,3,4]{2,1,0} parameter(0)
  %multiply.1.9 = bf16[2,3,4]{2,1,0} multiply(%broadcast.1.11, %param_0.25)
  %convert.6.7 = f32[2,3,4]{2,1,0} convert(%multiply.1.9)
  %constant_7 = f32[] constant(0)
  %reduce.7 = f32[2,4]{1,0} reduce(%convert.6.7, %constant_7), dimensions={1}, to_apply=%add
  %convert.5.5 = bf16[2,4]{1,0} convert(%reduce.7)
  %convert.0.1 = f16[2,4]{1,0} convert(%convert.5.5)
  %convert.1.1.clone.1 = u16[2,4]{1,0} convert(%convert.5.5)
  ROOT %tuple = (f16[2,4]{1,0}, u16[2,4]{1,0}) tuple(%convert.0.1, %convert.1.1.clone.1)
}

ENTRY %main.1 (p.14: bf16[2,1,3], p.15: bf16[2,3,4]) -> (f16[2,1,4], u16[2,1,4]) {
  %p.15 = bf16[2,3,4]{2,1,0} parameter(1)
  %p.14 = bf16[2,1,3]{2,1,0} parameter(0)
  %fusion = (f16[2,4]{1,0}, u16[2,4]{1,0}) fusion(%p.15, %p.14), kind=kLoop, calls=%fused_reduce
  %get-tuple-element.1 = u16[2,4]{1,0} get-tuple-element(%fusion), index=1
  %get-tuple-element = f16[2,4]{1,0} get-tuple-element(%fusion), index=0
  %bitcast.1.0 = f16[2,1,4]{2,1,0} bitcast(%get-tuple-element)
  %bitcast.2.0 = u16[2,1,4]{2,1,0} bitcast(%get-tuple-element.1)
  ROOT %tuple.1.0 = (f16[2,1,4]{2,1,0}, u16[2,1,4]{2,1,0}) tuple(%bitcast.1.0, %bitcast.2.0)
}
"""
_LHS = [-0.953125, -2.578125, -3.203125, 0.15234375, -0.61328125, 2.5]
_RHS = [2.5, 1.0, -5.125, -3.359375, 4.96875, -5.25, 4.5, 1.0, 6.78125, 5.90625, 2.5, 0.25]
_RHS += [-0.25, 0.5, -0.30078125, 3.296875, -4.125, -10.4375, 6.84375, -0.81640625]
_RHS += [2.5, -1.328125, 3.609375, -6.03125]
# XLA:CPU's dot (f32 products), in f16. By hand, [0, 0, 1]: -0.953125 * 1.0 - 2.578125 *
# -5.25 - 3.203125 * 5.90625 = -6.3359, bf16 -6.34375; the products rounded to bf16
# (-0.953125, 13.5625, -18.875) sum to -6.2656, bf16 -6.25 (the H100 module's).
_XLA_CPU = [-37.0, -6.34375, -14.75, -0.176757812, 8.75, 3.15625, 4.78125, -14.0625]


def _inputs() -> list[np.ndarray]:
    bf16 = ml_dtypes.bfloat16
    return [
        np.array(_LHS, np.float32).astype(bf16).reshape(2, 1, 3),
        np.array(_RHS, np.float32).astype(bf16).reshape(2, 3, 4),
    ]


def _xla_cpu() -> list[np.ndarray]:
    values = np.array(_XLA_CPU, np.float16).reshape(2, 1, 4)
    return [values, np.clip(values, 0, None).astype(np.uint16)]


def test_the_rule_holds_a_rewritten_dot_to_its_rounded_products() -> None:
    module = parse_hlo_module(_REWRITTEN, "rewritten.hlo")
    inputs = _inputs()
    ours = ModuleRuntime(module).run(inputs)
    assert float(ours[0][0, 0, 1]) == -6.25  # the H100 module's value
    assert sorted(rewritten_dot_outputs(module, inputs)) == [0, 1]
    rules = _rules(module, inputs)
    for rule, want, got in zip(rules, _xla_cpu(), ours, strict=True):
        assert rule(want, got).matches
    # The same difference without the rule: 24 f16 ulp, past any ulp tolerance.
    wrong = ours[0].copy()
    wrong[0, 0, 1] = -6.5  # 0.156 off; the bound at [0, 0, 1] is 33.4 * 2**-8 + 2**-5 = 0.16
    assert rules[0](_xla_cpu()[0], wrong).matches
    wrong[0, 0, 1] = -6.75
    assert not rules[0](_xla_cpu()[0], wrong).matches


_PLAIN_DOT = """HloModule plain

ENTRY %main (a: bf16[2,1,3], b: bf16[2,3,4]) -> f16[2,1,4] {
  %a = bf16[2,1,3] parameter(0)
  %b = bf16[2,3,4] parameter(1)
  %d = bf16[2,1,4] dot(%a, %b), lhs_batch_dims={0}, lhs_contracting_dims={2},
    rhs_batch_dims={0}, rhs_contracting_dims={1}
  ROOT %c = f16[2,1,4] convert(%d)
}
"""

# A program's own products summed: XLA:CPU rounds them too, so no allowance.
_OWN_PRODUCTS = """HloModule own

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY %main (a: bf16[2,3,4], b: bf16[2,3,4]) -> f32[2,4] {
  %a = bf16[2,3,4] parameter(0)
  %b = bf16[2,3,4] parameter(1)
  %m = bf16[2,3,4] multiply(%a, %b)
  %c = f32[2,3,4] convert(%m)
  %z = f32[] constant(0)
  ROOT %r = f32[2,4] reduce(%c, %z), dimensions={1}, to_apply=%add
}
"""


def test_the_rule_leaves_other_dots_and_sums_alone() -> None:
    inputs = _inputs()
    plain = parse_hlo_module(_PLAIN_DOT, "plain.hlo")
    assert rewritten_dot_outputs(plain, inputs) == {}
    # The dot keeps the tolerance of approximations: -6.75 against -6.34375 is 104 f16 ulp.
    wrong = _xla_cpu()[0].copy()
    wrong[0, 0, 1] = -6.75
    assert not _rules(plain, inputs)[0](_xla_cpu()[0], wrong).matches
    own = parse_hlo_module(_OWN_PRODUCTS, "own.hlo")
    rhs = inputs[1]
    assert rewritten_dot_outputs(own, [rhs, rhs]) == {}


# Seed 805300: XLA's H100 module for `dot(bf16[1,2], bf16[2,1])` (jax 0.10.2, the dot's
# part): a dot of two vectors becomes a multiply of two bitcasts, no broadcast.
_VECTOR_DOT = """HloModule difftest, is_scheduled=true

%add (scalar_lhs: f32[], scalar_rhs: f32[]) -> f32[] {
  %scalar_rhs = f32[] parameter(1)
  %scalar_lhs = f32[] parameter(0)
  ROOT %add.1 = f32[] add(%scalar_lhs, %scalar_rhs)
}

%fused_reduce (param_0.6: bf16[2,1], param_1.8: bf16[1,2]) -> bf16[] {
  %param_1.8 = bf16[1,2]{1,0} parameter(1)
  %bitcast.6 = bf16[2]{0} bitcast(%param_1.8)
  %param_0.6 = bf16[2,1]{1,0} parameter(0)
  %bitcast.1.3 = bf16[2]{0} bitcast(%param_0.6)
  %multiply.4 = bf16[2]{0} multiply(%bitcast.6, %bitcast.1.3)
  %convert.3 = f32[2]{0} convert(%multiply.4)
  %constant_3 = f32[] constant(0)
  %reduce.2 = f32[] reduce(%convert.3, %constant_3), dimensions={0}, to_apply=%add
  ROOT %convert.1.1 = bf16[] convert(%reduce.2)
}

ENTRY %main.1 (p.9: bf16[1,2], p.10: bf16[2,1]) -> bf16[1,1] {
  %p.10 = bf16[2,1]{1,0} parameter(1)
  %p.9 = bf16[1,2]{1,0} parameter(0)
  %input_reduce_fusion = bf16[] fusion(%p.10, %p.9), kind=kInput, calls=%fused_reduce
  ROOT %bitcast.2.0 = bf16[1,1]{1,0} bitcast(%input_reduce_fusion)
}
"""
_VECTOR_DOT_PROGRAM = """HloModule difftest

ENTRY %main (p.6: bf16[1,2], p.7: bf16[2,1]) -> bf16[1,1] {
  %p.6 = bf16[1,2] parameter(0)
  %p.7 = bf16[2,1] parameter(1)
  ROOT %dot.8 = bf16[1,1] dot(%p.6, %p.7), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def test_a_dot_of_two_vectors_is_held_to_its_rounded_products() -> None:
    bf16 = ml_dtypes.bfloat16
    inputs = [np.array([[-3.125, -3.171875]], bf16), np.array([[2.5], [-2.328125]], bf16)]
    module = parse_hlo_module(_VECTOR_DOT, "vector_dot.hlo")
    ours = ModuleRuntime(module).run(inputs)[0]
    # By hand: the products rounded to bf16 are -7.8125 and 7.375 (7.3845 rounded), their
    # sum -0.4375; XLA:CPU's f32 products sum to -0.42798, in bf16 -0.427734375 (5 ulp).
    assert float(ours[0, 0]) == -0.4375
    xla_cpu = np.array([[-0.427734375]], bf16)
    program_has_dot = has_sixteen_bit_dot(parse_hlo_module(_VECTOR_DOT_PROGRAM, "p.hlo"))
    assert program_has_dot
    rule = _rules(module, inputs, program_has_dot=program_has_dot)[0]
    assert rule(xla_cpu, ours).matches
    # The bound: (15.1875 * 2**-8 + 4 * 2**-24 * 15.1875) + 2**-9 = 0.0613; -0.5 is 0.072 off.
    assert not rule(xla_cpu, np.array([[-0.5]], bf16)).matches
    # Without a dot in the program the multiply of bitcasts is the program's own (its
    # reshapes are bitcasts too): the sum behind the entry's bitcast is held to its bound
    # around the sum of the module's rounded products, -0.4375, which ours is and XLA:CPU's
    # -0.4277 (unrounded products) is not.
    assert rewritten_dot_outputs(module, inputs) == {}
    plain = _rules(module, inputs)[0]
    assert plain(xla_cpu, ours).matches
    assert not plain(ours, xla_cpu).matches


# Seed 1000555: XLA's H100 module for `broadcast(dot(f16[2,4], f16[4,1]))`: the rewritten
# dot's reduce in one fusion, the broadcast of its sums in another (XLA:CPU's outputs are
# the run's).
_SPREAD_DOT = """HloModule difftest, is_scheduled=true

%add (scalar_lhs: f32[], scalar_rhs: f32[]) -> f32[] {
  %scalar_rhs = f32[] parameter(1)
  %scalar_lhs = f32[] parameter(0)
  ROOT %add.1 = f32[] add(%scalar_lhs, %scalar_rhs)
}

%fused_reduce (param_0.11: f16[2,4], param_1.11: f16[4,1]) -> f16[2] {
  %param_0.11 = f16[2,4]{1,0} parameter(0)
  %param_1.11 = f16[4,1]{1,0} parameter(1)
  %bitcast.8 = f16[4]{0} bitcast(%param_1.11)
  %broadcast.2.7 = f16[2,4]{1,0} broadcast(%bitcast.8), dimensions={1}
  %multiply.6 = f16[2,4]{1,0} multiply(%param_0.11, %broadcast.2.7)
  %convert.5 = f32[2,4]{1,0} convert(%multiply.6)
  %constant_5 = f32[] constant(0)
  %reduce.2 = f32[2]{0} reduce(%convert.5, %constant_5), dimensions={1}, to_apply=%add
  ROOT %convert.1.1 = f16[2]{0} convert(%reduce.2)
}

%wrapped_broadcast_computation (param_0.12: f16[2]) -> f16[4,2,1] {
  %param_0.12 = f16[2]{0} parameter(0)
  ROOT %broadcast.1.1 = f16[4,2,1]{2,1,0} broadcast(%param_0.12), dimensions={1}
}

ENTRY %main.1 (p.2: f16[2,4], p.3: f16[4,1]) -> f16[4,2,1] {
  %p.3 = f16[4,1]{1,0} parameter(1)
  %p.2 = f16[2,4]{1,0} parameter(0)
  %input_reduce_fusion = f16[2]{0} fusion(%p.2, %p.3), kind=kInput, calls=%fused_reduce
  ROOT %wrapped_broadcast = f16[4,2,1]{2,1,0} fusion(%input_reduce_fusion), kind=kLoop,
    calls=%wrapped_broadcast_computation
}
"""


def test_a_broadcast_of_a_rewritten_dot_takes_each_sums_bound() -> None:
    lhs = [-2.5, -5.703125, 1.720703125, -2.451171875]
    lhs += [-1.638671875, -5.9296875, 6.4765625, 10.03125]
    inputs = [
        np.array(lhs, np.float16).reshape(2, 4),
        np.array([-5.46484375, 1.8203125, 0.25, 0.033172607421875], np.float16).reshape(4, 1),
    ]
    module = parse_hlo_module(_SPREAD_DOT, "spread_dot.hlo")
    ours = ModuleRuntime(module).run(inputs)[0]
    # By hand, row 0: f32 products sum to 3.6295, f16 3.62890625 (XLA:CPU); products
    # rounded to f16 (13.6640625, -10.3828125, 0.43017578, -0.08129883) sum to 3.63013,
    # f16 3.630859375 (the H100 module's): 1 ulp, past the bit-exact rule.
    assert float(ours[0, 0, 0]) == 3.630859375
    xla_cpu = np.tile(np.array([3.62890625, 0.11309814453125], np.float16), 4).reshape(4, 2, 1)
    assert sorted(rewritten_dot_outputs(module, inputs)) == [0]
    rule = _rules(module, inputs)[0]
    assert rule(xla_cpu, ours).matches
    # Row 0's bound: 24.56 * (2**-11 + 8 * 2**-24) + 2**-9 = 0.014; 0.03 off is outside, at
    # any of the four places the broadcast put it.
    wrong = ours.copy()
    wrong[3, 0, 0] = np.float16(3.66)
    assert not rule(xla_cpu, wrong).matches


# Seed 1215976 (minimized): an f16 dot XLA:GPU rewrote, then `reduce-precision` to 2
# exponent bits and 5 mantissa bits (largest finite 3.9375, one unit 0.0625 in [2, 4)).
_REDUCED_DOT = """HloModule reduced, is_scheduled=true

%add (scalar_lhs: f32[], scalar_rhs: f32[]) -> f32[] {
  %scalar_rhs = f32[] parameter(1)
  %scalar_lhs = f32[] parameter(0)
  ROOT %add.1 = f32[] add(%scalar_lhs, %scalar_rhs)
}

%fused_reduce (param_0.17: f16[3,2,5], param_1.14: f16[3,1,2]) -> f16[3,5] {
  %param_1.14 = f16[3,1,2]{2,1,0} parameter(1)
  %bitcast.9 = f16[3,2]{1,0} bitcast(%param_1.14)
  %broadcast.1.7 = f16[3,2,5]{2,1,0} broadcast(%bitcast.9), dimensions={0,1}
  %param_0.17 = f16[3,2,5]{2,1,0} parameter(0)
  %multiply.1.5 = f16[3,2,5]{2,1,0} multiply(%broadcast.1.7, %param_0.17)
  %convert.2.3 = f32[3,2,5]{2,1,0} convert(%multiply.1.5)
  %constant_6 = f32[] constant(0)
  %reduce.5 = f32[3,5]{1,0} reduce(%convert.2.3, %constant_6), dimensions={1}, to_apply=%add
  %convert.1.3 = f16[3,5]{1,0} convert(%reduce.5)
  ROOT %rp = f16[3,5]{1,0} reduce-precision(%convert.1.3), exponent_bits=2, mantissa_bits=5
}

ENTRY %main.1 (p.2: f16[3,1,2], p.3: f16[3,2,5]) -> f16[3,1,5] {
  %p.3 = f16[3,2,5]{2,1,0} parameter(1)
  %p.2 = f16[3,1,2]{2,1,0} parameter(0)
  %loop_reduce_fusion = f16[3,5]{1,0} fusion(%p.3, %p.2), kind=kLoop, calls=%fused_reduce
  ROOT %bitcast.1.0 = f16[3,1,5]{2,1,0} bitcast(%loop_reduce_fusion)
}
"""
_REDUCED_LHS = [1.171875, -2.41796875, 2.5, 5.69921875, 6.6875, -3.49609375]
_REDUCED_RHS = [-0.96337890625, 0.1761474609375, -3.279296875, 0.0, -2.8203125]
_REDUCED_RHS += [8.9140625, -0.6796875, 6.103515625e-05, -5.15625, 0.138427734375]
_REDUCED_RHS += [13.6953125, -0.0213775634765625, -0.348388671875, 2.2421875, -5.83984375]
_REDUCED_RHS += [-1.171875, 6.21484375, 2.5, -1.578125, -4.55859375]
_REDUCED_RHS += [-0.39599609375, -1.0, -0.92822265625, -1.3369140625, 1.1494140625]
_REDUCED_RHS += [5.203125, -6.41015625, -1.966796875, -7.40234375, 3.31640625]
_REDUCED_XLA_CPU = [-np.inf, 1.84375, -3.875, np.inf, -3.625, np.inf, np.inf, np.inf]
_REDUCED_XLA_CPU += [-3.375, -np.inf, -np.inf, np.inf, 0.0, np.inf, -3.9375]


def test_a_reduce_precision_of_a_rewritten_dot_rounds_to_its_own_unit() -> None:
    inputs = [
        np.array(_REDUCED_LHS, np.float16).reshape(3, 1, 2),
        np.array(_REDUCED_RHS, np.float16).reshape(3, 2, 5),
    ]
    module = parse_hlo_module(_REDUCED_DOT, "reduced_dot.hlo")
    ours = ModuleRuntime(module).run(inputs)[0]
    xla_cpu = np.array(_REDUCED_XLA_CPU, np.float16).reshape(3, 1, 5)
    # By hand, [2, 0, 4]: 6.6875 * 1.1494 - 3.4961 * 3.3164 in f32 is -3.9078 (f16 -3.908,
    # 62.53 units of 0.0625: -3.9375); the products rounded to f16 (7.6875, -11.59375) sum
    # to -3.90625, exactly 62.5 units, to even: -3.875. One unit of the reduced type apart.
    assert float(ours[2, 0, 4]) == -3.875
    assert sorted(rewritten_dot_outputs(module, inputs)) == [0]
    rule = _rules(module, inputs)[0]
    assert rule(xla_cpu, ours).matches
    # Two units off is outside; so is an infinity where XLA:CPU's value is far from 3.9375.
    for index, value in (((0, 0, 4), -3.75), ((0, 0, 1), np.inf), ((0, 0, 0), np.inf)):
        wrong = ours.copy()
        wrong[index] = value
        assert not rule(xla_cpu, wrong).matches, index
    # An infinity where XLA:CPU's value is the largest finite one: either side of overflow.
    overflowed = ours.copy()
    overflowed[2, 0, 4] = -np.inf
    assert rule(xla_cpu, overflowed).matches
