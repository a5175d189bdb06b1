"""XLA:GPU's library calls in the evaluator: cuDNN gradients, cuBLAS trsm, jax's cuSOLVER calls.

Oracles: brute force (a convolution gradient as the derivative of the forward
`convolution` op, element by element), algebra on the results (L L^T = A,
op(a) x = b, P A = L U, Q R = A, A v = v w) and hand-worked numbers. Every
check runs on the evaluator and on the runtime's kernel library, which
compute each call independently.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.runtime import ModuleRuntime

Runner = Callable[[str, list[np.ndarray]], list[np.ndarray]]


def _evaluate(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    return list(evaluate_module(parse_hlo_module(text, "m.hlo"), args))


def _run(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    return ModuleRuntime(parse_hlo_module(text, "m.hlo")).run(args)


BF16 = ml_dtypes.bfloat16
RUNNERS = pytest.mark.parametrize("run", [_evaluate, _run], ids=["evaluator", "runtime"])
CONV_CONFIG = json.dumps(
    {"cudnn_conv_backend_config": {"activation_mode": "kNone", "conv_result_scale": 1}}
)


def module(params: str, call: str, result: str) -> str:
    return (
        f"HloModule m\n\nENTRY e {{\n{params}  c = {call}\n"
        f"  ROOT r = {result} get-tuple-element(c), index=0\n}}\n"
    )


# A 2-d convolution with stride, padding, window dilation and two feature groups, in two
# layouts: x (b01f) [2,5,6,4], w (01io) [2,2,2,6] (2 inputs per group, 6 outputs),
# y [2,3,2,6]; and the same in NCHW/OIHW as XLA hands cuDNN either.
WINDOW = "window={size=2x2 stride=2x3 pad=1_1x0_1 rhs_dilate=1x2}"
Layout = tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...]]
LAYOUTS: list[Layout] = [
    ("b01f_01io->b01f", (2, 5, 6, 4), (2, 2, 2, 6), (2, 3, 2, 6)),
    ("bf01_oi01->bf01", (2, 4, 5, 6), (6, 2, 2, 2), (2, 6, 3, 2)),
]
CONV_LAYOUTS = pytest.mark.parametrize("layout", LAYOUTS, ids=["nhwc", "nchw"])


def _dims(shape: tuple[int, ...]) -> str:
    return ",".join(map(str, shape))


def _forward(layout: Layout, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The forward convolution as the plain HLO op, evaluated."""
    labels, x_shape, w_shape, y_shape = layout
    text = (
        f"HloModule f\n\nENTRY e {{\n  x = f64[{_dims(x_shape)}] parameter(0)\n"
        f"  w = f64[{_dims(w_shape)}] parameter(1)\n  ROOT y = f64[{_dims(y_shape)}] "
        f"convolution(x, w), {WINDOW}, dim_labels={labels}, feature_group_count=2\n}}\n"
    )
    return evaluate_module(parse_hlo_module(text), [x, w])[0]


def _numbers(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float64)


@RUNNERS
@CONV_LAYOUTS
def test_conv_backward_input_is_the_gradient_of_the_forward_convolution(
    run: Runner, layout: Layout
) -> None:
    labels, x_shape, w_shape, y_shape = layout
    w, dy = _numbers(w_shape, 1), _numbers(y_shape, 2)
    text = module(
        f"  dy = f32[{_dims(y_shape)}] parameter(0)\n  w = f32[{_dims(w_shape)}] parameter(1)\n",
        f"(f32[{_dims(x_shape)}], u8[0]) custom-call(dy, w), {WINDOW}, dim_labels={labels}, "
        f'feature_group_count=2, custom_call_target="__cudnn$convBackwardInput", '
        f"backend_config={CONV_CONFIG}",
        f"f32[{_dims(x_shape)}]",
    )
    (dx,) = run(text, [dy.astype(np.float32), w.astype(np.float32)])
    expected = np.zeros(x_shape)
    for index in np.ndindex(*x_shape):  # d <dy, conv(x, w)> / d x[index]
        unit = np.zeros(x_shape)
        unit[index] = 1
        expected[index] = np.sum(dy * _forward(layout, unit, w))
    np.testing.assert_array_equal(dx, expected)  # small integers: exact in f32
    assert np.count_nonzero(expected) > 100


