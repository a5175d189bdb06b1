"""`inline` on a threefry-style hash: round after round of values with several users.

The inliner visits callees before callers and cleans each function with CSE before
its callers inline it (as XLA's inliner runs with CSE), so the kernel stays as large
as the emitted one instead of doubling per round. Oracle for the bits: the same
rounds written with numpy's uint32 arithmetic.
"""

from __future__ import annotations

import numpy as np

from xla_emit import api
from xla_emit.emitters import emit_hlo_module
from xla_emit.runtime.pipeline import apply_pipeline

ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
HALF = 32


def threefry_like(blocks: int) -> str:
    """Counts from an iota split in two halves, `blocks` x 4 rounds, halves concatenated."""
    lines = [
        "  k0 = u32[] parameter(0)",
        "  k1 = u32[] parameter(1)",
        f"  io = u32[{2 * HALF}]{{0}} iota(), iota_dimension=0",
        f"  a = u32[{HALF}]{{0}} slice(io), slice={{[0:{HALF}]}}",
        f"  b = u32[{HALF}]{{0}} slice(io), slice={{[{HALF}:{2 * HALF}]}}",
        f"  K0 = u32[{HALF}]{{0}} broadcast(k0), dimensions={{}}",
        f"  K1 = u32[{HALF}]{{0}} broadcast(k1), dimensions={{}}",
        f"  x0_0 = u32[{HALF}]{{0}} add(a, K0)",
        f"  x1_0 = u32[{HALF}]{{0}} add(b, K1)",
    ]
    shape = f"u32[{HALF}]{{0}}"
    step = 0
    for block in range(blocks):
        for r in range(4):
            rotation = ROTATIONS[(block % 2) * 4 + r]
            s, n = step, step + 1
            lines += [
                f"  x0_{n} = {shape} add(x0_{s}, x1_{s})",
                f"  cl_{n} = u32[] constant({rotation})",
                f"  cr_{n} = u32[] constant({32 - rotation})",
                f"  bl_{n} = {shape} broadcast(cl_{n}), dimensions={{}}",
                f"  br_{n} = {shape} broadcast(cr_{n}), dimensions={{}}",
                f"  sl_{n} = {shape} shift-left(x1_{s}, bl_{n})",
                f"  sr_{n} = {shape} shift-right-logical(x1_{s}, br_{n})",
                f"  rot_{n} = {shape} or(sl_{n}, sr_{n})",
                f"  x1_{n} = {shape} xor(rot_{n}, x0_{n})",
            ]
            step = n
    lines.append(
        f"  ROOT out = u32[{2 * HALF}]{{0}} concatenate(x0_{step}, x1_{step}), dimensions={{0}}"
    )
    body = "\n".join(lines)
    return (
        f"HloModule threefry\n\nf {{\n{body}\n}}\n\nENTRY e {{\n  k0 = u32[] parameter(0)\n"
        f"  k1 = u32[] parameter(1)\n"
        f"  ROOT r = u32[{2 * HALF}]{{0}} fusion(k0, k1), kind=kLoop, calls=f\n}}\n"
    )


def numpy_rounds(k0: int, k1: int, blocks: int) -> np.ndarray:
    counts = np.arange(2 * HALF, dtype=np.uint32)
    x0 = counts[:HALF] + np.uint32(k0)
    x1 = counts[HALF:] + np.uint32(k1)
    for block in range(blocks):
        for r in range(4):
            rotation = ROTATIONS[(block % 2) * 4 + r]
            x0 = x0 + x1
            x1 = ((x1 << np.uint32(rotation)) | (x1 >> np.uint32(32 - rotation))) ^ x0
    return np.concatenate([x0, x1])


def _ops(text: str, passes: str) -> int:
    module = emit_hlo_module(text, "threefry.hlo")
    apply_pipeline(module, passes)
    return sum(1 for _ in module.walk())


def test_inlining_a_hash_does_not_grow_the_kernel() -> None:
    text = threefry_like(3)
    emitted = _ops(text, "xla-lower-xla-to-scf")
    inlined = _ops(text, "xla-lower-xla-to-scf,inline")
    assert inlined <= emitted, f"inline grew the kernel from {emitted} to {inlined} ops"


def test_the_hash_bits_match_numpy() -> None:
    text = threefry_like(3)
    keys = [np.uint32(0x12345678), np.uint32(0x9ABCDEF0)]
    expected = numpy_rounds(0x12345678, 0x9ABCDEF0, 3)
    for out in (api.run_reference(text, keys)[0], api.run_hlo(text, keys)[0]):
        np.testing.assert_array_equal(out, expected)
