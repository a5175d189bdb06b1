"""What `--check` may demand of each output of an HLO module, read off the module.

- Bit-exact: the output depends on no reduction and no op XLA approximates
  (exp, log, tanh, ...), or on one float sum that the kernel adds in the
  order the reference does (the elemental emitter's loop, 16-bit types), so
  kernel and reference compute the same ops in the same order and must agree
  bit for bit (NaNs anywhere they are NaN).
- Within the reordered-sum bound: the output is a float sum (`reduce` with an
  `add` reducer, possibly converted) of values computed exactly, which the
  kernel adds in another order than the reference. The kernel's result is
  held to the exact sum (in float64, of the reference's values), within the
  rounding its own addition tree allows (`sum_bounds`; the tree is the
  emitter's tiling: per-thread runs, then warp shuffles), plus one rounding to
  the output type when it is narrower. The reference's own order does not
  enter: its distance to the exact sum is measured, not bounded, and shown.
- Within the TF32 dot bound, or twice TF32's measured move plus the f32 slack: outputs
  an f32 gemm fusion on the Triton route computes, or feeds (`tf32_outputs`).
- Approximate: anything else (sums of approximated values, other reducers,
  dots) keeps `compare`'s ulp and scale tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from xla_emit.emitters.addition_order import IN_ORDER, AdditionTree
from xla_emit.emitters.reduction import reduce_addition_tree
from xla_emit.emitters.triton.route import runs_as_triton
from xla_emit.hlo.complex_ops import APPROXIMATED_COMPLEX_OPS
from xla_emit.hlo.elementwise import APPROXIMATED_OPS
from xla_emit.hlo.evaluator import (
    IN_ORDER_REDUCTION_TYPES,
    Value,
    evaluate_values,
    flatten_value,
    simple_reducer,
)
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.interpreter.tile.reduce_order import triton_addition_tree
from xla_emit.runtime.compare import (
    DEFAULT_MAX_ULP,
    Comparison,
    as_parts,
    compare,
    failed_at,
    first_index,
    tolerance_rule,
)
from xla_emit.runtime.kernels import wrap_as_fusion
from xla_emit.runtime.sum_bounds import bound_on_the_output, tree_error_bound, unit_roundoff
from xla_emit.runtime.tf32_outputs import (
    Tf32Dot,
    Tf32Move,
    compare_after_tf32,
    fed_by_tf32_dot,
    tf32_dot_output,
    tf32_moves,
)

# Ops whose result depends on the order the kernel combines elements in (library calls:
# the library's own order, e.g. cuFFT's butterflies, cuSOLVER's blocked factorizations).
_ORDER_DEPENDENT = frozenset(
    {"reduce", "reduce-window", "dot", "convolution", "scatter", "custom-call", "fft"}
)
# Stands in the opcodes feeding an output for an approximated op on complex operands.
_COMPLEX_APPROXIMATION = "complex approximation"
# Ops between a reduce and the output that only move or round its values.
_ROUNDING_ONLY = frozenset({"convert", "copy", "bitcast", "reshape"})


class OutputKind(Enum):
    EXACT = "bit-exact"
    REORDERED_SUM = "reordered sum"
    APPROXIMATE = "approximate"
    TF32_DOT = "TF32 dot"
    TF32_APPROXIMATE = "approximate after a TF32 dot"


@dataclass(frozen=True)
class ReorderedSum:
    """A sum of `length` elements and the init value, accumulated in `accumulator` by a tree
    at most `depth` additions deep, then stored as `output`; per output element (the reduce's
    shape): the exact sum, sum |x_i| and the bound on the kernel's distance to the exact sum
    before the output's rounding (`sum_bounds.tree_error_bound`)."""

    length: int
    depth: int
    accumulator: PrimitiveType
    output: PrimitiveType
    exact: np.ndarray
    magnitudes: np.ndarray
    tree_bound: np.ndarray

    def bound(self) -> np.ndarray:
        """How far the kernel's output may be from the exact sum, per element."""
        return bound_on_the_output(
            self.tree_bound,
            self.exact,
            self.magnitudes,
            self.length,
            unit_roundoff(self.accumulator),
            self.output,
        )

    def describe(self, distance: float, bound: float, reference_distance: float) -> str:
        text = (
            f"off the exact sum by {distance:.3g} where the kernel's order allows {bound:.3g}: "
            f"{self.length} {self.accumulator.value} elements, at most {self.depth} additions "
            f"deep; the reference is off by up to {reference_distance:.3g}"
        )
        if self.depth * unit_roundoff(self.accumulator) >= 1:
            text += "; depth*u >= 1, so the bound says little"
        return text


