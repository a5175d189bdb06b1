"""A small numpy executor for Mosaic TPU kernels: scalar control flow, whole-vector values.

TPU kernels are not SIMT: one program runs with scalar indices and vector
registers, so this executor (unlike the lane-vectorized GPU one) keeps Python
ints for scalars and numpy arrays for vectors. Memrefs live in their tiled
*physical* layout: a flat numpy buffer the size of the padded tiles, indexed
through the memref's `#tpu.tiled` layout (or Mosaic's default), so a kernel
that reads the wrong offset reads the wrong data, as on the chip.

    outputs = run_tpu_kernel(module, [x, np.int64(3)])   # memref args: logical arrays

Results: the function's return values followed by the final contents of
every memref argument (logical view). Errors name the op: out-of-bounds
accesses, broken `tpu.assume_multiple` promises, semaphore waits that could
never complete.

This module runs control flow, loads and stores, views, DMAs and semaphores;
the buffers live in `tpu_buffers`, and the other ops' handlers in
`tpu_vector` (vector/arith forms), `tpu_compute` (shape and reduction ops),
`tpu_convert` (conversions, packing, masks), `tpu_sparse` (scans, sorts,
shuffles), `tpu_memory_ops` (indexed access, views, ids, no-ops and the ops
that cannot run), `tpu_mxu` (the explicit matrix-unit ops) and `tpu_conv`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.hints import isa

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects import tpu, vector_ext
from xla_emit.interpreter.budget import (
    MemoryMeter,
    Reservation,
    StepCounter,
    result_label,
)
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.registry import OpTable
from xla_emit.interpreter.scalar_arith import WholeValueArithImpls
from xla_emit.interpreter.tpu_buffers import (
    IndexArrays,
    MemRef,
    Semaphore,
    allocate,
    is_semaphore_memref,
    semaphores,
)
from xla_emit.interpreter.tpu_compute import CATALOG_HANDLERS
from xla_emit.interpreter.tpu_conv import CONV_HANDLERS
from xla_emit.interpreter.tpu_convert import CONVERT_HANDLERS
from xla_emit.interpreter.tpu_memory_ops import MEMORY_HANDLERS, semaphore_operand
from xla_emit.interpreter.tpu_mxu import MXU_HANDLERS, MatrixUnits
from xla_emit.interpreter.tpu_sparse import SPARSE_HANDLERS
from xla_emit.interpreter.tpu_vector import PALLAS_HANDLERS


class TpuKernelError(UserError):
    """A fault in a running TPU kernel."""


# What an SSA value holds while a kernel runs: Python scalars for scalar code
# (i1 as bool), numpy arrays for vectors, buffers for memrefs, counters for
# semaphores.
TpuValue: TypeAlias = int | float | bool | npt.NDArray[np.generic] | MemRef | Semaphore

# A scalar or vector value stored to memory. numpy's stubs type arithmetic on
# `NDArray[np.generic]` with no matching overload, hence `NDArray[Any]`.
Operand: TypeAlias = int | float | npt.NDArray[Any]


def _operand(value: TpuValue) -> Operand:
    """`value` as an arith operand: a scalar or a vector, never a buffer or semaphore."""
    assert not isinstance(value, MemRef | Semaphore), (
        "a memref where a scalar or vector was expected"
    )
    return value


def _scalar_argument(arg_type: Attribute, value: object, what: str) -> TpuValue:
    """A scalar argument as the interpreter holds scalars: a Python int (integers,
    index) or a numpy scalar of the float type (so f32 arithmetic rounds to f32)."""
    if isinstance(arg_type, AnyFloat):
        if not isinstance(value, int | float | np.integer | np.floating | np.ndarray):
            raise UserError(f"{what} ({arg_type}) takes a number, not {type(value).__name__}")
        return numpy_dtype(arg_type).type(np.asarray(value).reshape(()).item())
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if not isinstance(value, int | np.integer | bool | np.bool_):
        raise UserError(f"{what} ({arg_type}) takes an integer, not {type(value).__name__}")
    return int(value)


class TpuExecutor:
    """Runs one function of a module; see the module docstring."""

    def __init__(
        self,
        module: ModuleOp,
        locate: Callable[[Operation], SourceLocation | None] | None = None,
        memory: MemoryMeter | None = None,
        grid_bounds: tuple[int, ...] | None = None,
    ) -> None:
        self.module = module
        # The grid a Pallas kernel runs over, dynamic bounds resolved (`tpu.iteration_bound`).
        self.grid_bounds = grid_bounds
        self.locate = locate
        self.env: dict[SSAValue, TpuValue] = {}
        self.step_counter = StepCounter()
        # The device's barrier semaphore (`tpu.sem_barrier`): one for the whole run.
        self.barrier_semaphore = Semaphore()
        self.matrix_units = MatrixUnits()  # the explicit MXU ops' staging registers and results
        # A grid's steps share one meter: the grid's buffers are held across them.
        self.memory = memory if memory is not None else MemoryMeter()

    def error(self, op: Operation, message: str) -> TpuKernelError:
        location = self.locate(op) if self.locate is not None else None
        return TpuKernelError(f"'{op.name}' op {message}", location)

    def holder(self, op: Operation, what: str) -> Callable[[int], Reservation]:
        """What `allocate` reserves through: bytes for `what`, an error at `op` when the run
        would then hold more than the memory budget."""

        return self.memory.holder(what, partial(self.error, op))

    def run(
        self, inputs: Sequence[object], entry: str | None = None
    ) -> list[npt.NDArray[np.generic]]:
        function = self._entry(entry)
        block = function.body.blocks.first
        assert block is not None
        if len(inputs) != len(block.args):
            location = self.locate(function) if self.locate is not None else None
            raise TpuKernelError(
                f"@{function.sym_name.data} takes {len(block.args)} arguments, but got "
                f"{len(inputs)}",
                location,
            )
        memrefs: list[MemRef] = []
        for arg, value in zip(block.args, inputs, strict=True):
            arg_type = arg.type
            if isinstance(value, MemRef | Semaphore):
                # A buffer the caller keeps (a grid step's window or scratch): used in place.
                self.env[arg] = value
                if isinstance(value, MemRef) and not is_semaphore_memref(arg_type):
                    memrefs.append(value)
            elif is_semaphore_memref(arg_type):
                assert isa(arg_type, MemRefType[Attribute])
                self.env[arg] = semaphores(arg_type)
            elif isa(arg_type, MemRefType[Attribute]):
                contents: npt.NDArray[np.generic] = np.asarray(value)
                what = f"argument {arg.index} ({arg_type})"
                buffer = allocate(arg_type, contents, self.holder(function, what))
                memrefs.append(buffer)
                self.env[arg] = buffer
            elif isinstance(value, np.ndarray) and value.ndim:
                self.env[arg] = value
            else:
                self.env[arg] = _scalar_argument(arg_type, value, f"argument {arg.index}")
        returned = self.run_block(block, [self.env[a] for a in block.args])
        outputs = [np.asarray(v) for v in returned]
        return outputs + [m.logical() for m in memrefs]

    def _entry(self, name: str | None) -> func.FuncOp:
        functions = [
            op for op in self.module.walk() if isinstance(op, func.FuncOp) and op.body.blocks
        ]
        for function in functions:
            if name is None or function.sym_name.data == name:
                return function
        raise UserError(
            f"no function @{name} in the module" if name else "the module has no function"
        )

    def run_block(self, block: Block, args: Sequence[TpuValue]) -> list[TpuValue]:
        for arg, value in zip(block.args, args, strict=True):
            self.env[arg] = value
        for op in block.ops:
            if self.step_counter.charge(1):
                raise self.error(block.parent_op() or op, self.step_counter.exceeded())
            if isinstance(op, func.ReturnOp | scf.YieldOp | tpu.YieldOp):
                return [self.env[v] for v in op.operands]
            handler = _HANDLERS.lookup(type(op))
            if handler is None:
                raise self.error(op, "is not supported by the TPU interpreter")
            results = handler(self, op, [self.env[v] for v in op.operands])
            for result, value in zip(op.results, results, strict=True):
                self.env[result] = value
        return []

    def value(self, value: SSAValue) -> TpuValue:
        return self.env[value]

    def integer(self, value: SSAValue) -> int:
        v = self.env[value]
        assert isinstance(v, int | np.integer)
        return int(v)

    def memref(self, value: SSAValue) -> MemRef:
        v = self.env[value]
        assert isinstance(v, MemRef)
        return v

    def array(self, value: SSAValue) -> npt.NDArray[np.generic]:
        v = self.env[value]
        if isinstance(v, int | float | np.generic):  # arith computes a vector<T> as a scalar
            return np.asarray(v, numpy_dtype(value.type))
        assert isinstance(v, np.ndarray), f"{value.type} holds {type(v).__name__}, not an array"
        return v


# ----------------------------------------------------------------------------- memory access


def _window(
    ex: TpuExecutor,
    op: Operation,
    ref: MemRef,
    start: Sequence[int],
    shape: Sequence[int],
    strides: Sequence[int] | None = None,
) -> npt.NDArray[np.int64]:
    """Physical offsets of the block of `shape` at `start`.

    The vector dims are the minor memref dims.
    """
    rank = len(ref.shape)
    full_shape = (1,) * (rank - len(shape)) + tuple(shape)
    step = tuple(strides) if strides else (1,) * rank
    grid = np.indices(full_shape, dtype=np.int64)
    index = tuple(grid[d] * step[d] + start[d] for d in range(rank))
    for d in range(rank):
        last = start[d] + (full_shape[d] - 1) * step[d]
        if start[d] < 0 or last >= ref.shape[d]:
            raise ex.error(
                op,
                f"reads or writes out of bounds: index {start[d]}..{last} in dimension {d} "
                f"of a memref with shape {list(ref.shape)}",
            )
    return ref.offsets(index).reshape(tuple(shape))


def _vector_shape(type_: Attribute) -> tuple[int, ...]:
    assert isinstance(type_, VectorType)
    return type_.get_shape()


def _load(ex: TpuExecutor, op: vector.LoadOp | tpu.VectorLoadOp) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    offsets = _window(ex, op, ref, start, _vector_shape(op.result.type))
    # np.array: a 0-d window (vector<f32>) is a 0-d array, not a numpy scalar.
    return [np.array(ref.storage[offsets])]


def _store(
    ex: TpuExecutor, op: vector.StoreOp | tpu.VectorStoreOp, value: SSAValue, mask: SSAValue | None
) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    data = ex.array(value)
    offsets = _window(ex, op, ref, start, data.shape)
    if mask is not None:
        keep = ex.array(mask).astype(bool)
        offsets, data = offsets[keep], data[keep]
    ref.storage[offsets] = data
    return []


def _vector_store(ex: TpuExecutor, op: vector.StoreOp) -> list[TpuValue]:
    return _store(ex, op, op.vector, None)


def _tpu_vector_store(ex: TpuExecutor, op: tpu.VectorStoreOp) -> list[TpuValue]:
    return _store(ex, op, op.value_to_store, op.mask)


def _tpu_load(ex: TpuExecutor, op: tpu.LoadOp) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    shape = _vector_shape(op.result.type)
    stride = op.sublane_stride.value.data
    rank = len(ref.shape)
    strides = [1] * rank
    if len(shape) >= 2:
        strides[-2] = stride
    offsets = _window(ex, op, ref, start, shape, strides)
    return [ref.storage[offsets].copy()]


def _tpu_store(ex: TpuExecutor, op: tpu.StoreOp) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    data = ex.array(op.value_to_store)
    rank = len(ref.shape)
    strides = [1] * rank
    if data.ndim >= 2:
        strides[-2] = op.sublane_stride.value.data
    offsets = _window(ex, op, ref, start, data.shape, strides)
    rows = np.array([bool(v) for v in op.sublane_mask.get_values()])
    keep = np.ones(data.shape, dtype=bool)
    if data.ndim >= 2:
        keep &= np.resize(rows, data.shape[-2])[:, None]
    if op.mask is not None:
        keep &= ex.array(op.mask).astype(bool)
    ref.storage[offsets[keep]] = data[keep]
    return []


def _strided_load(ex: TpuExecutor, op: tpu.StridedLoadOp) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    offsets = _window(ex, op, ref, start, _vector_shape(op.result.type), tpu.strides_of(op))
    return [ref.storage[offsets].copy()]


def _strided_store(ex: TpuExecutor, op: tpu.StridedStoreOp) -> list[TpuValue]:
    ref = ex.memref(op.base)
    start = [ex.integer(i) for i in op.indices]
    data = ex.array(op.value_to_store)
    offsets = _window(ex, op, ref, start, data.shape, tpu.strides_of(op))
    ref.storage[offsets] = data
    return []


def _scalar_load(ex: TpuExecutor, op: memref.LoadOp) -> list[TpuValue]:
    ref = ex.memref(op.memref)
    start = [ex.integer(i) for i in op.indices]
    offset = _window(ex, op, ref, start, ())
    return [ref.storage[offset].item()]


def _scalar_store(ex: TpuExecutor, op: memref.StoreOp) -> list[TpuValue]:
    ref = ex.memref(op.memref)
    start = [ex.integer(i) for i in op.indices]
    offset = _window(ex, op, ref, start, ())
    ref.storage[offset] = _operand(ex.value(op.value))
    return []


def _alloc(ex: TpuExecutor, op: memref.AllocOp | memref.AllocaOp) -> list[TpuValue]:
    assert isinstance(op.memref.type, MemRefType)
    if is_semaphore_memref(op.memref.type):
        return [semaphores(op.memref.type)]
    return [allocate(op.memref.type, hold=ex.holder(op, result_label(op)))]


# ----------------------------------------------------------------------------- memref views


def _slice(ex: TpuExecutor, op: tpu.MemRefSliceOp) -> list[TpuValue]:
    ref = ex.memref(op.mem_ref)
    start = [ex.integer(i) for i in op.base_idx]
    assert isinstance(op.result.type, MemRefType)
    shape = op.result.type.get_shape()
    _window(ex, op, ref, start, shape)  # bounds check of the whole view

    def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        return ref.offsets(tuple(i + s for i, s in zip(index, start, strict=True)))

    return [MemRef(ref.storage, shape, offsets)]


def _squeeze(ex: TpuExecutor, op: tpu.MemRefSqueezeOp) -> list[TpuValue]:
    ref = ex.memref(op.input)
    assert isinstance(op.result.type, MemRefType)
    shape = op.result.type.get_shape()
    kept: list[int] = []
    remaining = list(shape)
    for dim, size in enumerate(ref.shape):
        if remaining and remaining[0] == size:
            kept.append(dim)
            remaining.pop(0)

    def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        zero = np.zeros_like(index[0]) if index else np.zeros((), np.int64)
        full = [zero] * len(ref.shape)
        for position, dim in enumerate(kept):
            full[dim] = index[position]
        return ref.offsets(tuple(full))

    return [MemRef(ref.storage, shape, offsets)]


def _reshape(ex: TpuExecutor, op: tpu.MemRefReshapeOp) -> list[TpuValue]:
    ref = ex.memref(op.input)
    assert isinstance(op.result.type, MemRefType)
    shape = op.result.type.get_shape()

    def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        flat = np.ravel_multi_index(index, shape)
        unraveled = np.unravel_index(flat, ref.shape)
        return ref.offsets(tuple(i.astype(np.int64, copy=False) for i in unraveled))

    return [MemRef(ref.storage, shape, offsets)]


# ----------------------------------------------------------------------------- vector compute


def _rotate(ex: TpuExecutor, op: tpu.DynamicRotateOp) -> list[TpuValue]:
    return [np.roll(ex.array(op.value), ex.integer(op.amount), axis=op.dimension.value.data)]


def _iota(ex: TpuExecutor, op: tpu.IotaOp) -> list[TpuValue]:
    shape = _vector_shape(op.output.type)
    dims = tpu.int_values(op.dimensions)
    grid = np.indices(shape, dtype=np.int64)
    value = np.zeros(shape, dtype=np.int64)
    for dim in dims:
        value = value * shape[dim] + grid[dim]
    assert isinstance(op.output.type, VectorType)
    return [value.astype(numpy_dtype(op.output.type.element_type))]


def _matmul(ex: TpuExecutor, op: tpu.MatmulOp) -> list[TpuValue]:
    lhs, rhs, acc = ex.array(op.lhs), ex.array(op.rhs), ex.array(op.acc)
    lhs_k, rhs_k = op.contraction()
    left = lhs if lhs_k == 1 else lhs.T
    right = rhs if rhs_k == 0 else rhs.T
    product = left.astype(np.float32) @ right.astype(np.float32)
    return [(acc.astype(np.float32) + product).astype(acc.dtype)]


def _assume_multiple(ex: TpuExecutor, op: tpu.AssumeMultipleOp) -> list[TpuValue]:
    value = ex.integer(op.value)
    multiple = op.multiple.value.data
    if value % multiple != 0:
        raise ex.error(op, f"promised a multiple of {multiple}, but the value is {value}")
    return [value]


def _vector_extract(ex: TpuExecutor, op: vector.ExtractOp) -> list[TpuValue]:
    position = tuple(int(p) for p in op.static_position.get_values())
    if op.dynamic_position:
        raise ex.error(op, "with dynamic positions is not supported by the TPU interpreter")
    extracted = ex.array(op.vector)[position]
    return [extracted.copy() if isinstance(extracted, np.ndarray) else extracted.item()]


def _vector_shuffle(ex: TpuExecutor, op: vector.ShuffleOp) -> list[TpuValue]:
    both = np.concatenate([ex.array(op.v1), ex.array(op.v2)])
    mask = [int(m) for m in op.mask.get_values()]
    return [both[mask]]


def _vector_broadcast(ex: TpuExecutor, op: vector.BroadcastOp) -> list[TpuValue]:
    assert isinstance(op.vector.type, VectorType)
    shape = _vector_shape(op.vector.type)
    dtype = numpy_dtype(op.vector.type.element_type)
    return [np.broadcast_to(np.asarray(ex.value(op.source), dtype=dtype), shape).copy()]


def _extract_strided_slice(ex: TpuExecutor, op: vector_ext.ExtractStridedSliceOp) -> list[TpuValue]:
    offsets = vector_ext.int_values(op.offsets)
    sizes = vector_ext.int_values(op.sizes)
    block = tuple(slice(o, o + s) for o, s in zip(offsets, sizes, strict=True))
    return [ex.array(op.source)[block].copy()]


def _insert_strided_slice(ex: TpuExecutor, op: vector_ext.InsertStridedSliceOp) -> list[TpuValue]:
    source = ex.array(op.source)
    result = ex.array(op.dest).copy()
    offsets = vector_ext.int_values(op.offsets)
    leading = result.ndim - source.ndim
    # The source's dims are the destination's trailing ones; leading offsets pick one index.
    block = tuple(
        offset if dim < leading else slice(offset, offset + source.shape[dim - leading])
        for dim, offset in enumerate(offsets)
    )
    result[block] = source
    return [result]


def _create_mask(ex: TpuExecutor, op: vector.CreateMaskOp) -> list[TpuValue]:
    shape = _vector_shape(op.mask_vector.type)
    grid = np.indices(shape, dtype=np.int64)
    mask = np.ones(shape, dtype=bool)
    for dim, bound in enumerate(op.mask_dim_sizes):
        mask &= grid[dim] < ex.integer(bound)
    return [mask]


# ----------------------------------------------------------------------------- semaphores and DMA


def _sem_signal(ex: TpuExecutor, op: tpu.SemaphoreSignalOp) -> list[TpuValue]:
    semaphore_operand(ex, op, op.semaphore).count += ex.integer(op.amount)
    return []


def _sem_wait(ex: TpuExecutor, op: tpu.SemaphoreWaitOp) -> list[TpuValue]:
    semaphore, amount = semaphore_operand(ex, op, op.semaphore), ex.integer(op.amount)
    if semaphore.count < amount:
        raise ex.error(
            op,
            f"waits for {amount} but the semaphore holds {semaphore.count}: it would wait forever",
        )
    semaphore.count -= amount
    return []


def _enqueue_dma(ex: TpuExecutor, op: tpu.EnqueueDMAOp) -> list[TpuValue]:
    # DMAs complete immediately: copy, then signal the semaphores.
    source, target = ex.memref(op.source), ex.memref(op.target)
    target_offsets = target.offsets(tuple(np.indices(target.shape, dtype=np.int64)))
    target.storage[target_offsets] = source.logical()
    semaphore_operand(ex, op, op.target_semaphore).count += 1
    if op.source_semaphore is not None:
        semaphore_operand(ex, op, op.source_semaphore).count += 1
    return []


def _wait_dma(ex: TpuExecutor, op: tpu.WaitDMA2Op) -> list[TpuValue]:
    semaphore = semaphore_operand(ex, op, op.semaphore)
    if semaphore.count < 1:
        raise ex.error(op, "waits for a DMA that was never started: it would wait forever")
    semaphore.count -= 1
    return []


def _sem_alloc(ex: TpuExecutor, op: tpu.SemaphoreAllocOp) -> list[TpuValue]:
    return [Semaphore()]


# ----------------------------------------------------------------------------- scalar code


def _for(ex: TpuExecutor, op: scf.ForOp) -> list[TpuValue]:
    lower, upper, step = ex.integer(op.lb), ex.integer(op.ub), ex.integer(op.step)
    if step <= 0:
        raise ex.error(op, f"has a non-positive step {step}")
    carried = [ex.value(v) for v in op.iter_args]
    for iv in range(lower, upper, step):
        carried = ex.run_block(op.body.block, [iv, *carried])
    return carried


def _if(ex: TpuExecutor, op: scf.IfOp) -> list[TpuValue]:
    region = op.true_region if ex.value(op.cond) else op.false_region
    if not region.blocks:
        return []
    return ex.run_block(region.block, [])


_OpT = TypeVar("_OpT", bound=Operation)
# The handlers of the TPU's own ops read their operands through the executor;
# the shared `arith` handlers get them as `args`.
_Handler: TypeAlias = Callable[[TpuExecutor, Operation, list[TpuValue]], list[TpuValue]]


def _handler_for(
    op_type: type[_OpT], run: Callable[[TpuExecutor, _OpT], list[TpuValue]]
) -> tuple[type[Operation], _Handler]:
    """A table entry: `run` typed for its op class, checked at dispatch."""

    def dispatch(ex: TpuExecutor, op: Operation, _args: list[TpuValue]) -> list[TpuValue]:
        assert isinstance(op, op_type)
        return run(ex, op)

    return op_type, dispatch


_HANDLERS: OpTable[_Handler] = OpTable()
_HANDLERS.register(WholeValueArithImpls())
for _op_type, _handler in (
    _handler_for(scf.ForOp, _for),
    _handler_for(scf.IfOp, _if),
    _handler_for(memref.AllocOp, _alloc),
    _handler_for(memref.AllocaOp, _alloc),
    _handler_for(memref.LoadOp, _scalar_load),
    _handler_for(memref.StoreOp, _scalar_store),
    _handler_for(vector.LoadOp, _load),
    _handler_for(vector.StoreOp, _vector_store),
    _handler_for(vector.ExtractOp, _vector_extract),
    _handler_for(vector.ShuffleOp, _vector_shuffle),
    _handler_for(vector.BroadcastOp, _vector_broadcast),
    _handler_for(vector.CreateMaskOp, _create_mask),
    _handler_for(vector_ext.ExtractStridedSliceOp, _extract_strided_slice),
    _handler_for(vector_ext.InsertStridedSliceOp, _insert_strided_slice),
    _handler_for(tpu.VectorLoadOp, _load),
    _handler_for(tpu.VectorStoreOp, _tpu_vector_store),
    _handler_for(tpu.LoadOp, _tpu_load),
    _handler_for(tpu.StoreOp, _tpu_store),
    _handler_for(tpu.StridedLoadOp, _strided_load),
    _handler_for(tpu.StridedStoreOp, _strided_store),
    _handler_for(tpu.AssumeMultipleOp, _assume_multiple),
    _handler_for(tpu.MemRefSliceOp, _slice),
    _handler_for(tpu.MemRefSqueezeOp, _squeeze),
    _handler_for(tpu.MemRefReshapeOp, _reshape),
    _handler_for(tpu.DynamicRotateOp, _rotate),
    _handler_for(tpu.IotaOp, _iota),
    _handler_for(tpu.MatmulOp, _matmul),
    _handler_for(tpu.SemaphoreAllocOp, _sem_alloc),
    _handler_for(tpu.SemaphoreSignalOp, _sem_signal),
    _handler_for(tpu.SemaphoreWaitOp, _sem_wait),
    _handler_for(tpu.EnqueueDMAOp, _enqueue_dma),
    _handler_for(tpu.WaitDMA2Op, _wait_dma),
):
    _HANDLERS.add(_op_type, _handler)
_TABLES = (
    PALLAS_HANDLERS
    + CATALOG_HANDLERS
    + CONVERT_HANDLERS
    + SPARSE_HANDLERS
    + MEMORY_HANDLERS
    + MXU_HANDLERS
    + CONV_HANDLERS
)
for _op_type, _run in _TABLES:
    _HANDLERS.add(_op_type, _handler_for(_op_type, _run)[1])


def run_tpu_kernel(
    module: ModuleOp,
    inputs: Sequence[object],
    entry: str | None = None,
    locate: Callable[[Operation], SourceLocation | None] | None = None,
) -> list[npt.NDArray[np.generic]]:
    """Run `entry` (default: the first function) on `inputs`; see the module docstring."""
    return TpuExecutor(module, locate).run(inputs, entry)
