"""Reference semantics of sort, while, conditional, and the one-device collectives."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo import rng_bits
from xla_emit.hlo.eval_indexed import RunComputation
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import flatten_shape

# Comparisons per chunk of rows: bounds the memory of the all-pairs comparison.
_PAIRS_PER_CHUNK = 1 << 22


def sort(
    instruction: HloInstruction, operands: Sequence[np.ndarray], run: RunComputation
) -> np.ndarray | tuple[np.ndarray, ...]:
    """A stable sort by the comparator, from the rank of every element among its row.

    Element i of a row goes to position #{j : j before i} + #{j < i : neither
    before the other}: for a strict weak order that is exactly where a stable
    sort puts it. The comparator runs once on all pairs of a row, vectorized.
    """
    assert instruction.dimensions is not None
    axis = instruction.dimensions[0]
    rows = [np.moveaxis(x, axis, -1) for x in operands]
    length = rows[0].shape[-1]
    flat = [r.reshape(-1, length) for r in rows]
    chunk = max(1, _PAIRS_PER_CHUNK // max(length * length, 1))
    ranks = np.concatenate(
        [
            _ranks([f[start : start + chunk] for f in flat], instruction, run)
            for start in range(0, flat[0].shape[0], chunk)
        ]
    ) if flat[0].shape[0] else np.zeros((0, length), np.int64)  # fmt: skip
    results: list[np.ndarray] = []
    for f, r in zip(flat, rows, strict=True):
        placed = np.empty_like(f)
        np.put_along_axis(placed, ranks, f, axis=-1)
        results.append(np.moveaxis(placed.reshape(r.shape), -1, axis))
    return results[0] if len(results) == 1 else tuple(results)


def _ranks(rows: list[np.ndarray], instruction: HloInstruction, run: RunComputation) -> np.ndarray:
    comparator = instruction.called_computations[0]
    pairs: list[np.ndarray] = []
    for r in rows:
        pairs.append(r[:, :, None])  # the comparator's lhs: element i
        pairs.append(r[:, None, :])  # its rhs: element j
    shape = (rows[0].shape[0], rows[0].shape[1], rows[0].shape[1])
    pairs = [np.broadcast_to(p, shape) for p in pairs]
    before = np.broadcast_to(np.asarray(run(comparator, pairs)).astype(bool), shape)
    # before[., i, j]: i goes before j.
    length = shape[1]
    earlier = np.tri(length, length, -1, dtype=bool)  # [i, j]: j < i
    tied = ~before & ~np.swapaxes(before, 1, 2)
    return np.swapaxes(before, 1, 2).sum(axis=2) + (tied & earlier[None]).sum(axis=2)


def while_loop(
    instruction: HloInstruction, operands: Sequence[object], run: RunComputation
) -> object:
    condition, body = instruction.called_computations
    state = operands[0]
    while bool(np.asarray(run(condition, [state]))):  # type: ignore[list-item]
        state = run(body, [state])  # type: ignore[list-item]
    return state


def conditional(
    instruction: HloInstruction, operands: Sequence[object], run: RunComputation
) -> object:
    """A pred selects branch 0 when true; an out-of-range index selects the last branch."""
    selector = np.asarray(operands[0])
    branches = instruction.called_computations
    if selector.dtype == np.bool_:
        chosen = 0 if bool(selector) else 1
    else:
        index = int(selector)
        chosen = index if 0 <= index < len(branches) else len(branches) - 1
    return run(branches[chosen], [operands[1 + chosen]])  # type: ignore[list-item]


def one_device_collective(instruction: HloInstruction, operands: Sequence[object]) -> object:
    """all-reduce and all-gather over one device: each operand unchanged. A
    collective-permute keeps its operand if it sends device 0 to itself; a device no
    pair sends to receives zeros."""
    if instruction.opcode == "collective-permute" and not _sends_zero_to_itself(instruction):
        return np.zeros_like(np.asarray(operands[0]))
    return operands[0] if len(operands) == 1 else tuple(operands)


def _sends_zero_to_itself(instruction: HloInstruction) -> bool:
    text = dict(instruction.extra_attributes).get("source_target_pairs", "")
    pairs = re.findall(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}", text)
    return ("0", "0") in pairs


def map_elementwise(
    instruction: HloInstruction, operands: Sequence[np.ndarray], run: RunComputation
) -> np.ndarray:
    """The mapped computation on whole arrays (its ops are elementwise), broadcast back."""
    result = np.asarray(run(instruction.called_computations[0], list(operands)))
    dtype = instruction.array_shape.element_type.dtype
    return np.broadcast_to(result, operands[0].shape).astype(dtype)


def rng_bit_generator(instruction: HloInstruction, operands: Sequence[object]) -> object:
    """XLA's Philox or ThreeFry bits (`rng_bits`) and the advanced state."""
    algorithm = dict(instruction.extra_attributes).get("algorithm", "rng_default")
    state_shape, bits_shape = flatten_shape(instruction.shape)
    width = bits_shape.element_type.bit_width
    if algorithm not in rng_bits.ALGORITHMS or width not in (8, 16, 32, 64):
        raise UserError(
            f"rng-bit-generator '{instruction.name}': unsupported algorithm '{algorithm}' or "
            f"element type '{bits_shape.element_type.value}' (XLA takes rng_three_fry, "
            "rng_philox and rng_default on 8- to 64-bit types)",
            instruction.location,
        )
    state = np.asarray(operands[0])
    new_state, bits = rng_bits.generate_bits(
        algorithm, state.view(np.uint64), bits_shape.dimensions, width
    )
    return (
        new_state.view(state.dtype).reshape(state_shape.dimensions),
        bits.view(bits_shape.element_type.dtype),
    )
