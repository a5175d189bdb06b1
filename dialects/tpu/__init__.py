"""The Mosaic TPU `tpu` dialect: memory spaces, tiled memref layouts, semaphores and ops.

Ops print as Mosaic prints them (jax-ml/jax `jaxlib/mosaic/dialect/tpu/`):

    %v = tpu.vector_load %m[%i, %j] {strides = array<i32>} : memref<8x128xf32>, vector<8x128xf32>,
    %r = tpu.assume_multiple %x, 128 : index
    %s = tpu.memref_slice %m[%a, %b] : memref<4x256xf32> -> memref<1x128xf32>

Memory ops with an optional mask print a trailing `, ` after the last type
when the mask is absent, exactly as Mosaic's assembly format does. The tiled
memref layout `#tpu.tiled<(8,128)(2,1),[16,1]>` is a memref layout attribute;
its index arithmetic comes from `xla_emit.layout.mosaic`.

The package: `attributes` (memory spaces, tiled layouts, dot dimension
numbers, semaphore types), `helpers` (checks and syntax the ops share), then
the op groups `memory`, `views`, `compute` and `dma`; this module gathers them
into the `TPU` dialect.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xla_emit.dialects.tpu.attributes import (
    CORE_TYPES,
    MEMORY_SPACES,
    ConvDimensionNumbersAttr,
    DMASemaphoreType,
    DotDimensionNumbersAttr,
    Float8EXMYType,
    MemorySpaceAttr,
    SemaphoreType,
    TiledLayoutAttr,
    VectorLayoutAttr,
)
from xla_emit.dialects.tpu.catalog import CATALOG_BY_NAME, CATALOG_OPS
from xla_emit.dialects.tpu.compute import (
    DynamicRotateOp,
    IotaOp,
    MatmulOp,
    int_values,
)
from xla_emit.dialects.tpu.dma import (
    EnqueueDMAOp,
    SemaphoreAllocOp,
    SemaphoreSignalOp,
    SemaphoreWaitOp,
    WaitDMA2Op,
)
from xla_emit.dialects.tpu.enums import (
    ENUM_ATTRIBUTES,
    ContractPrecisionAttr,
    CoreTypeAttr,
    DimensionSemanticsAttr,
    PipelineModeAttr,
    ReductionKindAttr,
    TpuEnumAttr,
)
from xla_emit.dialects.tpu.helpers import (
    element_bitwidth,
    memory_space_of,
    strides_of,
    tiled_layout_of,
)
from xla_emit.dialects.tpu.memory import (
    LoadOp,
    StoreOp,
    StridedLoadOp,
    StridedStoreOp,
    VectorLoadOp,
    VectorStoreOp,
)
from xla_emit.dialects.tpu.regions import (
    REGION_OPS,
    IterationBoundOp,
    RegionOp,
    TraceOp,
    TraceStartOp,
    TraceStopOp,
    YieldOp,
)
from xla_emit.dialects.tpu.views import (
    AssumeMultipleOp,
    MemRefBitcastOp,
    MemRefReshapeOp,
    MemRefSliceOp,
    MemRefSqueezeOp,
)

TPU = Dialect(
    "tpu",
    [
        LoadOp,
        StoreOp,
        VectorLoadOp,
        VectorStoreOp,
        StridedLoadOp,
        StridedStoreOp,
        AssumeMultipleOp,
        MemRefSliceOp,
        MemRefSqueezeOp,
        MemRefReshapeOp,
        MemRefBitcastOp,
        DynamicRotateOp,
        IotaOp,
        MatmulOp,
        SemaphoreAllocOp,
        SemaphoreWaitOp,
        SemaphoreSignalOp,
        EnqueueDMAOp,
        WaitDMA2Op,
        *REGION_OPS,
        *CATALOG_OPS,
    ],
    [
        MemorySpaceAttr,
        TiledLayoutAttr,
        ConvDimensionNumbersAttr,
        DotDimensionNumbersAttr,
        SemaphoreType,
        DMASemaphoreType,
        Float8EXMYType,
        VectorLayoutAttr,
        *ENUM_ATTRIBUTES,
    ],
)

__all__ = [
    "CATALOG_BY_NAME",
    "CATALOG_OPS",
    "CORE_TYPES",
    "ENUM_ATTRIBUTES",
    "MEMORY_SPACES",
    "REGION_OPS",
    "TPU",
    "AssumeMultipleOp",
    "ContractPrecisionAttr",
    "ConvDimensionNumbersAttr",
    "CoreTypeAttr",
    "DMASemaphoreType",
    "DimensionSemanticsAttr",
    "DotDimensionNumbersAttr",
    "DynamicRotateOp",
    "EnqueueDMAOp",
    "Float8EXMYType",
    "IotaOp",
    "IterationBoundOp",
    "LoadOp",
    "MatmulOp",
    "MemRefBitcastOp",
    "MemRefReshapeOp",
    "MemRefSliceOp",
    "MemRefSqueezeOp",
    "MemorySpaceAttr",
    "PipelineModeAttr",
    "ReductionKindAttr",
    "RegionOp",
    "SemaphoreAllocOp",
    "SemaphoreSignalOp",
    "SemaphoreType",
    "SemaphoreWaitOp",
    "StoreOp",
    "StridedLoadOp",
    "StridedStoreOp",
    "TiledLayoutAttr",
    "TpuEnumAttr",
    "TraceOp",
    "TraceStartOp",
    "TraceStopOp",
    "VectorLayoutAttr",
    "VectorLoadOp",
    "VectorStoreOp",
    "WaitDMA2Op",
    "YieldOp",
    "element_bitwidth",
    "int_values",
    "memory_space_of",
    "strides_of",
    "tiled_layout_of",
]
