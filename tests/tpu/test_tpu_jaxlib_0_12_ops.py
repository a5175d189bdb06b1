"""jaxlib 0.12's new `tpu` ops in the interpreter, on kernels written here, against numpy,
brute force and hand-worked values."""

from __future__ import annotations

import itertools
import re

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

VMEM = "#tpu.memory_space<vmem>"
RNG = np.random.default_rng(12)


def _run(text: str, inputs: list[object]) -> list[np.ndarray]:
    module, source = parse_mlir(text, "k.mlir")
    return run_tpu_kernel(module, inputs, locate=source.location_of)


def _unary_kernel(line: str, source: str, result: str) -> str:
    """Loads `source` from the first ref, runs `line` (%x in, %y out), stores to the second."""
    shape = source.rsplit("x", 1)[0]
    out_shape = result.rsplit("x", 1)[0]
    ref_in = f"memref<{source}, {VMEM}>"
    ref_out = f"memref<{result}, {VMEM}>"
    zeros = ", ".join(["%c0"] * len(shape.split("x")))
    out_zeros = ", ".join(["%c0"] * len(out_shape.split("x")))
    return f"""func.func @k(%a: {ref_in}, %o: {ref_out}) {{
  %c0 = arith.constant 0 : index
  %x = vector.load %a[{zeros}] : {ref_in}, vector<{source}>
  {line}
  vector.store %y, %o[{out_zeros}] : {ref_out}, vector<{result}>
  return
}}
"""


def _reduce(kind: str, dims: str, source: str, result: str, data: np.ndarray) -> np.ndarray:
    line = f"%y = tpu.reduce <{kind}>, %x [{dims}] : vector<{source}> -> vector<{result}>"
    out_shape = tuple(int(d) for d in result.rsplit("x", 1)[0].split("x"))
    out = np.zeros(out_shape, data.dtype if kind[:3] != "arg" else np.int32)
    return _run(_unary_kernel(line, source, result), [data, out])[-1]


def test_reduce_sum_over_one_dimension() -> None:
    x = RNG.integers(-50, 50, (8, 128)).astype(np.float32)
    np.testing.assert_array_equal(_reduce("sum", "1", "8x128xf32", "8xf32", x), x.sum(axis=1))


def test_reduce_signed_and_unsigned_maxima_differ_on_negative_numbers() -> None:
    x = np.zeros((8, 128), np.int32)
    x[:, 0], x[:, 1] = -1, 5
    # -1 is 0xFFFFFFFF: the largest as unsigned, the smallest as signed.
    assert (_reduce("maxsi", "1", "8x128xi32", "8xi32", x) == 5).all()
    assert (_reduce("maxui", "1", "8x128xi32", "8xi32", x) == -1).all()
    assert (_reduce("minui", "1", "8x128xi32", "8xi32", x) == 0).all()
    assert (_reduce("minsi", "1", "8x128xi32", "8xi32", x) == -1).all()


def test_reduce_over_two_dimensions_and_arg_max() -> None:
    x = RNG.integers(-1000, 1000, (8, 128)).astype(np.int32)
    assert _reduce("maxsi", "0", "8x128xi32", "128xi32", x).tolist() == x.max(axis=0).tolist()
    got = _reduce("arg_max", "1", "8x128xf32", "8xi32", x.astype(np.float32))
    assert got.tolist() == x.argmax(axis=1).tolist()


def test_reduce_minf_propagates_nan() -> None:
    x = np.ones((8, 128), np.float32)
    x[3, 7] = np.nan
    got = _reduce("minf", "1", "8x128xf32", "8xf32", x)
    assert np.isnan(got[3]) and (np.delete(got, 3) == 1).all()


def test_reduce_kind_of_the_wrong_element_type_is_an_error() -> None:
    with pytest.raises(UserError, match=re.escape("'tpu.reduce' op with kind 'maxf' takes floats")):
        _reduce("maxf", "1", "8x128xi32", "8xi32", np.zeros((8, 128), np.int32))


def test_all_reduce_with_a_typed_kind() -> None:
    x = RNG.integers(-9, 9, (8, 128)).astype(np.int32)
    line = (
        "%y = tpu.all_reduce %x {dim = 0 : i64, kind = #tpu.reduction_kind<maxui>} : "
        "vector<8x128xi32> -> vector<8x128xi32>"
    )
    got = _run(_unary_kernel(line, "8x128xi32", "8x128xi32"), [x, np.zeros_like(x)])[-1]
    unsigned_max = x.view(np.uint32).max(axis=0).view(np.int32)
    np.testing.assert_array_equal(got, np.broadcast_to(unsigned_max, x.shape))


