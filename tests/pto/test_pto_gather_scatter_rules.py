"""PTOAS main's mgather / mscatter verifier rules (`dialects/pto/gather_scatter_rules.py`)
over kernels of our own: each accepted, then rejected with PTOAS's message once one
thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import error_on_line, verify_kernel

VIEW = "!pto.partition_tensor_view<8x32xf32>"
DST = "!pto.tile_buf<vec, 8x32xf32>"


def _gather(index: str, attrs: str, dst: str = DST, memory: str = VIEW) -> str:
    return f"""func.func @k(%m: {memory}, %i: {index}, %d: {dst}) {{
  pto.mgather ins(%m, %i : {memory}, {index}) outs(%d : {dst}){attrs}
  return
}}
"""


def _scatter(index: str, attrs: str) -> str:
    return f"""func.func @k(%s: {DST}, %i: {index}, %m: {VIEW}) {{
  pto.mscatter ins(%s, %i : {DST}, {index}) outs(%m : {VIEW}){attrs}
  return
}}
"""


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 2."""
    return error_on_line(text, 2)


ROW = " {coalesce = #pto<coalesce row>}"
ELEM = " {coalesce = #pto.coalesce<elem>}"


@pytest.mark.parametrize(
    ("index", "attrs"),
    [
        ("!pto.tile_buf<vec, 8x32xi32>", ELEM),
        # row mode: [1, R] row-major, or [R, 1] col-major.
        ("!pto.tile_buf<vec, 1x8xi32>", ROW),
        ("!pto.tile_buf<vec, 8x1xi32, blayout=col_major>", ROW),
        # a dynamic valid extent fits any
        ("!pto.tile_buf<vec, 8x32xi32, valid=?x?>", ROW),
    ],
)
def test_gathers_thatverify_kernel(index: str, attrs: str) -> None:
    verify_kernel(_gather(index, attrs))


def test_an_mgather_from_a_view_names_its_coalesce_mode() -> None:
    assert _error(_gather("!pto.tile_buf<vec, 8x32xi32>", "")) == "requires attribute 'coalesce'"
    # The older form from a memref has no mode.
    verify_kernel(_gather("!pto.tile_buf<vec, 8x32xi32>", "", memory="memref<8x32xf32>"))


@pytest.mark.parametrize(
    ("index", "attrs", "message"),
    [
        (
            "!pto.tile_buf<vec, 8x32xi32>",
            ROW,
            "expects row-coalesce idx valid_shape to be [0|1, dst.valid_row] or "
            "[dst.valid_row, 0|1]",
        ),
        (
            "!pto.tile_buf<vec, 8x1xi32>",
            ELEM,
            "expects elem-coalesce idx valid_shape to match dst valid_shape",
        ),
    ],
)
def test_index_shapes_per_mode(index: str, attrs: str, message: str) -> None:
    assert _error(_gather(index, attrs)) == message


def test_a_gather_into_l1_reads_its_indices_from_global_memory() -> None:
    mat = "!pto.tile_buf<mat, 16x32xf32, blayout=col_major, slayout=row_major>"
    text = _gather("!pto.tile_buf<vec, 16x32xi32>", ROW, dst=mat)
    assert _error(text) == (
        "expects GM->L1 mgather idx to be a GM tensor partition_tensor_view, not a tile_buf"
    )


def test_a_scatter_with_options_names_its_mode() -> None:
    index = "!pto.tile_buf<vec, 8x32xi32>"
    verify_kernel(_scatter(index, ""))
    verify_kernel(
        _scatter(index, " {coalesce = #pto.coalesce<elem>, scatterOob = #pto<scatter_oob skip>}")
    )
    assert _error(_scatter(index, " {scatterOob = #pto<scatter_oob skip>}")) == (
        "expects coalesce when scatterAtomicOp/scatterOob/scatterConflict is specified"
    )
    assert _error(_scatter("!pto.tile_buf<vec, 8x16xi32>", "")) == (
        "expects idx valid_shape to be [src.valid_row, 0|1] or match src valid_shape when "
        "coalesce is omitted"
    )