@RUNNERS
@CONV_LAYOUTS
def test_conv_backward_filter_is_the_gradient_of_the_forward_convolution(
    run: Runner, layout: Layout
) -> None:
    labels, x_shape, w_shape, y_shape = layout
    x, dy = _numbers(x_shape, 3), _numbers(y_shape, 4)
    text = module(
        f"  x = f32[{_dims(x_shape)}] parameter(0)\n  dy = f32[{_dims(y_shape)}] parameter(1)\n",
        f"(f32[{_dims(w_shape)}], u8[16]) custom-call(x, dy), {WINDOW}, dim_labels={labels}, "
        f'feature_group_count=2, custom_call_target="__cudnn$convBackwardFilter", '
        f"backend_config={CONV_CONFIG}",
        f"f32[{_dims(w_shape)}]",
    )
    (dw,) = run(text, [x.astype(np.float32), dy.astype(np.float32)])
    expected = np.zeros(w_shape)
    for index in np.ndindex(*w_shape):
        unit = np.zeros(w_shape)
        unit[index] = 1
        expected[index] = np.sum(dy * _forward(layout, x, unit))
    np.testing.assert_array_equal(dw, expected)


@RUNNERS
def test_conv_backward_input_by_hand_with_base_dilation_dropped(run: Runner) -> None:
    # 1-d, stride 2, kernel [1, 10]: y[p] = x[2p] + 10 x[2p+1]; x has 5 elements, x[4] unread.
    text = module(
        "  dy = f32[1,2,1] parameter(0)\n  w = f32[2,1,1] parameter(1)\n",
        "(f32[1,5,1], u8[0]) custom-call(dy, w), window={size=2 stride=2}, "
        "dim_labels=b0f_0io->b0f, "
        f'custom_call_target="__cudnn$convBackwardInput", backend_config={CONV_CONFIG}',
        "f32[1,5,1]",
    )
    dy = np.array([3, 5], np.float32).reshape(1, 2, 1)
    w = np.array([1, 10], np.float32).reshape(2, 1, 1)
    (dx,) = run(text, [dy, w])
    np.testing.assert_array_equal(dx.reshape(-1), [3, 30, 5, 50, 0])


@RUNNERS
@pytest.mark.parametrize(
    ("mode", "expected"),
    [("kRelu6", [6, 0, 2.5]), ("kElu", [8, np.expm1(-2), 2.5]), ("kLeakyRelu", [8, -0.2, 2.5])],
)
def test_conv_bias_activation_epilogues(run: Runner, mode: str, expected: list[float]) -> None:
    config = json.dumps(
        {"cudnn_conv_backend_config": {"activation_mode": mode, "leakyrelu_alpha": 0.1}}
    )
    text = module(
        "  x = f32[1,3,1] parameter(0)\n  k = f32[1,1,1] parameter(1)\n  b = f32[1] parameter(2)\n",
        "(f32[1,3,1], u8[0]) custom-call(x, k, b), window={size=1}, dim_labels=b0f_0io->b0f, "
        f'custom_call_target="__cudnn$convBiasActivationForward", backend_config={config}',
        "f32[1,3,1]",
    )
    x = np.array([3.5, -1.5, 0.75], np.float32).reshape(1, 3, 1)
    (out,) = run(text, [x, np.full((1, 1, 1), 2, np.float32), np.array([1], np.float32)])
    np.testing.assert_allclose(out.reshape(-1), expected, rtol=1e-6)


def _spd(n: int, batch: int, seed: int) -> np.ndarray:
    g = np.random.default_rng(seed).standard_normal((batch, n, n))
    return (g @ np.swapaxes(g, 1, 2) + n * np.eye(n)).astype(np.float32)


def _solver(target: str, operands: str, result: str, config: str) -> str:
    """A module calling `target` on the parameters `operands`, returning every result leaf."""
    names = ", ".join(line.split(" = ")[0].strip() for line in operands.splitlines())
    leaves = result[1:-1].split(", ")
    elements = "".join(
        f"  g{i} = {leaf} get-tuple-element(c), index={i}\n" for i, leaf in enumerate(leaves)
    )
    outputs = ", ".join(f"g{i}" for i in range(len(leaves)))
    return (
        f"HloModule m\n\nENTRY e {{\n{operands}  c = {result} custom-call({names}), "
        f'custom_call_target="{target}", api_version=API_VERSION_TYPED_FFI, '
        f"backend_config={config}\n{elements}  ROOT t = {result} tuple({outputs})\n}}\n"
    )


