"""tsort32, tmrgsort, thistogram, tquant, tdequant and the `.mx` matmuls in the PTO
executor, on our own small kernels, each compared with numpy written here from
pto-isa's ISA pages (`docs/isa/TSORT32.md`, ...): Python loops and sorts, sharing
nothing with the executor's code."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from test_pto_ptoas_ops import run_op

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module
from xla_emit.runtime.pto_kernels import run_pto_module

rng = np.random.default_rng(11)


def pairs_of(row: np.ndarray) -> list[tuple[float, int]]:
    """An f32 row of value-index pairs read back as (value, index) tuples."""
    raw = row.view(np.uint32)
    return [(float(row[2 * k]), int(raw[2 * k + 1])) for k in range(row.size // 2)]


def sorted_block(values: np.ndarray, indices: np.ndarray) -> list[tuple[float, int]]:
    """A block sorted by value, largest first; equal values keep the smaller index first."""
    return sorted(zip(values.tolist(), indices.tolist(), strict=True), key=lambda p: (-p[0], p[1]))


SRC = "!pto.tile_buf<vec, 2x64xf32>"
IDX = "!pto.tile_buf<vec, 2x64xui32>"
PAIRS = "!pto.tile_buf<vec, 2x128xf32>"


def test_tsort32_sorts_each_block_of_32_with_its_indices() -> None:
    values = rng.integers(-5, 5, (2, 64)).astype(np.float32)  # many equal values
    indices = rng.permutation(128).reshape(2, 64).astype(np.uint32)
    line = f"pto.tsort32 ins(%s, %i : {SRC}, {IDX}) outs(%out : {PAIRS})"
    got = run_op(line, [("s", (SRC, values)), ("i", (IDX, indices))], PAIRS)
    for r in range(2):
        expected = sorted_block(values[r, :32], indices[r, :32])
        expected += sorted_block(values[r, 32:], indices[r, 32:])
        assert pairs_of(got[r]) == expected


def test_tsort32_f16_pairs_have_two_zero_bytes_before_the_index() -> None:
    src, idx = "!pto.tile_buf<vec, 1x32xf16>", "!pto.tile_buf<vec, 1x32xui32>"
    out = "!pto.tile_buf<vec, 1x128xf16>"
    values = rng.uniform(-1, 1, (1, 32)).astype(np.float16)
    indices = np.arange(32, dtype=np.uint32).reshape(1, 32)
    line = f"pto.tsort32 ins(%s, %i : {src}, {idx}) outs(%out : {out})"
    got = run_op(line, [("s", (src, values)), ("i", (idx, indices))], out)
    order = np.argsort(-values[0].astype(np.float64), kind="stable")
    raw = got[0].view(np.uint16).reshape(32, 4)
    np.testing.assert_array_equal(raw[:, 0].view(np.float16), values[0, order])
    np.testing.assert_array_equal(raw[:, 1], 0)
    np.testing.assert_array_equal(raw[:, 2:].copy().view(np.uint32)[:, 0], order)


def test_tsort32_tail_block_needs_tmp() -> None:
    part = "!pto.tile_buf<vec, 2x64xf32, valid=2x40>"
    values = rng.uniform(-1, 1, (2, 64)).astype(np.float32)
    indices = np.tile(np.arange(64, dtype=np.uint32), (2, 1))
    args = [("s", (part, values)), ("i", (IDX, indices))]
    line = f"pto.tsort32 ins(%s, %i : {part}, {IDX}) outs(%out : {PAIRS})"
    with pytest.raises(UserError, match="sorts 40 columns, not a multiple of 32, without a tmp"):
        run_op(line, args, PAIRS)
    line = f"pto.tsort32 ins(%s, %i, %t : {part}, {IDX}, {SRC}) outs(%out : {PAIRS})"
    got = run_op(line, [*args, ("t", (SRC, np.zeros((2, 64), np.float32)))], PAIRS)
    assert pairs_of(got[0])[32:40] == sorted_block(values[0, 32:40], indices[0, 32:40])


def descending_pairs(count: int, start_index: int) -> np.ndarray:
    """A row of `count` f32 value-index pairs sorted by value, largest first."""
    values = np.sort(rng.integers(0, 20, count).astype(np.float32))[::-1]
    row = np.zeros(2 * count, np.float32)
    row[0::2] = values
    row.view(np.uint32)[1::2] = np.arange(start_index, start_index + count)
    return row


def merged(lists: list[np.ndarray], limit: int) -> list[tuple[float, int]]:
    """A k-way merge by hand: the largest head each step, the earlier list on ties."""
    heads = [pairs_of(row) for row in lists]
    out: list[tuple[float, int]] = []
    while len(out) < limit and any(heads):
        best = max((h[0][0], -i) for i, h in enumerate(heads) if h)
        out.append(heads[-best[1]].pop(0))
    return out


def test_tmrgsort_merges_four_blocks_of_one_row() -> None:
    row = "!pto.tile_buf<vec, 1x256xf32>"
    blocks = [descending_pairs(32, 100 * b) for b in range(4)]
    src = np.concatenate(blocks).reshape(1, 256)
    line = f"pto.tmrgsort ins(%s, %n : {row}, i32) outs(%out : {row})"
    got = run_op(line, [("s", (row, src)), ("n", ("i32", 64))], row)
    assert pairs_of(got[0]) == merged(blocks, 128)


def test_tmrgsort_merges_two_to_four_lists() -> None:
    half, full = "!pto.tile_buf<vec, 1x64xf32>", "!pto.tile_buf<vec, 1x192xf32>"
    lists = [descending_pairs(32, 100 * i) for i in range(3)]
    tmp = np.zeros((1, 192), np.float32)
    line = f"pto.tmrgsort ins(%a, %b, %c, %t : {half}, {half}, {half}, {full}) outs(%out : {full})"
    args = [(n, (half, x.reshape(1, 64))) for n, x in zip("abc", lists, strict=True)]
    got = run_op(line, [*args, ("t", (full, tmp))], full)
    assert pairs_of(got[0]) == merged(lists, 96)


def test_thistogram_counts_bytes_as_running_totals() -> None:
    src, idx = "!pto.tile_buf<vec, 2x32xui16>", "!pto.tile_buf<vec, 2x1xui8>"
    bins = "!pto.tile_buf<vec, 2x256xui32>"
    values = rng.integers(0, 1 << 16, (2, 32)).astype(np.uint16)
    values[:, :8] = 0x1200 + np.arange(8)  # eight values whose top byte is 0x12
    top = np.array([[0x12], [values[1, 20] >> 8]], np.uint8)
    args = [("s", (src, values)), ("i", (idx, top))]
    got = run_op(f"pto.thistogram ins(%s, %i : {src}, {idx}) outs(%out : {bins})", args, bins)
    for r in range(2):
        counts = [sum(1 for v in values[r] if v >> 8 == b) for b in range(256)]
        np.testing.assert_array_equal(got[r], np.cumsum(counts))
    line = f"pto.thistogram ins(%s, %i : {src}, {idx}) outs(%out : {bins}) {{isMSB = false}}"
    got = run_op(line, args, bins)
    for r in range(2):
        low = [v & 0xFF for v in values[r] if v >> 8 == top[r, 0]]
        counts = [low.count(b) for b in range(256)]
        np.testing.assert_array_equal(got[r], np.cumsum(counts))


F32 = "!pto.tile_buf<vec, 4x32xf32>"
# One scale (offset) per row, column major as PTOAS main wants on A2A3.
PARAM = "!pto.tile_buf<vec, 4x1xf32, blayout=col_major>"


def test_tquant_symmetric_and_asymmetric() -> None:
    x = rng.uniform(-3, 3, (4, 32)).astype(np.float32)
    scale = np.array([[10.0], [50.0], [0.5], [100.0]], np.float32)
    zero = np.array([[128.0], [3.0], [250.0], [0.0]], np.float32)
    i8, u8 = "!pto.tile_buf<vec, 4x32xi8>", "!pto.tile_buf<vec, 4x32xui8>"
    line = (
        f"pto.tquant ins(%x, %s : {F32}, {PARAM}) outs(%out : {i8}) "
        "{quant_type = #pto<quant_type INT8_SYM>}"
    )
    got = run_op(line, [("x", (F32, x)), ("s", (PARAM, scale))], i8)
    for (r, c), v in np.ndenumerate(x):
        q = float(np.float32(v) * scale[r, 0])
        assert got[r, c] == max(-128, min(127, round(q)))  # round() is half-to-even
    line = (
        f"pto.tquant ins(%x, %s, %z : {F32}, {PARAM}, {PARAM}) outs(%out : {u8}) "
        "{quant_type = #pto<quant_type INT8_ASYM>}"
    )
    got = run_op(line, [("x", (F32, x)), ("s", (PARAM, scale)), ("z", (PARAM, zero))], u8)
    for (r, c), v in np.ndenumerate(x):
        q = float(np.float32(np.float32(v) * scale[r, 0]) + zero[r, 0])
        assert got[r, c] == max(0, min(255, round(q)))


def test_tdequant_per_row_scale_and_offset() -> None:
    i8 = "!pto.tile_buf<vec, 4x32xi8>"
    codes = rng.integers(-128, 128, (4, 32)).astype(np.int8)
    scale = rng.uniform(0.01, 0.1, (4, 1)).astype(np.float32)
    offset = rng.integers(-5, 5, (4, 1)).astype(np.float32)
    line = f"pto.tdequant ins(%q, %s, %o : {i8}, {PARAM}, {PARAM}) outs(%out : {F32})"
    args = [("q", (i8, codes)), ("s", (PARAM, scale)), ("o", (PARAM, offset))]
    got = run_op(line, args, F32)
    for (r, c), q in np.ndenumerate(codes):
        assert got[r, c] == np.float32(np.float32(q) - offset[r, 0]) * scale[r, 0]


MX_LEFT = "!pto.tile_buf<left, 16x64xf8E4M3FN>"
MX_RIGHT = "!pto.tile_buf<right, 64x16xf8E4M3FN, slayout=col_major>"
MX_ACC = "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
SCALE_A = "!pto.tile_buf<scaling, 16x2xui8>"
SCALE_B = "!pto.tile_buf<scaling, 2x16xui8>"


def test_mx_matmul_scales_each_group_of_32_along_k() -> None:
    a = rng.uniform(-2, 2, (16, 64)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.uniform(-2, 2, (64, 16)).astype(ml_dtypes.float8_e4m3fn)
    sa = rng.integers(124, 131, (16, 2)).astype(np.uint8)  # 2^(e - 127)
    sb = rng.integers(124, 131, (2, 16)).astype(np.uint8)
    expected = np.zeros((16, 16))
    for i in range(16):
        for j in range(16):
            for k in range(64):
                scale = 2.0 ** (int(sa[i, k // 32]) - 127) * 2.0 ** (int(sb[k // 32, j]) - 127)
                expected[i, j] += float(a[i, k]) * float(b[k, j]) * scale
    args = [("a", (MX_LEFT, a)), ("sa", (SCALE_A, sa)), ("b", (MX_RIGHT, b))]
    args.append(("sb", (SCALE_B, sb)))
    types = f"{MX_LEFT}, {SCALE_A}, {MX_RIGHT}, {SCALE_B}"
    line = f"pto.tmatmul.mx ins(%a, %sa, %b, %sb : {types}) outs(%out : {MX_ACC})"
    np.testing.assert_allclose(run_op(line, args, MX_ACC), expected, rtol=1e-6)
    acc = rng.uniform(-1, 1, (16, 16)).astype(np.float32)
    line = f"pto.tmatmul.mx.acc ins(%c, %a, %sa, %b, %sb : {MX_ACC}, {types}) outs(%out : {MX_ACC})"
    got = run_op(line, [("c", (MX_ACC, acc)), *args], MX_ACC)
    np.testing.assert_allclose(got, expected + acc, rtol=1e-6)


@pytest.mark.parametrize(
    ("line", "args", "out", "message"),
    [
        (
            "pto.tmrgsort ins(%s, %n : ROW, i32) outs(%out : ROW)",
            [("s", ("ROW", np.zeros((1, 256), np.float32))), ("n", ("i32", 3))],
            "ROW",
            "'pto.tmrgsort' op block length 3 is not a whole number of pairs",
        ),
        (
            "pto.thistogram ins(%s, %i : U16, U8) outs(%out : NARROW)",
            [("s", ("U16", np.zeros((2, 32), np.uint16))), ("i", ("U8", np.zeros((2, 1))))],
            "NARROW",
            "'pto.thistogram' op needs 256 bins per row, but dst has 128 columns",
        ),
        (
            "pto.tsort32 ins(%s, %i : I32, IDX) outs(%out : I32)",
            [("s", ("I32", np.zeros((2, 64)))), ("i", ("IDX", np.zeros((2, 64))))],
            "I32",
            "'pto.tsort32' op sorts f16 or f32 value-index pairs, not int32",
        ),
        (
            "pto.tsort32 ins(%s, %i : SRC, IDX) outs(%out : SRC)",
            [("s", ("SRC", np.zeros((2, 64)))), ("i", ("IDX", np.zeros((2, 64))))],
            "SRC",
            "'pto.tsort32' op needs 64 value-index pairs in a row, but the tile's row holds 32",
        ),
    ],
)
def test_sort_and_histogram_errors(
    line: str, args: list[tuple[str, tuple[str, object]]], out: str, message: str
) -> None:
    types = {
        "ROW": "!pto.tile_buf<vec, 1x256xf32>",
        "U16": "!pto.tile_buf<vec, 2x32xui16>",
        "U8": "!pto.tile_buf<vec, 2x1xui8>",
        "NARROW": "!pto.tile_buf<vec, 2x128xui32>",
        "I32": "!pto.tile_buf<vec, 2x64xi32>",
        "SRC": SRC,
        "IDX": IDX,
    }
    for key in sorted(types, key=len, reverse=True):  # NARROW before ROW
        line = line.replace(key, types[key])
    typed = [(name, (types.get(t, t), v)) for name, (t, v) in args]
    with pytest.raises(UserError) as error:
        run_op(line, typed, types[out])
    assert str(error.value).splitlines()[0] == f"error: {message}"


def test_mx_matmul_needs_a_scale_per_32_values() -> None:
    short = "!pto.tile_buf<scaling, 16x1xui8>"
    a = np.zeros((16, 64), ml_dtypes.float8_e4m3fn)
    b = np.zeros((64, 16), ml_dtypes.float8_e4m3fn)
    args = [("a", (MX_LEFT, a)), ("sa", (short, np.zeros((16, 1), np.uint8)))]
    args += [("b", (MX_RIGHT, b)), ("sb", (SCALE_B, np.zeros((2, 16), np.uint8)))]
    types = f"{MX_LEFT}, {short}, {MX_RIGHT}, {SCALE_B}"
    line = f"pto.tmatmul.mx ins(%a, %sa, %b, %sb : {types}) outs(%out : {MX_ACC})"
    with pytest.raises(UserError) as error:
        run_op(line, args, MX_ACC)
    assert str(error.value).splitlines()[0] == (
        "error: 'pto.tmatmul.mx' op needs 2 scales along K, one per 32 values"
    )


def merge_with_counts(line: str, lists: list[np.ndarray], out: str) -> tuple[np.ndarray, list]:
    """Run a level-2 tmrgsort `line` whose executed counts go to a vector<4xi16> parameter."""
    half = "!pto.tile_buf<vec, 1x64xf32>"
    params = ", ".join(f"%{n}: {half}" for n in "abc"[: len(lists)])
    text = f"""
