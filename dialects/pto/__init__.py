"""The `pto` dialect: PTO's tile ISA as PTOAS spells it, in two levels.

Level 1 is SSA: tile ops take and return `!pto.tile<...>` values,

    %d = pto.tadd %a, %b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>

Level 2 is destination-passing: ops write into `!pto.tile_buf<...>` buffers
made by `pto.alloc_tile`,

    pto.tadd ins(%a, %b : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>)
             outs(%d : !pto.tile_buf<vec, 16x16xf32>)

Both tile types carry the same parameters (location, element type, static
rows/cols, valid rows/cols, box layout, inner box layout, fractal size, pad,
compact mode), so lowering level 1 to level 2 keeps every type. `tile_buf`
parses PTOAS's key form (`loc=vec, dtype=f32, rows=16, ...`) and its compact
form (`vec, 16x16xf32, valid=16x8`), and prints the compact one; `!pto.tile`
also accepts the shorthand `16x16xf32` (a row-major `vec` tile).

Op verifiers hold the target-independent rules; rules that differ between
A2A3 and A5 live in `passes/pto/pto_verify_target.py`.

The package: `types` (tile, tile buffer, pointer and view types, pipe and
event attributes), `tile_op` (the tile op base and shared checks), then the op
groups `compute`, `memory` and `sync`; this module gathers them into the `PTO`
dialect.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xla_emit.dialects.pto.aggregate_types import AGGREGATE_TYPES
from xla_emit.dialects.pto.attrs import ATTRIBUTES, PTOEnumAttrBase
from xla_emit.dialects.pto.block_sync_ops import BLOCK_SYNC_OPS
from xla_emit.dialects.pto.cache_ops import CmoCacheInvalidOp
from xla_emit.dialects.pto.comm_collectives import COMM_COLLECTIVE_OPS
from xla_emit.dialects.pto.compute import (
    BinaryOpBase,
    ColumnReductionOpBase,
    ElementwiseOpBase,
    FloatUnaryOpBase,
    ReductionOpBase,
    RowReductionOpBase,
    TAbsOp,
    TAddOp,
    TAddsOp,
    TColMaxOp,
    TColSumOp,
    TCvtOp,
    TDivOp,
    TExpOp,
    TileScalarOpBase,
    TLogOp,
    TMatmulOp,
    TMaxOp,
    TMinOp,
    TMovOp,
    TMulOp,
    TMulsOp,
    TReluOp,
    TRowExpandOp,
    TRowMaxOp,
    TRowSumOp,
    TRsqrtOp,
    TSqrtOp,
    TSubOp,
    TTransOp,
    UnaryOpBase,
    ttrans_conversion,
)
from xla_emit.dialects.pto.cube_ops import (
    CUBE_AND_IRREGULAR_OPS,
    MGatherOp,
    MScatterOp,
    TExtractOp,
    TGetValOp,
    TInsertOp,
    TPrintOp,
    TReshapeOp,
    TStoreFpOp,
    TSyncOp,
)
from xla_emit.dialects.pto.declared_ops import DECLARED_ATTRIBUTES, DECLARED_OPS
from xla_emit.dialects.pto.infra_ops import (
    INFRA_OPS,
    SYNCHRONIZATION_OPS,
    AddPtrOp,
    DeclareEventIdArrayOp,
    EventIdArrayGetOp,
    EventIdArraySetOp,
    GetBlockIdxOp,
    GetBlockNumOp,
    GetSubblockIdxOp,
    GetSubblockNumOp,
    GetTensorViewDimOp,
    LoadScalarOp,
    SectionCubeOp,
    SectionVectorOp,
    SetValidShapeOp,
    StoreScalarOp,
    TrapOp,
)
from xla_emit.dialects.pto.memory import (
    AllocTileOp,
    MakeTensorViewOp,
    PartitionViewOp,
    TAssignOp,
    TLoadOp,
    TStoreOp,
)
from xla_emit.dialects.pto.mte_ops import MTE_OPS
from xla_emit.dialects.pto.pipe_ops import PIPE_OPS
from xla_emit.dialects.pto.simt_ops import SIMT_OPS
from xla_emit.dialects.pto.struct_ops import STRUCT_OPS
from xla_emit.dialects.pto.subview import SubViewOp
from xla_emit.dialects.pto.sync import (
    BarrierOp,
    FlagOpBase,
    SetFlagOp,
    WaitFlagOp,
)
from xla_emit.dialects.pto.tile_op import (
    TileOpBase,
    tile_params,
)
from xla_emit.dialects.pto.types import (
    BLAYOUTS,
    DEFAULT_FRACTAL,
    DYNAMIC,
    EVENTS,
    PIPES,
    SLAYOUTS,
    TARGET_ATTR,
    EventAttr,
    PartitionTensorViewType,
    PipeAttr,
    PtrType,
    TensorViewType,
    TileBufType,
    TileType,
    TileTypeBase,
    buffer_type_of,
    element_type_name,
    module_target,
)
from xla_emit.dialects.pto.vector_ops import VECTOR_OPS
from xla_emit.dialects.pto.vmi_memory import VMI_MEMORY_OPS
from xla_emit.dialects.pto.vpto_types import VPTO_TYPES
from xla_emit.dialects.pto.vreg_ops import VREG_OPS

TILE_COMPUTE_OPS: tuple[type[TileOpBase], ...] = (
    TAddOp,
    TSubOp,
    TMulOp,
    TDivOp,
    TMaxOp,
    TMinOp,
    TExpOp,
    TLogOp,
    TSqrtOp,
    TRsqrtOp,
    TAbsOp,
    TReluOp,
    TAddsOp,
    TMulsOp,
    TCvtOp,
    TRowSumOp,
    TRowMaxOp,
    TColSumOp,
    TColMaxOp,
    TRowExpandOp,
    TMatmulOp,
    TMovOp,
    TTransOp,
    TLoadOp,
    TStoreOp,
)

PTO = Dialect(
    "pto",
    [
        *TILE_COMPUTE_OPS,
        *VECTOR_OPS,
        *CUBE_AND_IRREGULAR_OPS,
        *INFRA_OPS,
        *PIPE_OPS,
        *DECLARED_OPS,
        *SIMT_OPS,
        *BLOCK_SYNC_OPS,
        *COMM_COLLECTIVE_OPS,
        *STRUCT_OPS,
        *VREG_OPS,
        SubViewOp,
        *VMI_MEMORY_OPS,
        *MTE_OPS,
        CmoCacheInvalidOp,
        AllocTileOp,
        TAssignOp,
        MakeTensorViewOp,
        PartitionViewOp,
        BarrierOp,
        SetFlagOp,
        WaitFlagOp,
    ],
    [
        TileType,
        TileBufType,
        PtrType,
        TensorViewType,
        PartitionTensorViewType,
        PipeAttr,
        EventAttr,
        *ATTRIBUTES,
        *VPTO_TYPES,
        *AGGREGATE_TYPES,
        *DECLARED_ATTRIBUTES,
    ],
)

__all__ = [
    "ATTRIBUTES",
    "BLAYOUTS",
    "CUBE_AND_IRREGULAR_OPS",
    "DEFAULT_FRACTAL",
    "DYNAMIC",
    "EVENTS",
    "INFRA_OPS",
    "PIPES",
    "PIPE_OPS",
    "PTO",
    "SLAYOUTS",
    "SYNCHRONIZATION_OPS",
    "TARGET_ATTR",
    "TILE_COMPUTE_OPS",
    "VECTOR_OPS",
    "AddPtrOp",
    "AllocTileOp",
    "BarrierOp",
    "BinaryOpBase",
    "ColumnReductionOpBase",
    "DeclareEventIdArrayOp",
    "ElementwiseOpBase",
    "EventAttr",
    "EventIdArrayGetOp",
    "EventIdArraySetOp",
    "FlagOpBase",
    "FloatUnaryOpBase",
    "GetBlockIdxOp",
    "GetBlockNumOp",
    "GetSubblockIdxOp",
    "GetSubblockNumOp",
    "GetTensorViewDimOp",
    "LoadScalarOp",
    "MGatherOp",
    "MScatterOp",
    "MakeTensorViewOp",
    "PTOEnumAttrBase",
    "PartitionTensorViewType",
    "PartitionViewOp",
    "PipeAttr",
    "PtrType",
    "ReductionOpBase",
    "RowReductionOpBase",
    "SectionCubeOp",
    "SectionVectorOp",
    "SetFlagOp",
    "SetValidShapeOp",
    "StoreScalarOp",
    "TAbsOp",
    "TAddOp",
    "TAddsOp",
    "TAssignOp",
    "TColMaxOp",
    "TColSumOp",
    "TCvtOp",
    "TDivOp",
    "TExpOp",
    "TExtractOp",
    "TGetValOp",
    "TInsertOp",
    "TLoadOp",
    "TLogOp",
    "TMatmulOp",
    "TMaxOp",
    "TMinOp",
    "TMovOp",
    "TMulOp",
    "TMulsOp",
    "TPrintOp",
    "TReluOp",
    "TReshapeOp",
    "TRowExpandOp",
    "TRowMaxOp",
    "TRowSumOp",
    "TRsqrtOp",
    "TSqrtOp",
    "TStoreFpOp",
    "TStoreOp",
    "TSubOp",
    "TSyncOp",
    "TTransOp",
    "TensorViewType",
    "TileBufType",
    "TileOpBase",
    "TileScalarOpBase",
    "TileType",
    "TileTypeBase",
    "TrapOp",
    "UnaryOpBase",
    "WaitFlagOp",
    "buffer_type_of",
    "element_type_name",
    "module_target",
    "tile_params",
    "ttrans_conversion",
]
