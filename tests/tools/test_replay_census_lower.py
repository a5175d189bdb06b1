"""Our passes on XLA's before-snapshots give XLA's after-snapshots: the lower passes.

For every corpus log (`tests/corpus/gpu/*/gpu/*.mlir-passes.log.xz`) and each of
the passes from `xla-simplify-arith` up to `xla-flatten-tensors`, every step of
XLA's pipeline that ran the pass is replayed (`xla-emit-dump --replay`): our pass
on the module XLA's pass received must leave the same ops, counted by name, as
the module XLA's next pass received. The oracle is XLA's own dump.

The outputs (both modules run on the same random inputs) cost an interpreter run
per step: a few kernels of distinct shapes are checked by default, the whole
corpus under `-m slow`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from xla_emit.ir.pass_log import Snapshot, before_lower_tensors, read_pass_log
from xla_emit.tools.dump import ReplayRow, replay, replay_step, replay_steps

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
# jax 0.12's logs of ordinary programs (reductions, layernorm, a KV-cache update, a
# scatter-add with repeated indices) beside jax 0.10.2's corpus.
CORPUS_JAX_0_12 = CORPUS.parent / "gpu-jax-0.12"
LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz")) + sorted(
    CORPUS_JAX_0_12.glob("*/gpu/*.mlir-passes.log.xz")
)
LOWER_PASSES = (
    "xla-simplify-arith",
    "xla-erase-dead-functions",
    "xla-lower-xla-to-scf",
    "inline",
    "xla-gpu-peel-loops",
    "xla-lower-xla-loops-to-scf",
    "xla-flatten-tensors",
)
# One kernel per emitter shape: a loop with a reduction inside, a shared-memory
# transpose, an in-place update, a slice of a loop fusion.
OUTPUT_KERNELS = (
    "multi_dim_sum/gpu/loop_reduce_fusion",
    "transpose_2d/gpu/input_transpose_fusion",
    "dynamic_update_slice/gpu/loop_dynamic_update_slice_fusion",
    "slices/gpu/loop_add_fusion",
)


def _name(log: Path) -> str:
    root = CORPUS if log.is_relative_to(CORPUS) else CORPUS.parent
    return str(log.relative_to(root)).removesuffix(".mlir-passes.log.xz")


@cache
def _snapshots(log: Path) -> list[Snapshot]:
    return before_lower_tensors(read_pass_log(log))


def _census_rows(log: Path, pass_name: str) -> list[ReplayRow]:
    steps = [s for s in replay_steps(_snapshots(log)) if s.before.pass_arg == pass_name]
    return [replay_step(step, str(log), outputs=False) for step in steps]


def test_the_corpus_is_there() -> None:
    assert len(LOGS) >= 28
    assert len([log for log in LOGS if log.is_relative_to(CORPUS_JAX_0_12)]) >= 10
    assert all(any(_name(log) == kernel for log in LOGS) for kernel in OUTPUT_KERNELS)


@pytest.mark.parametrize("pass_name", LOWER_PASSES)
@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_our_pass_leaves_xlas_ops(log: Path, pass_name: str) -> None:
    rows = _census_rows(log, pass_name)
    assert rows, f"XLA's pipeline in {_name(log)} has no {pass_name} step"
    for row in rows:
        assert (row.same_ops, row.note) == ("yes", ""), f"step {row.index}"


def _assert_same_outputs(log: Path) -> None:
    rows = replay(_snapshots(log), str(log), LOWER_PASSES)
    assert {row.pass_name for row in rows} == set(LOWER_PASSES)
    for row in rows:
        assert row.same_outputs == "yes", f"step {row.index} {row.pass_name}: {row.note}"


@pytest.mark.parametrize("kernel", OUTPUT_KERNELS)
def test_our_pass_computes_what_xlas_computes(kernel: str) -> None:
    _assert_same_outputs(CORPUS / f"{kernel}.mlir-passes.log.xz")


@pytest.mark.slow
@pytest.mark.parametrize("log", LOGS, ids=_name)
def test_our_pass_computes_what_xlas_computes_on_the_whole_corpus(log: Path) -> None:
    _assert_same_outputs(log)
