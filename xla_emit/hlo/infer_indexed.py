"""Shape inference for `gather` and `scatter`, following XLA's operation semantics."""

from __future__ import annotations

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape, Shape, TupleShape
from xla_emit.hlo.shape_checks import array, ints, plain, require


def index_batch_dims(indices_rank: int, index_vector_dim: int) -> list[int]:
    """The dimensions of the start indices that enumerate index vectors."""
    return [d for d in range(indices_rank) if d != index_vector_dim]


def index_vector_size(indices: ArrayShape, index_vector_dim: int) -> int:
    """An `index_vector_dim` equal to the rank means a trailing dimension of size 1."""
    return 1 if index_vector_dim == indices.rank else indices.dimensions[index_vector_dim]


def _check_dims_in_range(dims: tuple[int, ...], rank: int, what: str) -> None:
    require(
        all(0 <= d < rank for d in dims) and len(set(dims)) == len(dims),
        f"{what}={{{ints(dims)}}} must be distinct dimensions below {rank}",
    )


def _check_indices(indices: ArrayShape, index_vector_dim: int) -> None:
    require(
        indices.element_type.is_integral,
        f"the start indices must be integers, got {plain(indices)}",
    )
    require(
        0 <= index_vector_dim <= indices.rank,
        f"index_vector_dim={index_vector_dim} is out of range for indices {plain(indices)}",
    )


def infer_gather(instruction: HloInstruction) -> Shape:
    require(len(instruction.operands) == 2, "gather expects an operand and start indices")
    operand = array(instruction.operands[0], "operand")
    indices = array(instruction.operands[1], "start indices")
    dims = instruction.gather_dimensions
    assert dims is not None
    _check_indices(indices, dims.index_vector_dim)
    require(
        len(dims.slice_sizes) == operand.rank,
        f"slice_sizes has {len(dims.slice_sizes)} entries for operand rank {operand.rank}",
    )
    for size, bound in zip(dims.slice_sizes, operand.dimensions, strict=True):
        require(0 <= size <= bound, f"slice size {size} exceeds dimension size {bound}")
    _check_dims_in_range(dims.start_index_map, operand.rank, "start_index_map")
    _check_dims_in_range(dims.collapsed_slice_dims, operand.rank, "collapsed_slice_dims")
    _check_dims_in_range(dims.operand_batching_dims, operand.rank, "operand_batching_dims")
    vector = index_vector_size(indices, dims.index_vector_dim)
    require(
        len(dims.start_index_map) == vector,
        f"start_index_map has {len(dims.start_index_map)} entries but index vectors have {vector}",
    )
    for dim in dims.collapsed_slice_dims + dims.operand_batching_dims:
        require(dims.slice_sizes[dim] <= 1, f"collapsed dimension {dim} must have slice size 1")
    batch = index_batch_dims(indices.rank, dims.index_vector_dim)
    require(
        len(dims.operand_batching_dims) == len(dims.start_indices_batching_dims),
        "operand_batching_dims and start_indices_batching_dims must have the same length",
    )
    removed = set(dims.collapsed_slice_dims) | set(dims.operand_batching_dims)
    window = [size for d, size in enumerate(dims.slice_sizes) if d not in removed]
    rank = len(batch) + len(dims.offset_dims)
    _check_dims_in_range(dims.offset_dims, rank, "offset_dims")
    require(
        len(window) == len(dims.offset_dims),
        f"offset_dims has {len(dims.offset_dims)} entries but {len(window)} slice dimensions "
        "are not collapsed",
    )
    out: list[int] = []
    windows, batches = iter(window), iter(batch)
    for position in range(rank):
        if position in dims.offset_dims:
            out.append(next(windows))
        else:
            out.append(indices.dimensions[next(batches)])
    return ArrayShape(operand.element_type, tuple(out))