@dataclass(frozen=True)
class Expectation:
    """How one output is compared with the reference."""

    kind: OutputKind
    reordered: ReorderedSum | Tf32Dot | None = None
    # After a TF32 dot: how far TF32 moves the output on the run's inputs.
    tf32_move: Tf32Move | None = None

    def compare(
        self, expected: np.ndarray, actual: np.ndarray, max_ulp: int = DEFAULT_MAX_ULP
    ) -> Comparison:
        if self.kind is OutputKind.EXACT:
            return compare_exactly(expected, actual)
        if self.kind in _BOUNDED and self.reordered is not None:
            return compare_within_bound(expected, actual, self.reordered)
        if self.kind is OutputKind.TF32_APPROXIMATE:
            return compare_after_tf32(expected, actual, self.tf32_move, max_ulp)
        return compare(expected, actual, max_ulp)

    def rule(self, dtype: np.dtype[np.generic], max_ulp: int = DEFAULT_MAX_ULP) -> str:
        """What `compare` demands of an output of `dtype`, in words (the `--check` summary)."""
        if self.kind is OutputKind.EXACT:
            return "bit for bit"
        if self.kind is OutputKind.REORDERED_SUM and self.reordered is not None:
            return "within the reordered-sum bound"
        if self.kind is OutputKind.TF32_DOT and self.reordered is not None:
            return "within the TF32 dot bound"
        if self.kind is OutputKind.TF32_APPROXIMATE and self.tf32_move is not None:
            return self.tf32_move.rule(dtype, max_ulp)
        return tolerance_rule(dtype, max_ulp)


_BOUNDED = frozenset({OutputKind.REORDERED_SUM, OutputKind.TF32_DOT})


def compare_exactly(expected: np.ndarray, actual: np.ndarray) -> Comparison:
    """Bit for bit, except that any NaN matches any NaN."""
    result = compare(expected, actual, max_ulp=0)
    if result.identical or expected.shape != actual.shape or expected.dtype != actual.dtype:
        return result
    if expected.dtype.kind == "c":  # the real and imaginary parts
        return compare_exactly(as_parts(expected), as_parts(actual))
    if expected.dtype.kind in "biu":
        differs = expected != actual
    else:
        both_nan = np.isnan(expected.astype(np.float64)) & np.isnan(actual.astype(np.float64))
        differs = (expected.view(_bits_type(expected)) != actual.view(_bits_type(actual))) & (
            ~both_nan
        )
    if not differs.any():
        return Comparison(True, False, 0.0, 0, None, verdict="bit-identical (up to NaN payloads)")
    index = first_index(differs)
    why = (
        "not bit-identical, though the kernel computes what the reference does in the same "
        f"order: max abs error {result.max_abs_error:.6g}, first difference"
    )
    return failed_at(expected, actual, index, (result.max_abs_error, result.max_ulp_error), why)


def _bits_type(array: np.ndarray) -> np.dtype[np.generic]:
    return np.dtype(f"u{array.dtype.itemsize}")


