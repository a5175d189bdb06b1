"""What the emitters build: today's `xla` ops only, and row and column reductions apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from xla_emit.dialects import xla, xla_gpu

from xla_emit.emitters import emit_hlo_module
from xla_emit.emitters.column_reduction import ColumnReductionTiling
from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.reduction import tiling_of_groups, vector_size
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


@pytest.mark.parametrize(
    ("minor", "threads", "bits", "expected"),
    [
        (160, 32, 32, 2),  # column_max in the corpus: f32, 64 columns a block
        (128, 32, 16, 4),  # the bf16 MLP's bias gradient: 4 bf16 columns a thread
        (512, 32, 8, 4),
        (100, 32, 16, 2),  # too narrow for 4 a thread
        (130, 32, 16, 2),  # 4 does not divide it
        (161, 32, 32, 1),  # odd
        (62, 32, 32, 1),  # some threads would get no vector
        (512, 32, 64, 1),  # 64-bit inputs
        (512, 32, None, 1),  # no inputs
    ],
)
def test_vector_size_is_xlas_rule(
    minor: int, threads: int, bits: int | None, expected: int
) -> None:
    assert vector_size(minor, threads, bits) == expected