def infer_scatter(instruction: HloInstruction) -> Shape:
    count = len(instruction.operands)
    require(count >= 3 and count % 2 == 1, "scatter expects N operands, indices and N updates")
    half = count // 2
    operands = [array(o, "operand") for o in instruction.operands[:half]]
    indices = array(instruction.operands[half], "scatter indices")
    updates = [array(o, "updates") for o in instruction.operands[half + 1 :]]
    dims = instruction.scatter_dimensions
    assert dims is not None
    _check_indices(indices, dims.index_vector_dim)
    first = operands[0]
    for operand, update in zip(operands, updates, strict=True):
        require(
            operand.dimensions == first.dimensions and update.dimensions == updates[0].dimensions,
            "all scatter operands (and all updates) must have the same dimensions",
        )
        require(
            update.element_type == operand.element_type,
            f"updates {plain(update)} do not match operand {plain(operand)}",
        )
    _check_dims_in_range(dims.inserted_window_dims, first.rank, "inserted_window_dims")
    _check_dims_in_range(dims.input_batching_dims, first.rank, "input_batching_dims")
    _check_dims_in_range(
        dims.scatter_dims_to_operand_dims, first.rank, "scatter_dims_to_operand_dims"
    )
    _check_dims_in_range(dims.update_window_dims, updates[0].rank, "update_window_dims")
    vector = index_vector_size(indices, dims.index_vector_dim)
    require(
        len(dims.scatter_dims_to_operand_dims) == vector,
        f"scatter_dims_to_operand_dims has {len(dims.scatter_dims_to_operand_dims)} entries but "
        f"index vectors have {vector}",
    )
    _check_scatter_update_shape(instruction, first, indices, updates[0])
    _check_combiner(instruction, operands)
    return first if half == 1 else TupleShape(tuple(operands))


def _check_scatter_update_shape(
    instruction: HloInstruction, operand: ArrayShape, indices: ArrayShape, update: ArrayShape
) -> None:
    dims = instruction.scatter_dimensions
    assert dims is not None
    removed = set(dims.inserted_window_dims) | set(dims.input_batching_dims)
    window_operand_dims = [d for d in range(operand.rank) if d not in removed]
    require(
        len(window_operand_dims) == len(dims.update_window_dims),
        f"update_window_dims has {len(dims.update_window_dims)} entries but the operand has "
        f"{len(window_operand_dims)} window dimensions",
    )
    for update_dim, operand_dim in zip(dims.update_window_dims, window_operand_dims, strict=True):
        require(
            update.dimensions[update_dim] <= operand.dimensions[operand_dim],
            f"update window dimension {update_dim} ({update.dimensions[update_dim]}) exceeds "
            f"operand dimension {operand_dim} ({operand.dimensions[operand_dim]})",
        )
    scatter_sizes = [
        size for d, size in enumerate(update.dimensions) if d not in dims.update_window_dims
    ]
    batch_sizes = [
        indices.dimensions[d] for d in index_batch_dims(indices.rank, dims.index_vector_dim)
    ]
    require(
        scatter_sizes == batch_sizes,
        f"the update's scatter dimensions {scatter_sizes} must match the indices' {batch_sizes}",
    )


def _check_combiner(instruction: HloInstruction, operands: list[ArrayShape]) -> None:
    require(len(instruction.called_computations) == 1, "scatter needs one to_apply computation")
    combiner = instruction.called_computations[0]
    scalars = [ArrayShape(o.element_type, ()) for o in operands]
    params = combiner.parameters
    require(
        len(params) == 2 * len(scalars)
        and all(s.same_dims_and_type(p.shape) for s, p in zip(scalars * 2, params, strict=True)),
        f"the combiner '{combiner.name}' must take {2 * len(scalars)} scalars of the operands' "
        "types",
    )
    expected: Shape = scalars[0] if len(scalars) == 1 else TupleShape(tuple(scalars))
    require(
        expected.same_dims_and_type(combiner.root.shape),
        f"the combiner '{combiner.name}' returns {plain(combiner.root.shape)}, expected "
        f"{plain(expected)}",
    )
