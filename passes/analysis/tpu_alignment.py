"""Which dynamic indices of a TPU memory access must be multiples of what (Mosaic's rules).

Shared by `tpu-verify-alignment` (which proves them) and
`tpu-realign-accesses` (which rewrites accesses that cannot meet them; the
proof's error says why when the rewrite is impossible, see
`plan_realignment`).

For a memref of rank r, element bitwidth bw and first-level tile t:
- rank 1: the index into dim 0 must be a multiple of the whole 1-D tile;
- rank >= 2: the minor dim r-1 needs a multiple of t[-1] (128 lanes); the
  second-minor dim r-2 needs a multiple of t[0], except for 32-bit data when
  the memref's last dim fits in one tile row (<= 128) or the vector reads a
  single row (second-minor size 1);
- leading dims and constant indices are never checked.
A memref without `#tpu.tiled` gets Mosaic's default tiling (what
`tpu-infer-memref-layout` would give it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException
from xla_emit.dialects.tpu import (
    DMASemaphoreType,
    LoadOp,
    SemaphoreType,
    StoreOp,
    VectorLoadOp,
    VectorStoreOp,
    element_bitwidth,
    memory_space_of,
    tiled_layout_of,
)
from xla_emit.passes.analysis.divisibility_analysis import DivisibilityAnalysis
from xla_emit.passes.loop_utils import constant_int

from xla_emit.indexing.congruence import Answer
from xla_emit.layout.mosaic import (
    LANES,
    MosaicTiledLayout,
    default_tile_strides,
    mosaic_default_layout,
)

SUPPORTED_GENERATIONS = range(2, 8)


def check_hardware_generation(generation: int) -> None:
    """Validate a pass's `hardware-generation` option (TPU v2 ... v7)."""
    if generation not in SUPPORTED_GENERATIONS:
        raise PassFailedException(
            f"hardware-generation must be between {SUPPORTED_GENERATIONS.start} and "
            f"{SUPPORTED_GENERATIONS.stop - 1}, but got {generation}"
        )


@dataclass(frozen=True)
class Access:
    """A vector-sized memory access: the memref, its indices and the vector's type."""

    op: Operation
    base: SSAValue
    indices: tuple[SSAValue, ...]
    vector: VectorType[Attribute]


def as_access(op: Operation) -> Access | None:
    """The access `op` makes, for the ops whose indices need alignment proofs."""
    if isinstance(op, vector.LoadOp | VectorLoadOp | LoadOp):
        result_type = op.result.type
        assert isinstance(result_type, VectorType)
        return Access(op, op.base, tuple(op.indices), result_type)
    if isinstance(op, vector.StoreOp):
        stored = op.vector.type
        assert isinstance(stored, VectorType)
        return Access(op, op.base, tuple(op.indices), stored)
    if isinstance(op, VectorStoreOp | StoreOp):
        stored = op.value_to_store.type
        assert isinstance(stored, VectorType)
        return Access(op, op.base, tuple(op.indices), stored)
    return None


@dataclass(frozen=True)
class Tiling:
    """The layout an access sees and where it came from (for the explanation)."""

    layout: MosaicTiledLayout
    is_default: bool

    def describe(self, memref_type: MemRefType[Attribute]) -> str:
        tiles = "".join("(" + ",".join(map(str, tile)) + ")" for tile in self.layout.tiles)
        if self.is_default:
            return f"{memref_type} gets Mosaic's default tiling {tiles}"
        return f"{memref_type} is tiled {tiles}"


def is_kernel_argument(value: SSAValue) -> bool:
    return isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), FuncOp)


def tiling_of(value: SSAValue, hardware_generation: int) -> Tiling | None:
    """The memref's tiled layout, or Mosaic's default.

    None for untiled (semaphore, SMEM) memrefs.
    """
    memref_type = value.type
    if not isinstance(memref_type, MemRefType):
        return None
    memref_type_: MemRefType[Attribute] = memref_type
    if isinstance(memref_type_.element_type, SemaphoreType | DMASemaphoreType):
        return None
    if memory_space_of(memref_type_) in ("smem", "semaphore_mem"):
        return None
    explicit = tiled_layout_of(memref_type_)
    if explicit is not None:
        return Tiling(explicit.layout, is_default=False)
    bitwidth = element_bitwidth(memref_type_.element_type)
    if bitwidth is None:
        return None
    shape = memref_type_.get_shape()
    if (
        isinstance(value.owner, memref.AllocaOp)
        and bitwidth == 32
        and len(shape) >= 2
        and shape[-1] <= LANES
    ):
        return Tiling(
            MosaicTiledLayout(((1, LANES),), default_tile_strides(((1, LANES),), shape)), True
        )
    layout = mosaic_default_layout(shape, bitwidth, hardware_generation, is_kernel_argument(value))
    return Tiling(layout, is_default=True)


