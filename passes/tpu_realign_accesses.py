"""`tpu-realign-accesses`: turn a misaligned dynamic lane load into aligned load + rotate + slice.

The second fix of Mosaic's "cannot statically prove that index ... is a
multiple of 128" error: when the lane (minor) index of a single-row load is not
provably tile-aligned, load the enclosing aligned tiles instead and rotate the
wanted lanes to the front:

    %v = vector.load %m[%r, %c] : memref<4x256xf32>, vector<1x32xf32>

becomes (M = 128 lanes, C = 256 the memref's last dim, L = the window width)

    %aligned = arith.muli (arith.divsi %c, M), M     // the tile that holds %c
    %base    = arith.minsi %aligned, C - L           // keep the window inside the memref
    %wide    = vector.load %m[%r, %base] : ..., vector<1xLxf32>
    %amount  = L - index_cast(%c - %base)            // lane %c - %base moves to lane 0
    %rot     = tpu.dynamic_rotate %wide by %amount dim 1
    %v       = lanes [0, 32) of %rot                 // vector.extract + shuffle + broadcast

`%base` is provably a multiple of M, so the kernel then passes
`tpu-verify-alignment`, and it reads the same values. The window is
L = min(C, roundup(width, M) + M) lanes: wide enough for any start.

Rewritten: `vector.load` and `tpu.vector_load` of a `vector<1xWxT>` from a
memref of rank >= 2 whose last dim is a multiple of M, when the lane index
is the only unproven one. Left alone (the proof still reports them): stores,
multi-row vectors, rank-1 memrefs and constant indices.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects.tpu import DynamicRotateOp, VectorLoadOp
from passes.divisibility_analysis import Answer, DivisibilityAnalysis
from passes.tpu_alignment import (
    Access,
    as_access,
    check_hardware_generation,
    constant_value,
    requirements,
    tiling_of,
)


@dataclass(frozen=True)
class _Plan:
    """What to rewrite: the lane dim, its alignment M, the memref's lane count C
    and the window L."""

    lane_dim: int
    multiple: int
    lanes: int
    width: int

    @property
    def window(self) -> int:
        rounded = -(-self.width // self.multiple) * self.multiple
        return min(self.lanes, rounded + self.multiple)


def _plan(access: Access, generation: int) -> _Plan | None:
    """A plan if only the lane index of a single-row load is unproven, else None."""
    tiling = tiling_of(access.base, generation)
    memref_type = access.base.type
    if tiling is None or not isinstance(memref_type, MemRefType):
        return None
    shape: tuple[int, ...] = memref_type.get_shape()  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    vector_shape = access.vector.get_shape()
    if len(shape) < 2 or len(vector_shape) != 2 or vector_shape[0] != 1:
        return None  # single rows only: slicing lanes out of several rows needs a strided slice
    analysis = DivisibilityAnalysis()
    unproven = [
        r
        for r in requirements(access, tiling)
        if constant_value(access.indices[r.dim]) is None
        and analysis.divisibility(access.indices[r.dim], r.multiple).answer is not Answer.PROVEN
    ]
    if len(unproven) != 1 or unproven[0].dim != len(shape) - 1:
        return None
    multiple = unproven[0].multiple
    if shape[-1] % multiple != 0:
        return None  # the last window would reach past the memref
    return _Plan(len(shape) - 1, multiple, shape[-1], vector_shape[1])


def _realign(
    access: Access,
    plan: _Plan,
    rewriter: PatternRewriter,
    make_load: type[vector.LoadOp | VectorLoadOp],
) -> None:
    op = access.op
    element = access.vector.element_type
    lane_index = access.indices[plan.lane_dim]
    window = plan.window

    def index_constant(value: int) -> arith.ConstantOp:
        return arith.ConstantOp(IntegerAttr(value, IndexType()))

    multiple = index_constant(plan.multiple)
    tile = arith.DivSIOp(lane_index, multiple)
    aligned = arith.MuliOp(tile, multiple)
    limit = index_constant(plan.lanes - window)
    base = arith.MinSIOp(aligned, limit)
    base.result.name_hint = "aligned"
    indices = list(access.indices)
    indices[plan.lane_dim] = base.result
    wide_type = VectorType(element, [1, window])
    wide: Operation = make_load(access.base, indices, wide_type)
    shift = arith.SubiOp(lane_index, base)
    shift32 = arith.IndexCastOp(shift, i32)
    window32 = arith.ConstantOp(IntegerAttr(window, i32))
    amount = arith.SubiOp(window32, shift32)
    rotated = DynamicRotateOp(wide.results[0], amount, 1)
    row = vector.ExtractOp(rotated.result, [0], VectorType(element, [window]))
    lanes = vector.ShuffleOp(
        row.result,
        row.result,
        DenseArrayBase.from_list(i64, list(range(plan.width))),
        result_type=VectorType(element, [plan.width]),
    )
    result = vector.BroadcastOp(lanes.result, access.vector)
    for named, hint in (
        (multiple, "lanes_per_tile"),
        (tile, "lane_tile"),
        (aligned, "tile_start"),
        (limit, "last_window_start"),
        (wide, "window"),
        (shift, "shift"),
        (shift32, "shift_i32"),
        (window32, "window_lanes"),
        (amount, "rotate_by"),
        (rotated, "rotated"),
        (row, "row"),
        (lanes, "lanes"),
    ):
        named.results[0].name_hint = hint
    new_ops: list[Operation] = [
        multiple,
        tile,
        aligned,
        limit,
        base,
        wide,
        shift,
        shift32,
        window32,
        amount,
        rotated,
        row,
        lanes,
        result,
    ]
    rewriter.replace(op, new_ops, [result.vector])


@dataclass(frozen=True)
class RealignVectorLoad(RewritePattern):
    """`vector.load` with a misaligned lane index -> aligned `vector.load` + rotate + slice."""

    generation: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter) -> None:
        access = as_access(op)
        assert access is not None
        plan = _plan(access, self.generation)
        if plan is not None:
            _realign(access, plan, rewriter, vector.LoadOp)


@dataclass(frozen=True)
class RealignTpuVectorLoad(RewritePattern):
    """`tpu.vector_load` (unmasked) with a misaligned lane index -> the same rewrite."""

    generation: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VectorLoadOp, rewriter: PatternRewriter) -> None:
        if op.mask is not None:
            return  # the mask would have to be rotated as well
        access = as_access(op)
        assert access is not None
        plan = _plan(access, self.generation)
        if plan is not None:
            _realign(access, plan, rewriter, VectorLoadOp)


@dataclass(frozen=True)
class TpuRealignAccessesPass(ModulePass):
    """Rewrite single-row loads at unproven lane offsets.

    Each becomes an aligned load, a `tpu.dynamic_rotate` and a slice.
    """

    name = "tpu-realign-accesses"

    hardware_generation: int = 6

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_hardware_generation(self.hardware_generation)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    RealignVectorLoad(self.hardware_generation),
                    RealignTpuVectorLoad(self.hardware_generation),
                ]
            ),
            apply_recursively=False,
        ).rewrite_module(op)
