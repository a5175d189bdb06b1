"""Run a Pallas TPU kernel over its grid, as Pallas's pipeline runs it on the chip.

A Mosaic module from `pl.pallas_call` holds the kernel `func.func` and one
index-map function `@transform_N` per windowed operand. The kernel's
arguments are, in order: one i32 per grid dimension (the program ids), the
scalar-prefetch refs (SMEM), one ref per input and output, then the scratch
refs. Its attributes say how to drive it:

- `iteration_bounds = array<i64: 2, 2>`: the grid, walked in row-major order.
  A dynamic bound (MLIR's dynamic size, -9223372036854775808) comes with the
  call: the `pallas_call`'s leading operands are its dynamic bounds, one
  integer scalar per dynamic dimension in order, before the prefetch arrays;
- `scalar_prefetch = 1`, `scratch_operands = 1`: how many of each;
- `window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 8, 128>}, {}]`:
  per input/output, the block shape and the index map, which takes the
  program ids and the prefetch refs and returns block indices (the window
  starts at block index times block shape); `{}` means the whole array
  stays where it is (`memory_space=pl.ANY`) and the kernel gets all of it.

Each grid step copies every input window in, runs the kernel, and copies
every output window back; scratch buffers and prefetch refs live across
the whole grid. Without a grid the kernel runs once on whole arrays. A
window may hang past the array's end (a partial edge block, as Pallas
allows when the array is not a multiple of the block): the part past the
end reads as unspecified values and is not written back.

    outputs = run_pallas_kernel(module, [x, y], output_shapes=[(16, 256)])

Operands that do not fit the kernel (too few or too many, a dynamic bound left
out, an output the kernel never writes) are errors at the kernel's line: the
kernel never runs on a guess.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from xdsl.dialects import memref, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects import tpu
from xla_emit.dialects.tpu.kernel import check_kernel, grid_of
from xla_emit.hlo.npz import as_stored_type
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tpu import TpuExecutor
from xla_emit.interpreter.tpu_buffers import MemRef, allocate, is_semaphore_memref, semaphores


@dataclass(frozen=True)
class Window:
    """One operand's BlockSpec: its index map's name and its block shape."""

    transform: str
    bounds: tuple[int, ...]


# How MLIR prints a dynamic size (`ShapedType::kDynamic`), as in a dynamic grid bound.
DYNAMIC_BOUND = -(2**63)

Locate = Callable[[Operation], SourceLocation | None]


@dataclass(frozen=True)
class PallasKernel:
    function: FuncOp
    grid: tuple[int, ...]  # DYNAMIC_BOUND where the bound is a leading operand
    prefetch: int
    scratch: int
    windows: tuple[Window | None, ...]  # per input/output; None: the whole array

    @property
    def dynamic_dims(self) -> tuple[int, ...]:
        """The grid dimensions whose bounds come as the call's leading operands."""
        return tuple(d for d, bound in enumerate(self.grid) if bound == DYNAMIC_BOUND)

    def error(self, message: str, locate: Locate | None) -> UserError:
        """An error about the call, at the kernel's line."""
        location = locate(self.function) if locate is not None else None
        return UserError(f"@{self.function.sym_name.data}: {message}", location)

    @property
    def argument_types(self) -> list[Attribute]:
        return list(self.function.function_type.inputs.data)

    def operand_types(self) -> list[MemRefType[Attribute]]:
        start = len(self.grid) + self.prefetch
        types = self.argument_types[start : len(self.argument_types) - self.scratch]
        assert all(isinstance(t, MemRefType) for t in types)
        return types  # type: ignore[return-value]


def _int_attribute(function: FuncOp, name: str) -> int:
    value = function.attributes.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else 0


def _window(param: Attribute) -> Window | None:
    assert isinstance(param, DictionaryAttr)
    transform = param.data.get("transform_indices")
    bounds = param.data.get("window_bounds")
    if not isinstance(transform, SymbolRefAttr) or not isinstance(bounds, DenseArrayBase):
        return None
    return Window(transform.root_reference.data, tuple(int(b) for b in bounds.get_values()))


def pallas_kernel(module: ModuleOp) -> PallasKernel:
    """The module's kernel function and how Pallas drives it."""
    kernels = [
        op
        for op in module.walk()
        if isinstance(op, FuncOp) and "dimension_semantics" in op.attributes and op.body.blocks
    ]
    if len(kernels) != 1:
        raise UserError(
            f"expected one Pallas kernel (a func.func with dimension_semantics), found "
            f"{len(kernels)}"
        )
    function = kernels[0]
    try:
        check_kernel(function, module)
    except VerifyException as error:
        raise UserError(f"@{function.sym_name.data}: {error}") from None
    grid = grid_of(function)
    prefetch = _int_attribute(function, "scalar_prefetch")
    scratch = _int_attribute(function, "scratch_operands")
    params = function.attributes.get("window_params")
    operands = len(function.function_type.inputs.data) - len(grid) - prefetch - scratch
    windows = (
        tuple(_window(p) for p in params.data)
        if isinstance(params, ArrayAttr)
        else (None,) * operands
    )
    if len(windows) != operands:
        raise UserError(f"window_params has {len(windows)} entries for {operands} operands")
    return PallasKernel(function, grid, prefetch, scratch, windows)


