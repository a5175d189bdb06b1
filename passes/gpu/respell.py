"""`xla-respell`: print the target-neutral ops in the seed's or today's spelling.

The seed writes `xla_gpu.loop`, `xla_gpu.apply_indexing`, `#xla_gpu.indexing_map`;
current XLA writes `xla.loop`, `xla.apply_indexing`, `#xla.indexing_map`. Passes
build only today's (the internal form) and match the base classes, so the
spelling is chosen when printing: by this pass and by `xla-emit-opt --emit`
(the policy is in `dialects.xla`). This pass rebuilds each op as its
counterpart in the requested spelling, keeping operands, results, regions and
attributes, and rewrites the map attribute. Without an option it spells the
internal form.

Today's spelling also threads six grid ids through a kernel's maps, as XLA
does: where a map's dims are exactly the kernel's `gpu.thread_id x` and
`gpu.block_id x`, it becomes a map of (th_x, th_y, th_z, bl_x, bl_y, bl_z),
the y and z ids new `gpu.thread_id`/`gpu.block_id` ops of range [0, 0] (our
grids are one-dimensional). The seed's spelling keeps the two ids.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, ModuleOp, i32
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects.gpu import BlockIdOp, ThreadIdOp
from xla_emit.dialects.xla import (
    INTERNAL_SPELLING,
    XLA_RANGE,
    ApplyIndexingOpBase,
    IndexingMapAttrBase,
    LoopOpBase,
    PureCallOpBase,
    Spelling,
    YieldOpBase,
    spelling_classes,
    xla_range_attr,
)
from xla_emit.dialects.xla.seed_spelling import SEED_SPELLING

from xla_emit.indexing.affine import DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval


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
        if self.spelling == INTERNAL_SPELLING:
            for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
                _thread_six_grid_ids(function)


def _thread_six_grid_ids(function: func.FuncOp) -> None:
    """Maps over (thread_id x, block_id x) become maps over XLA's six grid ids."""
    if function.body.blocks.first is None:
        return
    ids = [op for op in function.body.block.ops if isinstance(op, ThreadIdOp | BlockIdOp)]
    if [(type(op), op.dimension_name) for op in ids] != [(ThreadIdOp, "x"), (BlockIdOp, "x")]:
        return  # Not a one-dimensional grid of ours (XLA's kernels have their six ids).
    thread, block = ids
    grid = [thread.results[0], block.results[0]]
    users = [op for op in function.walk() if _takes_grid_dims(op, grid)]
    if not users:
        return
    six = [thread.results[0], *_point_ids(thread, "y", "z"), block.results[0]]
    six += _point_ids(block, "y", "z")
    for op in users:
        _rebuild_over(op, six)


def _takes_grid_dims(op: Operation, grid: list[SSAValue]) -> bool:
    if isinstance(op, LoopOpBase):
        return list(op.dims) == grid
    if isinstance(op, ApplyIndexingOpBase):
        return op.indexing_map.num_dims == 2 and list(op.dims) == grid
    return False


def _point_ids(after: ThreadIdOp | BlockIdOp, *dimensions: str) -> list[SSAValue]:
    """`gpu.thread_id y`, ... (the kind of `after`) of range [0, 0], inserted after it."""
    builder = Builder(InsertPoint.after(after))
    kind = "thread" if isinstance(after, ThreadIdOp) else "block"
    values: list[SSAValue] = []
    for dimension in dimensions:
        point = {XLA_RANGE: xla_range_attr(Interval(0, 0))}
        new = builder.insert(type(after)(dimension, point))
        new.results[0].name_hint = f"{kind}_id_{dimension}"
        values.append(new.results[0])
    return values


def _six_dim_map(indexing_map: IndexingMap) -> IndexingMap:
    """`(th_x, bl_x)` as dims 0 and 3 of (th_x, th_y, th_z, bl_x, bl_y, bl_z)."""
    thread, block = indexing_map.dim_vars
    point = Interval(0, 0)
    dim_vars = (
        Variable(thread.bounds, thread.name or "th_x"),
        Variable(point, "th_y"),
        Variable(point, "th_z"),
        Variable(block.bounds, block.name or "bl_x"),
        Variable(point, "bl_y"),
        Variable(point, "bl_z"),
    )
    symbols = _symbol_exprs(indexing_map)
    dims = [DimExpr(0), DimExpr(3)]
    results = tuple(expr.substitute(dims, symbols) for expr in indexing_map.results)
    constraints = tuple(
        (expr.substitute(dims, symbols), bounds) for expr, bounds in indexing_map.constraints
    )
    return IndexingMap(
        dim_vars,
        indexing_map.range_vars,
        indexing_map.rt_vars,
        results,
        constraints,
        indexing_map.is_known_empty,
    )


def _symbol_exprs(indexing_map: IndexingMap) -> list[SymbolExpr]:
    return [SymbolExpr(i) for i in range(indexing_map.num_symbols)]


def _rebuild_over(op: LoopOpBase | ApplyIndexingOpBase, six: list[SSAValue]) -> None:
    """`op` again, with the six ids as its dims and the six-dim map."""
    new_map = type(op.indexing_map_attr).from_map(_six_dim_map(op.indexing_map))
    properties = {**op.properties, "indexing_map_attr": new_map}
    if isinstance(op, LoopOpBase):
        operands = [*six, *op.inits]
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [6, len(op.inits)])
    else:
        operands = [*six, *op.arguments[2:]]
    new_op = type(op).create(
        operands=operands,
        result_types=[result.type for result in op.results],
        properties=properties,
        attributes=dict(op.attributes),
        regions=[op.detach_region(region) for region in tuple(op.regions)],
    )
    for old, new in zip(op.results, new_op.results, strict=True):
        new.name_hint = old.name_hint
    Rewriter.replace_op(op, new_op)


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