def compare_within_bound(
    expected: np.ndarray, actual: np.ndarray, reordered: ReorderedSum | Tf32Dot
) -> Comparison:
    """Each element within the bound (a reordered sum's, a TF32 dot's) of the exact value;
    infinities and NaNs where the reference has them."""
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return compare(expected, actual)
    wide_expected = expected.astype(np.float64)
    wide_actual = actual.astype(np.float64)
    exact = reordered.exact.reshape(expected.shape)
    bound = reordered.bound().reshape(expected.shape)
    same = (wide_expected == wide_actual) | (np.isnan(wide_expected) & np.isnan(wide_actual))
    # Where anything is infinite or NaN no bound applies: the two must agree.
    special = ~np.isfinite(wide_expected) | ~np.isfinite(wide_actual) | ~np.isfinite(exact)
    with np.errstate(invalid="ignore"):
        distance = np.where(special, 0.0, np.abs(wide_actual - exact))
        reference_distance = np.where(special, 0.0, np.abs(wide_expected - exact))
        error = np.where(same, 0.0, np.abs(wide_expected - wide_actual))
    outside = np.where(special, ~same, distance > bound)
    # The element closest to (or furthest past) its bound is the one to report.
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(distance == 0, 0.0, distance / bound)
    worst = tuple(int(i) for i in np.unravel_index(int(np.argmax(ratio)), ratio.shape))
    details = reordered.describe(
        float(distance[worst]), float(bound[worst]), float(reference_distance.max())
    )
    max_error = float(np.where(np.isnan(error), np.inf, error).max())
    identical = bool(same.all()) and np.array_equal(
        expected.view(_bits_type(expected)), actual.view(_bits_type(actual))
    )
    if not outside.any():
        verdict = "bit-identical" if identical else f"within the reordered-sum bound ({details})"
        return Comparison(True, identical, max_error, 0, None, verdict=verdict)
    index = first_index(outside)
    why = f"outside the reordered-sum bound ({details}), first"
    after = f", exact sum {float(exact[index]):.6g}"
    return failed_at(expected, actual, index, (max_error, 0), why, after)


# ----------------------------------------------------------------------------- reading the module


def output_expectations(module: HloModule, inputs: Sequence[np.ndarray]) -> list[Expectation]:
    """One expectation per output of the entry computation (tuples flattened)."""
    leaves = _leaves(module.entry.root, None)
    outputs = len(flatten_shape(module.entry.root.shape))
    if len(leaves) != outputs:
        # Outputs this reading cannot trace (a tuple from a call, say): the ulp tolerance.
        return [Expectation(OutputKind.APPROXIMATE)] * outputs
    entry_values: dict[HloInstruction, Value] | None = None
    moves: list[Tf32Move | None] | None = None
    expectations: list[Expectation] = []
    for number, (instruction, index) in enumerate(leaves):
        if fed_by_tf32_dot(instruction):
            if entry_values is None:
                entry_values = evaluate_values(module.entry, list(inputs))
            if moves is None:
                reference = flatten_value(entry_values[module.entry.root])
                moves = tf32_moves(module, inputs, reference)
            expectations.append(_tf32_expectation(instruction, index, entry_values, moves[number]))
            continue
        cone = _opcodes_feeding(instruction)
        if not cone & (_ORDER_DEPENDENT | APPROXIMATED_OPS | {_COMPLEX_APPROXIMATION}):
            expectations.append(Expectation(OutputKind.EXACT))
            continue
        source = _summed(instruction, index)
        if source is None:
            expectations.append(Expectation(OutputKind.APPROXIMATE))
            continue
        if _adds_in_reference_order(source):
            expectations.append(Expectation(OutputKind.EXACT))
            continue
        if entry_values is None:
            entry_values = evaluate_values(module.entry, list(inputs))
        expectations.append(
            Expectation(OutputKind.REORDERED_SUM, _reordered_sum(source, entry_values))
        )
    return expectations


def _tf32_expectation(
    instruction: HloInstruction,
    index: int | None,
    entry_values: dict[HloInstruction, Value],
    move: Tf32Move | None,
) -> Expectation:
    dot = tf32_dot_output(instruction, index, entry_values)
    if dot is None:
        return Expectation(OutputKind.TF32_APPROXIMATE, tf32_move=move)
    return Expectation(OutputKind.TF32_DOT, dot)


