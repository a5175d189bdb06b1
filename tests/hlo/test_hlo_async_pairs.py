"""Async start/update/done pairs mean their synchronous ops on one device.

Oracle: numpy on the same chain (scale by 3, copy, one-device all-reduce,
all-gather and collective-permute keep the value, the wrapped negate).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit import api
from xla_emit.diagnostics import UserError

PAIRS = Path(__file__).parent / "async" / "async_pairs.hlo"


def test_the_chain_runs_synchronously() -> None:
    text = PAIRS.read_text()
    x = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    for negated, scaled in (api.run_reference(text, [x]), api.run_hlo(text, [x])):
        np.testing.assert_array_equal(scaled, x * np.float32(3))
        np.testing.assert_array_equal(negated, -(x * np.float32(3)))


def test_no_async_op_is_left_after_parsing() -> None:
    module = api.parse_hlo(PAIRS.read_text())
    opcodes = {i.opcode for i in module.entry.instructions}
    assert not {o for o in opcodes if o.endswith(("-start", "-done", "-update"))}
    assert {"fusion", "copy", "all-reduce", "all-gather", "collective-permute", "call"} <= opcodes


def test_a_permute_that_sends_nothing_here_gives_zeros() -> None:
    text = (
        "HloModule m\n\nENTRY e {\n  x = f32[3] parameter(0)\n"
        "  s = (f32[3], f32[3], u32[], u32[]) collective-permute-start(x), "
        "source_target_pairs={{0,1},{1,0}}\n"
        "  ROOT d = f32[3] collective-permute-done(s)\n}\n"
    )
    x = np.ones(3, np.float32)
    for (out,) in (api.run_reference(text, [x]), api.run_hlo(text, [x])):
        np.testing.assert_array_equal(out, np.zeros(3, np.float32))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "  s = (f32[3], f32[3], u32[]) copy-start(x)\n  ROOT y = f32[3] negate(x)",
            "copy-start has no matching done",
        ),
        ("  ROOT d = f32[3] copy-done(x)", "copy-done takes the copy-start it completes"),
    ],
)
def test_unpaired_async_ops_are_located_errors(body: str, message: str) -> None:
    text = f"HloModule m\n\nENTRY e {{\n  x = f32[3] parameter(0)\n{body}\n}}\n"
    with pytest.raises(UserError, match=message) as raised:
        api.parse_hlo(text)
    assert raised.value.location is not None
