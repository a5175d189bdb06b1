"""Congruences `x ≡ residue (mod modulus)` of integers and the question "is x a multiple of d".

The number theory behind the TPU alignment proof, kept apart from the IR walk
that assigns congruences to SSA values (`passes/analysis/divisibility_analysis.py`).
Modulus 0 means the value is the constant `residue`; modulus 1 means nothing is
known. Every operation is exact: a result holds for every choice of values
that satisfy the operands' congruences.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Congruence:
    """`value ≡ residue (mod modulus)`; modulus 0 = exactly `residue`, modulus 1 = unknown."""

    modulus: int
    residue: int

    @staticmethod
    def exactly(value: int) -> Congruence:
        return Congruence(0, value)

    @staticmethod
    def unknown() -> Congruence:
        return Congruence(1, 0)

    @staticmethod
    def of(modulus: int, residue: int) -> Congruence:
        """Normalized: a non-negative modulus, residue in [0, modulus) unless exact."""
        modulus = abs(modulus)
        return Congruence(modulus, residue % modulus if modulus else residue)

    @property
    def is_constant(self) -> bool:
        return self.modulus == 0

    @property
    def is_unknown(self) -> bool:
        return self.modulus == 1

    def __add__(self, other: Congruence) -> Congruence:
        return Congruence.of(math.gcd(self.modulus, other.modulus), self.residue + other.residue)

    def __sub__(self, other: Congruence) -> Congruence:
        return Congruence.of(math.gcd(self.modulus, other.modulus), self.residue - other.residue)

    def __mul__(self, other: Congruence) -> Congruence:
        # (r1 + m1 x)(r2 + m2 y) = r1 r2 + r1 m2 y + r2 m1 x + m1 m2 x y
        modulus = math.gcd(
            self.modulus * other.modulus,
            self.residue * other.modulus,
            other.residue * self.modulus,
        )
        return Congruence.of(modulus, self.residue * other.residue)

    def join(self, other: Congruence) -> Congruence:
        """What holds for a value that is either `self` or `other`."""
        modulus = math.gcd(self.modulus, other.modulus, self.residue - other.residue)
        return Congruence.of(modulus, self.residue)

    def meet(self, other: Congruence) -> Congruence | None:
        """What holds when both hold (Chinese remaindering); None if they contradict."""
        if self.is_constant or other.is_constant:
            constant, rest = (self, other) if self.is_constant else (other, self)
            if rest.is_constant:
                return constant if constant.residue == rest.residue else None
            return constant if (constant.residue - rest.residue) % rest.modulus == 0 else None
        g = math.gcd(self.modulus, other.modulus)
        if (self.residue - other.residue) % g != 0:
            return None
        lcm = self.modulus // g * other.modulus
        # Step through residues of the smaller modulus class until both agree.
        value = self.residue
        while value % other.modulus != other.residue % other.modulus:
            value += self.modulus
        return Congruence.of(lcm, value)

    def multiples_of(self) -> int:
        """The largest d with every value a multiple of d (0 for the constant 0)."""
        return math.gcd(self.modulus, self.residue)

    def __str__(self) -> str:
        if self.is_constant:
            return f"always {self.residue}"
        if self.is_unknown:
            return "unknown"
        return f"≡ {self.residue} (mod {self.modulus})"


class Answer(Enum):
    PROVEN = "proven"
    DISPROVEN = "disproven"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Divisibility:
    """Whether a value is a multiple of `divisor`; `remainder` is set when it is determined.

    For DISPROVEN without a determined remainder, the value is known modulo
    `known_modulus` only (a divisor of `divisor`), with residue `remainder_mod_known`.
    """

    answer: Answer
    divisor: int
    congruence: Congruence
    remainder: int | None = None

    @property
    def known_modulus(self) -> int:
        c = self.congruence
        return self.divisor if c.is_constant else math.gcd(c.modulus, self.divisor)

    @property
    def remainder_mod_known(self) -> int:
        return self.congruence.residue % self.known_modulus


def divisibility(congruence: Congruence, divisor: int) -> Divisibility:
    """Is a value with this congruence a multiple of `divisor` (> 0)?"""
    if congruence.is_constant or congruence.modulus % divisor == 0:
        remainder = congruence.residue % divisor
        answer = Answer.PROVEN if remainder == 0 else Answer.DISPROVEN
        return Divisibility(answer, divisor, congruence, remainder)
    g = math.gcd(congruence.modulus, divisor)
    if congruence.residue % g != 0:
        return Divisibility(Answer.DISPROVEN, divisor, congruence)
    return Divisibility(Answer.UNKNOWN, divisor, congruence)


def truncated_quotient(dividend: int, divisor: int) -> int:
    """`dividend / divisor` rounded toward zero, as C and `arith.divsi` divide."""
    sign = 1 if (dividend >= 0) == (divisor > 0) else -1
    return abs(dividend) // abs(divisor) * sign


def truncated_remainder(dividend: int, divisor: int) -> int:
    """`dividend % divisor` with the sign of the dividend, as C and `arith.remsi` compute it."""
    return abs(dividend) % abs(divisor) * (1 if dividend >= 0 else -1)


def arithmetic_sequence(start: Congruence, step: Congruence) -> Congruence:
    """What holds for every `start + k * step` with k >= 0 (a loop's induction variable)."""
    return Congruence.of(math.gcd(start.modulus, step.multiples_of()), start.residue)


def exact_quotient(congruence: Congruence, divisor: int) -> Congruence | None:
    """`x / divisor` for a non-constant x when `divisor` divides every x, else None.

    x = r + m t with divisor | r and divisor | m gives x / divisor = r/divisor + (m/divisor) t.
    """
    if congruence.modulus % divisor != 0 or congruence.residue % divisor != 0:
        return None
    return Congruence.of(congruence.modulus // abs(divisor), congruence.residue // divisor)


def remainder_class(dividend: Congruence, divisor: Congruence) -> Congruence:
    """What holds for `x rem d` (any rounding): x - d q is x modulo anything dividing every d."""
    return Congruence.of(math.gcd(dividend.modulus, divisor.multiples_of()), dividend.residue)