def _as_element_type(
    number: int, array: npt.NDArray[np.generic], type_: MemRefType[Attribute]
) -> np.ndarray:
    """`array` in the memref's element type; bf16 may come as uint16 bit patterns, float8
    as uint8 (npz's convention)."""
    dtype = np.dtype(numpy_dtype(type_.element_type))
    array = as_stored_type(array, dtype)
    if array.dtype != dtype:
        raise UserError(
            f"operand {number} has dtype {array.dtype}, but the kernel's ref is {type_}"
        )
    return array


def split_grid_bounds(
    kernel: PallasKernel, operands: Sequence[npt.NDArray[np.generic]], locate: Locate | None = None
) -> tuple[tuple[int, ...], list[npt.NDArray[np.generic]]]:
    """The grid with its dynamic bounds read off the leading operands, and the operands
    past them (prefetch arrays, inputs)."""
    dynamic = kernel.dynamic_dims
    bounds: list[int] = []
    for number, dim in enumerate(dynamic):
        where = f"grid dimension {dim} is dynamic: operand {number} must be its bound"
        if number >= len(operands):
            raise kernel.error(f"{where}, but the call has {len(operands)} operands", locate)
        value = np.asarray(operands[number])
        if value.size != 1 or value.ndim > 1 or value.dtype.kind not in "iu":
            raise kernel.error(
                f"{where} (an integer scalar), but it is {value.dtype}{list(value.shape)}", locate
            )
        if int(value.reshape(-1)[0]) < 0:
            raise kernel.error(f"{where}, but it is {int(value.reshape(-1)[0])}", locate)
        bounds.append(int(value.reshape(-1)[0]))
    given = iter(bounds)
    grid = tuple(next(given) if b == DYNAMIC_BOUND else b for b in kernel.grid)
    return grid, list(operands[len(dynamic) :])


def _block_start(
    window: Window,
    point: tuple[int, ...],
    prefetch: Sequence[MemRef],
    module: ModuleOp,
) -> tuple[int, ...]:
    """Where the operand's window starts at this grid step: block index times block shape."""
    returned = TpuExecutor(module).run([*point, *prefetch], entry=window.transform)
    blocks = [int(v) for v in returned[: len(window.bounds)]]
    return tuple(block * size for block, size in zip(blocks, window.bounds, strict=True))


