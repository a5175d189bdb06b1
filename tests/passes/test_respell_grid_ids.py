"""`xla-respell` into today's spelling threads XLA's six grid ids through a kernel's maps.

XLA's emitters write maps of (th_x, th_y, th_z, bl_x, bl_y, bl_z); ours are built over
(th_x, bl_x) and spelled so when printed in today's spelling (the seed's keeps two). The
six-id kernel must compute what the two-id one does: both run on a corpus fusion's
operands and are compared bit for bit, and with the HLO evaluator's result.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.dialects.gpu import BlockIdOp, ThreadIdOp
from xla_emit.dialects.xla import ApplyIndexingOpBase, LoopOpBase, get_xla_range
from xla_emit.passes.gpu.respell import RespellPass

from xla_emit.emitters import emit_fusion
from xla_emit.hlo import parse_hlo_module
from xla_emit.hlo.evaluator import evaluate_values, flatten_value
from xla_emit.hlo.npz import read_inputs
from xla_emit.indexing.interval import Interval
from xla_emit.interpreter import Executor
from xla_emit.ir import make_context
from xla_emit.ir.parse import parse_mlir

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
SIX_IDS = ("th_x", "th_y", "th_z", "bl_x", "bl_y", "bl_z")


def emitted(program: str) -> tuple[ModuleOp, list, list]:
    """Our kernel for the program's (only reduction) fusion, its operands and the evaluator's
    result."""
    path = CORPUS / program / "gpu.hlo"
    hlo = parse_hlo_module(path.read_text(), str(path))
    fusion = next(i for i in hlo.entry.instructions if i.opcode == "fusion")
    arguments = read_inputs(str(CORPUS / program / "inputs.npz"), hlo.entry)
    values = evaluate_values(hlo.entry, arguments)
    operands = [values[operand] for operand in fusion.operands]
    return emit_fusion(hlo, fusion), operands, flatten_value(values[fusion])


def respelled(module: ModuleOp, spelling: str) -> ModuleOp:
    RespellPass(spelling).apply(make_context(), module)
    reparsed, _ = parse_mlir(str(module), "respelled.mlir")
    return reparsed


def grid_users(module: ModuleOp) -> list[LoopOpBase | ApplyIndexingOpBase]:
    """Ops whose maps are over the grid; XLA's shared-tile maps, over th_x alone, stay so."""
    return [
        op
        for op in module.walk()
        if isinstance(op, LoopOpBase | ApplyIndexingOpBase)
        and op.indexing_map.dim_names[0] == "th_x"
        and op.indexing_map.num_dims > 1
    ]


@pytest.mark.parametrize("program", ["row_sum", "column_max", "concatenate"])
def test_todays_spelling_threads_six_grid_ids(program: str) -> None:
    module, operands, expected = emitted(program)
    seed = respelled(module.clone(), "xla_gpu")
    today = respelled(module, "xla")
    users = grid_users(today)
    assert users
    for op in users:
        indexing_map = op.indexing_map
        assert indexing_map.dim_names == SIX_IDS
        assert [v.bounds for v in indexing_map.dim_vars[1:3] + indexing_map.dim_vars[4:]] == [
            Interval(0, 0)
        ] * 4
    ids = [op for op in today.walk() if isinstance(op, ThreadIdOp | BlockIdOp)]
    points = [get_xla_range(op) for op in ids if op.dimension_name != "x"]
    assert points == [Interval(0, 0)] * 4
    assert all(op.indexing_map.num_dims == 2 for op in grid_users(seed))
    seed_results = Executor(seed).run(operands)
    today_results = Executor(today).run(operands)
    for ours, two_ids, theirs in zip(today_results, seed_results, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(two_ids))
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5)


def test_respelling_a_six_id_kernel_again_changes_nothing() -> None:
    module, _, _ = emitted("row_sum")
    once = respelled(module, "xla")
    assert str(respelled(once.clone(), "xla")) == str(once)
