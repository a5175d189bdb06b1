"""Congruence arithmetic: by hand, and exhaustively against the values each congruence allows."""

import itertools

import numpy as np
import pytest

from xla_emit.indexing.congruence import (
    Answer,
    Congruence,
    arithmetic_sequence,
    divisibility,
    exact_quotient,
    remainder_class,
    truncated_quotient,
    truncated_remainder,
)

# Constants, unknowns and proper classes, with negative residues too.
SMALL = [Congruence.exactly(v) for v in range(-5, 6)] + [
    Congruence.of(m, r) for m in range(1, 9) for r in range(-2, m)
]
DIVISORS = range(1, 9)


def _values(congruence: Congruence) -> set[int]:
    """The members of `congruence` in a window that covers every residue of every divisor."""
    if congruence.is_constant:
        return {congruence.residue}
    return {congruence.residue + congruence.modulus * t for t in range(-12, 13)}


def _holds(congruence: Congruence, value: int) -> bool:
    if congruence.is_constant:
        return value == congruence.residue
    return (value - congruence.residue) % congruence.modulus == 0


def test_congruence_arithmetic_by_hand() -> None:
    a = Congruence.of(128, 32)  # 128 i + 32
    b = Congruence.exactly(32)
    assert a - b == Congruence.of(128, 0)
    assert a + a == Congruence.of(128, 64)
    assert a * Congruence.exactly(2) == Congruence.of(256, 64)
    # (4i + 2)(4j + 2) = 16ij + 8i + 8j + 4: known mod 8 only.
    assert Congruence.of(4, 2) * Congruence.of(4, 2) == Congruence.of(8, 4)
    assert Congruence.of(128, 0).join(Congruence.exactly(64)) == Congruence.of(64, 0)
    assert Congruence.of(4, 1).meet(Congruence.of(6, 3)) == Congruence.of(12, 9)
    assert Congruence.of(4, 1).meet(Congruence.of(6, 2)) is None


def test_three_answers() -> None:
    assert divisibility(Congruence.of(256, 128), 128).answer is Answer.PROVEN
    misaligned = divisibility(Congruence.of(128, 32), 128)
    assert (misaligned.answer, misaligned.remainder) == (Answer.DISPROVEN, 32)
    partly = divisibility(Congruence.of(32, 1), 128)
    assert (partly.answer, partly.remainder, partly.known_modulus, partly.remainder_mod_known) == (
        Answer.DISPROVEN,
        None,
        32,
        1,
    )
    assert divisibility(Congruence.of(64, 0), 128).answer is Answer.UNKNOWN
    assert divisibility(Congruence.exactly(-3), 4).remainder == 1  # mathematical, not C, remainder


@pytest.mark.parametrize("name", ["add", "sub", "mul"])
def test_arithmetic_holds_for_every_pair_of_members(name: str) -> None:
    combine = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__}[name]
    for a, b in itertools.product(SMALL, repeat=2):
        result = {"add": a + b, "sub": a - b, "mul": a * b}[name]
        for x, y in itertools.product(_values(a), _values(b)):
            assert _holds(result, combine(x, y)), (a, b, x, y, result)


def test_join_holds_for_members_of_either() -> None:
    for a, b in itertools.product(SMALL, repeat=2):
        joined = a.join(b)
        assert all(_holds(joined, x) for x in _values(a) | _values(b)), (a, b, joined)


def test_meet_is_exactly_the_common_members() -> None:
    window = range(-60, 61)
    for a, b in itertools.product(SMALL, repeat=2):
        both = [x for x in window if _holds(a, x) and _holds(b, x)]
        met = a.meet(b)
        if met is None:
            assert not both, (a, b)
        else:
            assert both == [x for x in window if _holds(met, x)], (a, b, met)


def test_multiples_of_divides_every_member() -> None:
    for congruence in SMALL:
        multiple = congruence.multiples_of()
        for x in _values(congruence):
            assert x == 0 if multiple == 0 else x % multiple == 0, (congruence, x)


def test_divisibility_answers_agree_with_the_members() -> None:
    for congruence, divisor in itertools.product(SMALL, DIVISORS):
        found = divisibility(congruence, divisor)
        remainders = {x % divisor for x in _values(congruence)}
        if found.answer is Answer.PROVEN:
            assert remainders == {0}, (congruence, divisor)
        elif found.answer is Answer.DISPROVEN:
            assert 0 not in remainders, (congruence, divisor)
        else:
            assert 0 in remainders and len(remainders) > 1, (congruence, divisor)
        if found.remainder is not None:
            assert remainders == {found.remainder}, (congruence, divisor)
        known = {x % found.known_modulus for x in _values(congruence)}
        assert known == {found.remainder_mod_known}, (congruence, divisor)


def test_truncated_division_matches_c() -> None:
    dividends = np.arange(-20, 21)
    for divisor in [-7, -3, -1, 1, 2, 5]:
        quotients = [truncated_quotient(int(x), divisor) for x in dividends]
        remainders = [truncated_remainder(int(x), divisor) for x in dividends]
        assert quotients == np.trunc(dividends / divisor).astype(int).tolist()
        assert remainders == np.fmod(dividends, divisor).tolist()


def test_arithmetic_sequence_holds_for_every_term() -> None:
    for start, step in itertools.product(SMALL, repeat=2):
        sequence = arithmetic_sequence(start, step)
        for lower, stride, k in itertools.product(_values(start), _values(step), range(6)):
            assert _holds(sequence, lower + k * stride), (start, step, lower, stride, k)


def test_exact_quotient_holds_for_every_member() -> None:
    for congruence, divisor in itertools.product(SMALL, [-4, -2, 1, 2, 3, 4]):
        quotient = exact_quotient(congruence, divisor)
        if quotient is None:
            continue
        for x in _values(congruence):
            assert x % divisor == 0 and _holds(quotient, x // divisor), (congruence, divisor, x)


def test_remainder_class_holds_for_c_and_floor_remainders() -> None:
    for dividend, divisor in itertools.product(SMALL, repeat=2):
        result = remainder_class(dividend, divisor)
        for x, d in itertools.product(_values(dividend), _values(divisor)):
            if d != 0:
                assert _holds(result, truncated_remainder(x, d)), (dividend, divisor, x, d)
                assert _holds(result, x % d), (dividend, divisor, x, d)
