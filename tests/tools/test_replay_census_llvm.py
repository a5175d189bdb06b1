"""Our passes below `xla-lower-tensors` on XLA's snapshots give XLA's next snapshot.

For the corpus logs (`tests/corpus/gpu/*/gpu/*.mlir-passes.log.xz`), each step
of XLA's pipeline from `xla-lower-tensors` on that runs a pass of ours is
replayed (`xla-emit-dump --replay --lowered`): `xla-lower-tensors` (tensors to
pointers, shared memory, barriers), `xla-merge-pointers`, `xla-expand-float-ops`
(the inline tanh) and `xla-lower-to-llvm-gpu` (to the `llvm` and `nvvm` dialects). Our pass on the
module XLA's pass received must leave the same ops, counted by name, as the
module XLA's next pass received; the oracle is XLA's own dump. A kernel of each
kind by default (a reduction with a two-result reducer, a shared-memory
transpose, a dynamic slice's 0-d offset, a vectorized loop); all under `-m slow`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_emit.ir.pass_log import LOWER_TENSORS, read_pass_log
from xla_emit.tools.dump import main, replay_step, replay_steps

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz"))
PASSES = (
    "xla-lower-tensors",
    "xla-merge-pointers",
    "xla-expand-float-ops",
    "xla-lower-to-llvm-gpu",
)
KERNELS = (
    "argmax_rows/gpu/input_reduce_fusion",
    "transpose_2d/gpu/input_transpose_fusion",
    "dynamic_slice/gpu/loop_multiply_fusion",
    "gelu_bf16/gpu/loop_multiply_fusion",
)


def _name(log: Path) -> str:
    return str(log.relative_to(CORPUS)).removesuffix(".mlir-passes.log.xz")


def assert_same_ops(log: Path) -> None:
    snapshots = read_pass_log(log)
    start = next(s.index for s in snapshots if s.pass_arg == LOWER_TENSORS)
    steps = [s for s in replay_steps(snapshots[start:]) if s.before.pass_arg in PASSES]
    assert [s.before.pass_arg for s in steps] == list(PASSES)
    for step in steps:
        row = replay_step(step, str(log), outputs=False)
        assert (row.same_ops, row.note) == ("yes", ""), f"{row.index} {row.pass_name}"


@pytest.mark.parametrize("kernel", KERNELS)
def test_our_lowering_leaves_xlas_ops(kernel: str) -> None:
    assert_same_ops(CORPUS / f"{kernel}.mlir-passes.log.xz")


@pytest.mark.slow
@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_our_lowering_leaves_xlas_ops_in_every_kernel(log: Path) -> None:
    assert_same_ops(log)


def test_replay_lowered_goes_on_to_the_llvm_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    log = CORPUS / "slices" / "gpu" / "loop_add_fusion.mlir-passes.log.xz"
    assert main([str(log), "--replay", "--lowered", "--passes", ",".join(PASSES)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    # The census only below xla-lower-tensors: the interpreter does not run pointers.
    assert [(row[1], row[2], row[3]) for row in rows] == [(p, "yes", "-") for p in PASSES]
    assert main([str(log), "--replay", "--passes", ",".join(PASSES)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == []
