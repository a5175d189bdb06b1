"""PTOAS main's verifiers of multi-buffer tiles (`dialects/pto/multi_tile_rules.py`),
tfillpad between `mat` tiles and constant tassign addresses, over kernels of our own:
each accepted, then rejected with PTOAS's message once one thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import located_error, verify_kernel

MULTI = "!pto.multi_tile_buf<vec, 16x16xf16, count=2>"
SLOT = "!pto.tile_buf<vec, 16x16xf16>"


def _multi(address: int | None = None, slot: int = 1, kind: str = MULTI) -> str:
    base = "addr = %a " if address is not None else ""
    return f"""func.func @k() {{
  %a = arith.constant {address or 0} : i64
  %s = arith.constant {slot} : index
  %m = pto.alloc_multi_tile {base}: {kind}
  %t = pto.multi_tile_get %m[%s] : {kind} -> {SLOT}
  return
}}
"""


def test_a_multi_buffer_verifies() -> None:
    verify_kernel(_multi())
    verify_kernel(_multi(address=512))


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (_multi(slot=2), 5, "constant slot 2 is out of range for multi_tile_buf count=2"),
        (
            _multi(address=4),
            4,
            "addr must be aligned to 32 bytes for local tile memory space, got 4",
        ),
        (
            _multi(
                kind="!pto.multi_tile_buf<!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=16, "
                "v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0, "
                "compact=2>, count=2>"
            ),
            4,
            "multi_tile_buf slot uses row_plus_one compaction, whose padded storage footprint "
            "exceeds product(shape) and would overlap adjacent multi-buffer slots; use a "
            "compact (non-row_plus_one) slot layout or a single pto.alloc_tile",
        ),
    ],
)
def test_multi_buffer_rules(text: str, line: int, message: str) -> None:
    assert located_error(text) == (line, message)


def _fillpad(src: str, dst: str, attrs: str = "") -> str:
    return f"""func.func @k(%s: {src}, %d: {dst}) {{
  pto.tfillpad ins(%s : {src}) outs(%d : {dst}){attrs}
  return
}}
"""


MAT = "!pto.tile_buf<mat, 16x64xbf16, blayout=col_major, slayout=row_major{extra}>"


def test_mat_fillpads_keep_one_tile_type() -> None:
    same = MAT.format(extra=", pad=1")
    verify_kernel(_fillpad(same, same))
    assert located_error(_fillpad(MAT.format(extra=", valid=?x?"), same)) == (
        2,
        "expects src/dst tile types to be lowerable to TFILLPAD for loc=mat; mismatching "
        "fields: v_row (? vs 16), v_col (? vs 64), pad (0 vs 1)",
    )
    assert located_error(_fillpad(same, same, ' {mode = "expand"}')) == (
        2,
        "does not accept 'mode'; PTOAS infers TFILLPAD lowering from physical shape and "
        "planned addresses",
    )


def test_a_constant_tassign_address_is_aligned() -> None:
    def text(address: int) -> str:
        return f"""func.func @k(%t: {SLOT}) {{
  %a = arith.constant {address} : i64
  %r = pto.tassign %t, %a : {SLOT} -> {SLOT}
  return
}}
"""

    verify_kernel(text(64))
    assert located_error(text(70660)) == (
        3,
        "addr must be aligned to 32 bytes for local tile memory space, got 70660",
    )
