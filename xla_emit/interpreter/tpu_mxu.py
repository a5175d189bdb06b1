"""The TPU executor's matrix units: Mosaic's explicit MXU ops (`pltpu.matmul_push_rhs` and kin).

Each MXU (`mxu_index`) has staging registers, the RHS it multiplies by, accumulators
and, on chips that have one, a result FIFO, as `jax/_src/pallas/mosaic/primitives.py`
documents them:

- `tpu.matmul_push_rhs` stages a RHS (transposed with `transpose`) in a staging
  register, which must be empty;
- `tpu.matmul_acc_lhs` first loads a staged RHS if `load_staged_rhs` names its
  register (emptying it), then adds lhs @ rhs to the accumulator at `acc`;
- `tpu.matmul_pop` returns that accumulator and zeroes it (accumulators start at
  zero);
- `tpu.matmul_lhs_fifo` enqueues lhs @ rhs on the result FIFO, `tpu.matmul_pop_fifo`
  dequeues the oldest result.

Products are exact sums in f32 (narrow floats widened first, as `tpu.matmul`) or in
i32 for integers. Misuse the chip would not survive is an error: pushing to a full
staging register, loading an empty one, multiplying before any RHS was loaded,
popping an empty FIFO, popping an accumulator as another shape than it holds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import IntegerAttr, VectorType
from xdsl.ir import Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.interpreter.element_types import numpy_dtype


@dataclass
class MatrixUnit:
    """One MXU's state."""

    staged: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    rhs: npt.NDArray[Any] | None = None
    accumulators: dict[int, npt.NDArray[Any]] = field(default_factory=dict)
    results: deque[npt.NDArray[Any]] = field(default_factory=deque)


@dataclass
class MatrixUnits:
    """Every MXU a kernel has used, by `mxu_index`."""

    units: dict[int, MatrixUnit] = field(default_factory=dict)

    def unit(self, index: int) -> MatrixUnit:
        return self.units.setdefault(index, MatrixUnit())


class Machine(Protocol):
    """What these handlers need of the TPU executor."""

    matrix_units: MatrixUnits

    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def error(self, op: Operation, message: str) -> UserError: ...


def _int(op: Operation, name: str, default: int | None = None) -> int | None:
    attr = op.properties.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


def _mxu(ex: Machine, op: Operation) -> tuple[int, MatrixUnit]:
    index = _int(op, "mxu_index", 0)
    assert index is not None
    return index, ex.matrix_units.unit(index)


def push_rhs(ex: Machine, op: Operation) -> list[Any]:
    index, unit = _mxu(ex, op)
    register = _int(op, "staging_register", 0)
    assert register is not None
    if register in unit.staged:
        raise ex.error(
            op, f"pushes to staging register {register} of MXU {index}, which is not loaded yet"
        )
    rhs = ex.array(op.operands[0])
    transpose = op.properties.get("transpose")
    flip = isinstance(transpose, IntegerAttr) and bool(transpose.value.data)
    unit.staged[register] = (rhs.T if flip else rhs).copy()
    return []


def _product(ex: Machine, op: Operation) -> npt.NDArray[Any]:
    """lhs @ the MXU's RHS, loading a staged RHS first when the op names one."""
    index, unit = _mxu(ex, op)
    register = _int(op, "load_staged_rhs")
    if register is not None:
        if register not in unit.staged:
            raise ex.error(
                op, f"loads staging register {register} of MXU {index}, which holds no RHS"
            )
        unit.rhs = unit.staged.pop(register)
    if unit.rhs is None:
        raise ex.error(op, f"multiplies on MXU {index} before any RHS was loaded")
    lhs = ex.array(op.operands[0])
    if lhs.dtype.kind in "iu":
        return lhs.astype(np.int64) @ unit.rhs.astype(np.int64)
    return lhs.astype(np.float32) @ unit.rhs.astype(np.float32)


def acc_lhs(ex: Machine, op: Operation) -> list[Any]:
    _, unit = _mxu(ex, op)
    product = _product(ex, op)
    address = _int(op, "acc", 0)
    assert address is not None
    held = unit.accumulators.get(address)
    if held is not None and held.shape != product.shape:
        raise ex.error(
            op,
            f"adds a {list(product.shape)} product to accumulator {address}, which holds "
            f"{list(held.shape)}",
        )
    unit.accumulators[address] = product if held is None else held + product
    return []


def _result(op: Operation, value: npt.NDArray[Any]) -> npt.NDArray[Any]:
    type_ = op.results[0].type
    assert isinstance(type_, VectorType)
    return value.astype(numpy_dtype(type_.element_type))


def _result_shape(op: Operation) -> tuple[int, ...]:
    type_ = op.results[0].type
    assert isinstance(type_, VectorType)
    return type_.get_shape()


def pop(ex: Machine, op: Operation) -> list[Any]:
    index, unit = _mxu(ex, op)
    address = _int(op, "acc", 0)
    assert address is not None
    shape = _result_shape(op)
    held = unit.accumulators.pop(address, np.zeros(shape, np.float32))
    if held.shape != shape:
        raise ex.error(
            op,
            f"pops accumulator {address} of MXU {index} as {list(shape)}, but it holds "
            f"{list(held.shape)}",
        )
    return [_result(op, held)]


def lhs_fifo(ex: Machine, op: Operation) -> list[Any]:
    _, unit = _mxu(ex, op)
    unit.results.append(_product(ex, op))
    return []


def pop_fifo(ex: Machine, op: Operation) -> list[Any]:
    index, unit = _mxu(ex, op)
    if not unit.results:
        raise ex.error(op, f"pops the result FIFO of MXU {index}, which is empty")
    held = unit.results.popleft()
    shape = _result_shape(op)
    if held.shape != shape:
        raise ex.error(op, f"pops a {list(held.shape)} result of MXU {index} as {list(shape)}")
    return [_result(op, held)]


MXU_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Operation], list[Any]]], ...] = (
    (tpu.CATALOG_BY_NAME["tpu.matmul_push_rhs"], push_rhs),
    (tpu.CATALOG_BY_NAME["tpu.matmul_acc_lhs"], acc_lhs),
    (tpu.CATALOG_BY_NAME["tpu.matmul_pop"], pop),
    (tpu.CATALOG_BY_NAME["tpu.matmul_lhs_fifo"], lhs_fifo),
    (tpu.CATALOG_BY_NAME["tpu.matmul_pop_fifo"], pop_fifo),
)
