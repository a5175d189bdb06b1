"""`tpu-realign-accesses`: turn misaligned dynamic loads and stores into aligned ones plus rotates.

The second fix of Mosaic's "cannot statically prove that index ... is a
multiple of 128" error. For every dim d whose dynamic index i is not provably
a multiple of its tile size M (the lanes, the rows of a (8,128) tile, the
whole tile of a rank-1 memref), the access goes through the enclosing aligned
window of W = min(C, roundup(w + M - 1, M)) elements, where C is the memref's
extent and w the vector's:

    %tile_start = arith.muli (arith.divsi %i, M), M    // the tile that holds %i
    %aligned    = arith.minsi %tile_start, C - W       // keep the window inside the memref
    %shift      = arith.subi %i, %aligned               // in [0, W - w] for in-bounds %i

A load reads the window, rotates element %shift to 0 along each such dim and
keeps the first w:

    %window  = vector.load %m[%r, %aligned] : memref<4x256xf32>, vector<1x256xf32>
    %rotated = tpu.dynamic_rotate %window by (W - %shift) dim 1
    %v       = vector.extract_strided_slice %rotated {offsets = [0, 0], sizes = [1, 32], ...}

A store places the data at the window's origin, rotates it to %shift and
writes the window through a mask of the lanes [%shift, %shift + w), so the
rest of the window keeps its contents:

    %placed  = vector.insert_strided_slice %v, %zeros {offsets = [0, 0], ...}
    %rotated = tpu.dynamic_rotate %placed by %shift dim 1
    %mask    = arith.xori (vector.create_mask .., %shift + w), (vector.create_mask .., %shift)
    tpu.vector_store %m[%r, %aligned], %rotated masked %mask

The masked store is the read-modify-write done by the store unit (Mosaic's
masked `tpu.vector_store`, 32-bit data only). Every `%aligned` is provably a
multiple of M, so the kernel then passes `tpu-verify-alignment` and computes
the same values.

Rewritten: `vector.load`, `vector.store` and unmasked `tpu.vector_load` /
`tpu.vector_store`, any rank, any set of unproven dims the vector spans.
Left alone (`tpu-verify-alignment` still reports them, saying why; see
`plan_realignment`): dims whose extent is not a multiple of M (the last
window would reach past the memref), masked accesses, `tpu.load` /
`tpu.store`, and stores of data narrower than 32 bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.hints import isa
from xla_emit.dialects.tpu import DynamicRotateOp, VectorLoadOp, VectorStoreOp
from xla_emit.dialects.vector_ext import ExtractStridedSliceOp, InsertStridedSliceOp
from xla_emit.passes.analysis.tpu_alignment import (
    Access,
    RealignedDim,
    RealignPlan,
    as_access,
    check_hardware_generation,
    plan_realignment,
)


@dataclass
class _Emitter:
    """Collects the new ops in order and names their results."""

    ops: list[Operation] = field(default_factory=list[Operation])

    def add(self, op: Operation, hint: str | None = None) -> SSAValue:
        """Append `op`, which has one result, and return that result."""
        self.ops.append(op)
        (result,) = op.results
        result.name_hint = hint
        return result

    def index(self, value: int, hint: str | None = None) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())), hint)

    def i32(self, value: int, hint: str | None = None) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, i32)), hint)


@dataclass(frozen=True)
class _Window:
    """Where one dim's aligned window starts and how far into it the access begins."""

    dim: RealignedDim
    start: SSAValue
    shift: SSAValue
    shift_i32: SSAValue
    unit: str


def _unit(dim: RealignedDim, rank: int) -> str:
    """What the dim counts, for value names: lanes (the minor dim) or rows."""
    return "lane" if dim.dim == rank - 1 else "row"


def _window_start(access: Access, dim: RealignedDim, rank: int, emit: _Emitter) -> _Window:
    index = access.indices[dim.dim]
    unit = _unit(dim, rank)
    # The lane names are the ones the single-row rewrite always used.
    names = (
        ("lanes_per_tile", "lane_tile", "tile_start", "last_window_start", "aligned", "shift")
        if unit == "lane"
        else (
            "rows_per_tile",
            "row_tile",
            "row_tile_start",
            "last_row_window_start",
            "aligned_row",
            "row_shift",
        )
    )
    multiple = emit.index(dim.multiple, names[0])
    tile = emit.add(arith.DivSIOp(index, multiple), names[1])
    tile_start = emit.add(arith.MuliOp(tile, multiple), names[2])
    limit = emit.index(dim.size - dim.window, names[3])
    start = emit.add(arith.MinSIOp(tile_start, limit), names[4])
    shift = emit.add(arith.SubiOp(index, start), names[5])
    shift_i32 = emit.add(arith.IndexCastOp(shift, i32), f"{names[5]}_i32")
    return _Window(dim, start, shift, shift_i32, unit)


def _windows(access: Access, plan: RealignPlan, emit: _Emitter) -> list[_Window]:
    rank = len(access.indices)
    return [_window_start(access, dim, rank, emit) for dim in plan.dims]


def _window_type(access: Access, windows: Sequence[_Window]) -> VectorType[Attribute]:
    shape = list(access.vector.get_shape())
    for window in windows:
        shape[window.dim.vector_dim] = window.dim.window
    return VectorType(access.vector.element_type, shape)


def _aligned_indices(access: Access, windows: Sequence[_Window]) -> list[SSAValue]:
    indices = list(access.indices)
    for window in windows:
        indices[window.dim.dim] = window.start
    return indices


