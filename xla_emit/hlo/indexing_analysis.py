"""Output-to-input indexing of HLO instructions (XLA's `ComputeOutputToInputIndexing`).

For an instruction and one of its operands, the indexing map sends an index of
the instruction's output (the map's dims, bounded by the output shape) to the
index of the operand element it reads. Range variables stand for elements read
together (the reduced dimensions of `reduce`), runtime variables for values
known only at run time (the start indices of `dynamic-slice`). A dim bound
narrower than the output, or a constraint, means only those output elements
read the operand (`pad`, `concatenate`). `None` means the indexing is not
expressible (unknown to the analysis).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from math import prod

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import ArrayShape, Shape, TupleShape
from xla_emit.indexing import (
    AffineExpr,
    ConstantExpr,
    DimExpr,
    IndexingMap,
    Interval,
    SymbolExpr,
    Variable,
    compose_indexing_maps,
    identity_map,
)

OperandMaps = list[IndexingMap | None]


def output_dims(shape: ArrayShape) -> tuple[Variable, ...]:
    return tuple(Variable(Interval(0, size - 1)) for size in shape.dimensions)


def _map(
    shape: ArrayShape,
    results: Sequence[AffineExpr],
    range_vars: Sequence[Variable] = (),
    rt_vars: Sequence[Variable] = (),
) -> IndexingMap:
    return IndexingMap(output_dims(shape), tuple(range_vars), tuple(rt_vars), tuple(results))


def scalar_operand_map(shape: ArrayShape) -> IndexingMap:
    """`(d0, ..., dn) -> ()`: every output element reads the one scalar."""
    return _map(shape, ())


def _output_shape(instruction: HloInstruction, output_id: int) -> ArrayShape:
    shape: Shape = instruction.shape
    if isinstance(shape, TupleShape):
        shape = shape.elements[output_id]
    assert isinstance(shape, ArrayShape), "nested tuples are not supported"
    return shape


def compute_output_to_input_indexing(
    instruction: HloInstruction, output_id: int = 0
) -> OperandMaps:
    """One map per operand, from output `output_id` of `instruction` to that operand.

    Maps are simplified. Tuple-producing instructions (variadic `reduce`,
    `tuple`) take the tuple element in `output_id`.
    """
    opcode = instruction.opcode
    if opcode == "tuple":
        operand = instruction.operands[output_id].shape
        maps: OperandMaps = [None] * len(instruction.operands)
        if isinstance(operand, ArrayShape):
            maps[output_id] = identity_map(operand.dimensions)
        return maps
    out = _output_shape(instruction, output_id)
    if opcode in ELEMENTWISE_OPS:
        return [_elementwise_operand(out, o.shape) for o in instruction.operands]
    if opcode in ("fusion", "call"):
        return _called_computation_indexing(instruction, output_id)
    handler = _HANDLERS.get(opcode)
    if handler is None:
        # The front end reads more ops than the emitters index (gather, reduce-window, ...).
        raise UserError(
            f"Unsupported: {opcode} '{instruction.name}' (no emitter computes its indexing)",
            instruction.location,
        )
    maps = handler(instruction, out)
    return [m.simplify() if m is not None else None for m in maps]


def _elementwise_operand(out: ArrayShape, operand: Shape) -> IndexingMap | None:
    if not isinstance(operand, ArrayShape):
        return None
    if operand.rank == 0 and out.rank > 0:
        return scalar_operand_map(out)
    return identity_map(out.dimensions)


def _no_operands(_instruction: HloInstruction, _out: ArrayShape) -> OperandMaps:
    return []


def _get_tuple_element(_instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    return [identity_map(out.dimensions)]


def _bitcast_convert(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    operand = instruction.operands[0].array_shape
    dims = [DimExpr(i) for i in range(out.rank)]
    if operand.rank == out.rank:
        return [identity_map(out.dimensions)]
    if operand.rank < out.rank:
        # A narrower result adds a minor dimension: its elements are parts of one input.
        return [_map(out, dims[:-1])]
    ratio = operand.dimensions[-1]
    return [_map(out, [*dims, SymbolExpr(0)], [Variable(Interval(0, ratio - 1))])]


def _broadcast(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.dimensions is not None
    return [_map(out, [DimExpr(d) for d in instruction.dimensions])]


def _transpose(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    perm = instruction.dimensions
    assert perm is not None
    # Output dim i is operand dim perm[i]; operand dim j is read from output dim perm^-1[j].
    inverse = [perm.index(j) for j in range(len(perm))]
    return [_map(out, [DimExpr(i) for i in inverse])]


def reshape_map(source: Sequence[int], target: Sequence[int]) -> IndexingMap:
    """Index in `source` (the output) to index in `target` (the operand) of a row-major reshape.

    Both shapes are cut into the shortest runs of dimensions with equal element
    counts; in each run the output index is linearized and delinearized into
    the operand's dimensions, so independent runs stay independent.
    """
    results: list[AffineExpr] = [ConstantExpr(0)] * len(target)
    source_dims = [i for i, size in enumerate(source) if size != 1]
    target_dims = [i for i, size in enumerate(target) if size != 1]
    s = t = 0
    while s < len(source_dims) and t < len(target_dims):
        run_source, run_target = [source_dims[s]], [target_dims[t]]
        s, t = s + 1, t + 1
        source_count, target_count = source[run_source[0]], target[run_target[0]]
        while source_count != target_count:
            if source_count < target_count:
                run_source.append(source_dims[s])
                source_count *= source[source_dims[s]]
                s += 1
            else:
                run_target.append(target_dims[t])
                target_count *= target[target_dims[t]]
                t += 1
        linear: AffineExpr = ConstantExpr(0)
        for k, dim in enumerate(run_source):
            linear = linear + DimExpr(dim) * prod(source[d] for d in run_source[k + 1 :])
        for k, dim in enumerate(run_target):
            index = linear.floordiv(prod(target[d] for d in run_target[k + 1 :]))
            results[dim] = index if k == 0 else index.mod(target[dim])
    dims = tuple(Variable(Interval(0, size - 1)) for size in source)
    return IndexingMap(dims, (), (), tuple(results))


def _reshape(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    operand = instruction.operands[0].array_shape
    return [reshape_map(out.dimensions, operand.dimensions)]


def _permutation_map(dims: Sequence[int], sources: Sequence[int]) -> IndexingMap:
    """A map over `dims` whose result k is dim `sources[k]`."""
    variables = tuple(Variable(Interval(0, size - 1)) for size in dims)
    return IndexingMap(variables, (), (), tuple(DimExpr(s) for s in sources))


def _bitcast(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    """Logical output index -> physical output index -> physical operand index -> logical.

    A bitcast to a narrower type reads one part of an operand element; one to a
    wider type reads `ratio` operand elements (a symbol, as `bitcast-convert`).
    """
    maps = bitcast_part_maps(instruction)
    if len(maps) > 1:
        ratio = len(maps)
        with_symbol = _bitcast_map(instruction, SymbolExpr(0), [Variable(Interval(0, ratio - 1))])
        return [with_symbol.simplify()]
    (only,) = maps
    rank = instruction.operands[0].array_shape.rank
    if len(only.results) > rank:  # drop the part index of a narrowing bitcast
        only = IndexingMap(only.dim_vars, only.range_vars, only.rt_vars, only.results[:rank])
    return [only]


def bitcast_width_ratio(instruction: HloInstruction) -> tuple[int, int]:
    """(operand bits per result element, result bits per operand element), one of them 1."""
    in_bits = instruction.operands[0].array_shape.element_type.bit_width
    out_bits = instruction.array_shape.element_type.bit_width
    return max(in_bits // out_bits, 1), max(out_bits // in_bits, 1)


def bitcast_part_maps(instruction: HloInstruction) -> list[IndexingMap]:
    """Where a bitcast reads its bits, in little-endian order (memory order on the GPU).

    Equal widths: one map to the operand index. A narrower result: one map to the
    operand index plus the part (0 = lowest bits) of that element it reads. A
    wider result: one map per part, each to the operand element holding it.
    """
    split, join = bitcast_width_ratio(instruction)
    if join == 1:
        return [_bitcast_map(instruction, None, [], split)]
    return [_bitcast_map(instruction, ConstantExpr(part), []) for part in range(join)]


def _bitcast_map(
    instruction: HloInstruction,
    part: AffineExpr | None,
    range_vars: Sequence[Variable],
    split: int = 1,
) -> IndexingMap:
    """The bitcast as a reshape of memory: `part` extends the output's minor dimension
    (a wider result), `split` the operand's (a narrower one)."""
    out = instruction.array_shape
    operand = instruction.operands[0].array_shape
    out_major_to_minor = list(reversed(out.minor_to_major))
    in_major_to_minor = list(reversed(operand.minor_to_major))
    physical_out = [out.dimensions[d] for d in out_major_to_minor]
    physical_in = [operand.dimensions[d] for d in in_major_to_minor]
    to_physical_results: list[AffineExpr] = [DimExpr(d) for d in out_major_to_minor]
    if part is not None:
        physical_out.append(bitcast_width_ratio(instruction)[1])
        to_physical_results.append(part)
    if split > 1:
        physical_in.append(split)
    to_physical = IndexingMap(output_dims(out), tuple(range_vars), (), tuple(to_physical_results))
    reshape = reshape_map(physical_out, physical_in)
    to_logical_results = [DimExpr(in_major_to_minor.index(j)) for j in range(operand.rank)]
    if split > 1:
        to_logical_results.append(DimExpr(operand.rank))
    to_logical = IndexingMap(
        tuple(Variable(Interval(0, size - 1)) for size in physical_in),
        (),
        (),
        tuple(to_logical_results),
    )
    return compose_indexing_maps(compose_indexing_maps(to_physical, reshape), to_logical).simplify()


