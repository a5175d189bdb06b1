"""Reference evaluator: runs an HLO module with numpy (the oracle for every later stage).

Values are numpy arrays of the element type's dtype (`ml_dtypes.bfloat16` for
bf16) or tuples of values. Every op is vectorized over whole arrays; only
reductions with a non-trivial reducer loop in Python, once per reduced
element, vectorized over the kept ones.

`evaluate_module(..., tf32_dots=DOTS)` (or evaluating inside `rounding_to_tf32(DOTS)`)
rounds the f32 operands of the dots DOTS to TF32 first, wherever they sit (fusions,
loop bodies): what those dots compute on an H100 at XLA:GPU's default precision, but
for the order of their f32 sums. Inside `flushing_subnormals()` every op flushes its
subnormal float results to zero, as XLA:CPU does (the differential tester's oracle).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Generator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import ml_dtypes
import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo import complex_ops, elementwise, eval_control, eval_linalg, eval_window
from xla_emit.hlo.complex_ops import COMPLEX_PART_OPS, folded_operand
from xla_emit.hlo.eval_indexed import gather, scatter
from xla_emit.hlo.eval_library import custom_call
from xla_emit.hlo.fft import evaluate_fft
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.opcodes import BINARY_OPS, UNARY_OPS
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, Shape

Value = np.ndarray | tuple["Value", ...]

# The dots whose f32 operands are rounded to TF32 (a context, so that the computations
# that fusions, loops and calls evaluate see it without every handler passing it on).
_TF32_DOTS: ContextVar[frozenset[HloInstruction]] = ContextVar("tf32_dots", default=frozenset())


@contextmanager
def rounding_to_tf32(dots: Collection[HloInstruction]) -> Generator[None, None, None]:
    """Within the block, the dots `dots` round their f32 operands to TF32."""
    token = _TF32_DOTS.set(frozenset(dots))
    try:
        yield
    finally:
        _TF32_DOTS.reset(token)


# XLA:CPU's flush-to-zero (a context, as `_TF32_DOTS`): every float result below the smallest
# normal f32 (f64: f64) in magnitude becomes a zero of its sign.
_FLUSHING: ContextVar[bool] = ContextVar("flushing_subnormals", default=False)
_F32_TINY = float(np.finfo(np.float32).tiny)
_F64_TINY = float(np.finfo(np.float64).tiny)


@contextmanager
def flushing_subnormals() -> Generator[None, None, None]:
    """Within the block, each op's subnormal float results are flushed to zero, as XLA:CPU
    computes (it runs with flush-to-zero; a 16-bit op is an f32 op there, so only values
    below f32's smallest normal flush: bf16's subnormals, never f16's)."""
    token = _FLUSHING.set(True)
    try:
        yield
    finally:
        _FLUSHING.reset(token)


def _flushed(value: Value) -> Value:
    if isinstance(value, tuple):
        return tuple(_flushed(v) for v in value)
    if value.dtype.kind == "c":  # each part (no complex arithmetic: inf parts stay)
        parts = np.stack([_flushed(np.real(value)), _flushed(np.imag(value))], axis=-1)
        return np.ascontiguousarray(parts).view(value.dtype)[..., 0]
    if value.dtype.kind != "f" and value.dtype != np.dtype(ml_dtypes.bfloat16):
        return value
    tiny = _F64_TINY if value.dtype == np.float64 else _F32_TINY
    wide = value.astype(np.float64)
    subnormal = (wide != 0) & (np.abs(wide) < tiny)
    if not subnormal.any():
        return value
    return np.where(subnormal, np.copysign(0.0, wide), wide).astype(value.dtype)


def evaluate_module(
    module: HloModule,
    arguments: Sequence[np.ndarray],
    tf32_dots: Collection[HloInstruction] = (),
) -> list[np.ndarray]:
    """Runs the entry computation; returns its outputs with tuples flattened. The dots
    `tf32_dots` round their f32 operands to TF32."""
    entry = module.entry
    with rounding_to_tf32(tf32_dots):
        result = evaluate_computation(entry, check_arguments(entry, arguments))
    return flatten_value(result)


def check_arguments(
    computation: HloComputation, arguments: Sequence[np.ndarray | np.generic]
) -> list[np.ndarray]:
    """The arguments as arrays (a numpy scalar is a 0-d array), checked against the
    parameters' shapes."""
    arguments = [np.asarray(a) if isinstance(a, np.generic) else a for a in arguments]
    params = computation.parameters
    if len(arguments) != len(params):
        raise UserError(
            f"'{computation.name}' takes {len(params)} arguments, {len(arguments)} were given"
        )
    for number, (param, argument) in enumerate(zip(params, arguments, strict=True)):
        shape = param.shape
        if not isinstance(shape, ArrayShape):
            raise UserError(
                f"parameter {number} ('{param.name}') is a tuple; only arrays are supported"
            )
        if tuple(argument.shape) != shape.dimensions or argument.dtype != shape.element_type.dtype:
            raise UserError(
                f"argument {number} is {argument.dtype}{list(argument.shape)} but parameter "
                f"'{param.name}' is {shape.element_type.value}{list(shape.dimensions)}"
            )
    return arguments


def flatten_value(value: Value) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [leaf for element in value for leaf in flatten_value(element)]
    return [value]


def evaluate_computation(computation: HloComputation, arguments: Sequence[Value]) -> Value:
    """Evaluates `computation`; arguments are in parameter-number order."""
    return evaluate_values(computation, arguments)[computation.root]


def evaluate_values(
    computation: HloComputation, arguments: Sequence[Value]
) -> dict[HloInstruction, Value]:
    """The value of every instruction of `computation` (fusions: of the fusion, not inside)."""
    values: dict[HloInstruction, Value] = {}
    for instruction in computation.instructions:
        if instruction.opcode == "parameter":
            assert instruction.parameter_number is not None
            values[instruction] = arguments[instruction.parameter_number]
        elif not computation.is_entry and (folded := folded_operand(instruction)) is not None:
            # XLA folds it inside a fusion's kernel; an entry's ops are a kernel each.
            values[instruction] = values[folded]
        else:
            values[instruction] = evaluate_instruction(
                instruction, [values[o] for o in instruction.operands]
            )
    return values


def evaluate_instruction(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    """Evaluates one (non-parameter) instruction on the values of its operands."""
    result = _evaluate(instruction, operands)
    # numpy turns 0-d results of ufuncs into scalars; values are always arrays.
    value = result if isinstance(result, tuple) else np.asarray(result)
    return _flushed(value) if _FLUSHING.get() else value


def _evaluate(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    opcode = instruction.opcode
    if _is_complex(instruction):
        return _complex(instruction, operands)
    if opcode in UNARY_OPS:
        x = _array(operands[0])
        return elementwise.unary(opcode, x, _element_type(instruction.operands[0].shape))
    if opcode in BINARY_OPS:
        return elementwise.binary(
            opcode, _array(operands[0]), _array(operands[1]), _element_type(instruction.shape)
        )
    return _HANDLERS[opcode](instruction, operands)


def _is_complex(instruction: HloInstruction) -> bool:
    """An elementwise op on complex operands, or one of real, imag, complex."""
    if instruction.opcode in COMPLEX_PART_OPS:
        return True
    if instruction.opcode not in UNARY_OPS | BINARY_OPS | {"compare"}:
        return False
    shape = instruction.operands[0].shape
    return isinstance(shape, ArrayShape) and shape.element_type.is_complex


def _complex(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    arrays = [_array(o) for o in operands]
    opcode, ptype = instruction.opcode, _element_type(instruction.operands[0].shape)
    if opcode in COMPLEX_PART_OPS:
        return complex_ops.part(opcode, arrays, _element_type(instruction.shape))
    if opcode == "compare":
        equal = arrays[0] == arrays[1]
        return equal if instruction.comparison_direction == "EQ" else ~equal
    if opcode in UNARY_OPS:
        return complex_ops.unary(opcode, arrays[0], ptype)
    return complex_ops.binary(opcode, arrays[0], arrays[1], ptype)


def _fft(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return evaluate_fft(instruction, _array(operands[0]))


def _array(value: Value) -> np.ndarray:
    assert isinstance(value, np.ndarray), "expected an array value"
    return value


def _element_type(shape: Shape) -> PrimitiveType:
    assert isinstance(shape, ArrayShape)
    return shape.element_type


def _constant(instruction: HloInstruction, _operands: Sequence[Value]) -> Value:
    assert instruction.literal is not None
    return instruction.literal


def _iota(instruction: HloInstruction, _operands: Sequence[Value]) -> Value:
    shape = instruction.array_shape
    dim = instruction.iota_dimension
    assert dim is not None
    line = np.arange(shape.dimensions[dim], dtype=np.int64)
    line = line.astype(np.float32) if shape.element_type.is_float else line
    view = line.astype(shape.element_type.dtype).reshape(
        [size if i == dim else 1 for i, size in enumerate(shape.dimensions)]
    )
    return np.broadcast_to(view, shape.dimensions)


def _compare(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.comparison_direction is not None
    return elementwise.compare(
        instruction.comparison_direction,
        _array(operands[0]),
        _array(operands[1]),
        _element_type(instruction.operands[0].shape),
        instruction.comparison_type,
    )


def _select(_instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return elementwise.select(_array(operands[0]), _array(operands[1]), _array(operands[2]))


def _clamp(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    low, x, high = (_array(o) for o in operands)
    return elementwise.clamp(low, x, high, _element_type(instruction.shape))


def _convert(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return elementwise.convert(
        _array(operands[0]),
        _element_type(instruction.operands[0].shape),
        _element_type(instruction.shape),
    )


def _bitcast_convert(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return elementwise.bitcast_convert(_array(operands[0]), _element_type(instruction.shape))


def _broadcast(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    x = _array(operands[0])
    dims = instruction.dimensions
    assert dims is not None
    shape = instruction.array_shape
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    ordered = np.transpose(x, order)
    expanded = [1] * shape.rank
    for operand_dim in order:
        expanded[dims[operand_dim]] = x.shape[operand_dim]
    return np.broadcast_to(ordered.reshape(expanded), shape.dimensions)


def _reshape(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return np.reshape(_array(operands[0]), instruction.array_shape.dimensions)


def _reduce_precision(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.precision_bits is not None, "reduce-precision carries its format"
    exponent_bits, mantissa_bits = instruction.precision_bits
    ptype = _element_type(instruction.shape)
    return elementwise.reduce_precision(_array(operands[0]), ptype, exponent_bits, mantissa_bits)


def _bitcast(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    x = _array(operands[0])
    source = instruction.operands[0].array_shape
    target = instruction.array_shape
    dtype = target.element_type.dtype
    if source.rank == 0 and target.rank == 0:
        # Scalars; reducers and comparators also run on whole arrays of them.
        return x.view(dtype) if x.dtype != dtype else x
    return bitcast_array(x, source, target)


def bitcast_array(x: np.ndarray, source: ArrayShape, target: ArrayShape) -> np.ndarray:
    """The operand's bytes in memory (its layout's order) read with the target's type,
    dimensions and layout: the element width may change, the byte size does not."""
    source_major_to_minor = list(reversed(source.minor_to_major))
    target_major_to_minor = list(reversed(target.minor_to_major))
    in_memory = np.ascontiguousarray(np.transpose(x, source_major_to_minor)).reshape(-1)
    dtype = target.element_type.dtype
    if in_memory.dtype != dtype:
        in_memory = in_memory.view(dtype)
    physical = in_memory.reshape([target.dimensions[d] for d in target_major_to_minor])
    return np.transpose(physical, np.argsort(target_major_to_minor))


def _transpose(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.dimensions is not None
    return np.transpose(_array(operands[0]), instruction.dimensions)


def _slice(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.slice_ranges is not None
    index = tuple(slice(r.start, r.limit, r.stride) for r in instruction.slice_ranges)
    return _array(operands[0])[index]


def _clamped_starts(
    operands: Sequence[Value], dims: Sequence[int], sizes: Sequence[int]
) -> list[int]:
    """XLA clamps dynamic start indices so that the whole window is in bounds."""
    starts = [int(_array(v)) for v in operands]
    return [
        min(max(start, 0), dim - size) for start, dim, size in zip(starts, dims, sizes, strict=True)
    ]


def _dynamic_slice(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    x = _array(operands[0])
    sizes = instruction.dynamic_slice_sizes
    assert sizes is not None
    starts = _clamped_starts(operands[1:], x.shape, sizes)
    return x[tuple(slice(s, s + n) for s, n in zip(starts, sizes, strict=True))]


def _dynamic_update_slice(_instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    x = _array(operands[0])
    update = _array(operands[1])
    starts = _clamped_starts(operands[2:], x.shape, update.shape)
    result = x.copy()
    result[tuple(slice(s, s + n) for s, n in zip(starts, update.shape, strict=True))] = update
    return result


def _pad(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    x = _array(operands[0])
    value = _array(operands[1])
    padding = instruction.padding
    assert padding is not None
    # Pad with the non-negative parts first, then crop the negative ones.
    grown: list[int] = []
    placement: list[slice] = []
    for size, pad in zip(x.shape, padding, strict=True):
        dilated = size + max(size - 1, 0) * pad.interior
        low, high = max(pad.low, 0), max(pad.high, 0)
        grown.append(low + dilated + high)
        placement.append(slice(low, low + dilated, pad.interior + 1))
    result = np.full(grown, value, dtype=x.dtype)
    result[tuple(placement)] = x
    crop = tuple(
        slice(max(-pad.low, 0), total - max(-pad.high, 0))
        for total, pad in zip(grown, padding, strict=True)
    )
    return result[crop]


def _reverse(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.dimensions is not None
    return np.flip(_array(operands[0]), axis=instruction.dimensions)


def _concatenate(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    assert instruction.dimensions is not None
    return np.concatenate([_array(o) for o in operands], axis=instruction.dimensions[0])


def _tuple(_instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return tuple(operands)


def _get_tuple_element(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    value = operands[0]
    assert isinstance(value, tuple) and instruction.tuple_index is not None
    return value[instruction.tuple_index]


def _call(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return evaluate_computation(instruction.called_computations[0], operands)


# Reducers that are one commutative op of the two parameters, with a numpy ufunc.
_UFUNC_REDUCERS: dict[str, np.ufunc] = {
    "add": np.add,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
# `and`, `or` and `xor` are bitwise on integers and logical on pred (numpy's bitwise
# ufuncs are logical on bool arrays, so one table serves both).


# Element types whose simple reductions the evaluator folds one element after another, in
# row-major order over the reduced dims, rounding after each step as XLA does (others go
# to numpy, which adds pairwise in an order of its own).
IN_ORDER_REDUCTION_TYPES = frozenset({PrimitiveType.BF16, PrimitiveType.F16})


def simple_reducer(reducer: HloComputation) -> str | None:
    """The opcode if the reducer is `op(p0, p1)` of a commutative op, else None."""
    root = reducer.root
    params = reducer.parameters
    if (
        len(params) == 2
        and root.opcode in _UFUNC_REDUCERS
        and set(root.operands) == set(params)
        and len(root.operands) == 2
    ):
        return root.opcode
    return None


def _reduce(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    half = len(operands) // 2
    inputs = [_array(o) for o in operands[:half]]
    inits = [_array(o) for o in operands[half:]]
    dims = instruction.dimensions
    assert dims is not None
    reducer = instruction.called_computations[0]
    ptype = _element_type(instruction.operands[0].shape)
    simple = simple_reducer(reducer) if half == 1 else None
    if simple is None:
        return _reduce_sequentially(_reducer_step(reducer), inputs, inits, tuple(dims))
    if ptype in IN_ORDER_REDUCTION_TYPES:
        # Rounded after every step, like XLA; the op is applied directly (no sub-evaluation).
        def step(accumulators: list[np.ndarray], values: list[np.ndarray]) -> list[np.ndarray]:
            return [elementwise.binary(simple, accumulators[0], values[0], ptype)]

        return _reduce_sequentially(step, inputs, inits, tuple(dims))
    ufunc = _UFUNC_REDUCERS[simple]
    with np.errstate(all="ignore"):
        reduced = ufunc.reduce(inputs[0], axis=tuple(dims)) if dims else inputs[0]
        if ptype.is_float and simple in ("maximum", "minimum"):
            reduced = _signed_zero_extreme(simple, inputs[0], tuple(dims), reduced)
            return np.asarray(elementwise.binary(simple, inits[0], reduced, ptype))
        return np.asarray(ufunc(inits[0], reduced)).astype(ptype.dtype)


def _signed_zero_extreme(
    opcode: str, values: np.ndarray, dims: tuple[int, ...], reduced: np.ndarray
) -> np.ndarray:
    """A max (min) reduction's zeros signed as XLA's maximum (minimum) signs them: +0 (-0)
    when the reduced elements hold one (numpy's reduce keeps the first zero it meets)."""
    if not dims:
        return reduced
    wanted_sign = opcode == "minimum"
    present = ((values == 0) & (np.signbit(values) == wanted_sign)).any(axis=dims)
    zero = np.copysign(0.0, -1.0 if wanted_sign else 1.0)
    return np.where((reduced == 0) & present, zero, reduced).astype(values.dtype)


ReducerStep = Callable[[list[np.ndarray], list[np.ndarray]], list[np.ndarray]]


def _reducer_step(reducer: HloComputation) -> ReducerStep:
    """One application of the reducer computation to whole arrays of accumulators and values."""

    def step(accumulators: list[np.ndarray], values: list[np.ndarray]) -> list[np.ndarray]:
        result = evaluate_computation(reducer, [*accumulators, *values])
        return [np.asarray(v) for v in flatten_value(result)]

    return step


def _reduce_sequentially(
    step: ReducerStep,
    inputs: list[np.ndarray],
    inits: list[np.ndarray],
    dims: tuple[int, ...],
) -> Value:
    """Applies `step` once per reduced element, in row-major order, to all kept elements."""
    rank = inputs[0].ndim
    kept = [d for d in range(rank) if d not in dims]
    kept_shape = [inputs[0].shape[d] for d in kept]
    count = int(np.prod([inputs[0].shape[d] for d in dims], dtype=np.int64))
    # Reduced elements first, so that each step reads one contiguous slab.
    flat = [np.transpose(x, list(dims) + kept).reshape([count, *kept_shape]) for x in inputs]
    accumulators: list[np.ndarray] = [np.broadcast_to(init, kept_shape) for init in inits]
    for position in range(count):
        # `x[position, ...]` stays an array when nothing is kept (`x[position]` is a scalar).
        accumulators = step(accumulators, [x[position, ...] for x in flat])
    results = [
        np.broadcast_to(a, kept_shape).astype(x.dtype)
        for a, x in zip(accumulators, inputs, strict=True)
    ]
    return results[0] if len(results) == 1 else tuple(results)


def _gather(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return gather(instruction, _array(operands[0]), _array(operands[1]))


def _scatter(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return scatter(instruction, [_array(o) for o in operands], evaluate_computation)


def _arrays(operands: Sequence[Value]) -> list[np.ndarray]:
    return [_array(o) for o in operands]


def _dot(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    tf32 = instruction in _TF32_DOTS.get()
    return eval_linalg.dot(instruction, _array(operands[0]), _array(operands[1]), tf32)


def _convolution(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_linalg.convolution(instruction, _array(operands[0]), _array(operands[1]))


def _reduce_window(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_window.reduce_window(instruction, _arrays(operands), evaluate_computation)


def _select_and_scatter(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_window.select_and_scatter(instruction, _arrays(operands), evaluate_computation)


def _sort(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.sort(instruction, _arrays(operands), evaluate_computation)


def _while(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.while_loop(instruction, operands, evaluate_computation)  # type: ignore[return-value]


def _conditional(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.conditional(instruction, operands, evaluate_computation)  # type: ignore[return-value]


def _custom_call(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return custom_call(instruction, _arrays(operands))  # type: ignore[return-value]


def _collective(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.one_device_collective(instruction, operands)  # type: ignore[return-value]


def _map(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.map_elementwise(instruction, _arrays(operands), evaluate_computation)


def _opt_barrier(_instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return operands[0]


def _after_all(_instruction: HloInstruction, _operands: Sequence[Value]) -> Value:
    """A token (no data): a 0-d pred, like a token parameter's value."""
    return np.array(False)


def _rng_bit_generator(instruction: HloInstruction, operands: Sequence[Value]) -> Value:
    return eval_control.rng_bit_generator(instruction, operands)  # type: ignore[return-value]


_HANDLERS: dict[str, Callable[[HloInstruction, Sequence[Value]], Value]] = {
    "constant": _constant,
    "iota": _iota,
    "compare": _compare,
    "select": _select,
    "clamp": _clamp,
    "convert": _convert,
    "bitcast-convert": _bitcast_convert,
    "broadcast": _broadcast,
    "reshape": _reshape,
    "bitcast": _bitcast,
    "transpose": _transpose,
    "slice": _slice,
    "dynamic-slice": _dynamic_slice,
    "dynamic-update-slice": _dynamic_update_slice,
    "pad": _pad,
    "reverse": _reverse,
    "concatenate": _concatenate,
    "reduce": _reduce,
    "tuple": _tuple,
    "get-tuple-element": _get_tuple_element,
    "fusion": _call,
    "call": _call,
    "gather": _gather,
    "scatter": _scatter,
    "dot": _dot,
    "convolution": _convolution,
    "reduce-window": _reduce_window,
    "select-and-scatter": _select_and_scatter,
    "sort": _sort,
    "while": _while,
    "conditional": _conditional,
    "custom-call": _custom_call,
    "fft": _fft,
    "all-reduce": _collective,
    "all-gather": _collective,
    "collective-permute": _collective,
    "rng-bit-generator": _rng_bit_generator,
    "map": _map,
    "reduce-precision": _reduce_precision,
    "opt-barrier": _opt_barrier,
    "after-all": _after_all,
}
