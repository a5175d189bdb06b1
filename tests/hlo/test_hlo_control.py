"""sort, while, conditional, library custom calls and collectives in the evaluator."""

from __future__ import annotations

import json

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module

LESS_BY_KEY = (
    "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n"
    "  d = s32[] parameter(3)\n  ROOT r = pred[] compare(a, b), direction=LT\n}\n"
)
# Descending by |x|: a custom comparator, not just one compare of the parameters.
GREATER_MAGNITUDE = (
    "gm {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  x = f32[] abs(a)\n"
    "  y = f32[] abs(b)\n  ROOT r = pred[] compare(x, y), direction=GT\n}\n"
)
COUNTER = (
    "cond {\n  s = (s32[], f32[3]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n"
    "  n = s32[] constant(5)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\n\n"
    "body {\n  s = (s32[], f32[3]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n"
    "  v = f32[3] get-tuple-element(s), index=1\n  one = s32[] constant(1)\n"
    "  j = s32[] add(i, one)\n  w = f32[3] add(v, v)\n  ROOT t = (s32[], f32[3]) tuple(j, w)\n}\n"
)
BRANCHES = (
    "neg {\n  x = f32[2] parameter(0)\n  ROOT n = f32[2] negate(x)\n}\n\n"
    "dbl {\n  x = f32[2] parameter(0)\n  ROOT d = f32[2] add(x, x)\n}\n\n"
    "same {\n  x = f32[2] parameter(0)\n  ROOT c = f32[2] copy(x)\n}\n"
)


def module(body: str, *computations: str) -> str:
    return "HloModule t\n\n" + "\n".join(computations) + "\nENTRY e {\n" + body + "\n}\n"


def run(text: str, *args: np.ndarray) -> list[np.ndarray]:
    return evaluate_module(parse_hlo_module(text), list(args))


def test_two_operand_sort_is_stable_and_carries_the_payload() -> None:
    keys = np.array([[3, 1, 3, 0, 1]], np.float32)
    payload = np.arange(5, dtype=np.int32).reshape(1, 5)
    text = module(
        "  k = f32[1,5] parameter(0)\n  p = s32[1,5] parameter(1)\n"
        "  ROOT s = (f32[1,5], s32[1,5]) sort(k, p), dimensions={1}, is_stable=true, to_apply=lt",
        LESS_BY_KEY,
    )
    sorted_keys, order = run(text, keys, payload)
    np.testing.assert_array_equal(sorted_keys, [[0, 1, 1, 3, 3]])
    np.testing.assert_array_equal(order, [[3, 1, 4, 0, 2]])  # equal keys keep their order


def test_sort_along_dimension_zero_with_a_custom_comparator() -> None:
    x = np.array([[1, -5], [-3, 2], [2, 0]], np.float32)
    text = module(
        "  x = f32[3,2] parameter(0)\n  ROOT s = f32[3,2] sort(x), dimensions={0}, to_apply=gm",
        GREATER_MAGNITUDE,
    )
    (out,) = run(text, x)
    np.testing.assert_array_equal(out, [[-3, -5], [2, 2], [1, 0]])


def test_while_runs_the_body_until_the_condition_fails() -> None:
    text = module(
        "  v = f32[3] parameter(0)\n  z = s32[] constant(0)\n  t = (s32[], f32[3]) tuple(z, v)\n"
        "  ROOT w = (s32[], f32[3]) while(t), condition=cond, body=body",
        COUNTER,
    )
    count, values = run(text, np.array([1, -2, 0.5], np.float32))
    assert int(count) == 5
    np.testing.assert_array_equal(values, [32, -64, 16])


@pytest.mark.parametrize(("index", "expected"), [(0, [-1, 2]), (1, [2, -4]), (7, [1, -2])])
def test_indexed_conditional_picks_a_branch_and_clamps_to_the_last(
    index: int, expected: list[float]
) -> None:
    text = module(
        "  i = s32[] parameter(0)\n  x = f32[2] parameter(1)\n"
        "  ROOT c = f32[2] conditional(i, x, x, x), branch_computations={neg, dbl, same}",
        BRANCHES,
    )
    (out,) = run(text, np.array(index, np.int32), np.array([1, -2], np.float32))
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(("flag", "expected"), [(True, [-1, 2]), (False, [2, -4])])
def test_pred_conditional(flag: bool, expected: list[float]) -> None:
    text = module(
        "  p = pred[] parameter(0)\n  x = f32[2] parameter(1)\n"
        "  ROOT c = f32[2] conditional(p, x, x), true_computation=neg, false_computation=dbl",
        BRANCHES,
    )
    (out,) = run(text, np.array(flag), np.array([1, -2], np.float32))
    np.testing.assert_array_equal(out, expected)


