"""PTOAS main's split and entry rules of the internal pipe ops
(`dialects/pto/internal_pipe_rules.py`) over kernels of our own: each accepted, then
rejected with PTOAS's message once one thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import error_on_line, verify_kernel

ACC = (
    "!pto.tile_buf<acc, 16x16xf32, valid=15x16, blayout=col_major, slayout=row_major, fractal=1024>"
)
L2L = (
    "%p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, "
    "flag_base = 0, nosplit = false}(%b : i32) -> !pto.pipe"
)
VIEW = "!pto.tensor_view<16x16xf32>"
L2G2L = (
    f"%p = pto.initialize_l2g2l_pipe {{dir_mask = 1, slot_size = 1024, slot_num = 8, "
    f"flag_base = 0}}(%g : {VIEW}, %b : i32) -> !pto.pipe"
)


CUBE = "attributes {pto.kernel_kind = #pto.kernel_kind<cube>}"


def _cube(init: str, split: int) -> str:
    return f"""func.func @k(%b: i32, %g: {VIEW}, %t: {ACC}) {CUBE} {{
  {init}
  pto.tpush(%t, %p : {ACC}, !pto.pipe) {{split = {split}}}
  return
}}
"""


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 3."""
    return error_on_line(text, 3)


def test_splits_thatverify_kernel() -> None:
    verify_kernel(_cube(L2L, 1))
    verify_kernel(_cube(L2G2L, 3))  # an odd split of a one-way C2V pipe with a local buffer


@pytest.mark.parametrize(
    ("init", "split", "message"),
    [
        (L2L, 5, "expects 'split' to be 0, 1, 2, 3, or 4"),
        (
            L2L,
            3,
            "supports odd split modes (split = 3 or 4) only for a unidirectional C2V "
            "pto.initialize_l2g2l_pipe with a local consumer buffer",
        ),
    ],
)
def test_split_rules(init: str, split: int, message: str) -> None:
    assert _error(_cube(init, split)) == message


def test_a_global_entry_has_the_slot_shape() -> None:
    init = (
        f"%p = pto.initialize_l2g2l_pipe {{dir_mask = 1, slot_size = 1024, slot_num = 8, "
        f"flag_base = 0}}(%g : {VIEW}) -> !pto.pipe"
    )

    def text(entry: str) -> str:
        return f"""func.func @k(%g: {VIEW}, %e: {entry}) {CUBE} {{
  {init}
  pto.talloc(%e, %p : {entry}, !pto.pipe) {{split = 0}}
  return
}}
"""

    verify_kernel(text(VIEW))
    assert _error(text("!pto.tensor_view<16x32xf32>")) == (
        "expects pipe entry dimension 1 to match initialize_l2g2l_pipe gm_addr dimension 16"
    )
