"""Every Pallas corpus kernel parses, verifies, and prints to a fixed point."""

from __future__ import annotations

import pytest
from pallas_corpus import KERNELS, kernel_text, parse_kernel

from xla_emit.ir.context import make_context
from xla_emit.ir.parse import parse_mlir


def test_the_corpus_is_there() -> None:
    assert len(KERNELS) >= 14


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_round_trips(name: str) -> None:
    printed = str(parse_kernel(name))
    reparsed, _ = parse_mlir(printed, f"{name}.printed.mlir", make_context())
    assert str(reparsed) == printed


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_keeps_its_ops(name: str) -> None:
    """The printed module names every op the Mosaic text names (nothing dropped or renamed)."""
    printed = str(parse_kernel(name))
    for word in ("tpu.", "vector.", "arith.", "scf."):
        original = {tok.split("(")[0] for tok in kernel_text(name).split() if word in tok}
        for token in original:
            op = token.strip('"').split("<")[0].rstrip(",")
            if op.startswith(word) and op.replace(word, "").isidentifier():
                assert op in printed, op


def test_hex_float_constants_keep_their_bits() -> None:
    """Mosaic prints -inf as `dense<0xFF800000>`: a bit pattern, not the integer 4286578688."""
    printed = str(parse_kernel("attention"))
    assert "arith.constant dense<0xff800000> : vector<8xf32>" in printed