def gemm_call(config: dict[str, object], operands: str, extra: str = "") -> str:
    body = json.dumps({"gemm_backend_config": config}, separators=(",", ":"))
    return (
        "  a = f32[2,3] parameter(0)\n  b = f32[3,2] parameter(1)\n  c = f32[2,2] parameter(2)\n"
        "  v = f32[2] parameter(3)\n" + extra
        + f"  g = (f32[2,2], s8[16]) custom-call({operands}), "
        f'custom_call_target="__cublas$gemm", backend_config={body}\n'
        "  ROOT r = f32[2,2] get-tuple-element(g), index=0"
    )  # fmt: skip


GEMM_ARGS = (
    np.array([[1, 2, 3], [-1, 0, 1]], np.float32),
    np.array([[1, 0], [0, 1], [1, -1]], np.float32),
    np.array([[10, 20], [30, 40]], np.float32),
    np.array([100, -100], np.float32),
)
DIMS = {"lhs_contracting_dimensions": ["1"], "rhs_contracting_dimensions": ["0"]}


def test_cublas_gemm_with_alpha_beta_and_a_bias_relu_epilogue() -> None:
    # a @ b = [[4, -1], [0, -1]]; 2 * that + 0.5 * c = [[13, 8], [15, 18]]; + bias, relu.
    config = {"alpha_real": 2, "beta": 0.5, "dot_dimension_numbers": DIMS, "epilogue": "BIAS_RELU"}
    (out,) = run(module(gemm_call(config, "a, b, c, v")), *GEMM_ARGS)
    np.testing.assert_array_equal(out, [[113, 0], [115, 0]])


def test_cublas_gemm_default_epilogue_is_the_dot() -> None:
    config = {"alpha_real": 1, "beta": 0, "dot_dimension_numbers": DIMS}
    (out,) = run(module(gemm_call(config, "a, b")), *GEMM_ARGS)
    np.testing.assert_array_equal(out, [[4, -1], [0, -1]])


def test_cudnn_forward_convolution_with_bias_and_relu() -> None:
    config = json.dumps(
        {"cudnn_conv_backend_config": {"activation_mode": "kRelu", "conv_result_scale": 1}}
    )
    text = module(
        "  x = f32[1,3,1] parameter(0)\n  k = f32[1,2,1] parameter(1)\n  b = f32[1] parameter(2)\n"
        "  c = (f32[1,2,1], u8[0]) custom-call(x, k, b), window={size=2}, "
        'dim_labels=b0f_o0i->b0f, custom_call_target="__cudnn$convBiasActivationForward", '
        f"backend_config={config}\n  ROOT r = f32[1,2,1] get-tuple-element(c), index=0"
    )
    x = np.array([1, -4, 2], np.float32).reshape(1, 3, 1)
    k = np.array([1, 1], np.float32).reshape(1, 2, 1)
    (out,) = run(text, x, k, np.array([0.5], np.float32))
    np.testing.assert_array_equal(out.reshape(-1), [0, 0])  # -3 + 0.5 and -2 + 0.5, relu


def test_top_k_custom_call_takes_the_largest_and_their_indices() -> None:
    text = module(
        "  x = f32[2,4] parameter(0)\n"
        '  ROOT t = (f32[2,2], s32[2,2]) custom-call(x), custom_call_target="TopK"'
    )
    values, indices = run(text, np.array([[1, 7, 7, 3], [0, -1, 5, 2]], np.float32))
    np.testing.assert_array_equal(values, [[7, 7], [5, 2]])
    np.testing.assert_array_equal(indices, [[1, 2], [2, 3]])


