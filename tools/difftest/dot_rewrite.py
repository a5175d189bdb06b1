"""A small 16-bit dot that XLA:GPU writes as a multiply and a reduce, and its bound.

XLA's dot strength reduction turns a dot too small for a library call (`bf16[2,1,3] x
bf16[2,3,4]`, seed 704666) into `multiply(broadcast(a), b)` in the dot's 16-bit type (a
dot of two vectors, `bf16[1,2] x bf16[2,1]`, into `multiply(bitcast(a), bitcast(b))`),
`convert` to f32 and an f32 `reduce` (add): each product is rounded to 16 bits before
the sum. XLA:CPU computes the same dot with f32 products. Ours runs XLA's H100 module, so
the two differ by the products' roundings, which no ulp tolerance covers (3 bf16 ulp of
-6.3, where the sum of three products cancelled).

The bound, per output element, for the sum s of n products p_k (|p_k| summing to P; an output that
broadcasts or transposes the sums takes each element's own bound):
- each product rounded to nearest in a type of precision t bits errs by at most
  u = 2**-t of itself (bf16: t = 8, u = 2**-8; f16: t = 11, u = 2**-11): at most u * P;
- XLA:CPU's and the module's f32 sums of n terms err by at most n * 2**-24 * P each
  (one f32 rounding per addition, the partial sums below P), so 2 n 2**-24 P for both;
- both round the f32 sum to the dot's type and then to the output's: two values d apart
  round to values at most d + one ulp (of the larger, in the narrowest type) apart.
A float -> integer convert of the dot (truncation) adds at most 1 more. A `reduce-precision`
on the way is a rounding too, to its own precision, with its own overflow to infinity and
flush to zero below its smallest normal (seed 1215976: `exponent_bits=2` makes 3.97 inf).
Where one side overflowed to infinity, the other's finite value must be within the bound
of the type's largest finite value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from xla_emit.hlo.evaluator import evaluate_values, simple_reducer
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType
from xla_emit.runtime.compare import Comparison, compare, failed_at, first_index

# Ops between the rewritten dot's reduce and an output that only move or round its values,
# or spread them (each output element is one of the reduce's).
_MOVES = frozenset({"bitcast", "reshape", "copy", "convert", "reduce-precision"})
_SPREADS = frozenset({"broadcast", "transpose"})
_SIXTEEN_BITS = (PrimitiveType.BF16, PrimitiveType.F16)
# Precision in bits (the significand, its implicit bit included).
_PRECISION = {PrimitiveType.BF16: 8, PrimitiveType.F16: 11, PrimitiveType.F32: 24}


@dataclass(frozen=True)
class Rounding:
    """The coarsest rounding between the products and an output: the fewest significand
    bits, the smallest largest finite value, and the value below which results are zero."""

    precision: int
    largest: float
    flushes_below: float = 0.0

    @staticmethod
    def of_type(element_type: PrimitiveType) -> Rounding:
        info = ml_dtypes.finfo(element_type.dtype)
        return Rounding(int(info.nmant) + 1, float(info.max))

    @staticmethod
    def of_reduce_precision(exponent_bits: int, mantissa_bits: int) -> Rounding:
        """XLA's `reduce-precision`: IEEE-like, but results below its smallest normal are
        zero (its type has no subnormals)."""
        bias = 2 ** (exponent_bits - 1) - 1
        largest = 2.0**bias * (2.0 - 2.0**-mantissa_bits)
        return Rounding(mantissa_bits + 1, largest, 2.0 ** (1 - bias))

    def coarser(self, other: Rounding) -> Rounding:
        return Rounding(
            min(self.precision, other.precision),
            min(self.largest, other.largest),
            max(self.flushes_below, other.flushes_below),
        )


@dataclass(frozen=True)
class RewrittenDot:
    """An f32 add-reduce of 16-bit products (`products`: their type) in XLA's module."""

    reduce: HloInstruction
    products: PrimitiveType
    # The fusion computing it (None: in the entry computation).
    fusion: HloInstruction | None


def has_sixteen_bit_dot(program: HloModule) -> bool:
    """Whether the program (as written, before XLA's passes) has a dot of f16 or bf16."""
    return any(
        instruction.opcode == "dot"
        and isinstance(instruction.shape, ArrayShape)
        and instruction.array_shape.element_type in _SIXTEEN_BITS
        for computation in program.computations
        for instruction in computation.instructions
    )


