"""Outputs of a module that a TF32 dot computes: what `--check` may demand of them.

An f32 gemm fusion on the Triton route rounds its dot's inputs to TF32 (`dot_bounds`),
as XLA:GPU does by default on an H100, where the reference evaluator multiplies in f64:

- an output that is such a dot, moved or rounded only (bitcast, reshape, transpose,
  copy, convert), of operands no other TF32 dot computed: held to the exact dot of the
  reference's operands (float64) within `dot_bounds.tf32_dot_bound`, plus one rounding
  to the output type where it is narrower than f32;
- any other output a TF32 dot feeds (softmax after the dot, a weighted sum, an RNN step):
  within twice TF32's move on the run's inputs (`TF32_SAFETY_FACTOR`), plus the f32
  slack the checker allows any f32 output (`compare`: 4 ulp or 1e-5 of the largest
  magnitude). TF32's move is measured by the reference evaluator run twice, as is (r) and
  with every TF32 dot's operands rounded to TF32 (t): the largest |t - r| of the output
  (`tf32_moves`). The kernel (k) multiplies the same TF32 values as t, so
  k - r = (t - r) + (k - t), where k - t is what any f32 output may carry: the order of
  f32 additions in the dots (the dot bound's remaining terms) and after them, and
  approximated ops. The factor covers what is not: an operand that the kernel's upstream
  f32 rounding moves across a TF32 rounding boundary rounds the other way, one product
  off by a TF32 quantum, and later dots pass that on. Measured on the corpus's kv-cache
  step and the zoo's f32 models: |k - t| is at most 5e-6 of the largest magnitude but in
  the transformer block (six dots deep), where such flips take it to 0.31 of the move;
  k's distance to r uses 0.44 to 0.5 of the allowance (docs/triton-gemms.md).

Comparisons with XLA:CPU's outputs (which multiplies in f32, as r does) use the same rule,
with the same moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from xla_emit.emitters.triton.route import tf32_dots
from xla_emit.emitters.triton.tiling import physical_order
from xla_emit.hlo.eval_linalg import exact_dot
from xla_emit.hlo.evaluator import (
    Value,
    evaluate_computation,
    evaluate_module,
    evaluate_values,
    flatten_value,
    rounding_to_tf32,
)
from xla_emit.hlo.fusion_configs import dot_tile_sizes
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.shape import PrimitiveType, flatten_shape
from xla_emit.runtime.compare import (
    DEFAULT_MAX_ULP,
    Comparison,
    compare,
    failed_at,
    first_index,
    scale_tolerance_of,
    tolerance_rule,
    ulp_distance,
)
from xla_emit.runtime.dot_bounds import F32_UNIT_ROUNDOFF, tf32_dot_bound, tf32_dot_depth
from xla_emit.runtime.sum_bounds import bound_on_the_output

# How many times TF32's measured move an output after a TF32 dot may be off (the module
# docstring says why twice).
TF32_SAFETY_FACTOR = 2.0
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


def module_tf32_dots(module: HloModule) -> frozenset[HloInstruction]:
    """Every dot the Triton route rounds to TF32: in the f32 gemm fusions of every
    computation (`while` bodies and called computations too)."""
    return frozenset(
        dot
        for computation in module.computations
        for instruction in computation.instructions
        if instruction.opcode == "fusion"
        for dot in tf32_dots(instruction)
    )


@dataclass(frozen=True)
class Tf32Move:
    """How far rounding the TF32 dots' operands moves one output on the run's inputs: the
    largest |t - r| over its elements, between the reference evaluator's run with them
    rounded (t) and as is (r)."""

    largest: float

    def allowance(self) -> float:
        """What each element may be off by beyond the f32 slack."""
        return TF32_SAFETY_FACTOR * self.largest

    def rule(self, dtype: np.dtype[np.generic], max_ulp: int = DEFAULT_MAX_ULP) -> str:
        return (
            f"{tolerance_rule(dtype, max_ulp)}, plus {TF32_SAFETY_FACTOR:g} x TF32's move "
            f"on these inputs ({self.largest:.3g})"
        )


def tf32_moves(
    module: HloModule,
    inputs: Sequence[np.ndarray],
    reference: Sequence[np.ndarray] | None = None,
) -> list[Tf32Move | None]:
    """Per output of the module, TF32's move (`Tf32Move`); None for outputs that are not
    floats, and for all where the module has no TF32 dot. `reference`: the evaluator's
    outputs as is, where the caller has them. Against XLA:CPU's outputs the same moves
    apply: XLA:CPU multiplies f32 in f32, as the evaluator's plain run does."""
    dots = module_tf32_dots(module)
    if not dots:
        return [None] * len(flatten_shape(module.entry.root.shape))
    plain = list(reference) if reference is not None else evaluate_module(module, inputs)
    rounded = evaluate_module(module, inputs, tf32_dots=dots)
    return [_move(r, t) for r, t in zip(plain, rounded, strict=True)]


