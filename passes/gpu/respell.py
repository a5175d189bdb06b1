"""`xla-respell`: print the target-neutral ops in the seed's or today's spelling.

The seed writes `xla_gpu.loop`, `xla_gpu.apply_indexing`, `#xla_gpu.indexing_map`;
current XLA writes `xla.loop`, `xla.apply_indexing`, `#xla.indexing_map`. Both
are concrete classes over one base class, so passes never care. This pass
rebuilds each such op as its counterpart in the requested spelling, keeping
operands, results, regions and attributes, and rewrites the map attribute.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from dialects.xla import (
    ApplyIndexingOpBase,
    IndexingMapAttrBase,
    LoopOpBase,
    PureCallOpBase,
    Spelling,
    YieldOpBase,
    spelling_classes,
)


def _counterpart(op: Operation, spelling: Spelling) -> type[Operation] | None:
    """The class `op` should have in `spelling`, or None when it has no other spelling."""
    match op:
        case ApplyIndexingOpBase():
            target: type[Operation] = spelling.apply_indexing
        case LoopOpBase():
            target = spelling.loop
        case PureCallOpBase():
            target = spelling.pure_call
        case YieldOpBase():
            target = spelling.yield_
        case _:
            return None
    return None if type(op) is target else target


def _respell_attribute(attr: Attribute, spelling: Spelling) -> Attribute:
    if isinstance(attr, IndexingMapAttrBase) and type(attr) is not spelling.indexing_map_attr:
        return spelling.indexing_map_attr.from_map(attr.indexing_map)
    return attr


@dataclass(frozen=True)
class RespellOp(RewritePattern):
    """Rebuilds one op of the other spelling; ops already in `spelling` are left alone."""

    spelling: Spelling

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        target = _counterpart(op, self.spelling)
        if target is None:
            return
        new_op = target.create(
            operands=op.operands,
            result_types=[result.type for result in op.results],
            properties={k: _respell_attribute(v, self.spelling) for k, v in op.properties.items()},
            attributes={k: _respell_attribute(v, self.spelling) for k, v in op.attributes.items()},
            regions=[op.detach_region(region) for region in tuple(op.regions)],
        )
        for old, new in zip(op.results, new_op.results, strict=True):
            new.name_hint = old.name_hint
        rewriter.replace(op, new_op)


@dataclass(frozen=True)
class RespellPass(ModulePass):
    """Spells every target-neutral XLA op as `spelling` ("xla" or "xla_gpu", default "xla")."""

    name = "xla-respell"

    spelling: str = "xla"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        classes = spelling_classes(self.spelling)
        PatternRewriteWalker(RespellOp(classes), apply_recursively=False).rewrite_module(op)
