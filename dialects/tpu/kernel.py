"""The kernel-level attributes Pallas puts on a Mosaic kernel's `func.func`, and their checks.

    func.func @kernel(%arg0: i32, %arg1: memref<4xi32, #tpu.memory_space<smem>>, ...)
        attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>],
                    iteration_bounds = array<i64: 4>, scalar_prefetch = 1 : i64,
                    scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>,
                    window_params = [{transform_indices = @transform_0,
                                      window_bounds = array<i64: 8, 128>}, ...]}
    func.func @transform_0(%arg0: i32, %arg1: memref<4xi32, ...>) -> (i32, i32)

The arguments are the program ids (one i32 per grid dimension), the scalar
prefetch refs, one ref per input and output, then the scratch refs. Each
window's index map takes the program ids and the prefetch refs and returns
one i32 block index per window dimension. `check_kernel` holds a kernel to
that contract; a `func.func` without `dimension_semantics` is not a kernel.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    SymbolRefAttr,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu.enums import CoreTypeAttr, DimensionSemanticsAttr, PipelineModeAttr

KERNEL_MARKER = "dimension_semantics"


def is_kernel(function: FuncOp) -> bool:
    return KERNEL_MARKER in function.attributes


def _count(function: FuncOp, name: str) -> int:
    value = function.attributes.get(name)
    if value is None:
        return 0
    if not isinstance(value, IntegerAttr) or value.value.data < 0:
        raise VerifyException(f"Expected {name} to be a non-negative integer, but got {value}")
    return value.value.data


def grid_of(function: FuncOp) -> tuple[int, ...]:
    bounds = function.attributes.get("iteration_bounds")
    if bounds is None:
        return ()
    if not isinstance(bounds, DenseArrayBase):
        raise VerifyException(f"Expected iteration_bounds to be array<i64: ...>, got {bounds}")
    return tuple(int(b) for b in bounds.get_values())


def check_kernel(function: FuncOp, module: ModuleOp) -> None:
    """Raise `VerifyException` where the kernel breaks Pallas's calling contract."""
    grid = grid_of(function)
    semantics = function.attributes[KERNEL_MARKER]
    if not isinstance(semantics, ArrayAttr) or not all(
        isinstance(s, DimensionSemanticsAttr) for s in semantics.data
    ):
        raise VerifyException(
            "Expected dimension_semantics to be a list of #tpu.dimension_semantics"
        )
    if len(semantics.data) != len(grid):
        raise VerifyException(
            f"dimension_semantics has {len(semantics.data)} entries, but the grid "
            f"(iteration_bounds) has {len(grid)} dimensions"
        )
    core_type = function.attributes.get("tpu.core_type")
    if core_type is not None and not isinstance(core_type, CoreTypeAttr):
        raise VerifyException(f"Expected tpu.core_type to be #tpu.core_type<...>, got {core_type}")
    inputs = function.function_type.inputs.data
    prefetch = _count(function, "scalar_prefetch")
    scratch = _count(function, "scratch_operands")
    operands = len(inputs) - len(grid) - prefetch - scratch
    if operands < 0:
        raise VerifyException(
            f"the kernel takes {len(inputs)} arguments, fewer than its {len(grid)} program ids, "
            f"{prefetch} prefetch refs and {scratch} scratch refs"
        )
    for dim, type_ in enumerate(inputs[: len(grid)]):
        if type_ != i32:
            raise VerifyException(f"program id {dim} (argument {dim}) must be i32, got {type_}")
    params = function.attributes.get("window_params")
    if params is None:
        return
    if not isinstance(params, ArrayAttr) or len(params.data) != operands:
        count = len(params.data) if isinstance(params, ArrayAttr) else "no list"
        raise VerifyException(
            f"window_params has {count} entries, but the kernel has {operands} inputs and outputs"
        )
    index_map_inputs = list(inputs[: len(grid) + prefetch])
    for position, param in enumerate(params.data):
        _check_window(position, param, index_map_inputs, module)


def _check_window(position: int, param: object, index_map_inputs: list, module: ModuleOp) -> None:
    if not isinstance(param, DictionaryAttr):
        raise VerifyException(f"window_params[{position}] must be a dictionary")
    mode = param.data.get("pipeline_mode")
    if mode is not None and not isinstance(mode, PipelineModeAttr):
        raise VerifyException(f"window_params[{position}].pipeline_mode must be #tpu.pipeline_mode")
    transform = param.data.get("transform_indices")
    bounds = param.data.get("window_bounds")
    if transform is None and bounds is None:
        return  # the whole array, left where it is (memory_space=pl.ANY)
    if not isinstance(transform, SymbolRefAttr) or not isinstance(bounds, DenseArrayBase):
        raise VerifyException(
            f"window_params[{position}] needs both transform_indices (a symbol) and "
            "window_bounds (array<i64: ...>)"
        )
    name = transform.root_reference.data
    index_map = next(
        (op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name), None
    )
    if index_map is None:
        raise VerifyException(f"window_params[{position}] names @{name}, which is not defined")
    rank = len(bounds.get_values())
    expected_results = [i32] * rank
    if (
        list(index_map.function_type.inputs.data) != index_map_inputs
        or list(index_map.function_type.outputs.data) != expected_results
    ):
        raise VerifyException(
            f"@{name} must take the program ids and prefetch refs and return {rank} i32 block "
            f"indices, but has type {index_map.function_type}"
        )