@dataclass(frozen=True)
class Requirement:
    """The index into memref dim `dim` must be a multiple of `multiple`."""

    dim: int
    multiple: int


def requirements(access: Access, tiling: Tiling) -> list[Requirement]:
    """Mosaic's alignment requirements for `access` (see the module docstring)."""
    memref_type = access.base.type
    assert isinstance(memref_type, MemRefType)
    shape: tuple[int, ...] = memref_type.get_shape()
    rank = len(shape)
    first = tiling.layout.first_tile
    if rank == 0 or not first:
        return []
    if rank == 1:
        return [Requirement(0, first[0])]
    result = [Requirement(rank - 1, first[-1])]
    if len(first) >= 2:
        bitwidth = element_bitwidth(memref_type.element_type)
        vector_shape = access.vector.get_shape()
        rows_read = vector_shape[-2] if len(vector_shape) >= 2 else 1
        single_row_ok = bitwidth == 32 and (shape[-1] <= LANES or rows_read == 1)
        if not single_row_ok:
            result.insert(0, Requirement(rank - 2, first[-2]))
    return result


# ----------------------------------------------------------------------------- realignment plans


@dataclass(frozen=True)
class RealignedDim:
    """A memref dim whose dynamic index is not proven aligned, and its aligned window.

    `dim` is the memref dim, `vector_dim` the vector dim reading it, `multiple`
    the alignment the tiling needs, `size` the memref's extent and `width`
    the vector's.
    """

    dim: int
    vector_dim: int
    multiple: int
    size: int
    width: int

    @property
    def window(self) -> int:
        """Aligned elements enough for any start: the offset into the first tile is < multiple."""
        needed = self.width + self.multiple - 1
        return min(self.size, -(-needed // self.multiple) * self.multiple)


@dataclass(frozen=True)
class RealignPlan:
    """Dims to read or write through aligned windows, rotated into place."""

    dims: tuple[RealignedDim, ...]


@dataclass(frozen=True)
class CannotRealign:
    """Why `tpu-realign-accesses` leaves an access with unproven indices alone."""

    reason: str


def unproven_requirements(access: Access, tiling: Tiling) -> list[Requirement]:
    """The requirements on dynamic indices that the divisibility analysis cannot prove."""
    analysis = DivisibilityAnalysis()
    return [
        r
        for r in requirements(access, tiling)
        if constant_int(access.indices[r.dim]) is None
        and analysis.divisibility(access.indices[r.dim], r.multiple).answer is not Answer.PROVEN
    ]


def plan_realignment(access: Access, generation: int) -> RealignPlan | CannotRealign | None:
    """How to realign `access`, why it cannot be, or None when every index is proven.

    Realignable: `vector.load`, `vector.store` and unmasked `tpu.vector_load`
    / `tpu.vector_store` whose vector spans every unproven dim, where each such
    dim's extent is a multiple of its alignment (so the last aligned window
    ends inside the memref). Stores are written back through a lane mask,
    which Mosaic supports for 32-bit data only.
    """
    tiling = tiling_of(access.base, generation)
    if tiling is None:
        return None
    unproven = unproven_requirements(access, tiling)
    if not unproven:
        return None
    op_problem = _op_obstacle(access)
    if op_problem is not None:
        return CannotRealign(op_problem)
    memref_type = access.base.type
    assert isinstance(memref_type, MemRefType)
    shape: tuple[int, ...] = memref_type.get_shape()
    vector_shape = access.vector.get_shape()
    first_vector_dim = len(shape) - len(vector_shape)
    dims: list[RealignedDim] = []
    for requirement in unproven:
        dim, multiple = requirement.dim, requirement.multiple
        if dim < first_vector_dim:
            return CannotRealign(
                f"the {access.vector} does not span dimension {dim}, so there is no window "
                "to rotate along it"
            )
        if shape[dim] % multiple != 0:
            return CannotRealign(
                f"dimension {dim} has {shape[dim]} elements, not a multiple of {multiple}: an "
                "aligned window at the end would reach past the memref"
            )
        width = vector_shape[dim - first_vector_dim]
        dims.append(RealignedDim(dim, dim - first_vector_dim, multiple, shape[dim], width))
    return RealignPlan(tuple(dims))


def _op_obstacle(access: Access) -> str | None:
    op = access.op
    if isinstance(op, LoadOp | StoreOp):
        return (
            f"'{op.name}' selects sublanes; only vector.load, vector.store, tpu.vector_load and "
            "tpu.vector_store are realigned"
        )
    if isinstance(op, VectorLoadOp | VectorStoreOp) and op.mask is not None:
        return f"the '{op.name}' is masked, and its mask would have to be realigned as well"
    if isinstance(op, vector.StoreOp | VectorStoreOp):
        bitwidth = element_bitwidth(access.vector.element_type)
        if bitwidth != 32:
            return (
                f"a realigned store writes its window through a lane mask, and Mosaic masks "
                f"only 32-bit stores, not {access.vector.element_type}"
            )
    return None
