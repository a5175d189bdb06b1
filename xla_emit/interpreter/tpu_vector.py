"""The TPU executor's handlers for the vector and `tpu` ops Pallas kernels add.

Whole-vector semantics: `vector.multi_reduction` combines over its dims into
the accumulator (rounding to the element type once, as Mosaic's reduction
does in f32), `vector.contract` is an einsum over its indexing maps,
`vector.shape_cast` reshapes in row-major order; `tpu.region`
runs its block; `tpu.trace*` do nothing; `tpu.iteration_bound` reads the
grid being run (a dynamic bound as given) or else the kernel's
`iteration_bounds`. Every `arith` and `math` op runs through
`scalar_arith`, as in the PTO executor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Block, Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu, vector_mosaic
from xla_emit.interpreter.element_types import numpy_dtype


class WholeValues(Protocol):
    """What these handlers need of the TPU executor."""

    def value(self, value: SSAValue) -> Any: ...
    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def run_block(self, block: Block, args: Sequence[Any]) -> list[Any]: ...
    def error(self, op: Operation, message: str) -> UserError: ...
    @property
    def grid_bounds(self) -> tuple[int, ...] | None: ...


_COMBINE: dict[str, Callable[..., Any]] = {
    "add": np.sum,
    "mul": np.prod,
    "maxnumf": np.nanmax,
    "minnumf": np.nanmin,
    "maximumf": np.max,
    "minimumf": np.min,
    "maxsi": np.max,
    "minsi": np.min,
    "and": np.bitwise_and.reduce,
    "or": np.bitwise_or.reduce,
    "xor": np.bitwise_xor.reduce,
}

_PAIRWISE: dict[str, Callable[[Any, Any], Any]] = {
    "add": np.add,
    "mul": np.multiply,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
    "maximumf": np.maximum,
    "minimumf": np.minimum,
    "maxsi": np.maximum,
    "minsi": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


def multi_reduction(ex: WholeValues, op: vector_mosaic.MultiReductionOp) -> list[Any]:
    kind = op.kind.data.value
    if kind not in _COMBINE:
        raise ex.error(op, f"with kind '{kind}' is not supported by the TPU interpreter")
    source = ex.array(op.source)
    dtype = numpy_dtype(op.dest.type)
    # Narrow floats are combined in f32 and rounded once, as the vector unit does.
    wide = np.float32 if np.dtype(dtype).itemsize < 4 and source.dtype.kind in "fV" else None
    data = source.astype(wide) if wide is not None else source
    reduced = _COMBINE[kind](data, axis=op.dims)
    accumulator = np.asarray(ex.value(op.acc))
    combined = _PAIRWISE[kind](accumulator.astype(reduced.dtype), reduced)
    result = np.asarray(combined).astype(dtype)
    return [result if result.ndim else result.item()]


def contract(ex: WholeValues, op: vector_mosaic.ContractOp) -> list[Any]:
    """The sum over the reduction dimensions of lhs * rhs, added to the accumulator.

    The operands are extended to the accumulator's element type first, as MLIR
    defines it; narrow floats are multiplied and summed in f32 and rounded once,
    as the matrix unit accumulates.
    """
    kind = op.kind.data.value
    if kind != "add":
        raise ex.error(op, f"with kind '{kind}' is not supported by the TPU interpreter")
    letters = "abcdefghijklmnopqrstuvwxyz"
    lhs_map, rhs_map, acc_map = ([letters[r.position] for r in m.results] for m in op.maps)
    spec = f"{''.join(lhs_map)},{''.join(rhs_map)}->{''.join(acc_map)}"
    dtype = np.dtype(numpy_dtype(op.result.type))
    wide = np.float32 if dtype.kind in "fV" and dtype.itemsize < 4 else dtype
    lhs, rhs = (ex.array(v).astype(dtype).astype(wide) for v in (op.lhs, op.rhs))
    products = np.einsum(spec, lhs, rhs)
    accumulator = np.asarray(ex.value(op.acc)).astype(wide)
    result = np.asarray(accumulator + products).astype(dtype)
    return [result if result.ndim else result.item()]


def shape_cast(ex: WholeValues, op: vector_mosaic.ShapeCastOp) -> list[Any]:
    shape = op.result.type.get_shape()  # type: ignore[union-attr]
    return [ex.array(op.source).reshape(shape)]


def region(ex: WholeValues, op: tpu.RegionOp | tpu.TraceOp) -> list[Any]:
    return ex.run_block(op.region.block, [])  # up to its tpu.yield


def nothing(_ex: WholeValues, _op: Operation) -> list[Any]:
    return []


def iteration_bound(ex: WholeValues, op: tpu.IterationBoundOp) -> list[Any]:
    dim = op.dim.value.data
    if ex.grid_bounds is not None and dim < len(ex.grid_bounds):
        return [ex.grid_bounds[dim]]
    kernel = op.parent_op()
    while kernel is not None and not isinstance(kernel, func.FuncOp):
        kernel = kernel.parent_op()
    bounds = kernel.attributes.get("iteration_bounds") if kernel is not None else None
    if not isinstance(bounds, DenseArrayBase) or dim >= len(bounds.get_values()):
        raise ex.error(op, f"asks for grid dimension {dim}, but the kernel has no such dimension")
    bound = int(bounds.get_values()[dim])
    if bound < 0:
        raise ex.error(
            op,
            f"asks for grid dimension {dim}, which is dynamic: run the kernel over its grid, "
            "with the bound as the call's leading operand",
        )
    return [bound]


PALLAS_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Any], list[Any]]], ...] = (
    (vector_mosaic.MultiReductionOp, multi_reduction),
    (vector_mosaic.ShapeCastOp, shape_cast),
    (vector_mosaic.ContractOp, contract),
    (tpu.RegionOp, region),
    (tpu.TraceOp, region),
    (tpu.TraceStartOp, nothing),
    (tpu.TraceStopOp, nothing),
    (tpu.IterationBoundOp, iteration_bound),
)
