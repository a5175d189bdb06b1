"""`rng-bit-generator` in the evaluator: the Random123 known answers of the two hashes,
and XLA:CPU's bits and states (tests/corpus/rng, made by tools/make_rng_corpus.py) for
every algorithm, several shapes (odd, even, scalar) and widths."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.api import run_reference
from xla_emit.diagnostics import UserError
from xla_emit.hlo.rng_bits import philox_4x32, threefry_2x32

CORPUS = np.load(Path(__file__).parent.parent / "corpus" / "rng" / "rng_bit_generator.npz")
U32 = np.uint32


@pytest.mark.parametrize(
    ("counter", "key", "expected"),
    [
        ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
        ((0xFFFFFFFF,) * 2, (0xFFFFFFFF,) * 2, (0x1CB996FC, 0xBB002BE7)),
        ((0x243F6A88, 0x85A308D3), (0x13198A2E, 0x03707344), (0xC4923A9C, 0x483DF7A0)),
    ],
)
def test_threefry_2x32_20_known_answers(
    counter: tuple[int, int], key: tuple[int, int], expected: tuple[int, int]
) -> None:
    words = threefry_2x32(np.array([counter[0]], U32), np.array([counter[1]], U32), *map(U32, key))
    assert [int(w[0]) for w in words] == list(expected)


@pytest.mark.parametrize(
    ("counter", "key", "expected"),
    [
        ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        (
            (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
            (0xA4093822, 0x299F31D0),
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
        ),
    ],
)
def test_philox_4x32_10_known_answers(
    counter: tuple[int, ...], key: tuple[int, int], expected: tuple[int, ...]
) -> None:
    words = philox_4x32([np.array([c], U32) for c in counter], *map(U32, key))
    assert [int(w[0]) for w in words] == list(expected)


def rng_module(algorithm: str, shape: tuple[int, ...], dtype: str) -> str:
    """The module jax writes for `lax.rng_bit_generator` on a u32[4] key."""
    bits = f"{dtype}[{','.join(map(str, shape))}]"
    return f"""HloModule rng
ENTRY main {{
  k = u32[4]{{0}} parameter(0)
  k2 = u32[2,2]{{1,0}} reshape(k)
  s = u64[2]{{0}} bitcast-convert(k2)
  r = (u64[2]{{0}}, {bits}) rng-bit-generator(s), algorithm={algorithm}
  s1 = u64[2]{{0}} get-tuple-element(r), index=0
  s2 = u32[2,2]{{1,0}} bitcast-convert(s1)
  s3 = u32[4]{{0}} reshape(s2)
  b = {bits} get-tuple-element(r), index=1
  ROOT t = (u32[4]{{0}}, {bits}) tuple(s3, b)
}}
"""


CASES = sorted(name[: -len("_bits")] for name in CORPUS.files if name.endswith("_bits"))


@pytest.mark.parametrize("case", CASES)
def test_rng_bit_generator_gives_xla_cpu_bits(case: str) -> None:
    algorithm, rest = case.rsplit("_", 2)[0], case.rsplit("_", 2)[1:]
    sizes, dtype = rest
    shape = () if sizes == "scalar" else tuple(int(n) for n in sizes.split("x"))
    hlo_type = {"uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64"}[dtype]
    text = rng_module(f"rng_{algorithm.lower()}", shape, hlo_type)
    state, bits = run_reference(text, [CORPUS["key"]])
    np.testing.assert_array_equal(state, CORPUS[f"{case}_state"])
    np.testing.assert_array_equal(bits, CORPUS[f"{case}_bits"])


def test_rng_bit_generator_f32_bits_are_the_u32_bits() -> None:
    text = rng_module("rng_three_fry", (3, 5), "f32")
    _, bits = run_reference(text, [CORPUS["key"]])
    np.testing.assert_array_equal(bits.view(U32), CORPUS["THREE_FRY_3x5_uint32_bits"])


def test_rng_bit_generator_rejects_an_unknown_algorithm() -> None:
    with pytest.raises(UserError, match="unsupported algorithm 'rng_mersenne'"):
        run_reference(rng_module("rng_mersenne", (4,), "u32"), [CORPUS["key"]])
