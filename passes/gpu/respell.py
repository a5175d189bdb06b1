"""`xla-respell`: print the target-neutral ops in the seed's or today's spelling.

The seed writes `xla_gpu.loop`, `xla_gpu.apply_indexing`, `#xla_gpu.indexing_map`;
current XLA writes `xla.loop`, `xla.apply_indexing`, `#xla.indexing_map`. Passes
build only today's (the internal form) and match the base classes, so the
spelling is chosen when printing: by this pass and by `xla-emit-opt --emit`
(the policy is in `dialects.xla`). This pass rebuilds each op as its
counterpart in the requested spelling, keeping operands, results, regions and
attributes, and rewrites the map attribute. Without an option it spells the
internal form.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from dialects.xla import (
    INTERNAL_SPELLING,
    ApplyIndexingOpBase,
    IndexingMapAttrBase,
    LoopOpBase,
    PureCallOpBase,
    Spelling,
    YieldOpBase,
    spelling_classes,
)
from dialects.xla.seed_spelling import SEED_SPELLING


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

    spelling: str = INTERNAL_SPELLING

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        classes = spelling_classes(self.spelling)
        PatternRewriteWalker(RespellOp(classes), apply_recursively=False).rewrite_module(op)


def module_spelling(module: Operation) -> str | None:
    """The spelling `module` is written in: "xla_gpu" if any op or map attribute is spelled
    the seed's way, else "xla" if any is spelled today's way, else None (nothing to spell)."""
    found: str | None = None
    for op in module.walk():
        spelled = [*_spelled_ops_of(op), *_spelled_attributes_of(op)]
        if SEED_SPELLING in spelled:
            return SEED_SPELLING
        if spelled:
            found = INTERNAL_SPELLING
    return found


def _spelled_ops_of(op: Operation) -> Iterator[str]:
    if isinstance(op, ApplyIndexingOpBase | LoopOpBase | PureCallOpBase | YieldOpBase):
        yield op.dialect_name()


def _spelled_attributes_of(op: Operation) -> Iterator[str]:
    attributes: list[Attribute] = [*op.properties.values(), *op.attributes.values()]
    attributes += [value.type for value in op.results]
    for attr in attributes:
        yield from _map_spellings(attr)


def _map_spellings(attr: Attribute) -> Iterator[str]:
    """The spellings of the indexing maps in `attr`, however deeply nested (a type's map, too)."""
    if isinstance(attr, IndexingMapAttrBase):
        yield attr.name.split(".")[0]
    elif isinstance(attr, ParametrizedAttribute):
        for parameter in attr.parameters:
            yield from _map_spellings(parameter)
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:  # pyright: ignore[reportUnknownVariableType]
            yield from _map_spellings(element)  # pyright: ignore[reportUnknownArgumentType]
    elif isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            yield from _map_spellings(element)
