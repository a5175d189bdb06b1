"""The PTO executor against numpy goldens, and level 1 against level 2."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.pto.pto_materialize_tmp_tiles import PTOMaterializeTmpTilesPass
from xla_emit.passes.pto.pto_plan_memory import PTOPlanMemoryPass
from xla_emit.passes.pto.pto_to_dps import PTOToDPSPass

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import make_context, parse_mlir, verify_module
from xla_emit.runtime.pto_kernels import run_pto_file as run_file
from xla_emit.tools.run_pto import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "pto"
RNG = np.random.default_rng(1234)


def parse(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "test.mlir")
    verify_module(module, source_map)
    return module


def lower_to_level2(module: ModuleOp) -> ModuleOp:
    ctx = make_context()
    for compile_pass in (PTOToDPSPass(), PTOMaterializeTmpTilesPass(), PTOPlanMemoryPass()):
        compile_pass.apply(ctx, module)
    module.verify()
    return module


def tile_arg(array: np.ndarray) -> Tile:
    return Tile(array.copy(), array.shape[0], array.shape[1])


# -- ttrans ---------------------------------------------------------------------------

TTRANS_VALID = """
module attributes {{pto.target_arch = "{target}"}} {{
  func.func @t(%s: !pto.tile_buf<vec, {src}>, %d: !pto.tile_buf<vec, {dst}>) {{
    pto.ttrans ins(%s : !pto.tile_buf<vec, {src}>) outs(%d : !pto.tile_buf<vec, {dst}>)
    return
  }}
}}
"""


def test_a2a3_ttrans_transposes_the_valid_region_and_keeps_the_rest() -> None:
    module = parse(
        TTRANS_VALID.format(target="a2a3", src="16x16xf32, valid=16x8", dst="16x16xf32, valid=8x16")
    )
    src = RNG.standard_normal((16, 16)).astype(np.float32)
    dst = Tile(np.full((16, 16), -7.0, np.float32), 8, 16)
    PTOExecutor(module).run("t", [Tile(src.copy(), 16, 8), dst])
    for i, j in itertools.product(range(16), range(16)):
        expected = src[j, i] if i < 8 else -7.0
        assert dst.data[i, j] == expected


def test_a5_ttrans_uses_the_static_shape() -> None:
    module = parse(
        TTRANS_VALID.format(target="a5", src="8x16xf32, valid=8x8", dst="16x8xf32, valid=8x8")
    )
    src = RNG.standard_normal((8, 16)).astype(np.float32)
    dst = Tile(np.zeros((16, 8), np.float32), 8, 8)
    PTOExecutor(module).run("t", [Tile(src.copy(), 8, 8), dst])
    assert np.array_equal(dst.data, src.T)


@pytest.mark.parametrize(
    ("element", "dtype"),
    [("i8", np.int8), ("bf16", ml_dtypes.bfloat16), ("ui16", np.uint16), ("i32", np.int32)],
)
def test_ttrans_element_types(element: str, dtype: type) -> None:
    module = parse(
        TTRANS_VALID.format(target="a2a3", src=f"32x64x{element}", dst=f"64x32x{element}")
    )
    src = RNG.integers(0, 100, (32, 64)).astype(dtype)
    dst = Tile(np.zeros((64, 32), dtype), 64, 32)
    PTOExecutor(module).run("t", [tile_arg(src), dst])
    assert np.array_equal(dst.data, src.T)


def test_ttrans_target_argument_overrides_the_module() -> None:
    module = parse(
        TTRANS_VALID.format(target="a2a3", src="8x16xf32, valid=8x8", dst="16x8xf32, valid=8x8")
    )
    src = RNG.standard_normal((8, 16)).astype(np.float32)
    a2a3 = Tile(np.zeros((16, 8), np.float32), 8, 8)
    a5 = Tile(np.zeros((16, 8), np.float32), 8, 8)
    PTOExecutor(module).run("t", [Tile(src.copy(), 8, 8), a2a3])
    PTOExecutor(module, target="a5").run("t", [Tile(src.copy(), 8, 8), a5])
    assert not a2a3.data[8:].any()
    assert np.array_equal(a5.data, src.T)


CONVERSION = """
func.func @c(%s: !pto.tile_buf<vec, {src}>, %d: !pto.tile_buf<vec, {dst}>) {{
  pto.ttrans ins(%s {{conversion = "{conversion}", source_shape = array<i64: {shape}>, c0 = {c0} : i64}} : !pto.tile_buf<vec, {src}>) outs(%d : !pto.tile_buf<vec, {dst}>)
  return
}}
"""  # noqa: E501 - IR listing, one op per line


def run_conversion(
    conversion: str,
    shape: tuple[int, ...],
    c0: int,
    src_tile: tuple[int, int],
    dst_tile: tuple[int, int],
    flat: np.ndarray,
) -> np.ndarray:
    text = CONVERSION.format(
        conversion=conversion,
        shape=", ".join(map(str, shape)),
        c0=c0,
        src=f"{src_tile[0]}x{src_tile[1]}xf32",
        dst=f"{dst_tile[0]}x{dst_tile[1]}xf32",
    )
    src = np.zeros(src_tile, np.float32)
    src.reshape(-1)[: flat.size] = flat
    dst = Tile(np.zeros(dst_tile, np.float32), *dst_tile)
    PTOExecutor(parse(text)).run("c", [tile_arg(src), dst])
    return dst.data.reshape(-1)


def test_nchw_to_nc1hwc0_through_ttrans() -> None:
    n, c, h, w, c0 = 1, 6, 2, 4, 8  # C1 = 1, channels 6..7 are padding
    x = RNG.integers(1, 50, (n, c, h, w)).astype(np.float32)
    out = run_conversion("nchw_to_nc1hwc0", (n, c, h, w), c0, (8, 8), (8, 8), x.reshape(-1))
    for hi, wi, k in itertools.product(range(h), range(w), range(c0)):
        expected = x[0, k, hi, wi] if k < c else 0
        assert out[(hi * w + wi) * c0 + k] == expected


def test_nc1hwc0_to_nchw_through_ttrans() -> None:
    y = RNG.integers(1, 50, (1, 2, 2, 2, 8)).astype(np.float32)
    out = run_conversion("nc1hwc0_to_nchw", y.shape, 8, (8, 8), (8, 8), y.reshape(-1))
    for ch, hi, wi in itertools.product(range(16), range(2), range(2)):
        assert out[(ch * 2 + hi) * 2 + wi] == y[0, ch // 8, hi, wi, ch % 8]


def test_nc1hwc0_to_fractal_z_through_ttrans() -> None:
    y = RNG.integers(1, 50, (3, 1, 1, 2, 8)).astype(np.float32)  # N = 3 pads to 16
    out = run_conversion("nc1hwc0_to_fractal_z", y.shape, 8, (8, 8), (16, 16), y.reshape(-1))
    for wi, n0, k in itertools.product(range(2), range(16), range(8)):
        expected = y[n0, 0, 0, wi, k] if n0 < 3 else 0
        assert out[(wi * 16 + n0) * 8 + k] == expected


def test_conversion_larger_than_destination_is_an_error() -> None:
    y = RNG.integers(1, 50, (3, 1, 1, 2, 8)).astype(np.float32)
    with pytest.raises(
        UserError,
        match="nc1hwc0_to_fractal_z produces 256 elements, more than the 64-element destination",
    ):
        run_conversion("nc1hwc0_to_fractal_z", y.shape, 8, (8, 8), (8, 8), y.reshape(-1))


# -- the other tile ops ---------------------------------------------------------------

BINARY = {
    "tadd": np.add,
    "tsub": np.subtract,
    "tmul": np.multiply,
    "tdiv": np.divide,
    "tmax": np.maximum,
    "tmin": np.minimum,
}
UNARY = {
    "texp": np.exp,
    "tlog": np.log,
    "tsqrt": np.sqrt,
    "trsqrt": lambda x: 1 / np.sqrt(x),
    "tabs": np.abs,
    "trelu": lambda x: np.maximum(x, 0),
}
T = "!pto.tile<8x16xf32>"


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops(name: str) -> None:
    module = parse(
        f"func.func @f(%a: {T}, %b: {T}) -> {T} {{\n  %d = pto.{name} %a, %b : ({T}, {T}) -> {T}\n"
        f"  return %d : {T}\n}}"
    )
    a = RNG.uniform(0.5, 2, (8, 16)).astype(np.float32)
    b = RNG.uniform(-2, -0.5, (8, 16)).astype(np.float32)
    (result,) = PTOExecutor(module).run("f", [a, b])
    assert isinstance(result, Tile)
    np.testing.assert_allclose(result.data, BINARY[name](a, b), rtol=1e-6)


def test_integer_tile_division_is_exact_c_division() -> None:
    """Large i64 quotients round toward zero exactly (no detour through f64)."""
    tile = "!pto.tile<1x8xi64>"
    module = parse(
        f"func.func @f(%a: {tile}, %b: {tile}) -> {tile} {{\n"
        f"  %d = pto.tdiv %a, %b : ({tile}, {tile}) -> {tile}\n  return %d : {tile}\n}}"
    )
    a = np.array([[2**62 + 1, -(2**62) - 1, 7, -7, 2**53 + 1, -(2**53) - 3, 9, 0]], np.int64)
    b = np.array([[1, 1, 2, 2, 1, 2, -4, 5]], np.int64)
    (result,) = PTOExecutor(module).run("f", [a, b])
    assert isinstance(result, Tile)
    expected = [math.trunc(Fraction(int(x), int(y))) for x, y in zip(a[0], b[0], strict=True)]
    assert result.data[0].tolist() == expected


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops(name: str) -> None:
    module = parse(
        f"func.func @f(%a: {T}) -> {T} {{\n  %d = pto.{name} %a : {T} -> {T}\n  return %d : {T}\n}}"
    )
    sign = -1 if name in ("tabs", "trelu") else 1
    a = (sign * RNG.uniform(0.5, 2, (8, 16))).astype(np.float32)
    (result,) = PTOExecutor(module).run("f", [a])
    assert isinstance(result, Tile)
    np.testing.assert_allclose(result.data, UNARY[name](a), rtol=1e-6)


def test_tile_scalar_ops_and_f16_rounding() -> None:
    t16 = "!pto.tile<4x16xf16>"
    module = parse(
        f"func.func @f(%a: {t16}, %s: f16) -> {t16} {{\n"
        f"  %b = pto.tadds %a, %s : ({t16}, f16) -> {t16}\n"
        f"  %c = pto.tmuls %b, %s : ({t16}, f16) -> {t16}\n"
        f"  return %c : {t16}\n}}"
    )
    a = RNG.uniform(-4, 4, (4, 16)).astype(np.float16)
    (result,) = PTOExecutor(module).run("f", [a, 1.5])
    assert isinstance(result, Tile)
    expected = ((a.astype(np.float32) + 1.5).astype(np.float16).astype(np.float32) * 1.5).astype(
        np.float16
    )
    assert np.array_equal(result.data, expected)


def test_elementwise_level2_writes_only_the_valid_region() -> None:
    buf = "!pto.tile_buf<vec, 8x8xf32, valid=4x3>"
    module = parse(
        f"func.func @f(%a: {buf}, %d: {buf}) {{\n  pto.texp ins(%a : {buf}) outs(%d : {buf})\n"
        "  return\n}"
    )
    a = RNG.standard_normal((8, 8)).astype(np.float32)
    dst = Tile(np.full((8, 8), 5.0, np.float32), 4, 3)
    PTOExecutor(module).run("f", [Tile(a.copy(), 4, 3), dst])
    expected = np.full((8, 8), 5.0, np.float32)
    expected[:4, :3] = np.exp(a[:4, :3])
    np.testing.assert_allclose(dst.data, expected, rtol=1e-6)


def test_reductions_and_row_expand() -> None:
    module = parse(
        f"func.func @f(%a: {T}) -> (!pto.tile<8x1xf32>, !pto.tile<8x1xf32>, !pto.tile<1x16xf32>, "
        f"!pto.tile<1x16xf32>, {T}) {{\n"
        f"  %rs = pto.trowsum %a : {T} -> !pto.tile<8x1xf32>\n"
        f"  %rm = pto.trowmax %a : {T} -> !pto.tile<8x1xf32>\n"
        f"  %cs = pto.tcolsum %a : {T} -> !pto.tile<1x16xf32>\n"
        f"  %cm = pto.tcolmax %a : {T} -> !pto.tile<1x16xf32>\n"
        f"  %x = pto.trowexpand %rm : !pto.tile<8x1xf32> -> {T}\n"
        "  return %rs, %rm, %cs, %cm, %x : !pto.tile<8x1xf32>, !pto.tile<8x1xf32>, "
        f"!pto.tile<1x16xf32>, !pto.tile<1x16xf32>, {T}\n}}"
    )
    a = RNG.standard_normal((8, 16)).astype(np.float32)
    rs, rm, cs, cm, x = PTOExecutor(module).run("f", [a])
    assert (
        isinstance(rs, Tile)
        and isinstance(rm, Tile)
        and isinstance(cs, Tile)
        and isinstance(cm, Tile)
        and isinstance(x, Tile)
    )
    np.testing.assert_allclose(rs.data[:, 0], a.sum(axis=1), rtol=1e-5)
    assert np.array_equal(rm.data[:, 0], a.max(axis=1))
    np.testing.assert_allclose(cs.data[0], a.sum(axis=0), rtol=1e-5)
    assert np.array_equal(cm.data[0], a.max(axis=0))
    assert np.array_equal(x.data, np.repeat(a.max(axis=1, keepdims=True), 16, axis=1))


def test_f16_row_sum_accumulates_in_f32() -> None:
    module = parse(
        "func.func @f(%a: !pto.tile<1x64xf16>) -> !pto.tile<1x1xf32> {\n"
        "  %s = pto.trowsum %a : !pto.tile<1x64xf16> -> !pto.tile<1x1xf32>\n"
        "  return %s : !pto.tile<1x1xf32>\n}"
    )
    a = np.full((1, 64), 2049, np.float16)  # 2049 is not an f16 value: it rounds to 2048
    (s,) = PTOExecutor(module).run("f", [a])
    assert isinstance(s, Tile)
    assert s.data[0, 0] == 64 * 2048  # an f16 accumulator would saturate long before


def test_matmul_mov_and_cvt() -> None:
    module = parse(
        "func.func @f(%l: !pto.tile<left, 16x32xf16>, %r: !pto.tile<right, 32x16xf16>) -> "
        "!pto.tile<16x16xi32> {\n"
        "  %acc = pto.tmatmul %l, %r : (!pto.tile<left, 16x32xf16>, !pto.tile<right, 32x16xf16>) "
        "-> !pto.tile<acc, 16x16xf32>\n"
        "  %v = pto.tmov %acc : !pto.tile<acc, 16x16xf32> -> !pto.tile<16x16xf32>\n"
        "  %half = pto.tmuls %v, %c : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>\n"
        '  %i = pto.tcvt %half {rmode = "CAST_FLOOR"} : !pto.tile<16x16xf32> -> '
        "!pto.tile<16x16xi32>\n"
        "  return %i : !pto.tile<16x16xi32>\n}".replace("(%l:", "(%c: f32, %l:")
    )
    left = RNG.integers(-3, 4, (16, 32)).astype(np.float16)
    right = RNG.integers(-3, 4, (32, 16)).astype(np.float16)
    (result,) = PTOExecutor(module).run("f", [0.5, left, right])
    assert isinstance(result, Tile)
    product = left.astype(np.int64) @ right.astype(np.int64)
    assert np.array_equal(result.data, np.floor(product * 0.5).astype(np.int32))


def test_tcvt_rounding_modes() -> None:
    values = np.array([[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7]], np.float32)
    expected = {
        "CAST_RINT": [-2, -2, 0, 0, 2, 2, 3, -3],
        "CAST_ROUND": [-3, -2, -1, 1, 2, 3, 3, -3],
        "CAST_FLOOR": [-3, -2, -1, 0, 1, 2, 2, -3],
        "CAST_CEIL": [-2, -1, 0, 1, 2, 3, 3, -2],
        "CAST_TRUNC": [-2, -1, 0, 0, 1, 2, 2, -2],
    }
    for mode, want in expected.items():
        module = parse(
            "func.func @f(%a: !pto.tile<1x8xf32>) -> !pto.tile<1x8xi16> {\n"
            f'  %i = pto.tcvt %a {{rmode = "{mode}"}} : !pto.tile<1x8xf32> -> !pto.tile<1x8xi16>\n'
            "  return %i : !pto.tile<1x8xi16>\n}"
        )
        (result,) = PTOExecutor(module).run("f", [values])
        assert isinstance(result, Tile)
        assert result.data[0].tolist() == want, mode


def test_load_and_store_through_tensor_views() -> None:
    module = parse("""