def _reduce_precision(x: np.ndarray, exponent: int, mantissa: int) -> np.ndarray:
    line = (
        f"%y = tpu.reduce_precision %x {{exponent_bits = {exponent} : i32, mantissa_bits = "
        f"{mantissa} : i32}} : vector<8x128xf32> -> vector<8x128xf32>"
    )
    return _run(_unary_kernel(line, "8x128xf32", "8x128xf32"), [x, np.zeros_like(x)])[-1]


def test_reduce_precision_to_f16_and_bf16_rounds_as_the_narrow_types_do() -> None:
    # Normal f16 and bf16 values, exact ties included: the narrow casts round to nearest
    # even, as reduce-precision does.
    x = np.exp(RNG.uniform(-9, 10, (8, 128))).astype(np.float32) * RNG.choice([-1, 1], (8, 128))
    x[0, :4] = [1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-8, 1 + 3 * 2**-8]
    as_f16 = x.astype(np.float16).astype(np.float32)
    as_bf16 = x.astype(ml_dtypes.bfloat16).astype(np.float32)
    np.testing.assert_array_equal(_reduce_precision(x, 5, 10), as_f16)
    np.testing.assert_array_equal(_reduce_precision(x, 8, 7), as_bf16)


def test_reduce_precision_overflows_to_infinity_and_underflows_to_signed_zero() -> None:
    x = np.ones((8, 128), np.float32)
    x[0, :6] = [65520.0, -70000.0, 65504.0, 1e-8, -1e-8, np.nan]
    got = _reduce_precision(x, 5, 10)
    assert got[0, 0] == np.inf and got[0, 1] == -np.inf and got[0, 2] == 65504.0
    assert got[0, 3] == 0 and not np.signbit(got[0, 3])
    assert got[0, 4] == 0 and np.signbit(got[0, 4])
    assert np.isnan(got[0, 5])


def test_scan_along_a_dimension() -> None:
    x = RNG.integers(-5, 5, (8, 128)).astype(np.float32)
    line = (
        "%y = tpu.scan <sum>, %x {dimension = 0 : i64} : vector<8x128xf32>,  -> vector<8x128xf32>"
    )
    got = _run(_unary_kernel(line, "8x128xf32", "8x128xf32"), [x, np.zeros_like(x)])[-1]
    np.testing.assert_array_equal(got, np.cumsum(x, axis=0))


def test_scan_maxsi_compares_signed() -> None:
    x = RNG.integers(-100, 100, (8, 128)).astype(np.int32)
    line = "%y = tpu.scan <maxsi>, %x : vector<8x128xi32>,  -> vector<8x128xi32>"
    got = _run(_unary_kernel(line, "8x128xi32", "8x128xi32"), [x, np.zeros_like(x)])[-1]
    np.testing.assert_array_equal(got, np.maximum.accumulate(x, axis=1))


# ----------------------------------------------------------------------------- compress, expand

COMPRESS = f"""func.func @k(%v: memref<2x8xf32, {VMEM}>, %m: memref<2x8xi32, {VMEM}>,
                  %o: memref<4x16xf32, {VMEM}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %x = vector.load %v[%c0, %c0] : memref<2x8xf32, {VMEM}>, vector<2x8xf32>
  %mi = vector.load %m[%c0, %c0] : memref<2x8xi32, {VMEM}>, vector<2x8xi32>
  %zero = arith.constant dense<0> : vector<2x8xi32>
  %mask = arith.cmpi ne, %mi, %zero : vector<2x8xi32>
  OP
  return
}}
"""


def _compress(op: str, mask: np.ndarray, start: tuple[int, int] = (1, 2)) -> np.ndarray:
    values = np.arange(1, 17, dtype=np.float32).reshape(2, 8)
    out = np.full((4, 16), -1.0, np.float32)
    indices = ", ".join(f"%c{i}" for i in start)
    text = COMPRESS.replace(
        "OP",
        op.format(
            at=f"%o[{indices}], %x, %mask",
            types=f"memref<4x16xf32, {VMEM}>, vector<2x8xf32>, vector<2x8xi1>",
        ),
    )
    return _run(text, [values, mask.astype(np.int32), out])[-1]


