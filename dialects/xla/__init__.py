"""The `xla` dialect: XLA's target-neutral emitter ops and the indexing-map attribute.

One form inside, the spelling chosen when printing:
- Everything that builds IR builds the internal form, today's `xla.loop`,
  `xla.apply_indexing`, `xla.pure_call`, `xla.yield` and `#xla.indexing_map`
  (the classes `LoopOp`, ... of this package).
- The seed (and XLA before December 2024) spells those ops `xla_gpu.*`; that
  spelling keeps parsing and printing (`dialects.xla.seed_spelling`), so a
  file round-trips in the spelling it was written in.
- Only printers choose a spelling: the `xla-respell{spelling=...}` pass and
  `xla-emit-opt --emit=xla|xla_gpu`. Unless told otherwise a printer keeps the
  input's spelling: an MLIR file's own, and the seed's `xla_gpu` for HLO,
  whose emitters stand in for the seed's. A bare `xla-respell` spells the
  internal form, as do the builders' defaults below.
- Code that inspects ops matches the undecorated bases (`LoopOpBase`, ...),
  so it works on either spelling.

Conventions shared by the ops:
- `xla.range = [LB : index, UB : index]` on an op or an index function
  argument gives the inclusive range of the value (`get_xla_range`).
- An indexing map prints through `IndexingMap.__str__`, so equal maps print
  equally whatever text they were parsed from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, BlockArgument, Dialect, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xla_emit.dialects.xla.attributes import (
    XLA_RANGE,
    XLA_SLICE_INDEX,
    BackendKind,
    BackendKindAttr,
    IndexingMapAttr,
    IndexingMapAttrBase,
    WorkGroupDimension,
    WorkGroupDimensionAttr,
    as_map,
    get_xla_range,
    xla_range_attr,
)
from xla_emit.dialects.xla.bases import (
    ApplyIndexingOpBase,
    AtomicRMWOp,
    LoopOpBase,
    PureCallOpBase,
    YieldOpBase,
)
from xla_emit.dialects.xla.ops import (
    ApplyIndexingOp,
    LoopOp,
    PredicatedExtractOp,
    PredicatedInsertOp,
    PureCallOp,
    WorkgroupIdOp,
    YieldOp,
)
from xla_emit.dialects.xla.seed_spelling import (
    SeedApplyIndexingOp,
    SeedIndexingMapAttr,
    SeedLoopOp,
    SeedPureCallOp,
    SeedYieldOp,
)
from xla_emit.dialects.xla.syntax import lookup_function, nearest_symbol_table

from xla_emit.indexing import IndexingMap

__all__ = [
    "INTERNAL_SPELLING",
    "XLA",
    "XLA_RANGE",
    "XLA_SLICE_INDEX",
    "ApplyIndexingOp",
    "ApplyIndexingOpBase",
    "AtomicRMWOp",
    "BackendKind",
    "BackendKindAttr",
    "IndexingMapAttr",
    "IndexingMapAttrBase",
    "LoopBodyBuilder",
    "LoopOp",
    "LoopOpBase",
    "PredicatedExtractOp",
    "PredicatedInsertOp",
    "PureCallOp",
    "PureCallOpBase",
    "Spelling",
    "WorkGroupDimension",
    "WorkGroupDimensionAttr",
    "WorkgroupIdOp",
    "YieldOp",
    "YieldOpBase",
    "get_xla_range",
    "lookup_function",
    "make_apply_indexing",
    "make_indexing_map_attr",
    "make_loop",
    "make_pure_call",
    "make_yield",
    "nearest_symbol_table",
    "spelling_classes",
    "xla_range_attr",
]

INTERNAL_SPELLING = "xla"
"""The spelling everything builds; printers may respell it as "xla_gpu"."""

# ----------------------------------------------------------------------------
# The spellings, for the printers
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Spelling:
    """The concrete classes of one spelling (`xla` or the seed's `xla_gpu`)."""

    apply_indexing: type[ApplyIndexingOpBase]
    loop: type[LoopOpBase]
    pure_call: type[PureCallOpBase]
    yield_: type[YieldOpBase]
    indexing_map_attr: type[IndexingMapAttrBase]


def spelling_classes(spelling: str) -> Spelling:
    """The classes for `spelling`, "xla" (the internal form) or "xla_gpu" (the seed's)."""
    if spelling == "xla":
        return Spelling(ApplyIndexingOp, LoopOp, PureCallOp, YieldOp, IndexingMapAttr)
    if spelling == "xla_gpu":
        return Spelling(
            SeedApplyIndexingOp, SeedLoopOp, SeedPureCallOp, SeedYieldOp, SeedIndexingMapAttr
        )
    raise ValueError(f"expected spelling 'xla' or 'xla_gpu', but got {spelling!r}")


def make_indexing_map_attr(indexing_map: IndexingMap) -> IndexingMapAttr:
    """`#xla.indexing_map<...>` for `indexing_map`."""
    return IndexingMapAttr.from_map(indexing_map)


def make_apply_indexing(
    indexing_map: IndexingMap | IndexingMapAttrBase,
    dims: Sequence[SSAValue | Operation],
    symbols: Sequence[SSAValue | Operation] = (),
) -> ApplyIndexingOp:
    """An apply_indexing of `indexing_map` to `dims` and `symbols` (one result per map result)."""
    return ApplyIndexingOp(IndexingMapAttr.from_map(as_map(indexing_map)), dims, symbols)


LoopBodyBuilder = Callable[
    [Builder, Sequence[BlockArgument], Sequence[BlockArgument], Sequence[BlockArgument]],
    Sequence[SSAValue],
]
"""Fills a loop body: (builder at the body's end, ivs, map results, iter args) -> yielded values."""


def make_loop(
    indexing_map: IndexingMap | IndexingMapAttrBase,
    dims: Sequence[SSAValue | Operation],
    inits: Sequence[SSAValue | Operation],
    body_builder: LoopBodyBuilder | None = None,
) -> LoopOp:
    """A loop over `indexing_map`'s domain.

    With `body_builder`, the body is built and its results yielded; without,
    the body block is empty (with its arguments) and the caller adds the ops
    and the yield.
    """
    loop = LoopOp(IndexingMapAttr.from_map(as_map(indexing_map)), dims, inits)
    if body_builder is not None:
        builder = Builder(InsertPoint.at_end(loop.body.block))
        yielded = body_builder(
            builder, loop.induction_vars, loop.map_results, loop.region_iter_args
        )
        builder.insert(YieldOp(yielded))
    return loop


def make_pure_call(
    callee: str | SymbolRefAttr,
    arguments: Sequence[SSAValue | Operation],
    result_types: Sequence[Attribute],
) -> PureCallOp:
    """A pure_call of `@callee`."""
    return PureCallOp(callee, arguments, result_types)


def make_yield(values: Sequence[SSAValue | Operation] = ()) -> YieldOp:
    """A yield of `values`."""
    return YieldOp(values)


XLA = Dialect(
    "xla",
    [
        ApplyIndexingOp,
        AtomicRMWOp,
        LoopOp,
        PredicatedExtractOp,
        PredicatedInsertOp,
        PureCallOp,
        WorkgroupIdOp,
        YieldOp,
    ],
    [BackendKindAttr, IndexingMapAttr, WorkGroupDimensionAttr],
)