def rewritten_dot_outputs(
    module: HloModule, inputs: Sequence[np.ndarray], *, program_has_dot: bool = False
) -> dict[int, Callable[[np.ndarray, np.ndarray], Comparison]]:
    """The rule of each output (by number) that is a rewritten dot, moved or rounded.
    `program_has_dot`: the program as written has a 16-bit dot (`has_sixteen_bit_dot`),
    which XLA's form of a vector dot (a multiply of bitcasts) needs to be taken for one."""
    rules: dict[int, Callable[[np.ndarray, np.ndarray], Comparison]] = {}
    entry_values: dict[HloInstruction, object] | None = None
    for number, leaf in enumerate(_output_leaves(module.entry.root)):
        traced = _trace_to_reduce(leaf)
        if traced is None:
            continue
        reduce, fusion, moves = traced
        dot = _rewritten_dot(reduce, fusion, program_has_dot=program_has_dot)
        if dot is None:
            continue
        if entry_values is None:
            entry_values = evaluate_values(module.entry, list(inputs))  # type: ignore[assignment]
        assert entry_values is not None
        magnitudes, length = _product_magnitudes(dot, entry_values)
        magnitudes = _moved(magnitudes, moves)
        rounding = _coarsest_rounding(dot.products, moves)
        rules[number] = _within_rounded_products(dot.products, rounding, magnitudes, length)
    return rules


def _output_leaves(root: HloInstruction) -> list[HloInstruction]:
    if root.opcode == "tuple":
        return [leaf for operand in root.operands for leaf in _output_leaves(operand)]
    return [root]


def _trace_to_reduce(
    instruction: HloInstruction,
) -> tuple[HloInstruction, HloInstruction | None, list[HloInstruction]] | None:
    """The reduce whose value `instruction` moves, spreads or rounds, its fusion (or None),
    and the ops between them, from the reduce outward. The path may leave a fusion by a
    parameter (`broadcast(fusion(reduce))` is two fusions: seed 1000555)."""
    current, fusion = instruction, None
    moves: list[HloInstruction] = []
    while True:
        if current.opcode == "get-tuple-element" and current.operands[0].opcode == "fusion":
            fusion = current.operands[0]
            root = fusion.called_computations[0].root
            if root.opcode != "tuple" or current.tuple_index is None:
                return None
            current = root.operands[current.tuple_index]
        elif current.opcode == "fusion" and fusion is None:
            fusion = current
            current = current.called_computations[0].root
        elif current.opcode == "parameter" and fusion is not None:
            assert current.parameter_number is not None
            current, fusion = fusion.operands[current.parameter_number], None
        elif current.opcode in _SPREADS or (
            current.opcode in _MOVES
            and (current.opcode != "convert" or _is_float(current.operands[0]))
        ):
            moves.append(current)
            current = current.operands[0]
        elif current.opcode == "reduce":
            return current, fusion, moves[::-1]
        else:
            return None


def _moved(values: np.ndarray, moves: Sequence[HloInstruction]) -> np.ndarray:
    """`values` (one per element of the reduce) put where `moves` put the reduce's values."""
    for move in moves:
        shape = move.array_shape.dimensions
        if move.opcode == "transpose":
            values = np.transpose(values, move.dimensions)
        elif move.opcode == "broadcast":
            dims = tuple(move.dimensions or ())
            # Operand dim i goes to output dim dims[i]: in increasing order, then spread.
            order = sorted(range(len(dims)), key=lambda i: dims[i])
            placed = [1] * len(shape)
            for i in order:
                placed[dims[i]] = values.shape[i]
            values = np.broadcast_to(np.transpose(values, order).reshape(placed), shape)
        else:
            values = values.reshape(shape)
    return values


def _coarsest_rounding(products: PrimitiveType, moves: Sequence[HloInstruction]) -> Rounding:
    """The coarsest rounding of the products' type and the float results on the way out."""
    rounding = Rounding.of_type(products)
    for move in moves:
        if move.opcode == "reduce-precision":
            assert move.precision_bits is not None
            exponent, mantissa = move.precision_bits
            reduced = Rounding.of_reduce_precision(exponent, mantissa)
            if exponent >= ml_dtypes.finfo(move.array_shape.element_type.dtype).nexp:
                reduced = Rounding(reduced.precision, reduced.largest)  # the type's range
            rounding = rounding.coarser(reduced)
        elif move.opcode == "convert" and move.array_shape.element_type.is_float:
            rounding = rounding.coarser(Rounding.of_type(move.array_shape.element_type))
    return rounding


def _rewritten_dot(
    reduce: HloInstruction, fusion: HloInstruction | None, *, program_has_dot: bool
) -> RewrittenDot | None:
    """`reduce` if it adds f32 conversions of a 16-bit multiply in XLA's form of a small dot:
    of a broadcast (a program's own multiply-reduce has no broadcast of an operand's rows),
    or, for a dot of two vectors (`bf16[1,2] x bf16[2,1]`, seed 805300), of two bitcasts,
    taken for a dot only where the program has one (its own reshapes are bitcasts too)."""
    if len(reduce.operands) != 2 or not isinstance(reduce.shape, ArrayShape):
        return None
    if reduce.array_shape.element_type is not PrimitiveType.F32:
        return None
    if simple_reducer(reduce.called_computations[0]) != "add":
        return None
    convert = reduce.operands[0]
    if convert.opcode != "convert":
        return None
    multiply = convert.operands[0]
    products = multiply.array_shape.element_type if multiply.opcode == "multiply" else None
    if products not in _SIXTEEN_BITS:
        return None
    broadcast = any(operand.opcode == "broadcast" for operand in multiply.operands)
    bitcasts = all(operand.opcode == "bitcast" for operand in multiply.operands)
    if not (broadcast or (bitcasts and program_has_dot)):
        return None
    assert products is not None
    return RewrittenDot(reduce, products, fusion)