func.func @f(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %v = pto.make_tensor_view %src, shape = [%c12, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>
  %w = pto.make_tensor_view %dst, shape = [%c8, %c12], strides = [%c12, %c1] : !pto.tensor_view<?x?xf32>
  %p = pto.partition_view %v, offsets = [%c4, %c2], sizes = [%c4, %c4] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x4xf32>
  %q = pto.partition_view %w, offsets = [%c2, %c8], sizes = [%c4, %c4] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x4xf32>
  %t = pto.tload %p : !pto.partition_tensor_view<4x4xf32> -> !pto.tile<4x8xf32, valid=4x4>
  %u = pto.ttrans %t : !pto.tile<4x8xf32, valid=4x4> -> !pto.tile<8x8xf32, valid=4x4>
  pto.tstore %u, %q : (!pto.tile<8x8xf32, valid=4x4>, !pto.partition_tensor_view<4x4xf32>) -> ()
  return
}""")  # noqa: E501 - IR listing, one op per line
    src = RNG.standard_normal(96).astype(np.float32)
    dst = np.zeros(96, np.float32)
    PTOExecutor(module).run("f", [src, dst])
    expected = np.zeros((8, 12), np.float32)
    expected[2:6, 8:12] = src.reshape(12, 8)[4:8, 2:6].T
    assert np.array_equal(dst.reshape(8, 12), expected)


def test_view_beyond_its_buffer_names_the_op_and_line() -> None:
    text = """func.func @f(%src: !pto.ptr<f32>) {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %v = pto.make_tensor_view %src, shape = [%c9, %c9], strides = [%c9, %c1] : !pto.tensor_view<?x?xf32>
  return
}"""  # noqa: E501 - IR listing, one op per line
    module, source_map = parse_mlir(text, "views.mlir")
    with pytest.raises(UserError) as error:
        PTOExecutor(module, locate=source_map.location_of).run("f", [np.zeros(64, np.float32)])
    assert error.value.format().startswith(
        "views.mlir:4:3: error: 'pto.make_tensor_view' op the view [9, 9] with strides [9, 1] "
        "reaches element 80 of a 64-element buffer"
    )


# -- level 1 against level 2 ----------------------------------------------------------


def softmax_columns_reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=0))
    return e / e.sum(axis=0)


def test_softmax_example_levels_agree_with_numpy() -> None:
    text = (EXAMPLES / "softmax_columns.mlir").read_text()
    x = RNG.standard_normal((16, 16)).astype(np.float32) * 3
    level1_out = np.zeros((16, 16), np.float32)
    level2_out = np.zeros((16, 16), np.float32)
    PTOExecutor(parse(text)).run("softmax_columns", [x, level1_out])
    PTOExecutor(lower_to_level2(parse(text))).run("softmax_columns", [x, level2_out])
    np.testing.assert_allclose(level1_out, softmax_columns_reference(x), rtol=1e-5, atol=1e-7)
    assert np.array_equal(level1_out, level2_out)


def softmax_rows_reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("scale", [1.0, 30.0])
def test_online_softmax_example_levels_agree_with_numpy(scale: float) -> None:
    # At scale 30 later blocks raise the running max by far, so a wrong
    # rescaling of the running sum would show.
    text = (EXAMPLES / "online_softmax.mlir").read_text()
    x = (RNG.standard_normal((16, 64)) * scale).astype(np.float32)
    level1, level2 = np.zeros(16 * 64, np.float32), np.zeros(16 * 64, np.float32)
    PTOExecutor(parse(text)).run("online_softmax", [x.reshape(-1).copy(), level1])
    PTOExecutor(lower_to_level2(parse(text))).run("online_softmax", [x.reshape(-1).copy(), level2])
    np.testing.assert_allclose(
        level1.reshape(16, 64), softmax_rows_reference(x), rtol=1e-5, atol=1e-7
    )
    assert np.array_equal(level1, level2)


def test_online_softmax_level2_carries_no_tiles() -> None:
    module = lower_to_level2(parse((EXAMPLES / "online_softmax.mlir").read_text()))
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 2
    assert all(not loop.iter_args and not loop.res for loop in loops)


def test_overlapping_manual_addresses_change_the_result() -> None:
    # Both live buffers at 0x0: the memory model makes the second load
    # overwrite the first, as it would on the chip.
    body = """
func.func @f(%in: !pto.partition_tensor_view<8x8xf32>, %in2: !pto.partition_tensor_view<8x8xf32>, %out: !pto.partition_tensor_view<8x8xf32>) {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
  pto.tassign %a, @tile(0x0)
  %b = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>
  pto.tassign %b, @tile(ADDRESS)
  pto.tload ins(%in : !pto.partition_tensor_view<8x8xf32>) outs(%a : !pto.tile_buf<vec, 8x8xf32>)
  pto.tload ins(%in2 : !pto.partition_tensor_view<8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf32>)
  pto.tsub ins(%a, %b : !pto.tile_buf<vec, 8x8xf32>, !pto.tile_buf<vec, 8x8xf32>) outs(%a : !pto.tile_buf<vec, 8x8xf32>)
  pto.tstore ins(%a : !pto.tile_buf<vec, 8x8xf32>) outs(%out : !pto.partition_tensor_view<8x8xf32>)
  return
}"""  # noqa: E501 - IR listing, one op per line
    x, y = RNG.standard_normal((2, 8, 8)).astype(np.float32)
    separate, aliased = np.zeros((8, 8), np.float32), np.zeros((8, 8), np.float32)
    PTOExecutor(parse(body.replace("ADDRESS", "0x100"))).run("f", [x, y, separate])
    PTOExecutor(parse(body.replace("ADDRESS", "0x0"))).run("f", [x, y, aliased])
    assert np.array_equal(separate, x - y)
    assert not aliased.any()


ELEMENTWISE = ["tadd", "tsub", "tmul", "tmax", "tmin", "texp", "tabs", "trelu", "ttrans", "tadds"]
# Loops repeat ops: no texp or tmul, whose repeated application overflows f32.
LOOP_OPS = ["tadd", "tsub", "tmax", "tmin", "tabs", "trelu", "ttrans", "tadds", "tmuls"]
TILE = "!pto.tile<8x8xf32>"
VIEW = "!pto.partition_tensor_view<8x8xf32>"


class _ProgramWriter:
    """Writes a random level-1 program over 8x8 f32 tiles; `max_depth` > 0
    adds `scf.for` loops (three trips, carrying one or two tiles) and `scf.if`
    branches with tile results, nested up to that depth."""

    def __init__(self, draw: st.DrawFn, ops: list[str], max_depth: int) -> None:
        self.draw = draw
        self.ops = ops
        self.max_depth = max_depth
        self.count = 0
        self.lines: list[str] = []

    def fresh(self, prefix: str = "%v") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("  " * (depth + 2) + line)

    def pick(self, scope: list[str]) -> str:
        """Mostly one of the latest values (a loop's iter_args and body values),
        so bodies read and overwrite what they carry."""
        recent = self.draw(st.booleans()) or self.draw(st.booleans())
        return self.draw(st.sampled_from(scope[-4:] if recent else scope))

    def block(self, scope: list[str], depth: int, condition: str) -> list[str]:
        """Random statements; returns the tiles they define (visible after them)."""
        defined: list[str] = []
        kinds = ["op", "op", "op", "for", "if"] if depth < self.max_depth else ["op"]
        for _ in range(self.draw(st.integers(1 if depth else 2, 5))):
            kind = self.draw(st.sampled_from(kinds))
            visible = scope + defined
            if kind == "for":
                defined += self.loop(visible, depth)
            elif kind == "if":
                defined += self.branch(visible, depth, condition)
            else:
                defined.append(self.op(visible, depth))
        return defined

    def op(self, scope: list[str], depth: int) -> str:
        name, op, a = self.fresh(), self.draw(st.sampled_from(self.ops)), self.pick(scope)
        if op in BINARY:
            line = f"{name} = pto.{op} {a}, {self.pick(scope)} : ({TILE}, {TILE}) -> {TILE}"
        elif op in ("tadds", "tmuls"):
            line = f"{name} = pto.{op} {a}, %s : ({TILE}, f32) -> {TILE}"
        else:
            line = f"{name} = pto.{op} {a} : {TILE} -> {TILE}"
        self.emit(depth, line)
        return name

    def loop(self, scope: list[str], depth: int) -> list[str]:
        carried = self.draw(st.integers(1, 2))
        inits = [self.pick(scope) for _ in range(carried)]
        results = [self.fresh() for _ in range(carried)]
        args = [self.fresh("%a") for _ in range(carried)]
        index, parity, condition = self.fresh("%i"), self.fresh("%p"), self.fresh("%c")
        types = ", ".join([TILE] * carried)
        bindings = ", ".join(f"{a} = {i}" for a, i in zip(args, inits, strict=True))
        self.emit(
            depth,
            f"{', '.join(results)} = scf.for {index} = %c0 to %c3 step %c1 "
            f"iter_args({bindings}) -> ({types}) {{",
        )
        # Branches in the body alternate between trips.
        self.emit(depth + 1, f"{parity} = arith.remsi {index}, %c2 : index")
        self.emit(depth + 1, f"{condition} = arith.cmpi eq, {parity}, %c0 : index")
        inner = self.block(scope + args, depth + 1, condition)
        self.observe(args + inner, depth + 1)
        yielded = [self.pick(scope + args + inner) for _ in range(carried)]
        if self.draw(st.integers(0, 3)) == 0:
            # The carried tiles trade places: a cycle of copies.
            yielded = args[1:] + args[:1]
        self.emit(depth + 1, f"scf.yield {', '.join(yielded)} : {types}")
        self.emit(depth, "}")
        return results

    def observe(self, values: list[str], depth: int) -> None:
        """Maybe store a sum of some of a body's values (the last trip's stays
        in %o3), so that values read after the yielded ones are made count."""
        observed = [value for value in values if self.draw(st.booleans())]
        if not observed:
            return
        self.emit(depth, f"pto.tstore {self.fold(observed, depth)}, %o3 : ({TILE}, {VIEW}) -> ()")

    def fold(self, values: list[str], depth: int) -> str:
        total = values[0]
        for value in values[1:]:
            folded = self.fresh()
            self.emit(depth, f"{folded} = pto.tadd {total}, {value} : ({TILE}, {TILE}) -> {TILE}")
            total = folded
        return total

    def branch(self, scope: list[str], depth: int, condition: str) -> list[str]:
        count = self.draw(st.integers(1, 2))
        results = [self.fresh() for _ in range(count)]
        types = ", ".join([TILE] * count)
        self.emit(depth, f"{', '.join(results)} = scf.if {condition} -> ({types}) {{")
        for side in ("then", "else"):
            if side == "else":
                self.emit(depth, "} else {")
            inner = self.block(scope, depth + 1, condition)
            yielded = [self.pick(scope + inner) for _ in range(count)]
            self.emit(depth + 1, f"scf.yield {', '.join(yielded)} : {types}")
        self.emit(depth, "}")
        return results

    def program(self) -> str:
        self.emit(0, f"%v0 = pto.tload %in : {VIEW} -> {TILE}")
        defined = ["%v0", *self.block(["%v0"], 0, "%flag")]
        # Every top-level value (loop and branch results too) reaches an output.
        self.emit(0, f"pto.tstore {self.fold(defined, 0)}, %o1 : ({TILE}, {VIEW}) -> ()")
        self.emit(0, f"pto.tstore {defined[-1]}, %o2 : ({TILE}, {VIEW}) -> ()")
        constants = [f"    %c{n} = arith.constant {n} : index" for n in (0, 1, 2, 3)]
        body = "\n".join([*constants, *self.lines])
        return (
            f"func.func @p(%in: {VIEW}, %o1: {VIEW}, %o2: {VIEW}, %o3: {VIEW}, %s: f32, "
            f"%flag: i1) {{\n"
            f"{body}\n    return\n}}"
        )


@st.composite
def programs(draw: st.DrawFn) -> str:
    """A random straight-line level-1 program with two stored outputs."""
    return _ProgramWriter(draw, ELEMENTWISE, max_depth=0).program()


@st.composite
def loop_programs(draw: st.DrawFn) -> str:
    """A random level-1 program with loops carrying tiles and branches yielding them."""
    return _ProgramWriter(draw, LOOP_OPS, max_depth=2).program()


def run_both_levels(text: str, flag: bool) -> None:
    x = RNG.uniform(-1, 1, (8, 8)).astype(np.float32)
    level1 = [np.zeros((8, 8), np.float32) for _ in range(3)]
    level2 = [np.zeros((8, 8), np.float32) for _ in range(3)]
    PTOExecutor(parse(text)).run("p", [x, *level1, 0.25, flag])
    PTOExecutor(lower_to_level2(parse(text))).run("p", [x, *level2, 0.25, flag])
    for one, two in zip(level1, level2, strict=True):
        np.testing.assert_array_equal(one, two)


@settings(max_examples=40, deadline=None)
@given(programs())
def test_random_programs_agree_between_levels(text: str) -> None:
    run_both_levels(text, True)


@settings(max_examples=80, deadline=None)
@given(loop_programs(), st.booleans())
def test_random_loop_programs_agree_between_levels(text: str, flag: bool) -> None:
    run_both_levels(text, flag)


# -- command line ---------------------------------------------------------------------


def test_command_line_runs_a_file_on_npz_inputs(tmp_path: Path) -> None:
    x = RNG.standard_normal((16, 16)).astype(np.float32)
    np.savez(tmp_path / "in.npz", arg0=x, arg1=np.zeros((16, 16), np.float32))
    status = main(
        [
            str(EXAMPLES / "softmax_columns.mlir"),
            "--inputs",
            str(tmp_path / "in.npz"),
            "-o",
            str(tmp_path / "out.npz"),
        ]
    )
    assert status == 0
    with np.load(tmp_path / "out.npz") as out:
        np.testing.assert_allclose(out["arg1"], softmax_columns_reference(x), rtol=1e-5, atol=1e-7)


def test_command_line_reports_missing_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    np.savez(tmp_path / "in.npz", arg0=np.zeros((16, 16), np.float32))
    status = main([str(EXAMPLES / "softmax_columns.mlir"), "--inputs", str(tmp_path / "in.npz")])
    assert status == 1
    assert (
        "error: missing input 'arg1' for parameter 1 (!pto.partition_tensor_view<16x16xf32>)"
        in capsys.readouterr().err
    )


# -- control flow, dynamic shapes, addresses ------------------------------------------


def test_loop_accumulates_into_a_buffer() -> None:
    buf = "!pto.tile_buf<vec, 4x8xf32>"
    module = parse(f"""
func.func @f(%x: {buf}, %acc: {buf}, %n: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {{
    pto.tadd ins(%acc, %x : {buf}, {buf}) outs(%acc : {buf})
  }}
  return
}}""")
    x = RNG.integers(-5, 5, (4, 8)).astype(np.float32)
    acc = Tile(np.zeros((4, 8), np.float32), 4, 8)
    PTOExecutor(module).run("f", [tile_arg(x), acc, 7])
    assert np.array_equal(acc.data, 7 * x)


def test_dynamic_valid_shape_comes_from_alloc_operands() -> None:
    module = parse("""