EVERY_OTHER = np.tile([1, 0], (2, 4))


def test_vector_compress_store_packs_each_row() -> None:
    got = _compress(
        "tpu.vector_compress_store {at} {{compress_dim = 1 : i32}} : {types}", EVERY_OTHER
    )
    expected = np.full((4, 16), -1.0, np.float32)
    expected[1, 2:6] = [1, 3, 5, 7]
    expected[2, 2:6] = [9, 11, 13, 15]
    np.testing.assert_array_equal(got, expected)


def test_vector_compress_store_along_rows_and_with_add() -> None:
    mask = np.array([[0, 1, 0, 1, 0, 0, 0, 1], [1, 1, 0, 0, 0, 0, 0, 1]])
    got = _compress(
        "tpu.vector_compress_store {at} {{add = true, compress_dim = 0 : i32}} : {types}", mask
    )
    expected = np.full((4, 16), -1.0, np.float32)
    # Column j's unmasked rows pack upward from row 1 and add to what is there (-1).
    expected[1, 2 + 0] += 9
    expected[1, 2 + 1] += 2
    expected[2, 2 + 1] += 10
    expected[1, 2 + 3] += 4
    expected[1, 2 + 7] += 8
    expected[2, 2 + 7] += 16
    np.testing.assert_array_equal(got, expected)


def test_compress_store_vreg_packs_the_whole_vreg_in_row_major_order() -> None:
    mask = np.zeros((2, 8), int)
    mask[0, 7], mask[1, 0], mask[1, 5] = 1, 1, 1
    got = _compress("tpu.compress_store_vreg {at} : {types}", mask, (0, 0))
    expected = np.full((4, 16), -1.0, np.float32)
    expected[0, :3] = [8, 9, 14]  # the first three positions of the 2x8 window
    np.testing.assert_array_equal(got, expected)


def test_a_compress_store_past_the_end_is_an_error() -> None:
    with pytest.raises(UserError, match="reads or writes out of bounds: index 16 in dimension 1"):
        _compress(
            "tpu.vector_compress_store {at} {{compress_dim = 1 : i32}} : {types}",
            np.ones((2, 8)),
            (0, 9),
        )


EXPAND = f"""func.func @k(%r: memref<4x16xf32, {VMEM}>, %m: memref<2x8xi32, {VMEM}>,
                %o: memref<2x8xf32, {VMEM}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mi = vector.load %m[%c0, %c0] : memref<2x8xi32, {VMEM}>, vector<2x8xi32>
  %zero = arith.constant dense<0> : vector<2x8xi32>
  %mask = arith.cmpi ne, %mi, %zero : vector<2x8xi32>
  %y = OP %r[%c1, %c1], %mask ATTRS : memref<4x16xf32, {VMEM}>, vector<2x8xf32>, vector<2x8xi1>
  %keep = arith.constant dense<0.0> : vector<2x8xf32>
  %out = arith.select %mask, %y, %keep : vector<2x8xi1>, vector<2x8xf32>
  vector.store %out, %o[%c0, %c0] : memref<2x8xf32, {VMEM}>, vector<2x8xf32>
  return
}}
"""


def _expand(op: str, attrs: str, mask: np.ndarray) -> np.ndarray:
    memory = np.arange(64, dtype=np.float32).reshape(4, 16)
    text = EXPAND.replace("OP", op).replace("ATTRS", attrs)
    return _run(text, [memory, mask.astype(np.int32), np.zeros((2, 8), np.float32)])[-1]


def test_vector_expand_load_spreads_each_row_over_the_mask() -> None:
    got = _expand("tpu.vector_expand_load", "{expand_dim = 1 : i32}", EVERY_OTHER)
    expected = np.zeros((2, 8), np.float32)
    expected[0, ::2] = [17, 18, 19, 20]  # row 1 from column 1
    expected[1, ::2] = [33, 34, 35, 36]  # row 2 from column 1
    np.testing.assert_array_equal(got, expected)