@RUNNERS
@pytest.mark.parametrize("lower", [True, False])
def test_potrf_factors_and_keeps_the_other_triangle(run: Runner, lower: bool) -> None:
    a = _spd(4, 3, 5)
    unread = (0, 3) if lower else (3, 0)
    a[:, unread[0], unread[1]] += 7  # not symmetric: the unread triangle comes back unchanged
    text = _solver(
        "cusolver_potrf_ffi", "  a = f32[3,4,4] parameter(0)\n", "(f32[3,4,4], s32[3])",
        f"{{lower = {str(lower).lower()}}}",
    )  # fmt: skip
    factor, info = run(text, [a])
    np.testing.assert_array_equal(info, [0, 0, 0])
    part = np.tril if lower else np.triu
    f = part(factor)
    product = f @ np.swapaxes(f, 1, 2) if lower else np.swapaxes(f, 1, 2) @ f
    sym = part(a) + np.swapaxes(part(a, -1 if lower else 1), 1, 2)
    np.testing.assert_allclose(product, sym, rtol=1e-5)
    other = np.triu if lower else np.tril
    np.testing.assert_array_equal(other(factor, 1 if lower else -1), other(a, 1 if lower else -1))


@RUNNERS
def test_potrf_info_names_the_first_minor_that_is_not_positive(run: Runner) -> None:
    a = np.array([[4, 2, 0], [2, 1, 0], [0, 0, 1]], np.float32)  # 2x2 minor is singular
    text = _solver("cusolver_potrf_ffi", "  a = f32[3,3] parameter(0)\n", "(f32[3,3], s32[])",
                   "{lower = true}")  # fmt: skip
    _, info = run(text, [a])
    assert int(info) == 2


@RUNNERS
@pytest.mark.parametrize(
    ("left", "lower", "transpose", "unit"),
    list(
        itertools.product(
            [True, False], [True, False], ["NO_TRANSPOSE", "TRANSPOSE"], [False, True]
        )
    ),
)
def test_triangular_solve_solves_every_variant(
    run: Runner, left: bool, lower: bool, transpose: str, unit: bool
) -> None:
    rng = np.random.default_rng(6)
    a = (rng.standard_normal((2, 3, 3)) + 4 * np.eye(3)).astype(np.float32)
    b_shape = (2, 3, 2) if left else (2, 2, 3)
    b = rng.standard_normal(b_shape).astype(np.float32)
    config = json.dumps({"left_side": left, "lower": lower, "unit_diagonal": unit,
                         "transpose_a": transpose})  # fmt: skip
    dims = ",".join(map(str, b_shape))
    text = module(
        f"  a = f32[2,3,3] parameter(0)\n  b = f32[{dims}] parameter(1)\n",
        f'(f32[{dims}], s8[32]) custom-call(a, b), custom_call_target="__cublas$triangularSolve", '
        f"backend_config={config}",
        f"f32[{dims}]",
    )
    (x,) = run(text, [a, b])
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t[:, range(3), range(3)] = 1
    if transpose == "TRANSPOSE":
        t = np.swapaxes(t, 1, 2)
    product = t @ x if left else x @ t
    np.testing.assert_allclose(product, b, rtol=1e-5, atol=1e-5)


@RUNNERS
def test_getrf_pivots_reconstruct_the_matrix(run: Runner) -> None:
    a = np.random.default_rng(7).standard_normal((2, 4, 4)).astype(np.float32)
    a[1, :, 0] = [0, 1, -5, 5]  # a tie for the first pivot: the first largest wins
    text = _solver("cusolver_getrf_ffi", "  a = f32[2,4,4] parameter(0)\n",
                   "(f32[2,4,4], s32[2,4], s32[2])", "{}")  # fmt: skip
    lu, pivots, info = run(text, [a])
    np.testing.assert_array_equal(info, [0, 0])
    assert pivots[1, 0] == 3  # 1-based row of -5
    for m in range(2):
        permuted = a[m].copy()
        for j, p in enumerate(pivots[m]):
            permuted[[j, p - 1]] = permuted[[p - 1, j]]
        lower = np.tril(lu[m], -1) + np.eye(4)
        np.testing.assert_allclose(lower @ np.triu(lu[m]), permuted, rtol=1e-5, atol=1e-5)
        assert np.all(np.abs(np.tril(lu[m], -1)) <= 1)


