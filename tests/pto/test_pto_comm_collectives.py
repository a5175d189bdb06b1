"""Collectives over simulated ranks (`pto.comm.*`) in the PTO executor, on our own
kernels: each rank's buffer is one group operand; goldens are worked here from
pto-isa's comm pages (rank order, rows concatenated, element-wise reductions)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.pto.kernel_checks import run_kernel
from xla_emit.diagnostics import UserError

MEMBER = "!pto.partition_tensor_view<128xf32>"
WHOLE = "!pto.partition_tensor_view<384xf32>"
TILE = "!pto.tile_buf<vec, 1x128xf32>"
rng = np.random.default_rng(9)


def run(line: str, first: str, buffers: list[np.ndarray]) -> None:
    """Run `line` with `%x` (of type `first`), three ranks' buffers and two staging tiles."""
    text = f"""func.func @k(%x: {first}, %g0: {MEMBER}, %g1: {MEMBER}, %g2: {MEMBER},
                %ping: {TILE}, %pong: {TILE}) {{
  {line}
  return
}}"""
    tiles = [np.zeros((1, 128), np.float32), np.zeros((1, 128), np.float32)]
    run_kernel(text, [*buffers, *tiles])


def whole_to_ranks(op: str, root: int) -> str:
    """`op` between the whole buffer `%x` and the three ranks, staged through `%ping`."""
    return (
        f"pto.comm.{op}(%x, recv(%ping), group(%g0, %g1, %g2) : {WHOLE}, {TILE}, "
        f"{MEMBER}, {MEMBER}, {MEMBER}) {{root = {root} : i32}}"
    )


def ranks() -> list[np.ndarray]:
    return [rng.uniform(-5, 5, 128).astype(np.float32) for _ in range(3)]


def test_broadcast_writes_the_source_into_every_rank() -> None:
    src, members = rng.uniform(-5, 5, 128).astype(np.float32), ranks()
    line = (
        f"pto.comm.tbroadcast(%x, recv(%ping, %pong), group(%g0, %g1, %g2) : {MEMBER}, {TILE}, "
        f"{TILE}, {MEMBER}, {MEMBER}, {MEMBER}) {{root = 1 : i32}}"
    )
    run(line, MEMBER, [src, *members])
    for member in members:
        assert member.tolist() == src.tolist()


def test_gather_concatenates_the_ranks_in_order() -> None:
    dst, members = np.zeros(384, np.float32), ranks()
    run(whole_to_ranks("tgather", 0), WHOLE, [dst, *members])
    for r in range(3):
        for i in range(128):
            assert dst[128 * r + i] == members[r][i]


def test_scatter_hands_each_rank_its_block() -> None:
    src, members = rng.uniform(-5, 5, 384).astype(np.float32), ranks()
    run(whole_to_ranks("tscatter", 2), WHOLE, [src, *members])
    for r in range(3):
        assert members[r].tolist() == src[128 * r : 128 * (r + 1)].tolist()


@pytest.mark.parametrize(
    ("kind", "f"),
    [
        ("sum", lambda a, b, c: np.float32(np.float32(a + b) + c)),
        ("max", lambda a, b, c: max(a, b, c)),
        ("min", lambda a, b, c: min(a, b, c)),
    ],
)
def test_reduce_combines_the_ranks_element_by_element(kind: str, f: Callable[..., float]) -> None:
    dst, members = np.zeros(128, np.float32), ranks()
    line = (
        f"pto.comm.treduce(%x, %ping, recv(%pong), group(%g0, %g1, %g2) : {MEMBER}, {TILE}, "
        f"{TILE}, {MEMBER}, {MEMBER}, {MEMBER}) {{reduceOp = #pto.reduce_op<{kind}>, "
        "root = 0 : i32}"
    )
    run(line, MEMBER, [dst, *members])
    a, b, c = members
    assert dst.tolist() == [float(f(a[i], b[i], c[i])) for i in range(128)]


def test_a_gather_into_a_buffer_of_another_size_is_a_located_error() -> None:
    line = (
        f"pto.comm.tgather(%x, recv(%ping), group(%g0, %g1, %g2) : {MEMBER}, {TILE}, "
        f"{MEMBER}, {MEMBER}, {MEMBER}) {{root = 0 : i32}}"
    )
    with pytest.raises(UserError) as caught:
        run(line, MEMBER, [np.zeros(128, np.float32), *ranks()])
    assert caught.value.message.startswith("'pto.comm.tgather' op 3 members of 128 rows")
