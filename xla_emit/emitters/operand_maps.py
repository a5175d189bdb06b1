"""Output-to-input index expressions of HLO's index-transforming ops.

Elemental emission computes an operand's element index from the output
element's index `(d0, ..., d_{r-1})`. For pure index transformations
(broadcast, reshape, bitcast, transpose, slice, reverse) this is one affine
expression per operand dim; pad and concatenate also restrict the domain
(the output positions that read the operand at all), which the emitter turns
into an `scf.if`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xla_emit.emitters.work_items import delinearize
from xla_emit.hlo.ir import HloInstruction
from xla_emit.indexing.affine import AffineExpr, ConstantExpr, DimExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval


def output_dim_vars(shape: Sequence[int]) -> tuple[Variable, ...]:
    return tuple(Variable(Interval(0, max(size, 1) - 1)) for size in shape)


def linearize(indices: Sequence[AffineExpr], sizes: Sequence[int], minor_to_major: Sequence[int]) -> AffineExpr:
    """The linear position of a multi-index in a shape with the given layout."""
    linear: AffineExpr = ConstantExpr(0)
    stride = 1
    for dim in minor_to_major:
        linear = linear + indices[dim] * stride
        stride *= sizes[dim]
    return linear


def operand_map(instruction: HloInstruction, operand_number: int) -> IndexingMap:
    """The map from `instruction`'s output index to the index of one of its operands.

    Dims are the output dims with the output's bounds; for pad and
    concatenate, the map's domain (dim bounds and constraints) holds exactly
    the output positions that read this operand.
    """
    out = instruction.array_shape
    dims = tuple(DimExpr(i) for i in range(out.rank))
    results, domain = _operand_expressions(instruction, operand_number, dims)
    indexing_map = IndexingMap(output_dim_vars(out.dimensions), (), (), tuple(results))
    for expr, interval in domain:
        indexing_map = indexing_map.with_constraint(expr, interval)
    return indexing_map.simplify()


Domain = list[tuple[AffineExpr, Interval]]


def _operand_expressions(
    instruction: HloInstruction, operand_number: int, dims: tuple[AffineExpr, ...]
) -> tuple[list[AffineExpr], Domain]:
    opcode = instruction.opcode
    operand = instruction.operands[operand_number].array_shape
    if operand.rank == 0:
        return [], []
    if opcode == "broadcast":
        return [dims[d] for d in instruction.dimensions or ()], []
    if opcode == "transpose":
        permutation = instruction.dimensions or ()
        inverse = [0] * len(permutation)
        for out_dim, in_dim in enumerate(permutation):
            inverse[in_dim] = out_dim
        return [dims[inverse[d]] for d in range(operand.rank)], []
    if opcode in ("reshape", "bitcast", "copy"):
        out = instruction.array_shape
        linear = linearize(dims, out.dimensions, out.minor_to_major)
        return list(delinearize(linear, operand.dimensions, operand.minor_to_major)), []
    if opcode == "slice":
        ranges = instruction.slice_ranges or ()
        return [dims[d] * r.stride + r.start for d, r in enumerate(ranges)], []
    if opcode == "reverse":
        reversed_dims = set(instruction.dimensions or ())
        return [
            (operand.dimensions[d] - 1) - dims[d] if d in reversed_dims else dims[d]
            for d in range(operand.rank)
        ], []
    if opcode == "pad":
        return _pad_expressions(instruction, dims)
    if opcode == "concatenate":
        return _concatenate_expressions(instruction, operand_number, dims)
    raise ValueError(f"{opcode} is not an index transformation")


def _pad_expressions(instruction: HloInstruction, dims: tuple[AffineExpr, ...]) -> tuple[list[AffineExpr], Domain]:
    operand = instruction.operands[0].array_shape
    results: list[AffineExpr] = []
    domain: Domain = []
    for d, pad in enumerate(instruction.padding or ()):
        shifted = dims[d] - pad.low
        step = pad.interior + 1
        results.append(shifted.floordiv(step) if step > 1 else shifted)
        domain.append((shifted, Interval(0, (operand.dimensions[d] - 1) * step)))
        if step > 1:
            domain.append((shifted.mod(step), Interval(0, 0)))
    return results, domain


def _concatenate_expressions(
    instruction: HloInstruction, operand_number: int, dims: tuple[AffineExpr, ...]
) -> tuple[list[AffineExpr], Domain]:
    axis = (instruction.dimensions or (0,))[0]
    offset = sum(op.array_shape.dimensions[axis] for op in instruction.operands[:operand_number])
    size = instruction.operands[operand_number].array_shape.dimensions[axis]
    results = [dims[d] - offset if d == axis else dims[d] for d in range(len(dims))]
    return results, [(dims[axis], Interval(offset, offset + size - 1))]
