"""The runtime's own rng-bit-generator, one-device collectives and bitcast, each against
numbers worked out independently of the reference evaluator (which `--check` compares the
runtime with, so the two must share no code).

Oracles: Random123's known-answer vectors for ThreeFry-2x32-20 and Philox-4x32-10 (Salmon
et al., SC 2011), XLA:CPU's own bits and states (`tests/corpus/rng`), and bytes laid out by
hand for the bitcasts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from xla_emit.api import parse_hlo
from xla_emit.hlo.shape import ArrayShape, Layout, PrimitiveType
from xla_emit.runtime import ModuleRuntime
from xla_emit.runtime.library_rng import generate, philox4x32, threefry2x32
from xla_emit.runtime.module_runtime import reinterpret_bytes

RUNTIME = Path(__file__).resolve().parents[2] / "xla_emit" / "runtime"
RNG = Path(__file__).resolve().parents[1] / "corpus" / "rng" / "rng_bit_generator.npz"

# (key, counter) -> words, from Random123's kat_vectors.
THREEFRY_KAT = [
    ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]
PHILOX_KAT = [
    ((0, 0), (0, 0, 0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    (
        (0xFFFFFFFF, 0xFFFFFFFF),
        (0xFFFFFFFF,) * 4,
        (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD),
    ),
    (
        (0xA4093822, 0x299F31D0),
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


@pytest.mark.parametrize(("key", "counter", "expected"), THREEFRY_KAT)
def test_threefry_known_answers(key, counter, expected) -> None:
    words = threefry2x32(tuple(np.array([c], np.uint64) for c in counter), key)
    assert tuple(int(w[0]) for w in words) == expected


@pytest.mark.parametrize(("key", "counter", "expected"), PHILOX_KAT)
def test_philox_known_answers(key, counter, expected) -> None:
    words = philox4x32([np.array([c], np.uint64) for c in counter], key)
    assert tuple(int(w[0]) for w in words) == expected


def _cases() -> list[tuple[str, str]]:
    with np.load(RNG) as corpus:
        return sorted({tuple(name.rsplit("_", 1)[0].split("_", 1)) for name in corpus.files
                       if name.endswith("_bits")})  # fmt: skip


ALGORITHM = {"THREE": "rng_three_fry", "PHILOX": "rng_philox", "DEFAULT": "rng_default"}


@pytest.mark.parametrize(("algorithm", "case"), _cases())
def test_bits_and_state_are_xlas(algorithm: str, case: str) -> None:
    """Every algorithm, shape and width XLA:CPU recorded, bit for bit, with the new state."""
    with np.load(RNG) as corpus:
        prefix = f"{algorithm}_{case}"
        if algorithm == "THREE":
            prefix = f"THREE_{case}"
        state = corpus["key"].view(np.uint64)
        bits = corpus[f"{prefix}_bits"]
        new_state = corpus[f"{prefix}_state"]
    name = "rng_three_fry" if algorithm == "THREE" else ALGORITHM[algorithm]
    ours_state, ours_bits = generate(name, state, bits.shape, bits.dtype.itemsize * 8)
    np.testing.assert_array_equal(ours_bits, bits)
    np.testing.assert_array_equal(ours_state.view(new_state.dtype).reshape(new_state.shape),
                                  new_state)  # fmt: skip


def test_the_runtime_imports_none_of_the_evaluators_computations() -> None:
    """module_runtime and the library modules import no `xla_emit.hlo.eval*`, `rng_bits` or
    evaluator op implementations (input checks and tuple flattening aside)."""
    allowed = {"check_arguments", "flatten_value"}
    for path in [RUNTIME / "module_runtime.py", *RUNTIME.glob("library*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
                names = {alias.name for alias in node.names}
                assert not module.startswith("xla_emit.hlo.eval_"), (path.name, module)
                assert module != "xla_emit.hlo.rng_bits", path.name
                if module == "xla_emit.hlo.evaluator":
                    assert names <= allowed, (path.name, names)


COLLECTIVES = """HloModule c

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  x = f32[4]{0} parameter(0)
  r = f32[4]{0} all-reduce(x), replica_groups={}, to_apply=add
  g = f32[4]{0} all-gather(x), dimensions={0}, replica_groups={}
  kept = f32[4]{0} collective-permute(x), source_target_pairs={{0,0}}
  sent = f32[4]{0} collective-permute(x), source_target_pairs={{0,1},{1,0}}
  ROOT t = (f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}) tuple(r, g, kept, sent)
}
"""


def test_one_device_collectives() -> None:
    """A group of one: the operand back; a permute that sends device 0 elsewhere and
    receives from device 1 (absent) leaves zeros."""
    x = np.array([1.5, -2.0, 3.25, 4.0], np.float32)
    reduced, gathered, kept, sent = ModuleRuntime(parse_hlo(COLLECTIVES)).run([x])
    for result in (reduced, gathered, kept):
        np.testing.assert_array_equal(result, x)
    np.testing.assert_array_equal(sent, np.zeros(4, np.float32))


def test_a_bitcast_reads_bytes_in_layout_order() -> None:
    # u32[2] {0x04030201, 0x08070605} in memory: bytes 1..8; s8[2,4] row-major reads them in order.
    words = np.array([0x04030201, 0x08070605], np.uint32)
    source = ArrayShape(PrimitiveType.U32, (2,))
    target = ArrayShape(PrimitiveType.S8, (2, 4))
    np.testing.assert_array_equal(
        reinterpret_bytes(words, source, target), np.arange(1, 9, dtype=np.int8).reshape(2, 4)
    )
    # A column-major f32[2,3] ({0,1}) stores column by column; bitcast to a row-major s32[3,2]
    # reads those words in order, as integers.
    values = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    column_major = ArrayShape(PrimitiveType.F32, (2, 3), Layout((0, 1)))
    rows = ArrayShape(PrimitiveType.S32, (3, 2))
    expected = np.array([1.0, 4.0, 2.0, 5.0, 3.0, 6.0], np.float32).view(np.int32).reshape(3, 2)
    np.testing.assert_array_equal(reinterpret_bytes(values, column_major, rows), expected)