@RUNNERS
def test_geqrf_and_orgqr_give_q_and_r(run: Runner) -> None:
    a = np.random.default_rng(8).standard_normal((5, 3)).astype(np.float32)
    text = (
        "HloModule m\n\nENTRY e {\n  a = f32[5,3] parameter(0)\n"
        '  c = (f32[5,3], f32[3]) custom-call(a), custom_call_target="cusolver_geqrf_ffi", '
        "backend_config={}\n  h = f32[5,3] get-tuple-element(c), index=0\n"
        "  tau = f32[3] get-tuple-element(c), index=1\n"
        '  q = f32[5,3] custom-call(h, tau), custom_call_target="cusolver_orgqr_ffi", '
        "backend_config={}\n  ROOT t = (f32[5,3], f32[3], f32[5,3]) tuple(h, tau, q)\n}\n"
    )
    h, tau, q = run(text, [a])
    np.testing.assert_allclose(q @ np.triu(h)[:3], a, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-5)
    assert np.all((tau >= 1) & (tau <= 2))  # LAPACK's dlarfg: 1 <= tau <= 2 for real vectors


@RUNNERS
def test_syevd_eigenpairs(run: Runner) -> None:
    a = _spd(4, 1, 9)[0]
    text = _solver("cusolver_syevd_ffi", "  a = f32[4,4] parameter(0)\n",
                   "(f32[4,4], f32[4], s32[])", "{algorithm = 0 : ui8, lower = true}")  # fmt: skip
    v, w, info = run(text, [a])
    assert int(info) == 0 and np.all(np.diff(w) > 0)
    np.testing.assert_allclose(a @ v, v * w, rtol=1e-4, atol=1e-4)
    lead = v[np.argmax(np.abs(v), axis=0), range(4)]
    assert np.all(lead > 0)


@pytest.mark.parametrize(
    ("target", "reason"),
    [("__cudnn$convForwardGraph", "serialized cuDNN graph"), ("cusolver_gesvd_ffi", "singular")],
)
def test_known_unsupported_targets_say_why(target: str, reason: str) -> None:
    text = (
        "HloModule m\n\nENTRY e {\n  x = f32[3] parameter(0)\n"
        f'  ROOT c = f32[3] custom-call(x), custom_call_target="{target}"\n}}\n'
    )
    expected = f"m.hlo:5:8: error: .*unsupported custom-call target: .*{reason}"
    with pytest.raises(UserError, match=expected):
        parse_hlo_module(text, "m.hlo")


def test_solver_on_integers_is_a_located_error() -> None:
    text = _solver("cusolver_potrf_ffi", "  a = s32[2,2] parameter(0)\n", "(s32[2,2], s32[])",
                   "{lower = true}")  # fmt: skip
    with pytest.raises(UserError, match=r"m.hlo:\d+:\d+: .*f32 and f64 run"):
        parse_hlo_module(text, "m.hlo")


def test_malformed_ffi_config_is_a_located_error() -> None:
    text = _solver("cusolver_potrf_ffi", "  a = f32[2,2] parameter(0)\n", "(f32[2,2], s32[])",
                   "{lower true}")  # fmt: skip
    with pytest.raises(UserError, match="cannot read the backend_config entry 'lower true'"):
        _evaluate(text, [np.eye(2, dtype=np.float32)])


PERMUTATION = (
    "HloModule m\n\nENTRY e {\n  p = s32[2,3] parameter(0)\n  ROOT c = s32[2,4] custom-call(p), "
    'custom_call_target="cu_lu_pivots_to_permutation", backend_config={}\n}\n'
)


@RUNNERS
def test_lu_pivots_to_permutation_by_hand(run: Runner) -> None:
    # [0,1,2,3] swap 0<->2: [2,1,0,3]; 1<->3: [2,3,0,1]; 2<->2: unchanged.
    pivots = np.array([[2, 3, 2], [0, 1, 2]], np.int32)
    (order,) = run(PERMUTATION, [pivots])
    np.testing.assert_array_equal(order, [[2, 3, 0, 1], [0, 1, 2, 3]])


