"""What `--check` may demand of each output of an HLO module, read off the module.

- Bit-exact: the output depends on no reduction and no op XLA approximates
  (exp, log, tanh, ...), so kernel and reference compute the same ops in
  the same order and must agree bit for bit (NaNs anywhere they are NaN).
- Within the reordered-sum bound: the output is a float sum (`reduce` with an
  `add` reducer, possibly converted) of values computed exactly. The kernel
  adds in XLA's tree order, the reference in its own; any order of n
  additions is within ((1+u)^n - 1) * sum|x_i| of the exact sum (Higham,
  "Accuracy and Stability of Numerical Algorithms", 4.2; u the
  accumulator's unit roundoff), so the two may differ by twice that, plus
  one rounding of each to the output type when it is narrower. The bound
  is rigorous, hence loose: for 16-bit accumulators and long rows
  (n * u near 1 or more) it says little, and the report shows it.
- Approximate: anything else (sums of approximated values, other reducers,
  dots) keeps `compare`'s ulp and scale tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import ml_dtypes
import numpy as np

from xla_emit.hlo.elementwise import APPROXIMATED_OPS
from xla_emit.hlo.evaluator import Value, evaluate_values, simple_reducer
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.runtime.compare import DEFAULT_MAX_ULP, Comparison, compare, first_index, value_at

# Ops whose result depends on the order the kernel combines elements in.
_ORDER_DEPENDENT = frozenset({"reduce", "reduce-window", "dot", "convolution", "scatter"})
# Ops between a reduce and the output that only move or round its values.
_ROUNDING_ONLY = frozenset({"convert", "copy", "bitcast", "reshape"})


class OutputKind(Enum):
    EXACT = "bit-exact"
    REORDERED_SUM = "reordered sum"
    APPROXIMATE = "approximate"


@dataclass(frozen=True)
class ReorderedSum:
    """A sum of `length` elements and the init value (`length` additions) accumulated in
    `accumulator`, then stored as `output`."""

    length: int
    accumulator: PrimitiveType
    output: PrimitiveType
    # Per output element (the reduce's shape): sum |x_i| and the exact sum, init value included.
    magnitudes: np.ndarray
    exact: np.ndarray

    def bound(self) -> np.ndarray:
        """How far two results of different addition orders may be apart, per element."""
        u = _unit_roundoff(self.accumulator)
        # (1+u)^n - 1, valid for any n (unlike n*u / (1 - n*u)), computed without cancellation.
        order_error = float(np.expm1(self.length * np.log1p(u)))
        bound = 2 * order_error * self.magnitudes
        output_u = _unit_roundoff(self.output)
        if output_u > u:
            # Each side is rounded once more, relative to its value, which is within
            # order_error * sum|x| of the exact sum.
            bound = bound + 2 * output_u * (np.abs(self.exact) + order_error * self.magnitudes)
        return bound

    def describe(self, max_error: float, bound: float) -> str:
        text = (
            f"max error {max_error:.3g}, bound {bound:.3g}, reduction of {self.length} "
            f"{self.accumulator.value} elements"
        )
        if self.length * _unit_roundoff(self.accumulator) >= 1:
            text += "; n*u >= 1, so the bound says little"
        return text


@dataclass(frozen=True)
class Expectation:
    """How one output is compared with the reference."""

    kind: OutputKind
    reordered: ReorderedSum | None = None

    def compare(
        self, expected: np.ndarray, actual: np.ndarray, max_ulp: int = DEFAULT_MAX_ULP
    ) -> Comparison:
        if self.kind is OutputKind.EXACT:
            return compare_exactly(expected, actual)
        if self.kind is OutputKind.REORDERED_SUM and self.reordered is not None:
            return compare_within_bound(expected, actual, self.reordered)
        return compare(expected, actual, max_ulp)


def _unit_roundoff(ptype: PrimitiveType) -> float:
    return float(ml_dtypes.finfo(ptype.dtype).eps) / 2


def compare_exactly(expected: np.ndarray, actual: np.ndarray) -> Comparison:
    """Bit for bit, except that any NaN matches any NaN."""
    result = compare(expected, actual, max_ulp=0)
    if result.identical or expected.shape != actual.shape or expected.dtype != actual.dtype:
        return result
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
    return Comparison(
        False,
        False,
        result.max_abs_error,
        result.max_ulp_error,
        index,
        value_at(expected, index),
        value_at(actual, index),
        verdict=(
            f"not bit-identical, though the kernel computes what the reference does in the same "
            f"order: max abs error {result.max_abs_error:.6g}, first difference at "
            f"{list(index or ())}: expected {value_at(expected, index)}, "
            f"got {value_at(actual, index)}"
        ),
    )


def _bits_type(array: np.ndarray) -> np.dtype[np.generic]:
    return np.dtype(f"u{array.dtype.itemsize}")


def compare_within_bound(
    expected: np.ndarray, actual: np.ndarray, reordered: ReorderedSum
) -> Comparison:
    """Each element within the reordered-sum bound; infinities and NaNs where expected."""
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return compare(expected, actual)
    wide_expected = expected.astype(np.float64)
    wide_actual = actual.astype(np.float64)
    bound = reordered.bound().reshape(expected.shape)
    both_nan = np.isnan(wide_expected) & np.isnan(wide_actual)
    same = (wide_expected == wide_actual) | both_nan
    with np.errstate(invalid="ignore"):
        error = np.where(same, 0.0, np.abs(wide_expected - wide_actual))
    error = np.where(np.isnan(error), np.inf, error)
    # An infinity or NaN on one side only is never within a bound (the bound may be inf).
    special = ~np.isfinite(wide_expected) | ~np.isfinite(wide_actual)
    outside = (error > bound) | (special & ~same)
    # The element closest to (or furthest past) its bound is the one to report.
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(error == 0, 0.0, error / bound)
    worst = tuple(int(i) for i in np.unravel_index(int(np.argmax(ratio)), ratio.shape))
    details = reordered.describe(float(error.max()), float(bound[worst]))
    identical = bool(same.all()) and np.array_equal(
        expected.view(_bits_type(expected)), actual.view(_bits_type(actual))
    )
    if not outside.any():
        verdict = "bit-identical" if identical else f"within the reordered-sum bound ({details})"
        return Comparison(True, identical, float(error.max()), 0, None, verdict=verdict)
    index = first_index(outside)
    return Comparison(
        False,
        False,
        float(error.max()),
        0,
        index,
        value_at(expected, index),
        value_at(actual, index),
        verdict=(
            f"outside the reordered-sum bound ({details}), first at {list(index or ())}: "
            f"expected {value_at(expected, index)}, got {value_at(actual, index)}"
        ),
    )


# ----------------------------------------------------------------------------- reading the module


def output_expectations(module: HloModule, inputs: Sequence[np.ndarray]) -> list[Expectation]:
    """One expectation per output of the entry computation (tuples flattened)."""
    leaves = _leaves(module.entry.root, None)
    outputs = len(flatten_shape(module.entry.root.shape))
    if len(leaves) != outputs:
        # Outputs this reading cannot trace (a tuple from a call, say): the ulp tolerance.
        return [Expectation(OutputKind.APPROXIMATE)] * outputs
    entry_values: dict[HloInstruction, Value] | None = None
    expectations: list[Expectation] = []
    for instruction, index in leaves:
        cone = _opcodes_feeding(instruction)
        if not cone & (_ORDER_DEPENDENT | APPROXIMATED_OPS):
            expectations.append(Expectation(OutputKind.EXACT))
            continue
        source = _summed(instruction, index)
        if source is None:
            expectations.append(Expectation(OutputKind.APPROXIMATE))
            continue
        if entry_values is None:
            entry_values = evaluate_values(module.entry, list(inputs))
        expectations.append(
            Expectation(OutputKind.REORDERED_SUM, _reordered_sum(source, entry_values))
        )
    return expectations


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
        pending.extend(current.operands)
        for computation in current.called_computations:
            pending.extend(computation.instructions)
    return opcodes


@dataclass(frozen=True)
class _SumSource:
    """A float add-reduce behind an output, and where to find its operand's values."""

    reduce: HloInstruction
    # The fusion whose computation holds the reduce (None: the reduce is in ENTRY).
    fusion: HloInstruction | None
    output: PrimitiveType


