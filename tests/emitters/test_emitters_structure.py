"""What the emitters build: today's `xla` ops only, and row and column reductions apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from dialects import xla, xla_gpu
from xla_emit.emitters import emit_hlo_module
from xla_emit.emitters.column_reduction import ColumnReductionTiling
from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.reduction import tiling_of_groups
from xla_emit.emitters.row_reduction import RowReductionTiling

EXAMPLES = Path(__file__).parent.parent.parent / "examples"

SEED_SPELLINGS = (
    xla_gpu.LoopOp,
    xla_gpu.ApplyIndexingOp,
    xla_gpu.PureCallOp,
    xla_gpu.YieldOp,
)


@pytest.mark.parametrize("name", ["gelu", "transpose", "reduction_row", "reduction_column"])
def test_emitters_build_only_todays_spelling(name: str) -> None:
    path = EXAMPLES / f"{name}.hlo"
    module = emit_hlo_module(path.read_text(), str(path))
    ops = list(module.walk())
    assert not [op.name for op in ops if isinstance(op, SEED_SPELLINGS)]
    loops = [op for op in ops if isinstance(op, xla.LoopOp)]
    assert loops
    assert all(isinstance(loop.indexing_map_attr, xla.IndexingMapAttr) for loop in loops)
    assert "xla.loop" in str(module) and "xla_gpu.loop" not in str(module)


def test_reduction_tiling_is_the_row_or_the_column_one() -> None:
    row = tiling_of_groups(ReductionGroups(True, (1, 6, 10)), (6, 10), (6,))
    column = tiling_of_groups(ReductionGroups(False, (1, 100, 70)), (100, 70), (70,))
    assert isinstance(row, RowReductionTiling)
    assert isinstance(column, ColumnReductionTiling)
    assert (row.kept, row.reduced, column.kept, column.reduced) == (6, 10, 70, 100)