def memory_order_map(source: ArrayShape, target: ArrayShape) -> IndexingMap:
    """Logical index in `source` -> the same place in memory -> logical index in `target`
    (shapes of equal element counts, each read in its layout's order)."""
    source_major_to_minor = list(reversed(source.minor_to_major))
    target_major_to_minor = list(reversed(target.minor_to_major))
    to_physical = _permutation_map(source.dimensions, source_major_to_minor)
    reshape = reshape_map(
        [source.dimensions[d] for d in source_major_to_minor],
        [target.dimensions[d] for d in target_major_to_minor],
    )
    physical_target = [target.dimensions[d] for d in target_major_to_minor]
    to_logical = _permutation_map(
        physical_target, [target_major_to_minor.index(j) for j in range(target.rank)]
    )
    return compose_indexing_maps(compose_indexing_maps(to_physical, reshape), to_logical)


def epilogue_input_to_output_map(path: Sequence[HloInstruction]) -> IndexingMap:
    """From the hero's output index to the root's, along `path` (the hero's user first, the
    root last) of the ops an epilogue may hold: elementwise ops and copies keep the index,
    reshapes and bitcasts move it as memory order says (XLA's epilogue input-to-output
    indexing; keep-dims reshapes after a reduce are the common case)."""
    assert path, "an epilogue path holds at least the root"
    indexing: IndexingMap | None = None
    for instruction in path:
        out = instruction.array_shape
        if instruction.opcode == "reshape":
            source = instruction.operands[0].array_shape
            step = reshape_map(source.dimensions, out.dimensions)
        elif instruction.opcode == "bitcast":
            source = instruction.operands[0].array_shape
            if source.num_elements != out.num_elements:
                raise UserError(
                    f"Unsupported: bitcast '{instruction.name}' changes the element count "
                    "in an epilogue",
                    instruction.location,
                )
            step = memory_order_map(source, out)
        else:
            step = identity_map(out.dimensions)
        indexing = step if indexing is None else compose_indexing_maps(indexing, step)
    assert indexing is not None
    return indexing.simplify()