def _summed(instruction: HloInstruction, index: int | None) -> _SumSource | None:
    """The add-reduce that `instruction` (output `index`) stores, if it stores one whose
    operand is computed exactly."""
    fusion: HloInstruction | None = None
    current = instruction
    if instruction.opcode == "fusion":
        fusion = instruction
        root = instruction.called_computations[0].root
        current = root.operands[index] if index is not None and root.opcode == "tuple" else root
    if not isinstance(current.shape, ArrayShape):
        return None  # a variadic reduce (argmax and the like): not a plain sum
    output = current.array_shape.element_type
    while current.opcode in _ROUNDING_ONLY and _is_float(current.operands[0]):
        current = current.operands[0]
    if current.opcode != "reduce" or len(current.operands) != 2:
        return None
    ptype = current.array_shape.element_type
    if not ptype.is_float or simple_reducer(current.called_computations[0]) != "add":
        return None
    if _opcodes_feeding(current.operands[0]) & (_ORDER_DEPENDENT | APPROXIMATED_OPS):
        return None
    return _SumSource(current, fusion, output)


def _is_float(instruction: HloInstruction) -> bool:
    return instruction.array_shape.element_type.is_float


def _reduce_operands(
    source: _SumSource, entry_values: dict[HloInstruction, Value]
) -> tuple[np.ndarray, np.ndarray]:
    reduce = source.reduce
    if source.fusion is None:
        values = entry_values
    else:
        computation: HloComputation = source.fusion.called_computations[0]
        arguments = [entry_values[operand] for operand in source.fusion.operands]
        values = evaluate_values(computation, arguments)
    operand, init = (values[o] for o in reduce.operands)
    assert isinstance(operand, np.ndarray) and isinstance(init, np.ndarray)
    return operand, init


def _reordered_sum(source: _SumSource, entry_values: dict[HloInstruction, Value]) -> ReorderedSum:
    operand, init = _reduce_operands(source, entry_values)
    dims = tuple(source.reduce.dimensions or ())
    wide = operand.astype(np.float64)
    magnitudes = np.abs(wide).sum(axis=dims) + abs(float(init))
    exact = wide.sum(axis=dims) + float(init)
    length = int(np.prod([operand.shape[d] for d in dims]))
    return ReorderedSum(
        length,
        source.reduce.array_shape.element_type,
        source.output,
        np.asarray(magnitudes),
        np.asarray(exact),
    )
