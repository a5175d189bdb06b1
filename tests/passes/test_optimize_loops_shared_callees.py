"""Fusions whose levels share subexpressions (`v = add(v, transpose(v))`, XLA's CSE keeps
them linear) compile and run in time linear in the levels.

The unrolling cost counts each pure call's callee once per loop, not once per path
through the call graph (which doubles per level). Oracle for the values: from the
second level on `v` is symmetric, so each level doubles it: v_n = 2^(n-1) (x + x^T)
exactly (powers of two scale floats exactly).
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from xdsl.traits import SymbolTable
from xla_emit.passes.gpu import optimize_loops

from xla_emit import api
from xla_emit.emitters import emit_hlo_module
from xla_emit.runtime.pipeline import apply_pipeline


def levels(count: int) -> str:
    lines = ["HloModule m", "", "f {", "  v0 = f32[32,32]{1,0} parameter(0)"]
    for k in range(count):
        lines.append(f"  t{k} = f32[32,32]{{1,0}} transpose(v{k}), dimensions={{1,0}}")
        root = "ROOT " if k == count - 1 else ""
        lines.append(f"  {root}v{k + 1} = f32[32,32]{{1,0}} add(v{k}, t{k})")
    lines += [
        "}",
        "",
        "ENTRY e {",
        "  x = f32[32,32]{1,0} parameter(0)",
        "  ROOT r = f32[32,32]{1,0} fusion(x), kind=kLoop, calls=f",
        "}",
    ]
    return "\n".join(lines) + "\n"


def test_unrolling_cost_looks_each_callee_up_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    module = emit_hlo_module(levels(16), "levels.hlo")
    apply_pipeline(
        module, "xla-lower-xla-to-scf,inline,xla-erase-dead-functions,xla-lower-xla-loops-to-scf"
    )
    lookups = 0
    lookup = SymbolTable.lookup_symbol

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal lookups
        lookups += 1
        return lookup(*args, **kwargs)

    monkeypatch.setattr(SymbolTable, "lookup_symbol", staticmethod(counting))
    loops = [op for op in module.walk() if op.name == "scf.for"]
    for loop in loops:
        optimize_loops.region_size(loop.body)
    # Two calls per level, each callee sized once: about 2 * 16 lookups, not 2^16.
    assert 0 < lookups <= 4 * 16 * max(len(loops), 1)


@pytest.mark.slow
def test_twenty_four_levels_run_in_seconds() -> None:
    x = np.random.default_rng(6).standard_normal((32, 32)).astype(np.float32)
    start = time.monotonic()
    (out,) = api.run_hlo(levels(24), [x])
    elapsed = time.monotonic() - start
    np.testing.assert_array_equal(out, np.float32(2**23) * (x + x.T))
    assert elapsed < 30, f"{elapsed:.1f} s: the work grows with the number of paths"
