"""XLA's flags for the differential tester's worker (both of its compiles); no jax here.

XLA may skip the rounding to a 16-bit float between ops it computes in f32 ("excess
precision", on by default). XLA:GPU then drops roundings that XLA:CPU keeps: for bf16
`sine(convert(u16 60666))` the H100 module takes the sine of 60666, XLA:CPU of 60672 (the
bf16 value), 0.96 against 1.0 (seed 102099). Without it every op of XLA's module rounds
where the program does, so XLA:CPU's outputs are its oracle.
"""

from __future__ import annotations

FLAGS = ("--xla_allow_excess_precision=false",)


def with_tester_flags(xla_flags: str) -> str:
    """The value of XLA_FLAGS for the worker: the caller's flags, then the tester's."""
    return " ".join([xla_flags, *FLAGS]).strip()