def _product_magnitudes(
    dot: RewrittenDot, entry_values: dict[HloInstruction, object]
) -> tuple[np.ndarray, int]:
    """Sum |p_k| per output element of the reduce, and the number of products summed."""
    if dot.fusion is None:
        values = entry_values
    else:
        computation: HloComputation = dot.fusion.called_computations[0]
        arguments = [entry_values[operand] for operand in dot.fusion.operands]
        values = evaluate_values(computation, arguments)  # type: ignore[arg-type]
    products = np.asarray(values[dot.reduce.operands[0]], dtype=np.float64)
    dims = tuple(dot.reduce.dimensions or ())
    length = int(np.prod([products.shape[d] for d in dims], dtype=np.int64))
    return np.abs(products).sum(axis=dims), length


def _ulp(values: np.ndarray, precision: int) -> np.ndarray:
    """One unit in the last place of `values` in a type of `precision` bits (at least the
    smallest f32 subnormal: no 16-bit type's unit is finer)."""
    with np.errstate(divide="ignore"):
        exponent = np.floor(np.log2(np.abs(values)))
    exponent = np.where(np.isfinite(exponent), exponent, -149.0)
    return np.maximum(np.exp2(exponent - (precision - 1)), 2.0**-149)


def _within_rounded_products(
    products: PrimitiveType, rounding: Rounding, magnitudes: np.ndarray, length: int
) -> Callable[[np.ndarray, np.ndarray], Comparison]:
    u = 2.0 ** -_PRECISION[products]
    f32 = 2.0 ** -_PRECISION[PrimitiveType.F32]
    before_rounding = magnitudes * (u + 2 * length * f32)

    def rule(expected: np.ndarray, actual: np.ndarray) -> Comparison:
        if expected.shape != actual.shape or expected.dtype != actual.dtype:
            return compare(expected, actual)
        want, got = expected.astype(np.float64), actual.astype(np.float64)
        finite = np.isfinite(want) & np.isfinite(got)
        larger = np.maximum(np.abs(want), np.abs(got))
        larger = np.where(finite, larger, np.minimum(larger, rounding.largest))
        integers = expected.dtype.kind in "iu"
        # An integer came from a float less than 1 larger in magnitude (truncation).
        ulp = _ulp(larger + 1 if integers else larger, rounding.precision)
        # A zero on one side may be a value flushed from up to the smallest normal.
        flushed = np.minimum(np.abs(want), np.abs(got)) == 0
        ulp = np.where(flushed, np.maximum(ulp, rounding.flushes_below), ulp)
        bound = before_rounding.reshape(expected.shape) + ulp
        if integers:
            bound = np.floor(bound) + 1
        same = (want == got) | (np.isnan(want) & np.isnan(got))
        with np.errstate(invalid="ignore"):
            near = np.abs(want - got) <= bound
            overflowed = _one_overflowed(want, got, bound, rounding.largest)
        outside = ~same & ~((finite & near) | overflowed)
        error = float(np.where(same, 0.0, np.abs(want - got)).max(initial=0.0))
        if not outside.any():
            verdict = "within the bound of a 16-bit dot's rounded products (XLA:GPU's rewrite)"
            return Comparison(True, bool(same.all()), error, 0, None, verdict=verdict)
        index = first_index(outside)
        assert index is not None
        why = f"outside the rounded-products bound {float(bound[index]):.3g} of a 16-bit dot"
        return failed_at(expected, actual, index, (error, 0), why)

    return rule


def _one_overflowed(
    want: np.ndarray, got: np.ndarray, bound: np.ndarray, largest: float
) -> np.ndarray:
    """Where one side is an infinity and the other a finite value of its sign within
    `bound` of the largest finite value: the values before rounding may lie either side
    of the overflow."""
    infinite, finite = np.where(np.isinf(want), want, got), np.where(np.isinf(want), got, want)
    one_infinite = np.isinf(want) != np.isinf(got)
    same_sign = np.sign(infinite) == np.sign(finite)
    return one_infinite & np.isfinite(finite) & same_sign & (np.abs(finite) + bound >= largest)


def _is_float(instruction: HloInstruction) -> bool:
    shape = instruction.shape
    return isinstance(shape, ArrayShape) and shape.element_type.is_float