def test_collectives_are_identities_on_one_device() -> None:
    text = module(
        "  x = f32[3] parameter(0)\n"
        "  r = f32[3] all-reduce(x), replica_groups={}, to_apply=add\n"
        "  ROOT g = f32[3] all-gather(r), replica_groups={}, dimensions={0}",
        "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
        "  ROOT s = f32[] add(a, b)\n}\n",
    )
    (out,) = run(text, np.array([1, 2, 3], np.float32))
    np.testing.assert_array_equal(out, [1, 2, 3])


def test_unsupported_custom_call_target_is_a_located_error() -> None:
    text = module(
        '  x = f32[3] parameter(0)\n  ROOT c = f32[3] custom-call(x), custom_call_target="foo"'
    )
    with pytest.raises(UserError) as caught:
        parse_hlo_module(text, "m.hlo")
    first = str(caught.value).splitlines()[0]
    assert first.startswith(
        "m.hlo:6:8: error: custom-call 'c' (foo): unsupported custom-call target"
    )


def test_rng_bit_generator_with_an_unknown_algorithm_is_a_located_error() -> None:
    text = module(
        "  s = u64[2] parameter(0)\n"
        "  ROOT r = (u64[2], u32[4]) rng-bit-generator(s), algorithm=rng_mersenne"
    )
    parsed = parse_hlo_module(text, "m.hlo")
    with pytest.raises(UserError, match=r"m\.hlo:\d+:\d+: error: rng-bit-generator 'r'"):
        evaluate_module(parsed, [np.zeros(2, np.uint64)])


def test_while_errors_name_the_mismatched_computation() -> None:
    text = module(
        "  v = f32[3] parameter(0)\n  ROOT w = f32[3] while(v), condition=cond, body=body", COUNTER
    )
    with pytest.raises(UserError, match=r"while 'w': 'cond' must take \(f32\[3\]\)"):
        parse_hlo_module(text)


def test_map_applies_a_computation_elementwise() -> None:
    fma = (
        "fma {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  m = f32[] multiply(a, b)\n"
        "  one = f32[] constant(1)\n  ROOT s = f32[] add(m, one)\n}\n"
    )
    text = module(
        "  x = f32[2,2] parameter(0)\n  y = f32[2,2] parameter(1)\n"
        "  ROOT m = f32[2,2] map(x, y), dimensions={0,1}, to_apply=fma",
        fma,
    )
    x = np.array([[1, 2], [3, 4]], np.float32)
    (out,) = run(text, x, x)
    np.testing.assert_array_equal(out, [[2, 5], [10, 17]])


def test_opt_barrier_passes_its_tuple_through() -> None:
    text = module(
        "  x = f32[2] parameter(0)\n  t = (f32[2], f32[2]) tuple(x, x)\n"
        "  b = (f32[2], f32[2]) opt-barrier(t)\n  ROOT g = f32[2] get-tuple-element(b), index=1"
    )
    (out,) = run(text, np.array([3, -1], np.float32))
    np.testing.assert_array_equal(out, [3, -1])


def test_map_over_a_dimension_subset_is_an_error() -> None:
    text = module(
        "  x = f32[2,2] parameter(0)\n  ROOT m = f32[2,2] map(x), dimensions={0}, to_apply=neg",
        "neg {\n  a = f32[] parameter(0)\n  ROOT n = f32[] negate(a)\n}\n",
    )
    with pytest.raises(UserError, match=r"map 'm': map dimensions must be all of 0\.\.1"):
        parse_hlo_module(text)


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (
            "ROOT c = f32[2] conditional(p, x, x), true_computation=neg, "
            "false_computation=dbl, branch_computations={same}",
            "conditional 'c': a pred conditional needs true_computation and false_computation; "
            "an s32 one needs branch_computations",
        ),
        (
            "ROOT c = f32[2] conditional(p, x), true_computation=neg, false_computation=dbl",
            "conditional 'c': conditional has 2 branches but 1 branch operands",
        ),
        (
            "ROOT s = f32[2] sort(x), dimensions={0}, to_apply=neg",
            "sort 's': the comparator 'neg' must take two scalars per operand (2 parameters)",
        ),
    ],
)
def test_control_flow_shape_errors(root: str, message: str) -> None:
    text = module(f"  p = pred[] parameter(0)\n  x = f32[2] parameter(1)\n  {root}", BRANCHES)
    with pytest.raises(UserError) as caught:
        parse_hlo_module(text, "m.hlo")
    assert str(caught.value).splitlines()[0] == f"m.hlo:21:8: error: {message}"
