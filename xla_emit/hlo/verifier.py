"""Shape inference and checks for parsed HLO.

`verify_module` infers each instruction's shape from its operands and
attributes and compares it with the declared one; every problem becomes a
`UserError` at the instruction.
"""

from __future__ import annotations

from collections.abc import Callable

from xla_emit.diagnostics import UserError
from xla_emit.hlo.complex_ops import (
    COMPLEX_BINARY_OPS,
    COMPLEX_DIRECTIONS,
    COMPLEX_OF,
    COMPLEX_UNARY_OPS,
)
from xla_emit.hlo.fft import infer_fft
from xla_emit.hlo.infer_compute import (
    infer_convolution,
    infer_dot,
    infer_reduce_window,
    infer_select_and_scatter,
)
from xla_emit.hlo.infer_control import (
    infer_after_all,
    infer_all_gather,
    infer_all_reduce,
    infer_collective_permute,
    infer_conditional,
    infer_declared,
    infer_map,
    infer_opt_barrier,
    infer_sort,
    infer_while,
)
from xla_emit.hlo.infer_indexed import infer_gather, infer_scatter
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.library_calls import check_library_target
from xla_emit.hlo.opcodes import (
    BINARY_FLOAT_OPS,
    BINARY_INT_OPS,
    BINARY_OPS,
    UNARY_FLOAT_OPS,
    UNARY_INT_OPS,
    UNARY_OPS,
)
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, Shape, TupleShape
from xla_emit.hlo.shape_checks import ShapeError as _ShapeError
from xla_emit.hlo.shape_checks import array as _array
from xla_emit.hlo.shape_checks import ints as _ints
from xla_emit.hlo.shape_checks import operand_count as _operand_count
from xla_emit.hlo.shape_checks import plain as _plain
from xla_emit.hlo.shape_checks import require as _require


def verify_module(module: HloModule) -> None:
    for computation in module.computations:
        verify_computation(computation)


def verify_computation(computation: HloComputation) -> None:
    _check_parameter_numbers(computation)
    for instruction in computation.instructions:
        try:
            inferred = infer_shape(instruction)
        except _ShapeError as error:
            raise UserError(
                f"{instruction.opcode} '{instruction.name}': {error}", instruction.location
            ) from None
        if inferred is not None and not inferred.same_dims_and_type(instruction.shape):
            raise UserError(
                f"shape mismatch: {instruction.opcode} '{instruction.name}' is declared as "
                f"{_plain(instruction.shape)} but its operands and attributes give "
                f"{_plain(inferred)}",
                instruction.location,
            )


def _check_parameter_numbers(computation: HloComputation) -> None:
    seen: dict[int, HloInstruction] = {}
    for param in (i for i in computation.instructions if i.opcode == "parameter"):
        number = param.parameter_number
        assert number is not None
        if number in seen:
            raise UserError(f"parameter number {number} is used twice", param.location)
        seen[number] = param
    for expected in range(len(seen)):
        if expected not in seen:
            param = max(seen.values(), key=lambda p: p.parameter_number or 0)
            raise UserError(
                f"parameter numbers must be 0..{len(seen) - 1}; {expected} is missing",
                param.location,
            )


def infer_shape(instruction: HloInstruction) -> Shape | None:
    """The shape implied by operands and attributes; None when only the declaration says it."""
    opcode = instruction.opcode
    if opcode in ("parameter", "constant"):
        return None
    if opcode == "iota":
        return _infer_iota(instruction)
    if opcode in UNARY_OPS:
        return _infer_unary(instruction)
    if opcode in BINARY_OPS:
        return _infer_binary(instruction)
    handler = _INFERENCE[opcode]
    return handler(instruction)


def _infer_iota(instruction: HloInstruction) -> None:
    _operand_count(instruction, 0)
    shape = _array(instruction, "iota")
    dim = instruction.iota_dimension
    assert dim is not None
    _require(0 <= dim < shape.rank, f"iota_dimension {dim} is out of range for rank {shape.rank}")


