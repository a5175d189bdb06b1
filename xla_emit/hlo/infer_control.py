"""Shape inference for sort, while, conditional, and the library and collective calls."""

from __future__ import annotations

from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, Shape, TupleShape
from xla_emit.hlo.shape_checks import array, plain, require

_PRED = ArrayShape(PrimitiveType.PRED, ())


def infer_sort(instruction: HloInstruction) -> Shape:
    require(len(instruction.operands) >= 1, "sort expects at least one operand")
    shapes = [array(o, "operand") for o in instruction.operands]
    dims = instruction.dimensions
    assert dims is not None
    first = shapes[0]
    require(
        len(dims) == 1 and 0 <= dims[0] < max(first.rank, 1),
        f"sort takes one dimension below rank {first.rank}",
    )
    for shape in shapes:
        require(shape.dimensions == first.dimensions, "sort operands must have the same dimensions")
    require(len(instruction.called_computations) == 1, "sort needs one comparator")
    comparator = instruction.called_computations[0]
    expected = [ArrayShape(s.element_type, ()) for s in shapes for _ in range(2)]
    params = comparator.parameters
    require(
        len(params) == len(expected)
        and all(e.same_dims_and_type(p.shape) for e, p in zip(expected, params, strict=True)),
        f"the comparator '{comparator.name}' must take two scalars per operand "
        f"({len(expected)} parameters)",
    )
    _returns(comparator, _PRED)
    plain_shapes = [s.with_type(s.element_type) for s in shapes]
    return plain_shapes[0] if len(shapes) == 1 else TupleShape(tuple(plain_shapes))


def _returns(computation: HloComputation, shape: Shape) -> None:
    require(
        shape.same_dims_and_type(computation.root.shape),
        f"'{computation.name}' returns {plain(computation.root.shape)}, expected {plain(shape)}",
    )


def _takes(computation: HloComputation, shapes: list[Shape]) -> None:
    params = computation.parameters
    require(
        len(params) == len(shapes)
        and all(s.same_dims_and_type(p.shape) for s, p in zip(shapes, params, strict=True)),
        f"'{computation.name}' must take ({', '.join(plain(s) for s in shapes)})",
    )


def infer_while(instruction: HloInstruction) -> Shape:
    require(len(instruction.operands) == 1, "while expects one operand (the loop state)")
    require(len(instruction.called_computations) == 2, "while needs a condition and a body")
    condition, body = instruction.called_computations
    state = instruction.operands[0].shape
    _takes(condition, [state])
    _returns(condition, _PRED)
    _takes(body, [state])
    _returns(body, state)
    return state


def infer_conditional(instruction: HloInstruction) -> Shape:
    require(len(instruction.operands) >= 1, "conditional expects a predicate or branch index")
    selector = array(instruction.operands[0], "branch selector")
    branches = instruction.called_computations
    is_pred = selector.same_dims_and_type(_PRED)
    require(
        is_pred or (selector.rank == 0 and selector.element_type is PrimitiveType.S32),
        f"the branch selector must be pred[] or s32[], got {plain(selector)}",
    )
    require(
        len(branches) >= 1 and (not is_pred or len(branches) == 2),
        "a pred conditional needs true_computation and false_computation; an s32 one needs "
        "branch_computations",
    )
    require(
        len(instruction.operands) == len(branches) + 1,
        f"conditional has {len(branches)} branches but {len(instruction.operands) - 1} "
        "branch operands",
    )
    result = branches[0].root.shape
    for branch, operand in zip(branches, instruction.operands[1:], strict=True):
        _takes(branch, [operand.shape])
        _returns(branch, result)
    return result


def infer_all_gather(instruction: HloInstruction) -> Shape:
    """On one device an all-gather gathers one piece: the operand itself."""
    require(len(instruction.operands) == 1, "all-gather on one device takes one operand")
    return instruction.operands[0].shape


def infer_collective_permute(instruction: HloInstruction) -> Shape:
    """Each device sends its operand to another: the result has the operand's shape."""
    require(len(instruction.operands) == 1, "collective-permute takes one operand")
    return instruction.operands[0].shape


def infer_all_reduce(instruction: HloInstruction) -> Shape:
    """On one device an all-reduce reduces one contribution: each operand itself."""
    shapes = [o.shape for o in instruction.operands]
    require(len(shapes) >= 1, "all-reduce expects at least one operand")
    return shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))


def infer_declared(_instruction: HloInstruction) -> None:
    """Library calls and random bits: only the declaration says the shape."""
    return None


def infer_opt_barrier(instruction: HloInstruction) -> Shape:
    """An optimization barrier passes its (tuple) operand through unchanged."""
    require(len(instruction.operands) == 1, "opt-barrier takes one operand")
    return instruction.operands[0].shape


def infer_after_all(instruction: HloInstruction) -> Shape:
    """`after-all` joins tokens into one token (with no operands, a fresh token)."""
    for operand in instruction.operands:
        shape = operand.shape
        require(
            isinstance(shape, ArrayShape) and shape.element_type is PrimitiveType.TOKEN,
            "after-all takes tokens",
        )
    return ArrayShape(PrimitiveType.TOKEN, ())


def infer_map(instruction: HloInstruction) -> Shape:
    """`map` applies a scalar computation elementwise to operands of one shape."""
    require(len(instruction.operands) >= 1, "map expects at least one operand")
    shapes = [array(o, "operand") for o in instruction.operands]
    first = shapes[0]
    require(
        all(s.dimensions == first.dimensions for s in shapes),
        "map operands must have the same dimensions",
    )
    dims = instruction.dimensions
    assert dims is not None
    require(
        tuple(dims) == tuple(range(first.rank)),
        f"map dimensions must be all of 0..{first.rank - 1}",
    )
    require(len(instruction.called_computations) == 1, "map needs one to_apply computation")
    mapper = instruction.called_computations[0]
    _takes(mapper, [ArrayShape(s.element_type, ()) for s in shapes])
    root = mapper.root.shape
    require(
        isinstance(root, ArrayShape) and root.rank == 0,
        f"'{mapper.name}' must return a scalar, it returns {plain(root)}",
    )
    assert isinstance(root, ArrayShape)
    return ArrayShape(root.element_type, first.dimensions)
