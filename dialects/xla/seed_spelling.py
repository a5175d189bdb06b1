"""The seed's spelling of the target-neutral ops: `xla_gpu.loop`, ..., `#xla_gpu.indexing_map`.

XLA named these ops `xla_gpu.*` until December 2024; the seed still does.
They parse and print under those names so seed files round-trip, but nothing
builds them except `spelling_classes("xla_gpu")`, which only the printers
(`xla-respell`, `xla-emit-opt --emit`) use. The `xla_gpu` dialect registers them.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_attr_definition, irdl_op_definition
from xla_emit.dialects.xla.attributes import IndexingMapAttrBase
from xla_emit.dialects.xla.bases import ApplyIndexingOpBase, LoopOpBase, PureCallOpBase, YieldOpBase

SEED_SPELLING = "xla_gpu"
"""The seed's name for the target-neutral ops' dialect."""


@irdl_attr_definition
class SeedIndexingMapAttr(IndexingMapAttrBase):
    """`#xla_gpu.indexing_map<"...">`, the seed's `#xla.indexing_map`."""

    name = "xla_gpu.indexing_map"


@irdl_op_definition
class SeedApplyIndexingOp(ApplyIndexingOpBase):
    """`xla_gpu.apply_indexing`, the seed's `xla.apply_indexing`."""

    name = "xla_gpu.apply_indexing"
    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = SeedIndexingMapAttr


@irdl_op_definition
class SeedPureCallOp(PureCallOpBase):
    """`xla_gpu.pure_call`, the seed's `xla.pure_call`."""

    name = "xla_gpu.pure_call"


@irdl_op_definition
class SeedYieldOp(YieldOpBase):
    """`xla_gpu.yield`, the seed's `xla.yield`."""

    name = "xla_gpu.yield"


@irdl_op_definition
class SeedLoopOp(LoopOpBase):
    """`xla_gpu.loop`, the seed's `xla.loop`."""

    name = "xla_gpu.loop"
    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = SeedIndexingMapAttr
    YIELD: ClassVar[type[YieldOpBase]] = SeedYieldOp