def _leaves(
    instruction: HloInstruction, index: int | None
) -> list[tuple[HloInstruction, int | None]]:
    """The instructions (and tuple index, for tuple-shaped ones) producing each output."""
    if instruction.opcode == "tuple":
        return [leaf for operand in instruction.operands for leaf in _leaves(operand, None)]
    if instruction.opcode == "get-tuple-element" and instruction.operands[0].opcode == "tuple":
        assert instruction.tuple_index is not None
        return _leaves(instruction.operands[0].operands[instruction.tuple_index], None)
    if instruction.opcode == "get-tuple-element":
        return [(instruction.operands[0], instruction.tuple_index)]
    if index is None and instruction.opcode == "fusion":
        root = instruction.called_computations[0].root
        if root.opcode == "tuple":
            return [(instruction, i) for i in range(len(root.operands))]
    return [(instruction, index)]


def _opcodes_feeding(instruction: HloInstruction) -> set[str]:
    """Every opcode the value of `instruction` depends on, inside fusions and calls too."""
    seen: set[int] = set()
    opcodes: set[str] = set()
    pending = [instruction]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        opcodes.add(current.opcode)
        if current.opcode in APPROXIMATED_COMPLEX_OPS and _has_complex_operand(current):
            opcodes.add(_COMPLEX_APPROXIMATION)
        pending.extend(current.operands)
        for computation in current.called_computations:
            pending.extend(computation.instructions)
    return opcodes


def _has_complex_operand(instruction: HloInstruction) -> bool:
    return any(
        isinstance(o.shape, ArrayShape) and o.shape.element_type.is_complex
        for o in instruction.operands
    )


@dataclass(frozen=True)
class _SumSource:
    """A float add-reduce behind an output, where to find its operand's values, and the order
    its kernel adds in."""

    reduce: HloInstruction
    # The fusion whose computation holds the reduce (None: the reduce is in ENTRY).
    fusion: HloInstruction | None
    output: PrimitiveType

    @property
    def addition_tree(self) -> AdditionTree:
        if self.fusion is None:
            # The runtime launches it as a fusion of its own.
            computation = wrap_as_fusion(self.reduce).called_computations[0]
            return reduce_addition_tree(computation, computation.root)
        if runs_as_triton(self.fusion):
            tree = triton_addition_tree(self.fusion, self.reduce)
            if tree is not None:
                return tree
        return reduce_addition_tree(self.fusion.called_computations[0], self.reduce)


def _adds_in_reference_order(source: _SumSource) -> bool:
    """The kernel adds in order, and so does the evaluator (over the reduced dims in
    increasing order: the elemental emitter's loop nest is sorted)."""
    dims = list(source.reduce.dimensions or ())
    accumulator = source.reduce.array_shape.element_type
    return (
        accumulator in IN_ORDER_REDUCTION_TYPES
        and dims == sorted(dims)
        and source.addition_tree == IN_ORDER
    )


def _summed(instruction: HloInstruction, index: int | None) -> _SumSource | None:
    """The add-reduce that `instruction` (output `index`) stores, if it stores one whose
    operand is computed exactly."""
    # XLA's modules often end in a bitcast of the kernel's output (`f32[1]` of an `f32[]`
    # sum): the same values, in the same order.
    while index is None and _keeps_row_major_order(instruction):
        ((instruction, index),) = _leaves(instruction.operands[0], None)
    fusion: HloInstruction | None = None
    current = instruction
    if instruction.opcode == "fusion":
        fusion = instruction
        root = instruction.called_computations[0].root
        current = root.operands[index] if index is not None and root.opcode == "tuple" else root
    if not isinstance(current.shape, ArrayShape):
        return None  # a variadic reduce (argmax and the like): not a plain sum
    output = current.array_shape.element_type
    if not output.is_float:
        return None  # a sum converted to integers: no rounding bound applies
    while current.opcode in _ROUNDING_ONLY and _is_float(current.operands[0]):
        current = current.operands[0]
    if current.opcode != "reduce" or len(current.operands) != 2:
        return None
    ptype = current.array_shape.element_type
    if not ptype.is_float or simple_reducer(current.called_computations[0]) != "add":
        return None
    if _summands_feeding(current, fusion) & (_ORDER_DEPENDENT | APPROXIMATED_OPS):
        return None
    return _SumSource(current, fusion, output)