def test_expand_load_vreg_reads_the_window_in_row_major_order() -> None:
    mask = np.zeros((2, 8), int)
    mask[0, 3], mask[1, 1], mask[1, 2] = 1, 1, 1
    got = _expand("tpu.expand_load_vreg", "", mask)
    expected = np.zeros((2, 8), np.float32)
    expected[0, 3], expected[1, 1], expected[1, 2] = 17, 18, 19
    np.testing.assert_array_equal(got, expected)


# ----------------------------------------------------------------------------- memref queries

BF16_TILED = f"memref<16x256xbf16, #tpu.tiled<(16,128)(2,1),[2,1]>, {VMEM}>"
QUERIES = f"""func.func @k(%r: {BF16_TILED}, %s: memref<16x256xf32, {VMEM}>,
                 %o: memref<4xi32, #tpu.memory_space<smem>>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %rows = tpu.tile_size %r, 0 : {BF16_TILED}
  %lanes = tpu.tile_size %s, 1 : memref<16x256xf32, {VMEM}>
  %in_vmem = tpu.memref_memory_space_is %s, <vmem> : memref<16x256xf32, {VMEM}>
  %in_smem = tpu.memref_memory_space_is %s, <smem> : memref<16x256xf32, {VMEM}>
  %a = arith.extui %in_vmem : i1 to i32
  %b = arith.extui %in_smem : i1 to i32
  memref.store %rows, %o[%c0] : memref<4xi32, #tpu.memory_space<smem>>
  memref.store %lanes, %o[%c1] : memref<4xi32, #tpu.memory_space<smem>>
  memref.store %a, %o[%c2] : memref<4xi32, #tpu.memory_space<smem>>
  memref.store %b, %o[%c3] : memref<4xi32, #tpu.memory_space<smem>>
  %view = tpu.annotate %s {{no_hazard = true}} : memref<16x256xf32, {VMEM}>
  %shared = tpu.shared_memref_slice %view : memref<16x256xf32, {VMEM}> -> memref<16x256xf32, {VMEM}>
  %v = arith.constant dense<7.0> : vector<8x128xf32>
  vector.store %v, %shared[%c0, %c0] : memref<16x256xf32, {VMEM}>, vector<8x128xf32>
  return
}}
"""


def test_tile_size_memory_space_and_views() -> None:
    bf16 = np.zeros((16, 256), ml_dtypes.bfloat16)
    f32 = np.zeros((16, 256), np.float32)
    _, stored, queries = _run(QUERIES, [bf16, f32, np.zeros(4, np.int32)])
    # The bf16 ref's tiles are (16, 128)(2, 1); the f32 one has Mosaic's default, (8, 128).
    assert queries.tolist() == [16, 128, 1, 0]
    assert (stored[:8, :128] == 7).all() and (stored[8:] == 0).all()


# ----------------------------------------------------------------------------- conv


def _brute_force_conv(
    x: np.ndarray,  # NHWC
    w: np.ndarray,  # HWIO
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    rhs_dilation: tuple[int, int],
    reversal: tuple[bool, bool],
    groups: int,
) -> np.ndarray:
    """lax.conv_general_dilated's definition, one output element at a time."""
    n, h, wd, _ = x.shape
    kh, kw, ci, co = w.shape
    lo_h, hi_h, lo_w, hi_w = padding
    eff_h, eff_w = (kh - 1) * rhs_dilation[0] + 1, (kw - 1) * rhs_dilation[1] + 1
    oh = (h + lo_h + hi_h - eff_h) // strides[0] + 1
    ow = (wd + lo_w + hi_w - eff_w) // strides[1] + 1
    out = np.zeros((n, oh, ow, co), np.float64)
    out_per_group = co // groups
    for b, i, j, o in itertools.product(range(n), range(oh), range(ow), range(co)):
        group = o // out_per_group
        total = 0.0
        for p, q, f in itertools.product(range(kh), range(kw), range(ci)):
            row = i * strides[0] + p * rhs_dilation[0] - lo_h
            col = j * strides[1] + q * rhs_dilation[1] - lo_w
            if 0 <= row < h and 0 <= col < wd:
                kp = kh - 1 - p if reversal[0] else p
                kq = kw - 1 - q if reversal[1] else q
                total += x[b, row, col, group * ci + f] * w[kp, kq, f, o]
        out[b, i, j, o] = total
    return out