func.func @f(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>, %r: index, %c: index) {
  %s = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %d = pto.alloc_tile valid_row = %c valid_col = %r : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  pto.tload ins(%in : !pto.partition_tensor_view<16x16xf32>) outs(%s : !pto.tile_buf<vec, 16x16xf32>)
  %t = pto.alloc_tile valid_row = %r valid_col = %c : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  pto.tmov ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32, valid=?x?>)
  pto.ttrans ins(%t : !pto.tile_buf<vec, 16x16xf32, valid=?x?>) outs(%d : !pto.tile_buf<vec, 16x16xf32, valid=?x?>)
  pto.tstore ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%out : !pto.partition_tensor_view<16x16xf32>)
  return
}""")  # noqa: E501 - IR listing, one op per line
    executor = PTOExecutor(module)
    x = RNG.standard_normal((16, 16)).astype(np.float32)
    out = np.zeros((16, 16), np.float32)
    executor.run("f", [x, out, 5, 3])
    assert np.array_equal(out, x)


def test_dynamic_transpose_uses_the_run_time_valid_region() -> None:
    dyn = "!pto.tile_buf<vec, 16x16xf32, valid=?x?>"
    module = parse(f"""
func.func @f(%src: {dyn}, %r: index, %c: index) -> {dyn} {{
  %d = pto.alloc_tile valid_row = %c valid_col = %r : {dyn}
  pto.ttrans ins(%src : {dyn}) outs(%d : {dyn})
  return %d : {dyn}
}}""")
    src = RNG.standard_normal((16, 16)).astype(np.float32)
    (dst,) = PTOExecutor(module).run("f", [Tile(src.copy(), 5, 3), 5, 3])
    assert isinstance(dst, Tile)
    assert (dst.valid_rows, dst.valid_cols) == (3, 5)
    expected = np.zeros((16, 16), np.float32)
    expected[:3, :5] = src[:5, :3].T
    assert np.array_equal(dst.data, expected)


def test_ssa_tassign_rebinds_and_aliases() -> None:
    buf = "!pto.tile_buf<vec, 8x8xf32>"
    module = parse(f"""