@RUNNERS
def test_lu_pivot_outside_the_permutation_is_a_located_error(run: Runner) -> None:
    with pytest.raises(UserError, match=r"m.hlo:5:8: .*pivot 4 is outside the permutation's 0..3"):
        run(PERMUTATION, [np.array([[0, 4, 2], [0, 1, 2]], np.int32)])


@RUNNERS
def test_bf16_conv_backward_filter_accumulates_wide_and_rounds_once(run: Runner) -> None:
    labels, x_shape, w_shape, y_shape = LAYOUTS[0]
    x, dy = _numbers(x_shape, 5) * 7, _numbers(y_shape, 6) * 5  # sums need more than 8 bits
    text = module(
        f"  x = bf16[{_dims(x_shape)}] parameter(0)\n  dy = bf16[{_dims(y_shape)}] parameter(1)\n",
        f"(bf16[{_dims(w_shape)}], u8[0]) custom-call(x, dy), {WINDOW}, dim_labels={labels}, "
        f'feature_group_count=2, custom_call_target="__cudnn$convBackwardFilter", '
        f"backend_config={CONV_CONFIG}",
        f"bf16[{_dims(w_shape)}]",
    )
    (dw,) = run(text, [x.astype(BF16), dy.astype(BF16)])
    exact = np.zeros(w_shape)
    for index in np.ndindex(*w_shape):
        unit = np.zeros(w_shape)
        unit[index] = 1
        exact[index] = np.sum(dy * _forward(LAYOUTS[0], x, unit))
    assert dw.dtype == BF16
    assert np.any(exact.astype(BF16).astype(np.float64) != exact)  # rounding happened
    np.testing.assert_array_equal(dw, exact.astype(np.float32).astype(BF16))


def test_solver_result_shapes_are_checked_where_declared() -> None:
    text = _solver("cusolver_getrf_ffi", "  a = f32[2,4,3] parameter(0)\n",
                   "(f32[2,4,3], s32[2,4], s32[2])", "{}")  # fmt: skip
    expected = r"results must start with \(f32\[2,4,3\], s32\[2,3\], s32\[2\]\)"
    with pytest.raises(UserError, match=rf"m.hlo:\d+:\d+: error: .*{expected}"):
        parse_hlo_module(text, "m.hlo")


def test_gradient_shapes_must_fit_the_forward_convolution() -> None:
    # A stride-2 window over 5 inputs gives 2 outputs, not 3.
    text = module(
        "  dy = f32[1,3,1] parameter(0)\n  w = f32[2,1,1] parameter(1)\n",
        "(f32[1,5,1], u8[0]) custom-call(dy, w), window={size=2 stride=2}, "
        'dim_labels=b0f_0io->b0f, custom_call_target="__cudnn$convBackwardInput", '
        f"backend_config={CONV_CONFIG}",
        "f32[1,5,1]",
    )
    with pytest.raises(
        UserError, match=r"gives f32\[1,2,1\], but the output gradient is f32\[1,3,1\]"
    ):
        parse_hlo_module(text, "m.hlo")


def test_triangular_solve_operands_must_fit() -> None:
    config = json.dumps({"left_side": False, "lower": True, "transpose_a": "NO_TRANSPOSE"})
    text = module(
        "  a = f32[3,3] parameter(0)\n  b = f32[3,2] parameter(1)\n",
        '(f32[3,2], s8[0]) custom-call(a, b), custom_call_target="__cublas$triangularSolve", '
        f"backend_config={config}",
        "f32[3,2]",
    )
    with pytest.raises(UserError, match=r"a f32\[3,3\] does not fit b f32\[3,2\] .*columns"):
        parse_hlo_module(text, "m.hlo")


@RUNNERS
def test_xla_cusolver_cholesky_puts_the_workspace_between_factor_and_info(run: Runner) -> None:
    a = _spd(3, 2, 10)
    text = _solver("__cusolver$cholesky", "  a = f32[2,3,3] parameter(0)\n",
                   "(f32[2,3,3], f32[96], s32[2])", '{"lower":true}')  # fmt: skip
    factor, workspace, info = run(text, [a])
    np.testing.assert_array_equal(info, [0, 0])
    assert workspace.shape == (96,)
    lower = np.tril(factor)
    np.testing.assert_allclose(lower @ np.swapaxes(lower, 1, 2), a, rtol=1e-5)