def _slice(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.slice_ranges is not None
    return [
        _map(out, [DimExpr(i) * r.stride + r.start for i, r in enumerate(instruction.slice_ranges)])
    ]


def _reverse(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.dimensions is not None
    results: list[AffineExpr] = []
    for i, size in enumerate(out.dimensions):
        results.append(-DimExpr(i) + (size - 1) if i in instruction.dimensions else DimExpr(i))
    return [_map(out, results)]


def _pad(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.padding is not None
    operand = instruction.operands[0].array_shape
    dims: list[Variable] = []
    results: list[AffineExpr] = []
    constraints: list[tuple[AffineExpr, Interval]] = []
    for i, (size, pad) in enumerate(zip(operand.dimensions, instruction.padding, strict=True)):
        dilated = size + max(size - 1, 0) * pad.interior
        last = min(out.dimensions[i] - 1, pad.low + dilated - 1)
        dims.append(Variable(Interval(max(0, pad.low), last)))
        shifted = DimExpr(i) - pad.low
        if pad.interior == 0:
            results.append(shifted)
        else:
            results.append(shifted.floordiv(pad.interior + 1))
            constraints.append((shifted.mod(pad.interior + 1), Interval(0, 0)))
    operand_map = IndexingMap(tuple(dims), (), (), tuple(results))
    for expr, bounds in constraints:
        operand_map = operand_map.with_constraint(expr, bounds)
    return [operand_map, scalar_operand_map(out)]


def _concatenate(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.dimensions is not None
    axis = instruction.dimensions[0]
    maps: OperandMaps = []
    offset = 0
    for operand in instruction.operands:
        size = operand.array_shape.dimensions[axis]
        dims = list(output_dims(out))
        dims[axis] = Variable(Interval(offset, offset + size - 1))
        results = [DimExpr(i) - offset if i == axis else DimExpr(i) for i in range(out.rank)]
        maps.append(IndexingMap(tuple(dims), (), (), tuple(results)))
        offset += size
    return maps


def _dynamic_slice(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    operand = instruction.operands[0].array_shape
    # rt_i is the start index after XLA clamps it into [0, dim - size].
    rt_vars = [
        Variable(Interval(0, dim - size))
        for dim, size in zip(operand.dimensions, out.dimensions, strict=True)
    ]
    results = [DimExpr(i) + SymbolExpr(i) for i in range(out.rank)]
    scalars: OperandMaps = [scalar_operand_map(out) for _ in instruction.operands[1:]]
    return [_map(out, results, rt_vars=rt_vars), *scalars]


def _dynamic_update_slice(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    update = instruction.operands[1].array_shape
    rt_vars = [
        Variable(Interval(0, dim - size))
        for dim, size in zip(out.dimensions, update.dimensions, strict=True)
    ]
    update_map = _map(out, [DimExpr(i) - SymbolExpr(i) for i in range(out.rank)], rt_vars=rt_vars)
    # Only output elements inside the window read the update.
    for i, size in enumerate(update.dimensions):
        update_map = update_map.with_constraint(DimExpr(i) - SymbolExpr(i), Interval(0, size - 1))
    scalars: OperandMaps = [scalar_operand_map(out) for _ in instruction.operands[2:]]
    return [identity_map(out.dimensions), update_map, *scalars]


def _no_maps(instruction: HloInstruction, _out: ArrayShape) -> OperandMaps:
    """Ops whose reads the emitters compute themselves (gather's depend on the indices'
    values, reduce-window's on padding and dilation, dot's loop over contracting dims):
    no map, so the partitioner makes every operand the root of its own subgraph."""
    return [None] * len(instruction.operands)


def _scatter(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    """Scatter: the operands as the output (XLA's partitioner convention); the indices
    and updates are read where the values say."""
    half = len(instruction.operands) // 2
    return [identity_map(out.dimensions)] * half + [None] * (half + 1)


def _reduce(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    assert instruction.dimensions is not None
    half = len(instruction.operands) // 2
    input_shape = instruction.operands[0].array_shape
    reduced = sorted(instruction.dimensions)
    range_vars = [Variable(Interval(0, input_shape.dimensions[d] - 1)) for d in reduced]
    results: list[AffineExpr] = []
    next_kept = 0
    for dim in range(input_shape.rank):
        if dim in reduced:
            results.append(SymbolExpr(reduced.index(dim)))
        else:
            results.append(DimExpr(next_kept))
            next_kept += 1
    input_map = _map(out, results, range_vars=range_vars)
    inputs: OperandMaps = [input_map] * half
    return inputs + [scalar_operand_map(out)] * half


def _map_op(instruction: HloInstruction, out: ArrayShape) -> OperandMaps:
    """`map` applies its computation elementwise (over all dimensions, as XLA requires)."""
    return [identity_map(out.dimensions) for _ in instruction.operands]


_HANDLERS = {
    "map": _map_op,
    "parameter": _no_operands,
    "constant": _no_operands,
    "iota": _no_operands,
    "get-tuple-element": _get_tuple_element,
    "bitcast-convert": _bitcast_convert,
    "broadcast": _broadcast,
    "transpose": _transpose,
    "reshape": _reshape,
    "bitcast": _bitcast,
    "slice": _slice,
    "reverse": _reverse,
    "pad": _pad,
    "concatenate": _concatenate,
    "dynamic-slice": _dynamic_slice,
    "dynamic-update-slice": _dynamic_update_slice,
    "reduce": _reduce,
    "gather": _no_maps,
    "reduce-window": _no_maps,
    "dot": _no_maps,
    "scatter": _scatter,
}


def operand_indexing(
    instruction: HloInstruction, operand_number: int, output_id: int = 0
) -> IndexingMap | None:
    return compute_output_to_input_indexing(instruction, output_id)[operand_number]


def compose_along_path(path: Sequence[HloInstruction]) -> IndexingMap | None:
    """The map from the first instruction's output to the last one's, simplified.

    Each instruction of `path` must be an operand of the one before; when it is
    an operand several times, all those uses must read it through the same map.
    """
    first = path[0]
    current = identity_map(_output_shape(first, 0).dimensions)
    for user, operand in pairwise(path):
        maps = compute_output_to_input_indexing(user)
        uses = {maps[i] for i, o in enumerate(user.operands) if o is operand}
        if not uses:
            raise ValueError(f"'{operand.name}' is not an operand of '{user.name}'")
        if len(uses) != 1 or None in uses:
            return None
        (step,) = uses
        assert step is not None
        current = compose_indexing_maps(current, step).simplify()
    return current


def computation_indexing(
    computation: HloComputation, output_id: int = 0
) -> dict[HloInstruction, set[IndexingMap]]:
    """Every map through which the root's output `output_id` reaches each instruction.

    An instruction reached through an undefined map gets no entry for that path.
    Tuple roots are looked through (output `output_id` is element `output_id`).
    """
    root = computation.root
    start = root.operands[output_id] if root.opcode == "tuple" else root
    reached: dict[HloInstruction, set[IndexingMap]] = {
        start: {identity_map(_output_shape(start, 0).dimensions)}
    }
    order = list(reversed(computation.instructions))
    for instruction in order:
        for own_map in list(reached.get(instruction, ())):
            operand_maps = compute_output_to_input_indexing(instruction)
            for operand, step in zip(instruction.operands, operand_maps, strict=True):
                if step is None:
                    continue
                composed = compose_indexing_maps(own_map, step).simplify()
                reached.setdefault(operand, set()).add(composed)
    return reached


def _called_computation_indexing(instruction: HloInstruction, output_id: int) -> OperandMaps:
    callee = instruction.called_computations[0]
    reached = computation_indexing(callee, output_id)
    maps: OperandMaps = []
    for param in callee.parameters:
        found = reached.get(param, set())
        maps.append(next(iter(found)) if len(found) == 1 else None)
    return maps