def _realign_load(
    access: Access,
    plan: RealignPlan,
    rewriter: PatternRewriter,
    make_load: type[vector.LoadOp | VectorLoadOp],
) -> None:
    emit = _Emitter()
    windows = _windows(access, plan, emit)
    window_type = _window_type(access, windows)
    aligned = _aligned_indices(access, windows)
    data = emit.add(make_load(access.base, aligned, window_type), "window")
    for window in windows:
        # Rotating by W - shift moves element `shift` to 0.
        width = emit.i32(window.dim.window, f"window_{window.unit}s")
        amount = emit.add(arith.SubiOp(width, window.shift_i32), f"{window.unit}_rotate_by")
        data = emit.add(DynamicRotateOp(data, amount, window.dim.vector_dim), "rotated")
    if window_type != access.vector:
        shape = access.vector.get_shape()
        data = emit.add(ExtractStridedSliceOp(data, [0] * len(shape), shape))
    rewriter.replace(access.op, emit.ops, [data])


def _zeros(type_: VectorType[Attribute]) -> DenseIntOrFPElementsAttr:
    if isa(type_, VectorType[IntegerType]):
        return DenseIntOrFPElementsAttr.from_list(type_, [0])
    assert isa(type_, VectorType[AnyFloat]), "realigned vectors hold integers or floats"
    return DenseIntOrFPElementsAttr.from_list(type_, [0.0])


def _lane_mask(
    windows: Sequence[_Window], window_type: VectorType[Attribute], emit: _Emitter
) -> SSAValue:
    """True on [shift, shift + w) along every realigned dim, all along the others."""
    shape = window_type.get_shape()
    mask_type = VectorType(i1, shape)
    realigned = {window.dim.vector_dim for window in windows}
    # A realigned dim's extent is only needed by the masks of the other realigned dims.
    extents: list[SSAValue | None] = [
        emit.index(size, f"dim{dim}_extent") if dim not in realigned or len(windows) > 1 else None
        for dim, size in enumerate(shape)
    ]
    mask: SSAValue | None = None
    for window in windows:
        unit = window.unit
        width = emit.index(window.dim.width, f"{unit}s_stored")
        end = emit.add(arith.AddiOp(window.shift, width), f"{unit}_end")
        prefixes: list[SSAValue] = []
        for bound, hint in ((end, f"before_{unit}_end"), (window.shift, f"before_{unit}_shift")):
            bounds: list[Operation | SSAValue] = []  # CreateMaskOp takes this invariant list type
            for dim, extent in enumerate(extents):
                if dim == window.dim.vector_dim:
                    bounds.append(bound)
                else:
                    # Only a lone realigned dim's extent is left out, and it takes `bound`.
                    assert extent is not None
                    bounds.append(extent)
            prefixes.append(emit.add(vector.CreateMaskOp(bounds, mask_type), hint))
        # The prefix up to `shift` lies inside the prefix up to `end`: their xor is the range.
        before_end, before_shift = prefixes
        in_range = emit.add(arith.XOrIOp(before_end, before_shift), f"in_{unit}_range")
        mask = in_range if mask is None else emit.add(arith.AndIOp(mask, in_range), "in_window")
    assert mask is not None
    return mask


def _realign_store(
    access: Access, plan: RealignPlan, value: SSAValue, rewriter: PatternRewriter
) -> None:
    emit = _Emitter()
    windows = _windows(access, plan, emit)
    window_type = _window_type(access, windows)
    zeros = emit.add(arith.ConstantOp(_zeros(window_type)), "zeros")
    origin = [0] * window_type.get_num_dims()
    data = emit.add(InsertStridedSliceOp(value, zeros, origin), "placed")
    for window in windows:
        data = emit.add(DynamicRotateOp(data, window.shift_i32, window.dim.vector_dim), "rotated")
    mask = _lane_mask(windows, window_type, emit)
    emit.ops.append(VectorStoreOp(data, access.base, _aligned_indices(access, windows), mask))
    rewriter.replace(access.op, emit.ops, [])


def _plan(op: Operation, generation: int) -> tuple[Access, RealignPlan] | None:
    access = as_access(op)
    assert access is not None
    plan = plan_realignment(access, generation)
    return (access, plan) if isinstance(plan, RealignPlan) else None


@dataclass(frozen=True)
class RealignAccess(RewritePattern):
    """An access at unproven indices -> an aligned one plus rotates.

    `vector.load` and unmasked `tpu.vector_load` read an aligned window of the
    same kind and slice it; `vector.store` and unmasked `tpu.vector_store`
    rotate the value into place and write it through a masked `tpu.vector_store`.
    """

    generation: int

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, vector.LoadOp | VectorLoadOp | vector.StoreOp | VectorStoreOp):
            return
        planned = _plan(op, self.generation)
        if planned is None:
            return
        if isinstance(op, vector.LoadOp | VectorLoadOp):
            _realign_load(*planned, rewriter, type(op))
        elif isinstance(op, vector.StoreOp):
            _realign_store(*planned, op.vector, rewriter)
        else:
            _realign_store(*planned, op.value_to_store, rewriter)


@dataclass(frozen=True)
class TpuRealignAccessesPass(ModulePass):
    """Rewrite loads and stores at unproven offsets into aligned ones plus `tpu.dynamic_rotate`.

    Options:
    - `hardware-generation` (default 6): the TPU generation for default tilings.
    """

    name = "tpu-realign-accesses"

    hardware_generation: int = 6

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_hardware_generation(self.hardware_generation)
        generation = self.hardware_generation
        PatternRewriteWalker(RealignAccess(generation), apply_recursively=False).rewrite_module(op)
