"""Running a PTO tile program on npz-style inputs: the PTO backend's input convention.

Every parameter is an input `arg0, arg1, ...` (global memory as arrays, bf16
as uint16 bit patterns, scalars as 0-d arrays); the outputs are `out0, out1,
...` for the returned values, then, under their input names, every
global-memory argument as `tstore` left it and every vector argument as the kernel
left it (tmrgsort's executed counts).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    VectorType,
)
from xdsl.ir import SSAValue

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects import pto
from xla_emit.hlo.limits import check_memory
from xla_emit.interpreter.budget import current_limits
from xla_emit.interpreter.element_types import explicit_signedness_dtype
from xla_emit.interpreter.pto import Array, PTOExecutor, Scalar, Tile, Value
from xla_emit.ir import SourceMap, parse_mlir, verify_module
from xla_emit.pto.assembly import pto_as_to_mlir
from xla_emit.runtime.sources import read_source


def parse_pto_program(path: str) -> tuple[ModuleOp, SourceMap]:
    """Read, convert (PTO-AS to MLIR; MLIR stays as is), parse and verify a PTO program once."""
    module, source_map = parse_mlir(pto_as_to_mlir(read_source(path), path), path)
    verify_module(module, source_map)
    return module, source_map


def run_pto_file(
    path: str, entry: str | None, inputs: dict[str, Array] | None, target: str | None, seed: int = 0
) -> dict[str, Array]:
    """Run `entry` of the PTO program (MLIR or PTO-AS) in `path`; see `run_pto_module`."""
    module, source_map = parse_pto_program(path)
    return run_pto_module(module, source_map, entry, inputs, target, seed)


def run_pto_module(
    module: ModuleOp,
    source_map: SourceMap,
    entry: str | None,
    inputs: dict[str, Array] | None,
    target: str | None,
    seed: int = 0,
) -> dict[str, Array]:
    """Run `entry` (default: the first function) of a parsed PTO module.

    `inputs` are npz-style arrays `arg0, arg1, ...`; None means random inputs from `seed`.
    """
    executor = PTOExecutor(module, target, source_map.location_of)
    name = entry or next(iter(executor.functions), "")
    function = executor.functions.get(name)
    if function is None:
        raise UserError(f"no function named '{name}' in {source_map.file}")
    params = function.body.block.args
    args = _arguments(params, inputs, seed, source_map.location_of(function))
    results = executor.run(name, args)
    outputs = {f"out{i}": _to_npz(v) for i, v in enumerate(results)}
    for index, (param, value) in enumerate(zip(params, args, strict=True)):
        if isinstance(param.type, _WRITABLE_PARAMETERS):
            outputs[f"arg{index}"] = _to_npz(value)
    return outputs


# Parameters a kernel writes through: global memory, and vectors (tmrgsort's counts).
_WRITABLE_PARAMETERS = (pto.PtrType, pto.PartitionTensorViewType, pto.TensorViewType, VectorType)


def _arguments(
    params: tuple[SSAValue, ...],
    inputs: dict[str, Array] | None,
    seed: int,
    where: SourceLocation | None,
) -> list[Value]:
    rng = np.random.default_rng(seed)
    args: list[Value] = []
    for index, param in enumerate(params):
        if inputs is None:
            args.append(_random_input(rng, index, param, where))
            continue
        key = f"arg{index}"
        if key not in inputs:
            raise UserError(f"missing input '{key}' for parameter {index} ({param.type})")
        args.append(_input(index, param, inputs[key]))
    return args


def _global_array(arg: SSAValue, value: Array) -> Array:
    """npz arrays for global memory: bf16 arrives as uint16 bit patterns."""
    element = getattr(arg.type, "element_type", None)
    if element is None:
        return value
    dtype = explicit_signedness_dtype(element)
    if dtype == np.dtype(ml_dtypes.bfloat16) and value.dtype == np.uint16:
        return value.view(ml_dtypes.bfloat16).copy()
    return value.astype(dtype).copy()


def _to_npz(value: Value) -> Array:
    array = value.data if isinstance(value, Tile) else np.asarray(value)
    if array.dtype == np.dtype(ml_dtypes.bfloat16):
        return array.view(np.uint16)
    return array


def _random_input(
    rng: np.random.Generator, position: int, param: SSAValue, where: SourceLocation | None
) -> Array | Scalar:
    """Random data shaped by a parameter's type (small integers for integer types)."""
    match param.type:
        case pto.PartitionTensorViewType(element_type=element) if (
            pto.DYNAMIC not in param.type.dims
        ):
            shape = param.type.dims
        case pto.TileTypeBase(element_type=element):
            shape = param.type.shape
        case VectorType(element_type=element):
            shape = param.type.get_shape()
        case Float16Type() | BFloat16Type() | Float32Type() | Float64Type():
            return float(rng.standard_normal())
        case _:
            raise UserError(
                f"cannot make a random input for parameter {position} ({param.type}); pass --inputs"
            )
    dtype = explicit_signedness_dtype(element)
    # numpy draws the values as 8-byte numbers before converting them.
    size = math.prod(shape) * max(dtype.itemsize, 8)
    what = f"parameter {position} ({param.type})"
    check_memory(size, what, current_limits().max_memory, where)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-8, 8, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _input(position: int, param: SSAValue, value: Array) -> Array | Scalar:
    if value.ndim == 0:
        return value.item()
    dims = getattr(param.type, "dims", None)
    if (
        isinstance(param.type, pto.PartitionTensorViewType)
        and dims is not None
        and value.shape != dims
    ):
        raise UserError(
            f"input 'arg{position}' must have shape {dims} for {param.type}, but has {value.shape}"
        )
    return _global_array(param, value)
