"""What a kernel may ask of the machine, checked before anything is allocated or run.

Also the command-line flags that set the budgets (`--max-memory`, `--max-steps`)
and `--progress`, for the tools to add to their parsers.

Every tensor and memref type a kernel names (its arguments, the values its
ops make) is checked once, statically: a dynamic dimension is an error (the
interpreters allocate every buffer from its static shape), and so is a buffer
over the memory budget. The launch grid is checked too: the executor keeps
at least one index per lane. The HLO side of the same budget is
`xla_emit.hlo.limits.check_module_memory`.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from typing import cast

from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType, VectorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from xla_emit.diagnostics import UserError
from xla_emit.hlo.limits import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STEPS,
    RunLimits,
    check_memory,
    format_bytes,
    parse_byte_size,
)
from xla_emit.interpreter import LaunchGrid
from xla_emit.interpreter.element_types import INDEX_DTYPE, numpy_dtype
from xla_emit.ir import SourceMap


def memory_size(text: str) -> int:
    """`4G`, `512M` or bytes (argparse names this function in its error)."""
    return parse_byte_size(text)


def positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise ValueError(text)
    return value


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """--max-memory, --max-steps, --progress (see `xla_emit.hlo.limits`)."""
    _ = parser.add_argument(
        "--max-memory",
        metavar="SIZE",
        type=memory_size,
        default=DEFAULT_MAX_MEMORY,
        help=f"largest buffer a run may allocate: bytes, or 512M, 4G (default "
        f"{format_bytes(DEFAULT_MAX_MEMORY)})",
    )
    _ = parser.add_argument(
        "--max-steps",
        metavar="N",
        type=positive_int,
        default=DEFAULT_MAX_STEPS,
        help=f"ops the interpreter may run, loop trips included (default {DEFAULT_MAX_STEPS})",
    )
    _ = parser.add_argument(
        "--progress", action="store_true", help="a progress bar even when stderr is no terminal"
    )


def limits_of(namespace: argparse.Namespace) -> RunLimits:
    """The limits `add_limit_arguments` parsed."""
    return RunLimits(cast(int, namespace.max_memory), cast(int, namespace.max_steps))


# Ops that allocate a memref of their result type; other memref results are views.
_ALLOCATING_MEMREF_OPS = frozenset({"memref.alloc", "memref.alloca"})


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
    """Tensors always; memrefs where they are allocated (arguments, allocs), not views."""
    if isinstance(type_, MemRefType):
        return isinstance(op, FuncOp) or op.name in _ALLOCATING_MEMREF_OPS
    return isinstance(type_, TensorType)


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
