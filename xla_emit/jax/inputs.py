"""Seeded inputs, one random stream per argument.

Argument `i` draws from `numpy.random.default_rng([seed, i])`, so an argument's
values depend only on the seed, its position and its own spec: changing one
argument's shape leaves the others' values alone. Floats are standard normal
(drawn in f32, then rounded to the type), signed integers in [-8, 8], unsigned
in [0, 8], preds fair coins (as `xla-emit-run --random-inputs`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.shape import PrimitiveType
from xla_emit.jax.specs import ArgSpec


def seeded_input(spec: ArgSpec, seed: int, position: int) -> np.ndarray:
    rng = np.random.default_rng([seed, position])
    element_type = spec.element_type
    if element_type.is_float:
        values = rng.standard_normal(spec.shape, dtype=np.float32).astype(spec.dtype)
    elif element_type is PrimitiveType.PRED:
        values = rng.integers(0, 2, spec.shape).astype(bool)
    else:
        low = -8 if element_type.is_signed_int else 0
        values = rng.integers(low, 9, spec.shape).astype(spec.dtype)
    return np.asarray(values)


def seeded_inputs(specs: Sequence[ArgSpec], seed: int) -> list[np.ndarray]:
    return [seeded_input(spec, seed, position) for position, spec in enumerate(specs)]