def _conv_kernel(x: np.ndarray, w: np.ndarray, out_shape: tuple[int, ...], attrs: str) -> str:
    def vec(shape: tuple[int, ...]) -> str:
        return "vector<" + "x".join(map(str, shape)) + "xf32>"

    def ref(shape: tuple[int, ...]) -> str:
        return "memref<" + "x".join(map(str, shape)) + f"xf32, {VMEM}>"

    zeros4 = "%c0, %c0, %c0, %c0"
    return f"""func.func @k(%a: {ref(x.shape)}, %b: {ref(w.shape)}, %c: {ref(out_shape)}) {{
  %c0 = arith.constant 0 : index
  %x = vector.load %a[{zeros4}] : {ref(x.shape)}, {vec(x.shape)}
  %w = vector.load %b[{zeros4}] : {ref(w.shape)}, {vec(w.shape)}
  %acc = vector.load %c[{zeros4}] : {ref(out_shape)}, {vec(out_shape)}
  %y = tpu.conv %x, %w, %acc {{dimension_numbers = #tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>, {attrs}}} : {vec(x.shape)}, {vec(w.shape)}, {vec(out_shape)} -> {vec(out_shape)}
  vector.store %y, %c[{zeros4}] : {ref(out_shape)}, {vec(out_shape)}
  return
}}
"""  # noqa: E501


@pytest.mark.parametrize(
    ("strides", "padding", "rhs_dilation", "reversal", "groups"),
    [
        ((1, 1), (0, 0, 0, 0), (1, 1), (False, False), 1),
        ((2, 1), (1, 1, 0, 2), (1, 2), (True, False), 1),
        ((1, 2), (-1, 0, 1, 1), (2, 1), (False, True), 2),
    ],
)
def test_conv_matches_the_definition(
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    rhs_dilation: tuple[int, int],
    reversal: tuple[bool, bool],
    groups: int,
) -> None:
    x = RNG.integers(-3, 4, (2, 7, 6, 4)).astype(np.float32)
    w = RNG.integers(-3, 4, (3, 2, 4 // groups, 6)).astype(np.float32)
    expected = _brute_force_conv(x, w, strides, padding, rhs_dilation, reversal, groups)
    acc = RNG.integers(-3, 4, expected.shape).astype(np.float32)
    bools = ", ".join("true" if r else "false" for r in reversal)
    attrs = (
        f"lhs_dilation = array<i64: 1, 1>, padding = array<i64: {', '.join(map(str, padding))}>, "
        f"rhs_dilation = array<i64: {', '.join(map(str, rhs_dilation))}>, "
        f"window_reversal = array<i1: {bools}>, "
        f"window_strides = array<i64: {', '.join(map(str, strides))}>, "
        f"feature_group_count = {groups} : i64"
    )
    got = _run(_conv_kernel(x, w, expected.shape, attrs), [x, w, acc])[-1]
    np.testing.assert_array_equal(got, acc + expected.astype(np.float32))


def test_conv_with_a_dilated_input_matches_the_definition() -> None:
    # lhs_dilation 2 on a 1-row input: zeros between its columns, by hand.
    x = np.arange(1, 4, dtype=np.float32).reshape(1, 1, 3, 1)  # columns 1 2 3
    w = np.array([1, 10], np.float32).reshape(1, 2, 1, 1)
    attrs = (
        "lhs_dilation = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, "
        "rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, "
        "window_strides = array<i64: 1, 1>"
    )
    # Dilated row: 1 0 2 0 3; windows of 2: 1+0, 0+20, 2+0, 0+30.
    got = _run(_conv_kernel(x, w, (1, 1, 4, 1), attrs), [x, w, np.zeros((1, 1, 4, 1), np.float32)])
    assert got[-1].reshape(-1).tolist() == [1, 20, 2, 30]


def test_conv_with_a_mismatched_accumulator_is_an_error() -> None:
    x = np.zeros((1, 4, 4, 2), np.float32)
    w = np.zeros((3, 3, 2, 2), np.float32)
    attrs = (
        "lhs_dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, "
        "rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, "
        "window_strides = array<i64: 1, 1>"
    )
    with pytest.raises(UserError, match=re.escape("computes a [1, 2, 2, 2] result, but its "
                                                  "accumulator is [1, 3, 3, 2]")):  # fmt: skip
        _run(_conv_kernel(x, w, (1, 3, 3, 2), attrs), [x, w, np.zeros((1, 3, 3, 2), np.float32)])