def fusion_tf32_moves(fusion: HloInstruction, operands: Sequence[Value]) -> list[Tf32Move | None]:
    """Per output of one fusion run on `operands`, TF32's move (as `tf32_moves`): what its
    tile program may differ by from a kernel that multiplies in f32."""
    dots = tf32_dots(fusion)
    computation = fusion.called_computations[0]
    plain = flatten_value(evaluate_computation(computation, operands))
    if not dots:
        return [None] * len(plain)
    with rounding_to_tf32(dots):
        rounded = flatten_value(evaluate_computation(computation, operands))
    return [_move(r, t) for r, t in zip(plain, rounded, strict=True)]


def _move(plain: np.ndarray, rounded: np.ndarray) -> Tf32Move | None:
    if scale_tolerance_of(plain.dtype) is None:
        return None
    wide = np.complex128 if plain.dtype.kind == "c" else np.float64
    with np.errstate(invalid="ignore"):
        move = np.abs(rounded.astype(wide) - plain.astype(wide))
    # Where either run is infinite or NaN the move says nothing.
    return Tf32Move(float(move[np.isfinite(move)].max(initial=0.0)))


def compare_after_tf32(
    expected: np.ndarray,
    actual: np.ndarray,
    move: Tf32Move | None,
    max_ulp: int = DEFAULT_MAX_ULP,
) -> Comparison:
    """`compare` with TF32's allowance added (`move`; None: `compare` alone), and a verdict
    that says how much of the allowance the output uses, or where it leaves it."""
    if move is None:
        return compare(expected, actual, max_ulp)
    allowance = move.allowance()
    result = compare(expected, actual, max_ulp, allowance=allowance)
    if result.identical or expected.shape != actual.shape or expected.dtype.kind == "c":
        return result
    relative = scale_tolerance_of(expected.dtype)
    if relative is None or expected.dtype != actual.dtype:
        return result
    wide_expected, wide_actual = expected.astype(np.float64), actual.astype(np.float64)
    finite = np.isfinite(wide_expected) & np.isfinite(wide_actual)
    scale = float(np.abs(wide_expected[np.isfinite(wide_expected)]).max(initial=0.0))
    allowed = relative * scale + allowance
    with np.errstate(invalid="ignore"):
        error = np.where(finite, np.abs(wide_expected - wide_actual), 0.0)
        used = error / allowed if allowed > 0 else np.zeros_like(error)
    rule = f"{TF32_SAFETY_FACTOR:g} x TF32's move ({move.largest:.3g}) + {relative:g} x the scale"
    if result.matches:
        worst = float(used.max(initial=0.0))
        verdict = f"max abs error {result.max_abs_error:.6g}, within {rule}: uses {worst:.2f} of it"
        return Comparison(True, False, result.max_abs_error, result.max_ulp_error, None,
                          verdict=verdict)  # fmt: skip
    # As `compare` judges: more than `max_ulp` ulp and more than allowed, or NaN on one side.
    with np.errstate(invalid="ignore"):
        outside = (ulp_distance(expected, actual) > max_ulp) & (error > allowed)
    nan_mismatch = np.isnan(wide_expected) != np.isnan(wide_actual)
    index = first_index(outside | nan_mismatch) or result.first_difference
    why = f"max abs error {result.max_abs_error:.6g}, outside {rule} and {max_ulp} ulp, first"
    return failed_at(expected, actual, index, (result.max_abs_error, result.max_ulp_error), why)


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
