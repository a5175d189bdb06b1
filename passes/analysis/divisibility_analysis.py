"""Which integers an SSA value can take, modulo what: the congruence analysis behind Mosaic's proof.

Every integer or index value gets a `Congruence(modulus, residue)` (the
arithmetic is in `xla_emit/indexing/congruence.py`; this module walks the IR):
in every execution `value ≡ residue (mod modulus)`. Modulus 0 means the value is the
constant `residue`; modulus 1 means nothing is known. Asking "is v a multiple
of k" then has three answers (`Divisibility`): proven, provably not (with the
remainder when it is determined), or unknown.

The rules follow the index's history (arith constants, add/sub, mul, shl,
div/rem, casts, select, min/max, `tpu.assume_multiple`, `scf.for` induction
variables and loop-carried values). Unlike Mosaic's prover, a rule never
answers "no" from structure alone: a difference, product or minimum of
operands that are not multiples can still be one. "Provably not" comes only
from exact congruence arithmetic, which is sound for subtraction too:
(4k+1) - 1 is proven a multiple of 4. Like Mosaic, fixed-width wrap-around
is ignored (indices are assumed not to overflow).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xla_emit.dialects.tpu import AssumeMultipleOp

from xla_emit.indexing.congruence import (
    Answer,
    Congruence,
    Divisibility,
    arithmetic_sequence,
    divisibility,
    exact_quotient,
    remainder_class,
    truncated_quotient,
    truncated_remainder,
)
from xla_emit.ir.value_names import ValueNames

# The congruence names stay importable from the analysis that uses them.
__all__ = [
    "MAX_LOOP_ITERATIONS",
    "Answer",
    "Congruence",
    "Divisibility",
    "DivisibilityAnalysis",
    "Fact",
    "divisibility",
]

MAX_LOOP_ITERATIONS = 16
"""Fixpoint rounds for loop-carried values before giving up (each round only weakens a modulus)."""


@dataclass
class Fact:
    """A value's congruence and, when precision was lost, the op or value that lost it."""

    congruence: Congruence
    lost_at: str | None = None


def _is_integer_like(value: SSAValue) -> bool:
    return isinstance(value.type, IntegerType | IndexType)


@dataclass
class DivisibilityAnalysis:
    """Congruences of integer SSA values, computed on demand and cached."""

    facts: dict[SSAValue, Fact] = field(default_factory=dict[SSAValue, Fact])
    # How messages name values: as the printed kernel does (`%5`, `%col`).
    names: ValueNames = field(default_factory=ValueNames)

    def congruence(self, value: SSAValue) -> Congruence:
        return self.fact(value).congruence

    def divisibility(self, value: SSAValue, divisor: int) -> Divisibility:
        return divisibility(self.congruence(value), divisor)

    def fact(self, value: SSAValue) -> Fact:
        cached = self.facts.get(value)
        if cached is not None:
            return cached
        if not _is_integer_like(value):
            fact = Fact(Congruence.unknown(), f"{self.names.of(value)} is not an integer")
        elif isinstance(value, BlockArgument):
            fact = self._block_argument(value)
        else:
            assert isinstance(value, OpResult)
            fact = self._op_result(value)
        self.facts[value] = fact
        return fact

    # ----- block arguments: loop induction variables and loop-carried values

    def _block_argument(self, value: BlockArgument) -> Fact:
        parent = value.block.parent_op()
        if isinstance(parent, scf.ForOp) and value.block is parent.body.block:
            if value.index == 0:
                return self._induction_variable(parent)
            return self._loop_carried(parent, value.index - 1)
        owner = f"'{parent.name}'" if parent is not None else "a block"
        return Fact(
            Congruence.unknown(),
            f"{self.names.of(value)} (an argument of {owner}) is not known at compile time",
        )

    def _induction_variable(self, loop: scf.ForOp) -> Fact:
        # iv = lb + k * step for k >= 0: iv ≡ lb modulo whatever every step value is a multiple of.
        lower = self.fact(loop.lb)
        step = self.fact(loop.step)
        sequence = arithmetic_sequence(lower.congruence, step.congruence)
        return Fact(sequence, _first_loss(lower, step))

    def _loop_carried(self, loop: scf.ForOp, position: int) -> Fact:
        """All loop-carried values of `loop` at once: join the inits with what the body yields."""
        args = loop.body.block.args[1:]
        state = [self.fact(init) for init in loop.iter_args]
        for _ in range(MAX_LOOP_ITERATIONS):
            yielded = self._yielded_facts(loop, state)
            merged = [
                Fact(s.congruence.join(y.congruence), s.lost_at or y.lost_at)
                for s, y in zip(state, yielded, strict=True)
            ]
            if [m.congruence for m in merged] == [s.congruence for s in state]:
                break
            state = merged
        else:
            state = [Fact(Congruence.unknown(), "a loop-carried value that keeps changing")] * len(
                args
            )
        for arg, fact in zip(args, state, strict=True):
            self.facts[arg] = fact
        self._forget_loop_body(loop)
        return state[position]

    def _yielded_facts(self, loop: scf.ForOp, state: list[Fact]) -> list[Fact]:
        """What the body yields when its loop-carried arguments are as in `state`."""
        for arg, fact in zip(loop.body.block.args[1:], state, strict=True):
            self.facts[arg] = fact
        self._forget_loop_body(loop)
        terminator = loop.body.block.last_op
        assert isinstance(terminator, scf.YieldOp)
        return [self.fact(value) for value in terminator.operands]

    def _forget_loop_body(self, loop: scf.ForOp) -> None:
        """Drop facts inside the loop body: they depend on the loop-carried state."""
        for op in loop.body.walk():
            for result in op.results:
                self.facts.pop(result, None)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self.facts.pop(arg, None)

    # ----- op results

    def _op_result(self, value: OpResult) -> Fact:
        op = value.op
        if isinstance(op, scf.ForOp):
            # A loop's result is its last loop-carried value: covered by the loop-carried fact.
            return self.fact(op.body.block.args[value.index + 1])
        # Along the class hierarchy: vector-capable arith ops subclass xDSL's scalar ones.
        rule = next((_RULES[cls] for cls in type(op).__mro__ if cls in _RULES), None)
        if rule is None:
            return Fact(Congruence.unknown(), f"'{op.name}' is not understood by the analysis")
        return rule(self, op)

    def operand_facts(self, op: Operation) -> list[Fact]:
        return [self.fact(operand) for operand in op.operands]


