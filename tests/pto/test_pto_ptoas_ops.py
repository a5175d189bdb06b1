"""PTOAS's tile ops beyond the core set: each runs in the PTO executor on our own
small kernels and is compared with a numpy computation written here, from the
ISA pages' formulas (not from the executor's code)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module
from xla_emit.runtime.pto_kernels import run_pto_module

F = "!pto.tile_buf<vec, 4x8xf32>"
INT = "!pto.tile_buf<vec, 4x8xi32>"
COLUMN = "!pto.tile_buf<vec, 4x1xf32, valid=4x1>"
ROW = "!pto.tile_buf<vec, 1x8xf32>"
rng = np.random.default_rng(7)


def run_op(line: str, args: list[tuple[str, object]], out_type: str) -> np.ndarray:
    """Run `line` (a level-2 op writing %out) with `args` (name, type; value) as parameters."""
    params = ", ".join(f"%{name}: {t}" for name, (t, _) in args)
    text = f"""
func.func @k({params}, %out: {out_type}) {{
  {line}
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module)
    block = executor.functions["k"].body.block
    values: list[object] = []
    for arg, (_, (_, value)) in zip(block.args, args, strict=False):
        if isinstance(value, np.ndarray):
            tile = Tile.of_type(arg.type)  # type: ignore[arg-type]
            tile.data[...] = value
            values.append(tile)
        else:
            values.append(value)
    out = Tile.of_type(block.args[-1].type)  # type: ignore[arg-type]
    executor.run("k", [*values, out])  # type: ignore[list-item]
    return out.data


def floats(shape: tuple[int, int] = (4, 8)) -> np.ndarray:
    return rng.uniform(-4, 4, shape).astype(np.float32)


def ints(shape: tuple[int, int] = (4, 8), low: int = -50, high: int = 50) -> np.ndarray:
    return rng.integers(low, high, shape).astype(np.int32)


A, B, C = floats(), floats(), floats()
B_NONZERO = np.where(np.abs(B) < 0.5, 1.5, B).astype(np.float32)
IA, IB = ints(), ints(low=1, high=9)

# (op line, args, result type, expected) for ops with two or three tile inputs.
TILE_CASES: list[
    tuple[str, list[tuple[str, tuple[str, object]]], str, Callable[[], np.ndarray]]
] = [
    (
        f"pto.tand ins(%a, %b : {INT}, {INT}) outs(%out : {INT})",
        [("a", (INT, IA)), ("b", (INT, IB))],
        INT,
        lambda: IA & IB,
    ),
    (
        f"pto.tor ins(%a, %b : {INT}, {INT}) outs(%out : {INT})",
        [("a", (INT, IA)), ("b", (INT, IB))],
        INT,
        lambda: IA | IB,
    ),
    (
        f"pto.tshl ins(%a, %b : {INT}, {INT}) outs(%out : {INT})",
        [("a", (INT, IA)), ("b", (INT, IB))],
        INT,
        lambda: IA << IB,
    ),
    (
        f"pto.tshr ins(%a, %b : {INT}, {INT}) outs(%out : {INT})",
        [("a", (INT, IA)), ("b", (INT, IB))],
        INT,
        lambda: IA >> IB,
    ),
    (
        f"pto.txor ins(%a, %b, %t : {INT}, {INT}, {INT}) outs(%out : {INT})",
        [("a", (INT, IA)), ("b", (INT, IB)), ("t", (INT, IA))],
        INT,
        lambda: IA ^ IB,
    ),
    (
        f"pto.tfmod ins(%a, %b : {F}, {F}) outs(%out : {F})",
        [("a", (F, A)), ("b", (F, B_NONZERO))],
        F,
        lambda: np.array(
            [
                [np.fmod(x, y) for x, y in zip(r, s, strict=True)]
                for r, s in zip(A, B_NONZERO, strict=True)
            ]
        ),
    ),
    (
        f"pto.trem ins(%a, %b, %t : {F}, {F}, {F}) outs(%out : {F})",
        [("a", (F, A)), ("b", (F, B_NONZERO)), ("t", (F, A))],
        F,
        lambda: A - np.floor(A / B_NONZERO) * B_NONZERO,
    ),
    (
        # No scratch tile: on A2A3 it would be PTOAS main's packed u8 sign mask.
        f"pto.tprelu ins(%a, %b : {F}, {F}) outs(%out : {F})",
        [("a", (F, A)), ("b", (F, B))],
        F,
        lambda: np.where(A > 0, A, A * B),
    ),
    (
        f"pto.taddc ins(%a, %b, %c : {F}, {F}, {F}) outs(%out : {F})",
        [("a", (F, A)), ("b", (F, B)), ("c", (F, C))],
        F,
        lambda: A + B + C,
    ),
    (
        f"pto.tsubc ins(%a, %b, %c : {F}, {F}, {F}) outs(%out : {F})",
        [("a", (F, A)), ("b", (F, B)), ("c", (F, C))],
        F,
        lambda: A - B + C,
    ),
    (
        f"pto.tneg ins(%a : {F}) outs(%out : {F})",
        [("a", (F, A))],
        F,
        lambda: -A,
    ),
    (
        f"pto.tnot ins(%a : {INT}) outs(%out : {INT})",
        [("a", (INT, IA))],
        INT,
        lambda: ~IA,
    ),
    (
        f"pto.trecip ins(%b : {F}) outs(%out : {F})",
        [("b", (F, B_NONZERO))],
        F,
        lambda: 1 / B_NONZERO,
    ),
]


@pytest.mark.parametrize(
    ("line", "args", "out_type", "expected"), TILE_CASES, ids=[c[0].split()[0] for c in TILE_CASES]
)
def test_tile_ops_match_numpy(
    line: str, args: list, out_type: str, expected: Callable[[], np.ndarray]
) -> None:
    np.testing.assert_allclose(run_op(line, args, out_type), expected(), rtol=1e-6)


SCALAR_CASES = [
    ("tsubs", lambda x, s: x - s),
    ("tmaxs", np.maximum),
    ("tmins", np.minimum),
    ("tfmods", np.fmod),
    ("trems", lambda x, s: x - np.floor(x / s) * s),
    ("tlrelu", lambda x, s: np.where(x > 0, x, x * s)),
]


@pytest.mark.parametrize(("op", "expected"), SCALAR_CASES, ids=[c[0] for c in SCALAR_CASES])
def test_tile_scalar_ops_match_numpy(op: str, expected: Callable) -> None:
    scratch = ", %t" if op == "trems" else ""
    scratch_type = f", {F}" if op == "trems" else ""
    line = f"pto.{op} ins(%a, %s{scratch} : {F}, f32{scratch_type}) outs(%out : {F})"
    args = [("a", (F, A)), ("s", ("f32", 1.5))]
    if op == "trems":
        args.append(("t", (F, A)))
    got = run_op(line, args, F)
    np.testing.assert_allclose(got, expected(A, np.float32(1.5)), rtol=1e-6)


@pytest.mark.parametrize("op", ["tands", "tors", "tshls", "tshrs"])
def test_integer_tile_scalar_ops(op: str) -> None:
    got = run_op(
        f"pto.{op} ins(%a, %s : {INT}, i32) outs(%out : {INT})",
        [("a", (INT, IA)), ("s", ("i32", 3))],
        INT,
    )
    expected = {"tands": IA & 3, "tors": IA | 3, "tshls": IA << 3, "tshrs": IA >> 3}[op]
    np.testing.assert_array_equal(got, expected)


def test_tdivs_with_the_scalar_on_either_side() -> None:
    args = [("a", (F, B_NONZERO)), ("s", ("f32", 2.0))]
    tile_first = run_op(f"pto.tdivs ins(%a, %s : {F}, f32) outs(%out : {F})", args, F)
    np.testing.assert_allclose(tile_first, B_NONZERO / 2, rtol=1e-6)
    scalar_first = run_op(f"pto.tdivs ins(%s, %a : f32, {F}) outs(%out : {F})", args, F)
    np.testing.assert_allclose(scalar_first, 2 / B_NONZERO, rtol=1e-6)


def test_taddsc_tsubsc_texpands_taxpy() -> None:
    args = [("a", (F, A)), ("s", ("f32", 0.25)), ("b", (F, B))]
    line = f"pto.taddsc ins(%a, %s, %b : {F}, f32, {F}) outs(%out : {F})"
    np.testing.assert_allclose(run_op(line, args, F), A + 0.25 + B, rtol=1e-6)
    line = f"pto.tsubsc ins(%a, %s, %b : {F}, f32, {F}) outs(%out : {F})"
    np.testing.assert_allclose(run_op(line, args, F), A - 0.25 + B, rtol=1e-6)
    filled = run_op(f"pto.texpands ins(%s : f32) outs(%out : {F})", [("s", ("f32", 3.0))], F)
    np.testing.assert_array_equal(filled, np.full((4, 8), 3.0, np.float32))
    # taxpy reads the destination: here it starts at zero.
    axpy = run_op(
        f"pto.taxpy ins(%a, %s : {F}, f32) outs(%out : {F})",
        [("a", (F, A)), ("s", ("f32", 2.0))],
        F,
    )
    np.testing.assert_allclose(axpy, 2 * A, rtol=1e-6)


def test_partial_ops_combine_where_both_are_valid() -> None:
    small = "!pto.tile_buf<vec, 4x8xf32, valid=2x8>"
    got = run_op(
        f"pto.tpartadd ins(%a, %b : {F}, {small}) outs(%out : {F})",
        [("a", (F, A)), ("b", (small, B))],
        F,
    )
    expected = A.copy()
    expected[:2] += B[:2]
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_compare_packs_bits_and_select_reads_them() -> None:
    # One mask byte per row: tsel reads the mask's valid bytes as one bit stream.
    mask = "!pto.tile_buf<vec, 4x32xui8, valid=4x1>"
    text = f"""
func.func @k(%a: {F}, %b: {F}, %m: {mask}, %t: {F}, %out: {F}) {{
  pto.tcmp ins(%a, %b {{cmpMode = #pto<cmp gt>}} : {F}, {F}) outs(%m : {mask})
  pto.tsel ins(%m, %a, %b, %t : {mask}, {F}, {F}, {F}) outs(%out : {F})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    args = module.body.block.ops.first.body.block.args  # type: ignore[union-attr]
    tiles = [Tile.of_type(a.type) for a in args]  # type: ignore[arg-type]
    tiles[0].data[...] = A
    tiles[1].data[...] = B
    PTOExecutor(module).run("k", tiles)  # type: ignore[arg-type]
    # Bit j of byte w in row i is element (i, 8w + j), least significant bit first.
    expected_mask = np.zeros((4, 32), np.uint8)
    for i in range(4):
        for j in range(8):
            expected_mask[i, j // 8] |= int(A[i, j] > B[i, j]) << (j % 8)
    np.testing.assert_array_equal(tiles[2].data, expected_mask)
    np.testing.assert_array_equal(tiles[4].data, np.maximum(A, B))


def test_reductions_and_arg_reductions() -> None:
    icolumn = "!pto.tile_buf<vec, 4x1xi32, valid=4x1>"
    irow = "!pto.tile_buf<vec, 1x8xi32>"
    src = [("a", (F, A)), ("t", (F, A))]
    line = f"pto.trowmin ins(%a, %t : {F}, {F}) outs(%out : {COLUMN})"
    np.testing.assert_allclose(run_op(line, src, COLUMN)[:, 0], A.min(axis=1))
    line = f"pto.trowprod ins(%a, %t : {F}, {F}) outs(%out : {COLUMN})"
    np.testing.assert_allclose(run_op(line, src, COLUMN)[:, 0], A.prod(axis=1), rtol=1e-5)
    line = f"pto.tcolmin ins(%a : {F}) outs(%out : {ROW})"
    np.testing.assert_allclose(run_op(line, src[:1], ROW)[0], A.min(axis=0))
    line = f"pto.trowargmax ins(%a, %t : {F}, {F}) outs(%out : {icolumn})"
    np.testing.assert_array_equal(run_op(line, src, icolumn)[:, 0], A.argmax(axis=1))
    line = f"pto.tcolargmin ins(%a, %t : {F}, {F}) outs(%out : {irow})"
    np.testing.assert_array_equal(run_op(line, src, irow)[0], A.argmin(axis=0))


@pytest.mark.parametrize(
    ("name", "f"),
    [
        ("add", np.add),
        ("sub", np.subtract),
        ("mul", np.multiply),
        ("div", np.divide),
        ("max", np.maximum),
        ("min", np.minimum),
        ("expdif", lambda a, v: np.exp(a - v)),
    ],
)
def test_row_and_column_broadcasts(name: str, f: Callable) -> None:
    v_row, v_col = floats((4, 1)) + 5, floats((1, 8)) + 5
    line = f"pto.trowexpand{name} ins(%a, %v : {F}, {COLUMN}) outs(%out : {F})"
    got = run_op(line, [("a", (F, A)), ("v", (COLUMN, v_row))], F)
    np.testing.assert_allclose(got, f(A, v_row), rtol=1e-5)
    line = f"pto.tcolexpand{name} ins(%a, %v : {F}, {ROW}) outs(%out : {F})"
    got = run_op(line, [("a", (F, A)), ("v", (ROW, v_col))], F)
    np.testing.assert_allclose(got, f(A, v_col), rtol=1e-5)


def test_column_expand() -> None:
    v = floats((1, 8))
    got = run_op(f"pto.tcolexpand ins(%v : {ROW}) outs(%out : {F})", [("v", (ROW, v))], F)
    np.testing.assert_array_equal(got, np.repeat(v, 4, axis=0))


LEFT = "!pto.tile_buf<left, 4x8xf32, blayout=col_major, slayout=row_major>"
RIGHT = "!pto.tile_buf<right, 8x16xf32, slayout=col_major>"
ACC = "!pto.tile_buf<acc, 4x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
BIAS = "!pto.tile_buf<bias, 1x16xf32>"


def test_matmul_with_accumulator_and_bias() -> None:
    a, b = floats((4, 8)), floats((8, 16))
    acc_in, bias = floats((4, 16)), floats((1, 16))
    args = [("c", (ACC, acc_in)), ("a", (LEFT, a)), ("b", (RIGHT, b))]
    line = f"pto.tmatmul.acc ins(%c, %a, %b : {ACC}, {LEFT}, {RIGHT}) outs(%out : {ACC})"
    np.testing.assert_allclose(run_op(line, args, ACC), acc_in + a @ b, rtol=1e-5)
    args = [("a", (LEFT, a)), ("b", (RIGHT, b)), ("bias", (BIAS, bias))]
    line = f"pto.tmatmul.bias ins(%a, %b, %bias : {LEFT}, {RIGHT}, {BIAS}) outs(%out : {ACC})"
    np.testing.assert_allclose(run_op(line, args, ACC), a @ b + bias, rtol=1e-5)


def test_extract_insert_concat() -> None:
    big = "!pto.tile_buf<vec, 8x16xf32>"
    src = floats((8, 16))
    args = [("s", (big, src)), ("r", ("index", 2)), ("c", ("index", 8))]
    line = f"pto.textract ins(%s, %r, %c : {big}, index, index) outs(%out : {F})"
    np.testing.assert_array_equal(run_op(line, args, F), src[2:6, 8:16])
    args = [("s", (F, A)), ("r", ("index", 4)), ("c", ("index", 8))]
    got = run_op(f"pto.tinsert ins(%s, %r, %c : {F}, index, index) outs(%out : {big})", args, big)
    expected = np.zeros((8, 16), np.float32)
    expected[4:8, 8:16] = A
    np.testing.assert_array_equal(got, expected)
    half = "!pto.tile_buf<vec, 4x4xf32>"
    a, b = floats((4, 4)), floats((4, 4))
    line = f"pto.tconcat ins(%a, %b : {half}, {half}) outs(%out : {F})"
    got = run_op(line, [("a", (half, a)), ("b", (half, b))], F)
    np.testing.assert_array_equal(got, np.hstack([a, b]))


def test_fillpad_tci_ttri_gather() -> None:
    part = "!pto.tile_buf<vec, 4x8xf32, valid=2x3>"
    padded = "!pto.tile_buf<vec, 4x8xf32, pad=2>"
    got = run_op(f"pto.tfillpad ins(%s : {part}) outs(%out : {padded})", [("s", (part, A))], padded)
    expected = np.full((4, 8), np.inf, np.float32)
    expected[:2, :3] = A[:2, :3]
    np.testing.assert_array_equal(got, expected)
    irow = "!pto.tile_buf<vec, 1x16xi32>"
    got = run_op(f"pto.tci ins(%s : i32) outs(%out : {irow})", [("s", ("i32", 5))], irow)
    np.testing.assert_array_equal(got[0], 5 + np.arange(16))
    got = run_op(
        f"pto.tci ins(%s {{descending = true}} : i32) outs(%out : {irow})",
        [("s", ("i32", 5))],
        irow,
    )
    np.testing.assert_array_equal(got[0], 5 - np.arange(16))
    got = run_op(f"pto.ttri ins(%d : i32) outs(%out : {INT})", [("d", ("i32", 1))], INT)
    np.testing.assert_array_equal(got, np.tril(np.ones((4, 8), np.int32), 1))
    index = rng.integers(0, 32, (4, 8)).astype(np.int32)
    index[0, 0] = 99  # outside the 4x8 source: reads 0
    got = run_op(
        # A2A3's index form names its scratch tile (the indices' type and shape).
        f"pto.tgather ins(%s, %i, %t : {F}, {INT}, {INT}) outs(%out : {F})",
        [("s", (F, A)), ("i", (INT, index)), ("t", (INT, np.zeros((4, 8), np.int32)))],
        F,
    )
    expected = np.where(index < 32, A.reshape(-1)[np.minimum(index, 31)], 0)
    np.testing.assert_array_equal(got, expected)


def test_unsupported_op_is_a_located_error() -> None:
    """tget_scale_addr names an address (pto-isa dropped it as a payload instruction)."""
    scaling = "!pto.tile_buf<scaling, 4x8xf32>"
    line = f"pto.tget_scale_addr ins(%a : {F}) outs(%out : {scaling})"
    with pytest.raises(UserError, match=r"the PTO executor cannot run 'pto\.tget_scale_addr'"):
        run_op(line, [("a", (F, A))], scaling)


def test_scalars_in_global_memory_and_event_arrays() -> None:
    """addptr, load_scalar and store_scalar on a pointer; a view's dim; an event-id array."""
    text = """
func.func @k(%p: !pto.ptr<f32>, %out: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %q = pto.addptr %p, %c2 : !pto.ptr<f32> -> !pto.ptr<f32>
  %x = pto.load_scalar %q[%c1] : !pto.ptr<f32> -> f32
  pto.store_scalar %x, %out[%c0] : !pto.ptr<f32>, f32
  %v = pto.make_tensor_view %p, shape = [%c2, %c3], strides = [%c3, %c1] : !pto.tensor_view<?x?xf32>
  %d = pto.get_tensor_view_dim %v, %c1 : !pto.tensor_view<?x?xf32> -> index
  %arr = pto.declare_eventid_array -> !pto.eventid_array<4>
  pto.eventid_array_set %arr[%c2], %d : !pto.eventid_array<4>
  %e = pto.eventid_array_get %arr[%c2] : !pto.eventid_array<4>
  pto.store_scalar %e, %out[%c1] : !pto.ptr<f32>, index
  return
}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    p = np.arange(8, dtype=np.float32) * 10
    out = np.zeros(2, np.float32)
    # p + 2, element 1 is p[3]; the view's dim 1 is 3, stored and read back through the array.
    outputs = run_pto_module(module, source_map, "k", {"arg0": p, "arg1": out}, None)
    np.testing.assert_array_equal(outputs["arg1"], [30.0, 3.0])


def test_tsetval_and_tfillpad_inplace() -> None:
    args = [("o", ("index", 9)), ("v", ("f32", 7.0))]
    got = run_op(f"pto.tsetval ins(%o, %v : index, f32) outs(%out : {F})", args, F)
    expected = np.zeros((4, 8), np.float32)
    expected[1, 1] = 7.0
    np.testing.assert_array_equal(got, expected)
    part = "!pto.tile_buf<vec, 4x8xf32, valid=2x3, pad=3>"
    text = f"""
func.func @k(%t: {part}) {{
  pto.tfillpad_inplace ins(%t : {part}) outs(%t : {part})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    tile = Tile.of_type(module.body.block.ops.first.body.block.args[0].type)  # type: ignore[union-attr, arg-type]
    tile.data[...] = A
    PTOExecutor(module).run("k", [tile])
    expected = np.full((4, 8), -np.inf, np.float32)
    expected[:2, :3] = A[:2, :3]
    np.testing.assert_array_equal(tile.data, expected)


# -- tile rules PTOAS main relaxed: the broadcast operand's other forms -------------------

BLOCK = "!pto.tile_buf<vec, 4x8xf32>"  # one 32-byte block per row (PTOAS's mode 2)
WIDE_COLUMN = "!pto.tile_buf<vec, 4x8xf32, blayout=col_major>"
TWO_ROWS = "!pto.tile_buf<vec, 2x8xf32>"


def test_row_broadcast_of_a_block_per_row_reads_its_first_column() -> None:
    """`dst[i, j] = a[i, j] + v[i, 0]` (PTOAS's ISA page) with v one 32-byte block a row."""
    v = floats()
    line = f"pto.trowexpandadd ins(%a, %v : {F}, {BLOCK}) outs(%out : {F})"
    got = run_op(line, [("a", (F, A)), ("v", (BLOCK, v))], F)
    np.testing.assert_allclose(got, A + v[:, :1], rtol=1e-6)


def test_trowexpand_and_tcolexpand_read_column_and_row_zero() -> None:
    v = floats()
    got = run_op(
        f"pto.trowexpand ins(%v : {WIDE_COLUMN}) outs(%out : {F})", [("v", (WIDE_COLUMN, v))], F
    )
    np.testing.assert_array_equal(got, np.repeat(v[:, :1], 8, axis=1))
    w = floats((2, 8))
    got = run_op(f"pto.tcolexpand ins(%w : {TWO_ROWS}) outs(%out : {F})", [("w", (TWO_ROWS, w))], F)
    np.testing.assert_array_equal(got, np.repeat(w[:1], 4, axis=0))


@pytest.mark.parametrize(
    ("operand", "tmp", "message"),
    [
        (BLOCK, F, "expects A2/A3 tmp-form trowexpand to use mode 1"),
        (
            "!pto.tile_buf<vec, 4x1xf32, blayout=col_major>",
            "!pto.tile_buf<vec, 1x8xf32>",
            "expects A2/A3 trowexpand tmp capacity to be at least 256 bytes, but got 32 bytes",
        ),
    ],
)
def test_a2a3_row_broadcast_scratch(operand: str, tmp: str, message: str) -> None:
    text = f"""module attributes {{pto.target_arch = "a2a3"}} {{
func.func @k(%a: {F}, %v: {operand}, %t: {tmp}, %out: {F}) {{
  pto.trowexpandadd ins(%a, %v, %t : {F}, {operand}, {tmp}) outs(%out : {F})
  return
}}
}}"""
    with pytest.raises(UserError) as caught:
        module, source_map = parse_mlir(text, "k.mlir")
        verify_module(module, source_map)
    assert message in caught.value.message
    assert caught.value.location is not None and caught.value.location.line == 3
    # A5 takes either form.
    module, source_map = parse_mlir(text.replace('"a2a3"', '"a5"'), "k.mlir")
    verify_module(module, source_map)


def test_loads_leave_the_view_extent_free() -> None:
    """PTOAS main loads the tile's valid region whatever the view's extent; the executor
    loads that window and reports a view too small for it. A store into a static view
    must fill it: its element count is the tile's valid one."""
    view = "!pto.partition_tensor_view<4x8xf32>"
    tile = "!pto.tile_buf<vec, 4x8xf32, valid=4x1>"
    store = f"""func.func @k(%v: {view}, %t: {tile}) {{
  pto.tstore ins(%t : {tile}) outs(%v : {view})
  return
}}"""
    module, source_map = parse_mlir(store, "k.mlir")
    with pytest.raises(UserError, match=r"expects dst static element count \(32\) to match"):
        verify_module(module, source_map)
    text = f"""func.func @k(%v: {view}, %t: {tile}) {{
  pto.tload ins(%v : {view}) outs(%t : {tile})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module)
    block = executor.functions["k"].body.block
    data = floats()
    tile_value = Tile.of_type(block.args[1].type)  # type: ignore[arg-type]
    executor.run("k", [data.copy(), tile_value])  # type: ignore[list-item]
    np.testing.assert_array_equal(tile_value.data[:, :1], data[:, :1])


@pytest.mark.parametrize(
    ("name", "f"), [("mul", np.multiply), ("max", np.maximum), ("min", np.minimum)]
)
def test_partial_mul_max_min_keep_the_larger_operand_outside_the_smaller(
    name: str, f: Callable
) -> None:
    """Rows 0-1 (valid in both) combine; rows 2-3 copy the full operand."""
    small = "!pto.tile_buf<vec, 4x8xf32, valid=2x8>"
    got = run_op(
        f"pto.tpart{name} ins(%a, %b : {F}, {small}) outs(%out : {F})",
        [("a", (F, A)), ("b", (small, B))],
        F,
    )
    expected = A.copy()
    for row in range(2):
        for col in range(8):
            expected[row, col] = f(A[row, col], B[row, col])
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_gemv_forms_compute_one_row() -> None:
    left = "!pto.tile_buf<left, 1x8xf32>"
    acc = "!pto.tile_buf<acc, 1x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
    a, b = floats((1, 8)), floats((8, 16))
    acc_in, bias = floats((1, 16)), floats((1, 16))
    dot = np.array([[sum(float(a[0, k]) * float(b[k, n]) for k in range(8)) for n in range(16)]])
    line = f"pto.tgemv ins(%a, %b : {left}, {RIGHT}) outs(%out : {acc})"
    np.testing.assert_allclose(
        run_op(line, [("a", (left, a)), ("b", (RIGHT, b))], acc), dot, rtol=1e-5
    )
    line = f"pto.tgemv.acc ins(%c, %a, %b : {acc}, {left}, {RIGHT}) outs(%out : {acc})"
    args = [("c", (acc, acc_in)), ("a", (left, a)), ("b", (RIGHT, b))]
    np.testing.assert_allclose(run_op(line, args, acc), acc_in + dot, rtol=1e-5)
    line = f"pto.tgemv.bias ins(%a, %b, %bias : {left}, {RIGHT}, {BIAS}) outs(%out : {acc})"
    args = [("a", (left, a)), ("b", (RIGHT, b)), ("bias", (BIAS, bias))]
    np.testing.assert_allclose(run_op(line, args, acc), dot + bias, rtol=1e-5)


def test_trowargmin_and_tcolargmax() -> None:
    icolumn = "!pto.tile_buf<vec, 4x1xi32, valid=4x1>"
    irow = "!pto.tile_buf<vec, 1x8xi32>"
    src = [("a", (F, A)), ("t", (F, A))]
    line = f"pto.trowargmin ins(%a, %t : {F}, {F}) outs(%out : {icolumn})"
    want_rows = [min(range(8), key=lambda j, i=i: A[i, j]) for i in range(4)]
    assert list(run_op(line, src, icolumn)[:, 0]) == want_rows
    line = f"pto.tcolargmax ins(%a, %t : {F}, {F}) outs(%out : {irow})"
    want_cols = [max(range(4), key=lambda i, j=j: A[i, j]) for j in range(8)]
    assert list(run_op(line, src, irow)[0]) == want_cols


def test_txors_is_exact() -> None:
    line = f"pto.txors ins(%a, %s, %t : {INT}, i32, {INT}) outs(%out : {INT})"
    got = run_op(line, [("a", (INT, IA)), ("s", ("i32", 0x5A)), ("t", (INT, IA))], INT)
    assert [[int(v) for v in row] for row in got] == [[int(v) ^ 0x5A for v in r] for r in IA]


def test_tcmps_packs_bits_and_tsels_reads_them() -> None:
    """dst = (a > 0.5) ? a : -1, through one mask byte per row."""
    mask = "!pto.tile_buf<vec, 4x32xui8, valid=4x1>"
    text = f"""
func.func @k(%a: {F}, %m: {mask}, %t: {F}, %s: f32, %fill: f32, %out: {F}) {{
  pto.tcmps ins(%a, %s {{cmpMode = #pto<cmp gt>}} : {F}, f32) outs(%m : {mask})
  pto.tsels ins(%m, %a, %t, %fill : {mask}, {F}, {F}, f32) outs(%out : {F})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    args = module.body.block.ops.first.body.block.args  # type: ignore[union-attr]
    a, m, t, out = (Tile.of_type(args[i].type) for i in (0, 1, 2, 5))  # type: ignore[arg-type]
    a.data[...] = A
    PTOExecutor(module).run("k", [a, m, t, 0.5, -1.0, out])  # type: ignore[list-item]
    for i in range(4):
        byte = sum(int(A[i, j] > 0.5) << j for j in range(8))
        assert int(m.data[i, 0]) == byte
        for j in range(8):
            assert out.data[i, j] == (A[i, j] if A[i, j] > 0.5 else np.float32(-1.0))


def test_tfillpad_expand_pads_a_larger_destination_with_the_minimum() -> None:
    part = "!pto.tile_buf<vec, 4x8xf32, valid=3x5>"
    wide = "!pto.tile_buf<vec, 8x16xf32, pad=3>"
    line = f"pto.tfillpad_expand ins(%s : {part}) outs(%out : {wide})"
    got = run_op(line, [("s", (part, A))], wide)
    for i in range(8):
        for j in range(16):
            assert got[i, j] == (A[i, j] if i < 3 and j < 5 else -np.inf), (i, j)