def _block_slices(
    window: Window,
    point: tuple[int, ...],
    prefetch: Sequence[MemRef],
    module: ModuleOp,
    full_shape: tuple[int, ...],
) -> tuple[slice, ...]:
    """The part of the full array the operand's window covers at this grid step.

    A block may hang over the array's end (a partial edge block, as when 20 rows are cut
    into blocks of 8); it must start inside the array."""
    starts = _block_start(window, point, prefetch, module)
    slices = []
    for dim, (start, size) in enumerate(zip(starts, window.bounds, strict=True)):
        if start < 0 or start >= full_shape[dim]:
            blocks = [s // b for s, b in zip(starts, window.bounds, strict=True)]
            raise UserError(
                f"@{window.transform} at program ids {point} selects block {blocks}: indices "
                f"{start}..{start + size - 1} of dimension {dim} are outside the array of shape "
                f"{list(full_shape)}"
            )
        slices.append(slice(start, min(start + size, full_shape[dim])))
    return tuple(slices)


def _padded_block(
    array: npt.NDArray[np.generic], region: tuple[slice, ...], window: Window
) -> np.ndarray:
    """The window's contents; rows and lanes past the array's end hold what Pallas leaves
    there, which is unspecified: NaN for floats, the most negative value for integers
    (what Pallas's interpret mode pads with)."""
    part = array[region]
    if part.shape == window.bounds:
        return part
    block = np.full(window.bounds, _unspecified(array.dtype), dtype=array.dtype)
    block[tuple(slice(0, n) for n in part.shape)] = part
    return block


def _unspecified(dtype: np.dtype) -> object:
    if dtype.kind in "fV":  # ml_dtypes' floats (bf16, float8) are of kind V
        return np.nan
    if dtype == np.bool_:
        return True
    return np.iinfo(dtype).min


def output_shapes_from_grid(
    module: ModuleOp, operands: Sequence[npt.NDArray[np.generic]], locate: Locate | None = None
) -> list[tuple[int, ...]]:
    """The full shapes of the kernel's outputs when nobody says: the operands past `inputs`.

    The Mosaic module does not carry the arrays' full shapes (`pallas_call` keeps them in
    the custom call around it), so a whole-array output (no window) takes its ref's shape
    and a windowed one the extent its blocks cover over the grid. That is the array's
    shape whenever the array is a multiple of the block; for partial edge blocks the
    caller must give the shape."""
    kernel = pallas_kernel(module)
    grid_bounds, inputs = split_grid_bounds(kernel, operands, locate)
    operand_types = kernel.operand_types()
    first_output = len(inputs) - kernel.prefetch
    if first_output >= len(operand_types):
        raise kernel.error(
            f"takes {_operand_counts(kernel)}, but got {len(operands)} operands, which leave no "
            "output",
            locate,
        )
    _check_outputs_written(kernel, first_output, locate)
    prefetch = _prefetch_refs(kernel, inputs, TpuExecutor(module))
    points = list(itertools.product(*(range(b) for b in grid_bounds)))
    shapes: list[tuple[int, ...]] = []
    outputs = zip(operand_types[first_output:], kernel.windows[first_output:], strict=True)
    for type_, window in outputs:
        if window is None:
            shapes.append(tuple(type_.get_shape()))
            continue
        ends = [_block_start(window, p, prefetch, module) for p in points]
        shapes.append(tuple(max(e[d] for e in ends) + size for d, size in enumerate(window.bounds)))
    return shapes


def _prefetch_refs(
    kernel: PallasKernel, inputs: Sequence[npt.NDArray[np.generic]], grid: TpuExecutor
) -> list[MemRef]:
    types = kernel.argument_types
    first = len(kernel.grid)
    return [
        allocate(
            types[first + i],  # type: ignore[arg-type]
            np.asarray(inputs[i]),
            grid.holder(kernel.function, f"prefetch ref {i} ({types[first + i]})"),
        )
        for i in range(kernel.prefetch)
    ]


def _full_arrays(
    kernel: PallasKernel,
    inputs: Sequence[npt.NDArray[np.generic]],
    output_shapes: Sequence[tuple[int, ...]],
    grid: TpuExecutor,
) -> list[np.ndarray]:
    """The inputs and the (zeroed) outputs as whole arrays, held for the whole grid."""
    operand_types = kernel.operand_types()
    arrays = [
        _as_element_type(n, np.asarray(a), t)
        for n, (a, t) in enumerate(zip(inputs[kernel.prefetch :], operand_types, strict=False))
    ]
    for number, array in enumerate(arrays):
        grid.holder(kernel.function, f"operand {number} ({array.dtype}{list(array.shape)})")(
            array.nbytes
        )
    for shape, type_ in zip(output_shapes, operand_types[len(arrays) :], strict=True):
        dtype = np.dtype(numpy_dtype(type_.element_type))
        what = f"operand {len(arrays)} ({dtype}{list(shape)})"
        grid.holder(kernel.function, what)(math.prod(shape) * dtype.itemsize)
        arrays.append(np.zeros(shape, dtype))
    return arrays


def _check_full_array(
    kernel: PallasKernel, number: int, array: np.ndarray, type_: MemRefType[Attribute]
) -> None:
    """Inputs and outputs against the kernel's refs: the whole array, or the block's rank."""
    window = kernel.windows[number]
    expected = tuple(type_.get_shape()) if window is None else window.bounds
    what = "whole-array ref" if window is None else "block"
    if window is None and array.shape != expected:
        raise UserError(
            f"operand {number} has shape {list(array.shape)}, but the kernel's {what} is {type_}"
        )
    if window is not None and array.ndim != len(expected):
        raise UserError(
            f"operand {number} has shape {list(array.shape)}, but its {what} "
            f"{list(expected)} has rank {len(expected)}"
        )


def run_pallas_kernel(
    module: ModuleOp,
    operands: Sequence[npt.NDArray[np.generic]],
    output_shapes: Sequence[tuple[int, ...]],
    locate: Callable[[Operation], SourceLocation | None] | None = None,
) -> list[np.ndarray]:
    """The kernel's outputs after running every grid step (see the module docstring);
    `locate` names the source line of an op that fails."""
    kernel = pallas_kernel(module)
    grid_bounds, inputs = split_grid_bounds(kernel, operands, locate)
    types = kernel.argument_types
    operand_types = kernel.operand_types()
    if len(inputs) - kernel.prefetch + len(output_shapes) != len(operand_types):
        raise kernel.error(
            f"takes {_operand_counts(kernel)}, but got {len(operands)} operands and "
            f"{len(output_shapes)} outputs",
            locate,
        )
    _check_outputs_written(kernel, len(inputs) - kernel.prefetch, locate)
    # The grid's own buffers are held across its steps; each step's executor adds its own.
    grid = TpuExecutor(module, locate)
    prefetch = _prefetch_refs(kernel, inputs, grid)
    arrays = _full_arrays(kernel, inputs, output_shapes, grid)
    for number, (array, type_) in enumerate(zip(arrays, operand_types, strict=True)):
        _check_full_array(kernel, number, array, type_)
    whole = {
        i: allocate(t, arrays[i], grid.holder(kernel.function, f"the ref of operand {i} ({t})"))
        for i, (t, w) in enumerate(zip(operand_types, kernel.windows, strict=True))
        if w is None
    }
    scratch_types = types[len(types) - kernel.scratch :]
    scratch = [_scratch(t, n, kernel, grid) for n, t in enumerate(scratch_types)]
    for point in itertools.product(*(range(b) for b in grid_bounds)):
        blocks: dict[int, tuple[slice, ...]] = {}
        buffers: list[MemRef] = []
        for i, (type_, window) in enumerate(zip(operand_types, kernel.windows, strict=True)):
            if window is None:
                buffers.append(whole[i])
                continue
            blocks[i] = _block_slices(window, point, prefetch, module, arrays[i].shape)
            contents = _padded_block(arrays[i], blocks[i], window)
            hold = grid.holder(kernel.function, f"the window of operand {i} ({type_})")
            buffers.append(allocate(type_, contents.reshape(type_.get_shape()), hold))
        TpuExecutor(module, locate, grid.memory, grid_bounds).run(
            [*point, *prefetch, *buffers, *scratch], kernel.function.sym_name.data
        )
        for i, region in blocks.items():
            _write_back(arrays[i], region, buffers[i].logical(), kernel.windows[i])
    for i, buffer in whole.items():
        arrays[i] = buffer.logical()
    return arrays[len(inputs) - kernel.prefetch :]


def _write_back(
    array: np.ndarray, region: tuple[slice, ...], block: np.ndarray, window: Window | None
) -> None:
    """Copy a block back; the part of a partial edge block past the array's end is dropped."""
    assert window is not None
    inside = tuple(slice(0, s.stop - s.start) for s in region)
    array[region] = block.reshape(window.bounds)[inside]


def _scratch(
    type_: Attribute, number: int, kernel: PallasKernel, grid: TpuExecutor
) -> MemRef | None:
    """A scratch buffer that lives across the grid. Semaphores do too: a step may start a
    DMA that the next step waits for, as pipelined kernels do."""
    assert isinstance(type_, MemRefType)
    if is_semaphore_memref(type_):
        return semaphores(type_)
    return allocate(type_, hold=grid.holder(kernel.function, f"scratch {number} ({type_})"))


def _operand_counts(kernel: PallasKernel) -> str:
    """What the call passes, in order: dynamic bounds, prefetch arrays, inputs and outputs."""
    parts = []
    if kernel.dynamic_dims:
        parts.append(f"{len(kernel.dynamic_dims)} dynamic grid bounds")
    parts.append(f"{kernel.prefetch} prefetch arrays")
    parts.append(f"{len(kernel.operand_types())} inputs and outputs")
    return ", ".join(parts)


# Ops that only read the memref they are given; views pass it on.
_READ_OPS = (
    memref.LoadOp,
    vector.LoadOp,
    tpu.LoadOp,
    tpu.VectorLoadOp,
    tpu.StridedLoadOp,
    tpu.WaitDMA2Op,
)
_VIEWS = (tpu.MemRefSliceOp, tpu.MemRefSqueezeOp, tpu.MemRefReshapeOp)


def _is_dma_source(op: tpu.EnqueueDMAOp, index: int) -> bool:
    """Whether operand `index` of the DMA is its source (a DMA only reads its source)."""
    return index == list(op.operands).index(op.source)


def _reads_only(value: SSAValue) -> bool:
    """Whether every use of the ref `value` (through views) only reads it."""
    for use in value.uses:
        op = use.operation
        if isinstance(op, _VIEWS):
            if not all(_reads_only(r) for r in op.results):
                return False
        elif isinstance(op, _READ_OPS) or (
            isinstance(op, tpu.EnqueueDMAOp) and _is_dma_source(op, use.index)
        ):
            continue
        else:
            return False
    return True


def _check_outputs_written(kernel: PallasKernel, first_output: int, locate: Locate | None) -> None:
    """The refs past the inputs given are outputs, so the kernel must write them: a ref it
    only reads is an input, and the call left an input out."""
    block = kernel.function.body.blocks.first
    assert block is not None
    start = len(kernel.grid) + kernel.prefetch
    for number in range(first_output, len(kernel.operand_types())):
        if _reads_only(block.args[start + number]):
            raise kernel.error(
                f"operand ref {number} ({kernel.operand_types()[number]}) is only read, so it "
                f"is an input, but the call gave {first_output} inputs: an input is missing",
                locate,
            )