func.func @f(%x: {buf}) -> {buf} {{
  %addr = arith.constant 4096 : i64
  %a = pto.alloc_tile : {buf}
  %b = pto.alloc_tile addr = %addr : {buf}
  %a2 = pto.tassign %a, %addr : {buf} -> {buf}
  pto.texp ins(%x : {buf}) outs(%a2 : {buf})
  return %b : {buf}
}}""")
    x = RNG.standard_normal((8, 8)).astype(np.float32)
    (b,) = PTOExecutor(module).run("f", [tile_arg(x)])
    assert isinstance(b, Tile)
    np.testing.assert_allclose(b.data, np.exp(x), rtol=1e-6)  # %b shares %a2's bytes


def test_alloc_at_an_address_keeps_the_bytes_there() -> None:
    """A later `alloc_tile addr = A` sees what an earlier tile at A left, as a row of 16
    seen as a column of 16 (PTOAS's memory plans reinterpret tiles this way)."""
    row, column = "!pto.tile_buf<vec, 1x16xf32>", "!pto.tile_buf<vec, 16x1xf32, valid=16x1>"
    module = parse(f"""
func.func @f(%x: {row}) -> {column} {{
  %addr = arith.constant 256 : i64
  %a = pto.alloc_tile addr = %addr : {row}
  pto.texp ins(%x : {row}) outs(%a : {row})
  %b = pto.alloc_tile addr = %addr : {column}
  return %b : {column}
}}""")
    x = RNG.standard_normal((1, 16)).astype(np.float32)
    (b,) = PTOExecutor(module).run("f", [tile_arg(x)])
    assert isinstance(b, Tile)
    np.testing.assert_allclose(b.data[:, 0], np.exp(x[0]), rtol=1e-6)


def test_address_beyond_memory_is_an_error() -> None:
    module = parse("""
func.func @f() {
  %t = pto.alloc_tile : !pto.tile_buf<bias, 16x16xf32>
  pto.tassign %t, @tile(0x20)
  return
}""")
    # A2A3's bias table holds 1 KB; A5's 4 KB.
    with pytest.raises(
        UserError, match="tile of 1024 bytes at 0x20 does not fit the 1024-byte bias memory"
    ):
        PTOExecutor(module).run("f", [])
    PTOExecutor(module, target="a5").run("f", [])


@pytest.mark.parametrize(
    ("a", "b", "quotient", "remainder"),
    [(7, 2, 3, 1), (-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1)],
)
def test_signed_division_rounds_toward_zero(a: int, b: int, quotient: int, remainder: int) -> None:
    buf = "!pto.tile_buf<vec, 1x8xi32>"
    view = "!pto.partition_tensor_view<1x8xi32>"
    module = parse(f"""
func.func @f(%a: index, %b: index, %oq: {view}, %or: {view}) {{
  %q = arith.divsi %a, %b : index
  %r = arith.remsi %a, %b : index
  %qi = arith.index_cast %q : index to i32
  %ri = arith.index_cast %r : index to i32
  %tq = pto.alloc_tile : {buf}
  %tr = pto.alloc_tile : {buf}
  pto.tadds ins(%tq, %qi : {buf}, i32) outs(%tq : {buf})
  pto.tadds ins(%tr, %ri : {buf}, i32) outs(%tr : {buf})
  pto.tstore ins(%tq : {buf}) outs(%oq : {view})
  pto.tstore ins(%tr : {buf}) outs(%or : {view})
  return
}}""")
    out_q, out_r = np.zeros((1, 8), np.int32), np.zeros((1, 8), np.int32)
    PTOExecutor(module).run("f", [a, b, out_q, out_r])
    assert set(out_q.ravel().tolist()) == {quotient}
    assert set(out_r.ravel().tolist()) == {remainder}


def test_command_line_runs_pto_as_on_random_inputs(tmp_path: Path) -> None:
    status = main(
        [
            str(EXAMPLES / "ttrans_manual.pto"),
            "--random-inputs",
            "3",
            "-o",
            str(tmp_path / "out.npz"),
        ]
    )
    assert status == 0
    with np.load(tmp_path / "out.npz") as out:
        assert np.array_equal(out["arg1"], out["arg0"].T)
        assert out["arg0"].std() > 0.5  # really random, not zeros


def test_command_line_checks_input_shapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    np.savez(
        tmp_path / "in.npz", arg0=np.zeros((8, 16), np.float32), arg1=np.zeros((16, 16), np.float32)
    )
    status = main([str(EXAMPLES / "softmax_columns.mlir"), "--inputs", str(tmp_path / "in.npz")])
    assert status == 1
    assert (
        "error: input 'arg0' must have shape (16, 16) for !pto.partition_tensor_view<16x16xf32>, "
        "but has (8, 16)" in capsys.readouterr().err
    )


def test_command_line_summarises_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES / "softmax_columns.mlir"), "--random-inputs", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("arg1: float32[16x16] sum=16 ")  # every column sums to 1


