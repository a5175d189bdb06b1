"""Outputs of a module that a TF32 dot computes: what `--check` may demand of them.

An f32 gemm fusion on the Triton route rounds its dot's inputs to TF32 (`dot_bounds`),
as XLA:GPU does by default on an H100, where the reference evaluator multiplies in f64:

- an output that is such a dot, moved or rounded only (bitcast, reshape, transpose,
  copy, convert), of operands no other TF32 dot computed: held to the exact dot of the
  reference's operands (float64) within `dot_bounds.tf32_dot_bound`, plus one rounding
  to the output type where it is narrower than f32;
- any other output a TF32 dot feeds: within 2^-9 of the output's largest magnitude
  (`TF32_SCALE_TOLERANCE`), a stated tolerance, not a proof: each TF32 product is within
  about 2^-10 of its magnitude (twice TF32's unit roundoff) and the ops after the dot
  (softmax, weighted sums) may pass it on; the corpus's kv-cache decode step is within
  5.4e-4 of its scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xla_emit.emitters.triton.route import tf32_dots
from xla_emit.emitters.triton.tiling import physical_order
from xla_emit.hlo.eval_linalg import exact_dot
from xla_emit.hlo.evaluator import Value, evaluate_values
from xla_emit.hlo.fusion_configs import dot_tile_sizes
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.shape import PrimitiveType
from xla_emit.runtime.dot_bounds import F32_UNIT_ROUNDOFF, tf32_dot_bound, tf32_dot_depth
from xla_emit.runtime.sum_bounds import bound_on_the_output

TF32_SCALE_TOLERANCE = 2.0**-9
# Ops between a dot and the fusion's output that only move or round its values.
_MOVING = frozenset({"convert", "copy", "bitcast", "reshape", "transpose"})


@dataclass(frozen=True)
class Tf32Dot:
    """A TF32 dot of `length` products at most `depth` additions deep, stored as `output`;
    per output element: the exact dot, P = sum |a_k b_k| and the dot's bound."""

    length: int
    depth: int
    output: PrimitiveType
    exact: np.ndarray
    magnitudes: np.ndarray
    dot_bound: np.ndarray

    def bound(self) -> np.ndarray:
        """How far the kernel's output may be from the exact dot, per element."""
        return bound_on_the_output(
            self.dot_bound,
            self.exact,
            self.magnitudes,
            self.length,
            F32_UNIT_ROUNDOFF,
            self.output,
        )

    def describe(self, distance: float, bound: float, reference_distance: float) -> str:
        return (
            f"off the exact dot by {distance:.3g} where TF32 inputs and the kernel's f32 sums "
            f"allow {bound:.3g}: {self.length} products, at most {self.depth} additions deep; "
            f"the reference is off by up to {reference_distance:.3g}"
        )


def fed_by_tf32_dot(instruction: HloInstruction) -> bool:
    """Whether a TF32 dot (an f32 gemm fusion on the Triton route) feeds `instruction`,
    also from inside the computations it calls (a `while` body, a `call`)."""
    seen: set[int] = set()
    pending = [instruction]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.opcode == "fusion":
            if tf32_dots(current):
                return True
        else:
            for computation in current.called_computations:
                pending.extend(computation.instructions)
        pending.extend(current.operands)
    return False


def xla_cpu_tolerance(module: HloModule) -> float | None:
    """The scale tolerance of a module's outputs against XLA:CPU's (which multiplies f32 in
    f32): TF32's where a TF32 dot feeds them, else None (the dtype's)."""
    return TF32_SCALE_TOLERANCE if fed_by_tf32_dot(module.entry.root) else None


def tf32_dot_output(
    instruction: HloInstruction, index: int | None, entry_values: dict[HloInstruction, Value]
) -> Tf32Dot | None:
    """The TF32 dot output `index` of `instruction` stores (see the module docstring), with
    its exact values and bound; None where it is no such output."""
    if instruction.opcode != "fusion" or index is not None:
        return None
    dots = tf32_dots(instruction)
    if len(dots) != 1 or any(fed_by_tf32_dot(o) for o in instruction.operands):
        return None
    (dot,) = dots
    chain = _moves_to(instruction.called_computations[0].root, dot)
    if chain is None:
        return None
    values = evaluate_values(
        instruction.called_computations[0], [entry_values[o] for o in instruction.operands]
    )
    lhs, rhs = (np.asarray(values[o], dtype=np.float64) for o in dot.operands)
    dims = dot.dot_dimensions
    assert dims is not None
    exact = exact_dot(lhs, rhs, dims, dot.array_shape.element_type)
    magnitudes = exact_dot(np.abs(lhs), np.abs(rhs), dims, dot.array_shape.element_type)
    length = int(np.prod([lhs.shape[d] for d in dims.lhs_contracting], dtype=np.int64))
    tile = dot_tile_sizes(dot)
    depth = tf32_dot_depth(length, tile[0] if tile else length)
    bound = tf32_dot_bound(magnitudes, depth)
    output = instruction.array_shape.element_type
    exact, magnitudes, bound = (_moved(chain, array) for array in (exact, magnitudes, bound))
    return Tf32Dot(length, depth, output, exact, magnitudes, bound)


def _moves_to(root: HloInstruction, dot: HloInstruction) -> list[HloInstruction] | None:
    """The ops from `dot` to `root` (first to last) if they only move or round values."""
    chain: list[HloInstruction] = []
    current = root
    while current is not dot:
        if current.opcode not in _MOVING or len(current.operands) != 1:
            return None
        chain.append(current)
        current = current.operands[0]
    return chain[::-1]


def _moved(chain: list[HloInstruction], array: np.ndarray) -> np.ndarray:
    """`array` (the dot's shape) moved as `chain` moves the dot's values."""
    for op in chain:
        source, target = op.operands[0].array_shape, op.array_shape
        if op.opcode == "transpose":
            array = np.transpose(array, op.dimensions or ())
        elif op.opcode == "bitcast":
            # Through memory order: the bytes stay, the logical dims are relabelled.
            source_order, target_order = physical_order(source), physical_order(target)
            physical = np.transpose(array, source_order).reshape(
                [target.dimensions[d] for d in target_order]
            )
            array = np.transpose(physical, np.argsort(target_order))
        else:
            array = array.reshape(target.dimensions)
    return array
