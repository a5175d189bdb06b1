"""XLA:CPU's `rng-bit-generator` bits, the oracle of tests/hlo/test_hlo_rng_bits.py.

Run with a jax install (the corpus was made with jax 0.10.2):

    python tools/make_rng_corpus.py tests/corpus/rng/rng_bit_generator.npz

For each algorithm, shape and unsigned type, `NAME_state` and `NAME_bits` hold
`lax.rng_bit_generator`'s results on the key `key` (u32[4], which jax bitcasts
to the u64[2] state).
"""

from __future__ import annotations

import sys

import jax
import numpy as np
from jax import lax

ALGORITHMS = ("THREE_FRY", "PHILOX", "DEFAULT")
SHAPES = ((), (5,), (3, 4), (3, 5), (2, 3, 5), (1, 7))
DTYPES = (np.uint8, np.uint16, np.uint32, np.uint64)
KEY = np.array([0x12345678, 0x9ABCDEF0, 0xDEADBEEF, 0x0BADF00D], np.uint32)


def main(path: str) -> None:
    jax.config.update("jax_enable_x64", True)
    arrays: dict[str, np.ndarray] = {"key": KEY}
    for name in ALGORITHMS:
        algorithm = getattr(lax.RandomAlgorithm, f"RNG_{name}")
        for shape in SHAPES:
            for dtype in DTYPES:
                state, bits = jax.jit(
                    lambda k, s=shape, d=dtype, a=algorithm: lax.rng_bit_generator(
                        k, s, dtype=d, algorithm=a
                    )
                )(KEY)
                label = f"{name}_{'x'.join(map(str, shape)) or 'scalar'}_{np.dtype(dtype).name}"
                arrays[f"{label}_state"] = np.asarray(state)
                arrays[f"{label}_bits"] = np.asarray(bits)
    np.savez_compressed(path, **arrays)


if __name__ == "__main__":
    main(sys.argv[1])
