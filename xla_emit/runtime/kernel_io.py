"""Inputs of an MLIR kernel from npz files or a seed, following the tools' npz convention.

A kernel's parameters are its arguments minus the output arguments (the
trailing ones that match its results, XLA's convention), typed by the IR:
`arg0, arg1, ...` in parameter order, bf16 as uint16 and float8 as uint8 bit patterns.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import as_stored_type, check_argument_names, load_arrays
from xla_emit.interpreter.element_types import numpy_dtype


def kernel_parameters(function: FuncOp) -> list[Attribute]:
    """Types of the arguments the caller provides (output arguments excluded)."""
    arg_types = list(function.function_type.inputs.data)
    result_types = list(function.function_type.outputs.data)
    count = len(result_types)
    if count and len(arg_types) >= count and arg_types[-count:] == result_types:
        return arg_types[:-count]
    return arg_types


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType | MemRefType) else ()


def read_kernel_inputs(path: str, function: FuncOp) -> list[np.ndarray]:
    """`arg0, arg1, ...` of an npz file, checked against the kernel's parameter types."""
    archive = load_arrays(path)
    inputs: list[np.ndarray] = []
    parameters = kernel_parameters(function)
    for number, type_ in enumerate(parameters):
        key = f"arg{number}"
        if key not in archive:
            raise UserError(f"'{path}' has no array '{key}' for a parameter of type {type_}")
        inputs.append(_typed(archive[key], type_, f"{path}:{key}"))
    check_argument_names(path, archive, len(parameters))
    return inputs


def _typed(array: np.ndarray, type_: Attribute, what: str) -> np.ndarray:
    dtype = numpy_dtype(type_)
    shape = _shape(type_)
    if array.size != int(np.prod(shape, dtype=np.int64)):
        raise UserError(f"{what} has shape {list(array.shape)}, expected {list(shape)} for {type_}")
    array = as_stored_type(array, dtype)
    if array.dtype != dtype:
        raise UserError(f"{what} has dtype {array.dtype}, expected {dtype} for {type_}")
    return array.reshape(shape)


def random_kernel_inputs(function: FuncOp, seed: int) -> list[np.ndarray]:
    """Deterministic inputs: floats ~ N(0, 1), integers and indices in [-8, 8], random i1."""
    rng = np.random.default_rng(seed)
    inputs: list[np.ndarray] = []
    for type_ in kernel_parameters(function):
        dtype = numpy_dtype(type_)
        shape = _shape(type_)
        if dtype == np.bool_:
            values = rng.integers(0, 2, shape).astype(np.bool_)
        elif dtype.kind in "iu":
            values = rng.integers(-8, 9, shape).astype(dtype)
        else:
            values = rng.standard_normal(shape, dtype=np.float32).astype(dtype)
        inputs.append(np.asarray(values))
    return inputs
