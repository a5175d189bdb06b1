"""Entry-level instructions run on the runtime's own code, so `--check` can catch the oracle.

A wrong reference evaluator must not change what the runtime computes: if
the runtime borrowed the evaluator's `tuple`/`get-tuple-element`/`bitcast`,
a bug there would show on both sides of the comparison and go unnoticed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from xla_emit.hlo import evaluator
from xla_emit.hlo.evaluator import Value, evaluate_module
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import CheckOptions
from xla_emit.runtime import KernelCache, ModuleRuntime, check_pipeline

ALIASES = """
HloModule aliases

ENTRY main {
  x = f32[4,6]{1,0} parameter(0)
  y = f32[4,6]{1,0} parameter(1)
  t = (f32[4,6]{1,0}, f32[4,6]{1,0}) tuple(x, y)
  g = f32[4,6]{1,0} get-tuple-element(t), index=1
  c = f32[6,4]{0,1} bitcast(g)
  r = f32[24]{0} bitcast(x)
  ROOT out = (f32[6,4]{0,1}, f32[24]{0}) tuple(c, r)
}
"""


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.standard_normal((4, 6)).astype(np.float32) for _ in range(2)]


def _break(monkeypatch: pytest.MonkeyPatch, opcode: str) -> None:
    """Make the reference evaluator compute `opcode` wrongly (negated arrays)."""
    correct = evaluator._HANDLERS[opcode]  # pyright: ignore[reportPrivateUsage]

    def wrong(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
        value = correct(instruction, operands)
        return -value if isinstance(value, np.ndarray) else value

    monkeypatch.setitem(evaluator._HANDLERS, opcode, wrong)  # pyright: ignore[reportPrivateUsage]


def test_aliases_match_numpy() -> None:
    x, y = _inputs()
    module = parse_hlo_module(ALIASES, "aliases.hlo")
    transposed, flat = ModuleRuntime(module, KernelCache(checks=CheckOptions())).run([x, y])
    # {0,1} on f32[6,4] is column-major: element (i, j) sits at j * 6 + i of y's bytes.
    np.testing.assert_array_equal(transposed, y.reshape(-1).reshape(4, 6).T)
    np.testing.assert_array_equal(flat, x.reshape(-1))


@pytest.mark.parametrize("opcode", ["bitcast", "get-tuple-element"])
def test_a_wrong_evaluator_leaves_the_runtime_alone(
    opcode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    x, y = _inputs()
    module = parse_hlo_module(ALIASES, "aliases.hlo")
    _break(monkeypatch, opcode)
    transposed, flat = ModuleRuntime(module, KernelCache(checks=CheckOptions())).run([x, y])
    np.testing.assert_array_equal(transposed, y.T)
    np.testing.assert_array_equal(flat, x.reshape(-1))


def test_check_catches_a_wrong_evaluator(monkeypatch: pytest.MonkeyPatch) -> None:
    x, y = _inputs()
    module = parse_hlo_module(ALIASES, "aliases.hlo")
    _break(monkeypatch, "bitcast")
    expected = evaluate_module(module, [x, y])
    report = check_pipeline(module, [x, y], expected, "")
    assert report.first_failure is not None