def _keeps_row_major_order(instruction: HloInstruction) -> bool:
    """A copy or reshape, or a bitcast between row-major layouts: its values in row-major
    order are its operand's (a bitcast to another layout reorders them)."""
    if instruction.opcode in ("copy", "reshape"):
        return True
    if instruction.opcode != "bitcast":
        return False
    shapes = (instruction.array_shape, instruction.operands[0].array_shape)
    return all(shape.has_default_layout for shape in shapes)


def _summands_feeding(reduce: HloInstruction, fusion: HloInstruction | None) -> set[str]:
    """Every opcode the summed values depend on: inside the fusion and, through the fusion's
    parameters, in the entry computation too (a kernel sums what earlier kernels and library
    calls computed, in their own order, so those values are not the reference's exactly)."""
    opcodes = _opcodes_feeding(reduce.operands[0])
    if fusion is not None and "parameter" in opcodes:
        for operand in _fusion_operands_feeding(reduce.operands[0], fusion):
            opcodes |= _opcodes_feeding(operand)
    return opcodes


def _fusion_operands_feeding(
    instruction: HloInstruction, fusion: HloInstruction
) -> list[HloInstruction]:
    """The operands of `fusion` whose parameters `instruction` (in its computation) reads."""
    numbers: set[int] = set()
    seen: set[int] = set()
    pending = [instruction]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.opcode == "parameter" and current.parameter_number is not None:
            numbers.add(current.parameter_number)
        pending.extend(current.operands)
    return [fusion.operands[n] for n in sorted(numbers) if n < len(fusion.operands)]


def _is_float(instruction: HloInstruction) -> bool:
    return instruction.array_shape.element_type.is_float


def _reduce_operands(
    source: _SumSource, entry_values: dict[HloInstruction, Value]
) -> tuple[np.ndarray, np.ndarray]:
    reduce = source.reduce
    if source.fusion is None:
        values = entry_values
    else:
        arguments = [entry_values[operand] for operand in source.fusion.operands]
        values = evaluate_values(source.fusion.called_computations[0], arguments)
    operand, init = (values[o] for o in reduce.operands)
    assert isinstance(operand, np.ndarray) and isinstance(init, np.ndarray)
    return operand, init


def _reordered_sum(source: _SumSource, entry_values: dict[HloInstruction, Value]) -> ReorderedSum:
    operand, init = _reduce_operands(source, entry_values)
    dims = sorted(source.reduce.dimensions or ())
    kept = [d for d in range(operand.ndim) if d not in dims]
    kept_shape = [operand.shape[d] for d in kept]
    length = int(np.prod([operand.shape[d] for d in dims], dtype=np.int64))
    # [kept elements, reduced positions in row-major order]: the order the kernels read in.
    rows = np.transpose(operand, kept + dims).astype(np.float64).reshape(-1, length)
    start = float(init)
    accumulator = source.reduce.array_shape.element_type
    tree = source.addition_tree
    tree_bound = tree_error_bound(rows, start, tree, unit_roundoff(accumulator))
    return ReorderedSum(
        length,
        tree.depth(length),
        accumulator,
        source.output,
        (rows.sum(axis=1) + start).reshape(kept_shape),
        (np.abs(rows).sum(axis=1) + abs(start)).reshape(kept_shape),
        tree_bound.reshape(kept_shape),
    )