def test_random_inputs_cover_float_scalars_and_reject_pointers(tmp_path: Path) -> None:
    scaled = tmp_path / "scaled.mlir"
    scaled.write_text(
        "func.func @f(%in: !pto.partition_tensor_view<2x8xf32>, %out: "
        "!pto.partition_tensor_view<2x8xf32>, %s: f32) {\n"
        "  %x = pto.tload %in : !pto.partition_tensor_view<2x8xf32> -> !pto.tile<2x8xf32>\n"
        "  %y = pto.tmuls %x, %s : (!pto.tile<2x8xf32>, f32) -> !pto.tile<2x8xf32>\n"
        "  pto.tstore %y, %out : (!pto.tile<2x8xf32>, !pto.partition_tensor_view<2x8xf32>) -> ()\n"
        "  return\n}\n"
    )
    outputs = run_file(str(scaled), None, None, None, seed=5)
    ratio = outputs["arg1"] / outputs["arg0"]
    assert np.allclose(ratio, ratio.flat[0])  # one random scalar scaled every element
    pointer = tmp_path / "pointer.mlir"
    pointer.write_text("func.func @g(%p: !pto.ptr<f32>) {\n  return\n}\n")
    with pytest.raises(
        UserError,
        match=re.escape(
            "cannot make a random input for parameter 0 (!pto.ptr<f32, gm>); pass --inputs"
        ),
    ):
        run_file(str(pointer), None, None, None)


def test_tiled_transpose_example_levels_agree_with_numpy() -> None:
    text = (EXAMPLES / "tiled_transpose.mlir").read_text()
    x = RNG.standard_normal((64, 32)).astype(np.float32)
    level1, level2 = np.zeros(32 * 64, np.float32), np.zeros(32 * 64, np.float32)
    PTOExecutor(parse(text)).run("tiled_transpose", [x.reshape(-1), level1, 0.5])
    PTOExecutor(lower_to_level2(parse(text))).run("tiled_transpose", [x.reshape(-1), level2, 0.5])
    assert np.array_equal(level1.reshape(32, 64), 0.5 * x.T)
    assert np.array_equal(level1, level2)
