"""PTOAS main's A5 rules of the MX matmul and gemv (`xla_emit/pto/mx_matmul_rules.py`)
over kernels of our own: each accepted, then rejected with PTOAS's message once one
thing changes. K = 64 takes ceil(64 / 32) = 2 scale groups."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import error_on_line, verify_kernel

ACC = "!pto.tile_buf<acc, {m}x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"


def _kernel(
    op: str = "tmatmul.mx",
    m: int = 16,
    k: int = 64,
    lhs: str = "f8E4M3FN",
    rhs: str = "f8E5M2",
    a_scale: str = "",
    b_scale: str = "",
) -> str:
    left = f"!pto.tile_buf<left, {m}x{k}x{lhs}, blayout=col_major, slayout=row_major>"
    right = f"!pto.tile_buf<right, {k}x16x{rhs}, slayout=col_major>"
    groups = -(-k // 32)
    a_scale = a_scale or (
        f"!pto.tile_buf<scaling, {m}x{groups}xf16, slayout=row_major, fractal=32>"
    )
    b_scale = b_scale or (
        f"!pto.tile_buf<scaling, {groups}x16xf16, blayout=col_major, slayout=col_major, fractal=32>"
    )
    acc = ACC.format(m=m)
    types = f"{left}, {a_scale}, {right}, {b_scale}"
    return f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(%a: {left}, %sa: {a_scale}, %b: {right}, %sb: {b_scale}, %d: {acc}) {{
    pto.{op} ins(%a, %sa, %b, %sb : {types}) outs(%d : {acc})
    return
  }}
}}
"""


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 3."""
    return error_on_line(text, 3)


def test_mx_kernels_thatverify_kernel() -> None:
    verify_kernel(_kernel())
    verify_kernel(_kernel(lhs="!pto.f4E2M1x2", rhs="!pto.f4E1M2x2"))
    verify_kernel(_kernel("tgemv.mx", m=1))


@pytest.mark.parametrize(
    ("kernel", "message"),
    [
        (
            _kernel(k=32),
            "expects lhs physical K shape to be a positive multiple of 64 on A5",
        ),
        (
            _kernel(a_scale="!pto.tile_buf<scaling, 16x64xf16, slayout=row_major, fractal=32>"),
            "expects a_scale shape to be [M, ceil(K/32)]",
        ),
        (
            _kernel(a_scale="!pto.tile_buf<scaling, 16x2xf16, fractal=32>"),
            "expects a_scale to use the row_major slayout on A5",
        ),
        (
            # f8E4M3 (not the FN kind) is not an MX input.
            _kernel(lhs="f8E4M3", rhs="f8E4M3"),
            "expects A5 mx lhs/rhs element types to be a supported fp8/fp8 or fp4/fp4 pair",
        ),
        (
            _kernel(rhs="!pto.f4E1M2x2"),
            "expects A5 mx lhs/rhs element types to be a supported fp8/fp8 or fp4/fp4 pair",
        ),
        (
            _kernel(
                "tgemv.mx",
                m=1,
                a_scale="!pto.tile_buf<scaling, 1x64xf16, slayout=row_major, fractal=32>",
            ),
            "expects a_scale shape/valid_shape to be [M, ceil(K/32)]",
        ),
    ],
)
def test_mx_rules(kernel: str, message: str) -> None:
    assert _error(kernel) == message
