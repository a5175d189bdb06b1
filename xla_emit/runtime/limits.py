"""What a kernel may ask of the machine, checked before anything is allocated or run.

Every tensor and memref type a kernel names (its arguments, the values its
ops make) is checked once, statically: a dynamic dimension is an error (the
interpreters allocate every buffer from its static shape), and so is a buffer
over the memory budget. The launch grid is checked too: the executor keeps
at least one index per lane. The HLO side of the same budget is
`xla_emit.hlo.limits.check_module_memory`; what a kernel holds at once, all its
buffers together, the executors count while it runs (`MemoryMeter` in
`xla_emit.interpreter.budget`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType, VectorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from xla_emit.diagnostics import UserError
from xla_emit.hlo.limits import check_memory
from xla_emit.interpreter import LaunchGrid
from xla_emit.interpreter.element_types import INDEX_DTYPE, numpy_dtype
from xla_emit.ir import SourceMap

# Ops that allocate a memref of their result type; other memref results are views.
_ALLOCATING_MEMREF_OPS = frozenset({"memref.alloc", "memref.alloca"})
# Ops whose tensor result takes its dynamic sizes from values when it runs; the
# interpreter checks that buffer against the budget then.
_RUN_TIME_SIZED_OPS = frozenset({"tensor.extract_slice"})


def check_kernel_module(module: ModuleOp, source_map: SourceMap, budget: int) -> None:
    """No dynamic shapes, and every buffer the kernel names fits in `budget` bytes."""
    for op in module.walk():
        for what, type_ in _named_types(op):
            if not isinstance(type_, TensorType | MemRefType | VectorType):
                continue
            if _must_be_static(op, type_) and any(size < 0 for size in type_.get_shape()):
                raise UserError(
                    f"'{op.name}' op {what} has type {type_}: dynamic shapes are not supported",
                    source_map.location_of(op),
                )
            size = _static_bytes(type_)
            if size is not None and size > budget:
                where = source_map.location_of(op)
                check_memory(size, f"'{op.name}' op {what} ({type_})", budget, where)


def check_launch_grid(
    grid: LaunchGrid, function: FuncOp, source_map: SourceMap, budget: int
) -> None:
    """The grid's lanes fit in the budget: each holds at least one index while it runs."""
    check_memory(
        grid.num_lanes * INDEX_DTYPE.itemsize,
        f"the launch grid of @{function.sym_name.data} ({grid.num_lanes} lanes)",
        budget,
        source_map.location_of(function),
    )


def _named_types(op: Operation) -> Iterator[tuple[str, Attribute]]:
    if isinstance(op, FuncOp):
        for number, type_ in enumerate(op.function_type.inputs.data):
            yield f"argument {number}", type_
        for number, type_ in enumerate(op.function_type.outputs.data):
            yield f"result {number}", type_
    for number, result in enumerate(op.results):
        yield f"result {number}", result.type


def _must_be_static(op: Operation, type_: Attribute) -> bool:
    """Tensors, except results sized at run time; memrefs where they are allocated
    (arguments, allocs), not views."""
    if isinstance(type_, MemRefType):
        return isinstance(op, FuncOp) or op.name in _ALLOCATING_MEMREF_OPS
    return isinstance(type_, TensorType) and op.name not in _RUN_TIME_SIZED_OPS


def _static_bytes(type_: TensorType | MemRefType | VectorType) -> int | None:
    """Bytes of a statically shaped buffer; None when a size is dynamic or the type unknown."""
    shape = type_.get_shape()
    if any(size < 0 for size in shape):
        return None
    try:
        itemsize = numpy_dtype(type_).itemsize
    except UserError:  # element types the interpreter has no dtype for (tpu semaphores)
        return None
    return math.prod(shape) * itemsize