func.func @k({params}, %t: {out}, %out: {out}, %ex: vector<4xi16>) {{
  {line}
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executed = np.full(4, -1, np.int16)
    dst = np.zeros((1, int(out.split("x")[1].split("xf32")[0])), np.float32)
    tile = Tile(dst, 1, dst.shape[1])  # the caller's array is the tile's storage
    PTOExecutor(module).run("k", [*(x.reshape(1, 64) for x in lists), dst * 0, tile, executed])
    return dst, executed.tolist()


def taken_from(pairs: list[tuple[float, int]], lists: int) -> list[int]:
    """How many merged pairs came from each list (list i's indices start at 100 * i)."""
    return [sum(1 for _, index in pairs if index // 100 == i) for i in range(lists)]


def test_tmrgsort_reports_how_many_pairs_it_took_from_each_list() -> None:
    lists = [descending_pairs(32, 100 * i) for i in range(3)]
    out = "!pto.tile_buf<vec, 1x80xf32>"  # room for 40 of the 96 pairs
    ins = "ins(%a, %b, %c, %t : HALF, HALF, HALF, OUT)"
    line = f"pto.tmrgsort {ins} outs(%out, %ex : OUT, vector<4xi16>)"
    line = line.replace("HALF", "!pto.tile_buf<vec, 1x64xf32>").replace("OUT", out)
    got, executed = merge_with_counts(line, lists, out)
    expected = merged(lists, 40)
    assert pairs_of(got[0]) == expected
    assert executed == [*taken_from(expected, 3), 0]


def test_tmrgsort_exhausted_stops_when_a_list_runs_out() -> None:
    first = descending_pairs(32, 0)
    first[0::2] += 100  # list 0 holds the largest values: it runs out first
    lists = [first, descending_pairs(32, 100)]
    out = "!pto.tile_buf<vec, 1x128xf32>"
    half = "!pto.tile_buf<vec, 1x64xf32>"
    line = (
        f"pto.tmrgsort ins(%a, %b, %t {{exhausted = true}} : {half}, {half}, {out}) "
        f"outs(%out, %ex : {out}, vector<4xi16>)"
    )
    got, executed = merge_with_counts(line, lists, out)
    assert executed == [32, 0, 0, 0]
    assert pairs_of(got[0])[:32] == pairs_of(first)


def test_tmrgsort_counts_must_be_a_vector_of_four_i16() -> None:
    row = "!pto.tile_buf<vec, 1x64xf32>"
    text = f"""
func.func @k(%a: {row}, %b: {row}, %t: {row}, %out: {row}, %ex: vector<4xi32>) {{
  pto.tmrgsort ins(%a, %b, %t : {row}, {row}, {row}) outs(%out, %ex : {row}, vector<4xi32>)
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    with pytest.raises(UserError) as error:
        verify_module(module, source_map)
    assert error.value.format().splitlines()[0] == (
        "k.mlir:3:3: error: 'pto.tmrgsort' op expects its executed counts as vector<4xi16>, "
        "but got vector<4xi32>"
    )


def test_executed_counts_come_back_as_an_npz_output() -> None:
    """The runtime returns a vector parameter as the kernel left it, under its input name."""
    half, out = "!pto.tile_buf<vec, 1x64xf32>", "!pto.tile_buf<vec, 1x128xf32>"
    text = f"""
func.func @k(%a: {half}, %b: {half}, %t: {out}, %out: {out}, %ex: vector<4xi16>) {{
  pto.tmrgsort ins(%a, %b, %t : {half}, {half}, {out}) outs(%out, %ex : {out}, vector<4xi16>)
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    lists = [descending_pairs(32, 0), descending_pairs(32, 100)]
    inputs = {f"arg{i}": x.reshape(1, 64) for i, x in enumerate(lists)}
    inputs |= {"arg2": np.zeros((1, 128), np.float32), "arg3": np.zeros((1, 128), np.float32)}
    outputs = run_pto_module(module, source_map, "k", inputs | {"arg4": np.zeros(4)}, None)
    assert outputs["arg4"].tolist() == [32, 32, 0, 0]


def test_mx_matmul_with_bias_adds_the_bias_row() -> None:
    a = rng.uniform(-2, 2, (16, 64)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.uniform(-2, 2, (64, 16)).astype(ml_dtypes.float8_e4m3fn)
    sa = np.full((16, 2), 128, np.uint8)  # every group scaled by 2
    sb = np.full((2, 16), 126, np.uint8)  # and by 1/2
    bias = rng.uniform(-1, 1, (1, 16)).astype(np.float32)
    expected = np.zeros((16, 16))
    for i in range(16):
        for j in range(16):
            expected[i, j] = bias[0, j] + sum(float(a[i, k]) * float(b[k, j]) for k in range(64))
    bias_type = "!pto.tile_buf<bias, 1x16xf32>"
    types = f"{MX_LEFT}, {SCALE_A}, {MX_RIGHT}, {SCALE_B}, {bias_type}"
    args = [("a", (MX_LEFT, a)), ("sa", (SCALE_A, sa)), ("b", (MX_RIGHT, b))]
    args += [("sb", (SCALE_B, sb)), ("bias", (bias_type, bias))]
    line = f"pto.tmatmul.mx.bias ins(%a, %sa, %b, %sb, %bias : {types}) outs(%out : {MX_ACC})"
    np.testing.assert_allclose(run_op(line, args, MX_ACC), expected, rtol=1e-6)


def test_mx_gemv_forms_scale_one_row() -> None:
    left = "!pto.tile_buf<left, 1x64xf8E4M3FN>"
    scale_a = "!pto.tile_buf<scaling, 1x2xui8>"
    acc_t = "!pto.tile_buf<acc, 1x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
    bias_t = "!pto.tile_buf<bias, 1x16xf32>"
    a = rng.uniform(-2, 2, (1, 64)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.uniform(-2, 2, (64, 16)).astype(ml_dtypes.float8_e4m3fn)
    sa = np.array([[127, 129]], np.uint8)  # groups scaled by 1 and 4
    sb = np.full((2, 16), 127, np.uint8)
    acc, bias = (rng.uniform(-1, 1, (1, 16)).astype(np.float32) for _ in range(2))
    dot = np.array(
        [
            [sum(float(a[0, k]) * float(b[k, n]) * (1 if k < 32 else 4) for k in range(64))]
            for n in range(16)
        ]
    ).T
    types = f"{left}, {scale_a}, {MX_RIGHT}, {SCALE_B}"
    args = [("a", (left, a)), ("sa", (scale_a, sa)), ("b", (MX_RIGHT, b)), ("sb", (SCALE_B, sb))]
    line = f"pto.tgemv.mx ins(%a, %sa, %b, %sb : {types}) outs(%out : {acc_t})"
    np.testing.assert_allclose(run_op(line, args, acc_t), dot, rtol=1e-6)
    line = f"pto.tgemv.mx.acc ins(%c, %a, %sa, %b, %sb : {acc_t}, {types}) outs(%out : {acc_t})"
    got = run_op(line, [("c", (acc_t, acc)), *args], acc_t)
    np.testing.assert_allclose(got, dot + acc, rtol=1e-6)
    line = f"pto.tgemv.mx.bias ins(%a, %sa, %b, %sb, %z : {types}, {bias_t}) outs(%out : {acc_t})"
    got = run_op(line, [*args, ("z", (bias_t, bias))], acc_t)
    np.testing.assert_allclose(got, dot + bias, rtol=1e-6)