def _infer_unary(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    ptype = operand.element_type
    if ptype.is_complex:
        _require(
            instruction.opcode in COMPLEX_UNARY_OPS, f"is not defined on complex {ptype.value}"
        )
        return operand.with_type(ptype.component_type if instruction.opcode == "abs" else ptype)
    if instruction.opcode in UNARY_FLOAT_OPS:
        _require(ptype.is_float, f"needs a floating-point operand, got {ptype.value}")
    if instruction.opcode in UNARY_INT_OPS:
        _require(
            ptype.is_integral or (instruction.opcode == "not" and ptype is PrimitiveType.PRED),
            f"needs an integer operand, got {ptype.value}",
        )
    if instruction.opcode in ("abs", "negate", "sign"):
        _require(ptype is not PrimitiveType.PRED, "needs a numeric operand, got pred")
    if instruction.opcode == "is-finite":
        return operand.with_type(PrimitiveType.PRED)
    return operand.with_type(ptype)


def _same_shaped_operands(instruction: HloInstruction) -> ArrayShape:
    """The shape both operands of a binary op or compare share."""
    _operand_count(instruction, 2)
    lhs = _array(instruction.operands[0], "operand")
    rhs = _array(instruction.operands[1], "operand")
    _require(
        lhs.same_dims_and_type(rhs),
        f"operands must have the same shape, got {_plain(lhs)} and {_plain(rhs)}",
    )
    return lhs


def _infer_binary(instruction: HloInstruction) -> Shape:
    lhs = _same_shaped_operands(instruction)
    ptype = lhs.element_type
    if ptype.is_complex:
        _require(
            instruction.opcode in COMPLEX_BINARY_OPS, f"is not defined on complex {ptype.value}"
        )
    elif instruction.opcode in BINARY_FLOAT_OPS:
        _require(ptype.is_float, f"needs floating-point operands, got {ptype.value}")
    elif instruction.opcode in BINARY_INT_OPS:
        allowed = ptype.is_integral or (
            ptype is PrimitiveType.PRED and instruction.opcode in ("and", "or", "xor")
        )
        _require(allowed, f"needs integer operands, got {ptype.value}")
    return lhs.with_type(ptype)


def _infer_compare(instruction: HloInstruction) -> Shape:
    operands = _same_shaped_operands(instruction)
    if operands.element_type.is_complex:
        direction = instruction.comparison_direction
        _require(direction in COMPLEX_DIRECTIONS, f"complex numbers have no order ({direction})")
    return operands.with_type(PrimitiveType.PRED)


def _infer_complex_part(instruction: HloInstruction) -> Shape:
    """`real` and `imag` give the component type; `complex(re, im)` the complex one."""
    if instruction.opcode == "complex":
        parts = _same_shaped_operands(instruction)
        ptype = parts.element_type
        _require(ptype in COMPLEX_OF, f"needs f32 or f64 parts, got {ptype.value}")
        return parts.with_type(COMPLEX_OF[ptype])
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    ptype = operand.element_type
    _require(
        ptype.is_float or ptype.is_complex, f"needs a float or complex operand, got {ptype.value}"
    )
    return operand.with_type(ptype.component_type)


def _infer_select(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 3)
    pred = _array(instruction.operands[0], "predicate")
    on_true = _array(instruction.operands[1], "operand")
    on_false = _array(instruction.operands[2], "operand")
    _require(
        pred.element_type is PrimitiveType.PRED,
        f"the predicate must be pred, got {pred.element_type.value}",
    )
    _require(
        on_true.same_dims_and_type(on_false),
        f"both branches must have the same shape, got {_plain(on_true)} and {_plain(on_false)}",
    )
    _require(
        pred.rank == 0 or pred.dimensions == on_true.dimensions,
        f"the predicate {_plain(pred)} does not match the branches {_plain(on_true)}",
    )
    return on_true.with_type(on_true.element_type)


def _infer_clamp(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 3)
    low, operand, high = (_array(o, "operand") for o in instruction.operands)
    for bound in (low, high):
        _require(
            bound.element_type == operand.element_type
            and (bound.rank == 0 or bound.dimensions == operand.dimensions),
            f"clamp bound {_plain(bound)} does not match the operand {_plain(operand)}",
        )
    return operand.with_type(operand.element_type)


def _infer_convert(instruction: HloInstruction) -> None:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    result = _array(instruction, "convert")
    _require(
        operand.dimensions == result.dimensions,
        f"convert keeps the dimensions, got {_plain(operand)} -> {_plain(result)}",
    )
    _require(
        not operand.element_type.is_complex or result.element_type.is_complex,
        f"a complex value converts only to a complex type (XLA too), not to "
        f"{result.element_type.value}: take its `real` part",
    )


def _infer_bitcast_convert(instruction: HloInstruction) -> None:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    result = _array(instruction, "bitcast-convert")
    in_bits = operand.element_type.bit_width
    out_bits = result.element_type.bit_width
    _require(
        PrimitiveType.PRED not in (operand.element_type, result.element_type),
        "bitcast-convert does not apply to pred",
    )
    if in_bits == out_bits:
        expected = operand.dimensions
    elif in_bits > out_bits:
        expected = (*operand.dimensions, in_bits // out_bits)
    else:
        _require(
            operand.rank > 0 and operand.dimensions[-1] == out_bits // in_bits,
            f"the minor dimension of {_plain(operand)} must be {out_bits // in_bits}",
        )
        expected = operand.dimensions[:-1]
    _require(
        result.dimensions == expected,
        f"bitcast-convert of {_plain(operand)} to {result.element_type.value} gives dimensions "
        f"{list(expected)}",
    )


def _infer_broadcast(instruction: HloInstruction) -> None:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    result = _array(instruction, "broadcast")
    dims = instruction.dimensions
    assert dims is not None
    _require(
        len(dims) == operand.rank,
        f"dimensions={{{_ints(dims)}}} must have one entry per operand dimension ({operand.rank})",
    )
    _require(len(set(dims)) == len(dims), "broadcast dimensions must be distinct")
    for operand_dim, result_dim in enumerate(dims):
        _require(0 <= result_dim < result.rank, f"broadcast dimension {result_dim} is out of range")
        _require(
            result.dimensions[result_dim] == operand.dimensions[operand_dim],
            f"operand dimension {operand_dim} ({operand.dimensions[operand_dim]}) does not match "
            f"result dimension {result_dim} ({result.dimensions[result_dim]})",
        )
    _require(result.element_type == operand.element_type, "broadcast keeps the element type")


def _infer_reshape(instruction: HloInstruction) -> None:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    result = _array(instruction, instruction.opcode)
    if instruction.opcode == "bitcast":
        _check_bitcast(operand, result)
        return
    _require(result.element_type == operand.element_type, "reshape keeps the element type")
    _require(
        operand.num_elements == result.num_elements,
        f"{_plain(operand)} and {_plain(result)} have different element counts",
    )


def _check_bitcast(operand: ArrayShape, result: ArrayShape) -> None:
    """A bitcast reads the operand's bytes as the result: equal byte sizes, as XLA requires
    (f32[4] -> s32[4], u32[2] -> s8[2,4]); pred has no bit pattern of its own."""
    in_type, out_type = operand.element_type, result.element_type
    if in_type != out_type:
        _require(
            PrimitiveType.PRED not in (in_type, out_type),
            "bitcast does not change the element type to or from pred",
        )
    in_bits = operand.num_elements * in_type.bit_width
    out_bits = result.num_elements * out_type.bit_width
    _require(
        in_bits == out_bits,
        f"bitcast keeps the byte size, but {_plain(operand)} has {in_bits} bits and "
        f"{_plain(result)} has {out_bits}",
    )


def _infer_transpose(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    perm = instruction.dimensions
    assert perm is not None
    _require(
        sorted(perm) == list(range(operand.rank)),
        f"dimensions={{{_ints(perm)}}} is not a permutation of {operand.rank} dimensions",
    )
    return ArrayShape(operand.element_type, tuple(operand.dimensions[p] for p in perm))


def _infer_copy_like(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    if instruction.opcode == "reverse":
        dims = instruction.dimensions
        assert dims is not None
        for dim in dims:
            _require(0 <= dim < operand.rank, f"reverse dimension {dim} is out of range")
    return operand.with_type(operand.element_type)


def _infer_slice(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    ranges = instruction.slice_ranges
    assert ranges is not None
    _require(len(ranges) == operand.rank, f"slice has {len(ranges)} ranges for rank {operand.rank}")
    dims: list[int] = []
    for dim, (size, r) in enumerate(zip(operand.dimensions, ranges, strict=True)):
        _require(
            0 <= r.start <= r.limit <= size and r.stride >= 1,
            f"slice range [{r.start}:{r.limit}:{r.stride}] is invalid for dimension {dim} of "
            f"size {size}",
        )
        dims.append(-(-(r.limit - r.start) // r.stride))
    return ArrayShape(operand.element_type, tuple(dims))


def _check_scalar_indices(instruction: HloInstruction, first: int, rank: int) -> None:
    _operand_count(instruction, first + rank)
    for index in instruction.operands[first:]:
        shape = _array(index, "start index")
        _require(
            shape.rank == 0 and shape.element_type.is_integral,
            f"start indices must be integer scalars, got {_plain(shape)}",
        )


def _infer_dynamic_slice(instruction: HloInstruction) -> Shape:
    operand = _array(instruction.operands[0], "operand") if instruction.operands else None
    _require(operand is not None, "expects an operand and start indices")
    assert operand is not None
    _check_scalar_indices(instruction, 1, operand.rank)
    sizes = instruction.dynamic_slice_sizes
    assert sizes is not None
    _require(
        len(sizes) == operand.rank,
        f"dynamic_slice_sizes has {len(sizes)} entries for rank {operand.rank}",
    )
    for size, dim in zip(sizes, operand.dimensions, strict=True):
        _require(0 <= size <= dim, f"slice size {size} exceeds dimension size {dim}")
    return ArrayShape(operand.element_type, sizes)


def _infer_dynamic_update_slice(instruction: HloInstruction) -> Shape:
    _require(len(instruction.operands) >= 2, "expects an operand, an update and start indices")
    operand = _array(instruction.operands[0], "operand")
    update = _array(instruction.operands[1], "update")
    _check_scalar_indices(instruction, 2, operand.rank)
    _require(
        update.element_type == operand.element_type and update.rank == operand.rank,
        f"update {_plain(update)} does not match operand {_plain(operand)}",
    )
    for size, dim in zip(update.dimensions, operand.dimensions, strict=True):
        _require(size <= dim, f"update size {size} exceeds dimension size {dim}")
    return operand.with_type(operand.element_type)


def _infer_pad(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 2)
    operand = _array(instruction.operands[0], "operand")
    value = _array(instruction.operands[1], "padding value")
    _require(
        value.rank == 0 and value.element_type == operand.element_type,
        f"the padding value must be a {operand.element_type.value} scalar",
    )
    padding = instruction.padding
    assert padding is not None
    _require(
        len(padding) == operand.rank,
        f"padding has {len(padding)} dimensions for rank {operand.rank}",
    )
    dims: list[int] = []
    for size, pad in zip(operand.dimensions, padding, strict=True):
        _require(pad.interior >= 0, "interior padding must not be negative")
        dim = pad.low + pad.high + size + max(size - 1, 0) * pad.interior
        _require(dim >= 0, "padding gives a negative dimension")
        dims.append(dim)
    return ArrayShape(operand.element_type, tuple(dims))


def _infer_concatenate(instruction: HloInstruction) -> Shape:
    _require(len(instruction.operands) >= 1, "expects at least one operand")
    shapes = [_array(o, "operand") for o in instruction.operands]
    dims = instruction.dimensions
    assert dims is not None
    _require(len(dims) == 1, "concatenate takes one dimension")
    dim = dims[0]
    first = shapes[0]
    _require(0 <= dim < first.rank, f"concatenate dimension {dim} is out of range")
    total = 0
    for shape in shapes:
        same_other_dims = shape.rank == first.rank and all(
            a == b
            for i, (a, b) in enumerate(zip(shape.dimensions, first.dimensions, strict=True))
            if i != dim
        )
        _require(
            shape.element_type == first.element_type and same_other_dims,
            f"operand {_plain(shape)} does not match {_plain(first)} outside dimension {dim}",
        )
        total += shape.dimensions[dim]
    out = list(first.dimensions)
    out[dim] = total
    return ArrayShape(first.element_type, tuple(out))


def _infer_reduce(instruction: HloInstruction) -> Shape:
    count = len(instruction.operands)
    _require(count >= 2 and count % 2 == 0, "reduce expects N inputs and N init values")
    half = count // 2
    inputs = [_array(o, "input") for o in instruction.operands[:half]]
    inits = [_array(o, "init value") for o in instruction.operands[half:]]
    dims = instruction.dimensions
    assert dims is not None
    first = inputs[0]
    for shape in inputs:
        _require(
            shape.dimensions == first.dimensions, "reduce inputs must have the same dimensions"
        )
    for dim in dims:
        _require(0 <= dim < first.rank, f"reduce dimension {dim} is out of range")
    _require(len(set(dims)) == len(dims), "reduce dimensions must be distinct")
    for shape, init in zip(inputs, inits, strict=True):
        _require(
            init.rank == 0 and init.element_type == shape.element_type,
            f"init value {_plain(init)} must be a {shape.element_type.value} scalar",
        )
    _check_reducer(instruction, inits)
    kept = tuple(d for i, d in enumerate(first.dimensions) if i not in dims)
    results: list[Shape] = [ArrayShape(s.element_type, kept) for s in inputs]
    return results[0] if half == 1 else TupleShape(tuple(results))


def _check_reducer(instruction: HloInstruction, inits: list[ArrayShape]) -> None:
    _require(len(instruction.called_computations) == 1, "reduce needs one to_apply computation")
    reducer = instruction.called_computations[0]
    params = reducer.parameters
    _require(
        len(params) == 2 * len(inits),
        f"the reducer '{reducer.name}' must take {2 * len(inits)} parameters, it takes "
        f"{len(params)}",
    )
    expected = inits + inits
    for param, init in zip(params, expected, strict=True):
        _require(
            init.same_dims_and_type(param.shape),
            f"reducer parameter '{param.name}' is {_plain(param.shape)}, expected {_plain(init)}",
        )
    result = inits[0] if len(inits) == 1 else TupleShape(tuple(inits))
    _require(
        result.same_dims_and_type(reducer.root.shape),
        f"the reducer '{reducer.name}' returns {_plain(reducer.root.shape)}, expected "
        f"{_plain(result)}",
    )


def _infer_tuple(instruction: HloInstruction) -> Shape:
    return TupleShape(tuple(o.shape for o in instruction.operands))


def _infer_get_tuple_element(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = instruction.operands[0].shape
    _require(isinstance(operand, TupleShape), "the operand must be a tuple")
    assert isinstance(operand, TupleShape)
    index = instruction.tuple_index
    assert index is not None
    _require(
        0 <= index < len(operand.elements),
        f"index {index} is out of range for a {len(operand.elements)}-tuple",
    )
    return operand.elements[index]


def _infer_call(instruction: HloInstruction) -> Shape:
    _require(
        len(instruction.called_computations) == 1, f"{instruction.opcode} calls one computation"
    )
    callee = instruction.called_computations[0]
    params = callee.parameters
    _require(
        len(params) == len(instruction.operands),
        f"'{callee.name}' takes {len(params)} parameters but gets {len(instruction.operands)} "
        "operands",
    )
    for param, operand in zip(params, instruction.operands, strict=True):
        _require(
            param.shape.same_dims_and_type(operand.shape),
            f"operand '{operand.name}' is {_plain(operand.shape)} but parameter '{param.name}' "
            f"of '{callee.name}' is {_plain(param.shape)}",
        )
    return callee.root.shape


def _infer_reduce_precision(instruction: HloInstruction) -> Shape:
    _operand_count(instruction, 1)
    operand = _array(instruction.operands[0], "operand")
    _require(
        operand.element_type.is_float,
        f"needs a floating-point operand, got {operand.element_type.value}",
    )
    return instruction.operands[0].shape


def _infer_custom_call(instruction: HloInstruction) -> None:
    check_library_target(instruction)


_INFERENCE: dict[str, Callable[[HloInstruction], Shape | None]] = {
    "compare": _infer_compare,
    "select": _infer_select,
    "clamp": _infer_clamp,
    "convert": _infer_convert,
    "reduce-precision": _infer_reduce_precision,
    "bitcast-convert": _infer_bitcast_convert,
    "broadcast": _infer_broadcast,
    "reshape": _infer_reshape,
    "bitcast": _infer_reshape,
    "transpose": _infer_transpose,
    "reverse": _infer_copy_like,
    "slice": _infer_slice,
    "dynamic-slice": _infer_dynamic_slice,
    "dynamic-update-slice": _infer_dynamic_update_slice,
    "pad": _infer_pad,
    "concatenate": _infer_concatenate,
    "reduce": _infer_reduce,
    "tuple": _infer_tuple,
    "get-tuple-element": _infer_get_tuple_element,
    "fusion": _infer_call,
    "call": _infer_call,
    "gather": infer_gather,
    "scatter": infer_scatter,
    "dot": infer_dot,
    "convolution": infer_convolution,
    "reduce-window": infer_reduce_window,
    "select-and-scatter": infer_select_and_scatter,
    "sort": infer_sort,
    "while": infer_while,
    "conditional": infer_conditional,
    "custom-call": _infer_custom_call,
    "real": _infer_complex_part,
    "imag": _infer_complex_part,
    "complex": _infer_complex_part,
    "fft": infer_fft,
    "rng-bit-generator": infer_declared,
    "all-reduce": infer_all_reduce,
    "all-gather": infer_all_gather,
    "collective-permute": infer_collective_permute,
    "map": infer_map,
    "opt-barrier": infer_opt_barrier,
    "after-all": infer_after_all,
}