def _first_loss(*facts: Fact) -> str | None:
    return next((f.lost_at for f in facts if f.lost_at is not None), None)


def _binary(
    combine: Callable[[Congruence, Congruence], Congruence],
) -> Callable[[DivisibilityAnalysis, Operation], Fact]:
    def rule(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
        lhs, rhs = analysis.operand_facts(op)
        return Fact(combine(lhs.congruence, rhs.congruence), _first_loss(lhs, rhs))

    return rule


def _constant_rule(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    assert isinstance(op, arith.ConstantOp)
    if isinstance(op.value, IntegerAttr):
        return Fact(Congruence.exactly(op.value.value.data))
    return Fact(Congruence.unknown(), "a non-integer constant")


def _same_as_operand(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    return analysis.fact(op.operands[0])


def _shift_left(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    lhs, rhs = analysis.operand_facts(op)
    if rhs.congruence.is_constant and rhs.congruence.residue >= 0:
        return Fact(lhs.congruence * Congruence.exactly(2**rhs.congruence.residue), lhs.lost_at)
    return Fact(Congruence.unknown(), f"'{op.name}' by an amount that is not a constant")


def _divide(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    lhs, rhs = analysis.operand_facts(op)
    divisor = rhs.congruence.residue if rhs.congruence.is_constant else None
    if divisor is None or divisor == 0:
        return Fact(Congruence.unknown(), f"'{op.name}' by a value that is not a constant")
    c = lhs.congruence
    if c.is_constant:
        if isinstance(op, arith.DivUIOp) and (c.residue < 0 or divisor < 0):
            return Fact(Congruence.unknown(), f"'{op.name}' of a negative constant")
        return Fact(Congruence.exactly(truncated_quotient(c.residue, divisor)))
    unsigned_ok = divisor > 0 or not isinstance(op, arith.DivUIOp)
    quotient = exact_quotient(c, divisor) if unsigned_ok else None
    if quotient is not None:
        return Fact(quotient, lhs.lost_at)
    return Fact(
        Congruence.unknown(),
        f"'{op.name}' by {divisor} of a value not known to be a multiple of {divisor}",
    )


def _remainder(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    lhs, rhs = analysis.operand_facts(op)
    a, b = lhs.congruence, rhs.congruence
    if a.is_constant and b.is_constant and b.residue != 0:
        if isinstance(op, arith.RemUIOp) and (a.residue < 0 or b.residue < 0):
            return Fact(Congruence.unknown(), f"'{op.name}' of a negative constant")
        return Fact(Congruence.exactly(truncated_remainder(a.residue, b.residue)))
    return Fact(remainder_class(a, b), _first_loss(lhs, rhs))


def _select(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    _, if_true, if_false = analysis.operand_facts(op)
    return Fact(if_true.congruence.join(if_false.congruence), _first_loss(if_true, if_false))


def _either_operand(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    lhs, rhs = analysis.operand_facts(op)
    return Fact(lhs.congruence.join(rhs.congruence), _first_loss(lhs, rhs))


def _assume_multiple(analysis: DivisibilityAnalysis, op: Operation) -> Fact:
    assert isinstance(op, AssumeMultipleOp)
    promised = Congruence.of(op.multiple.value.data, 0)
    known = analysis.fact(op.value)
    both = known.congruence.meet(promised)
    # A promise that contradicts what is provable is the user's to keep: trust the promise.
    return Fact(both if both is not None else promised)


_RULES: dict[type[Operation], Callable[[DivisibilityAnalysis, Operation], Fact]] = {
    arith.ConstantOp: _constant_rule,
    arith.AddiOp: _binary(lambda a, b: a + b),
    arith.SubiOp: _binary(lambda a, b: a - b),
    arith.MuliOp: _binary(lambda a, b: a * b),
    arith.ShLIOp: _shift_left,
    arith.DivSIOp: _divide,
    arith.DivUIOp: _divide,
    arith.RemSIOp: _remainder,
    arith.RemUIOp: _remainder,
    arith.IndexCastOp: _same_as_operand,
    arith.ExtSIOp: _same_as_operand,
    arith.SelectOp: _select,
    arith.MinSIOp: _either_operand,
    arith.MaxSIOp: _either_operand,
    arith.MinUIOp: _either_operand,
    arith.MaxUIOp: _either_operand,
    AssumeMultipleOp: _assume_multiple,
}
