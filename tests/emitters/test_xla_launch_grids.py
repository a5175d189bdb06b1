"""Our emitters launch each corpus fusion on the grid XLA:GPU launches it on.

XLA's grid comes from its emitter's output in the corpus of today's XLA
(`tests/corpus/gpu`): threads from `scf.forall`, blocks from `xla.workgroup_id`.
Ours comes from the kernel our emitters write for the same fusion of XLA's
optimized module. The fusions where the two differ are listed with the reason
(strict expected failures: a fix makes the test say so).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_emit.emitters import emit_fusion
from xla_emit.hlo import parse_hlo_module
from xla_emit.interpreter import Executor
from xla_emit.interpreter.lanes import LaunchGrid
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import read_pass_log

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
GPU_LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz"))

# Kernel id -> why our grid differs from XLA's.
KNOWN_DIFFERENCES: dict[str, str] = {
    "transpose_bf16_packed/input_transpose_fusion": (
        "XLA's packed transpose (two bf16 per 4-byte shared-memory word, 64x64 tiles); our "
        "transpose emitter has no packed variant and tiles 32x32"
    ),
}


def kernel_id(log: Path) -> str:
    return f"{log.parts[-3]}/{log.name[: -len('.mlir-passes.log.xz')]}"


def params() -> list:
    return [
        pytest.param(
            log,
            id=kernel_id(log),
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[kernel_id(log)])]
            if kernel_id(log) in KNOWN_DIFFERENCES
            else [],
        )
        for log in GPU_LOGS
    ]


def grid_of(executor: Executor) -> LaunchGrid:
    return executor.launch_grid(executor.entry_function())


@pytest.mark.parametrize("log", params())
def test_our_launch_grid_is_xlas(log: Path) -> None:
    program = log.parents[1]
    theirs, _ = parse_mlir(read_pass_log(log)[0].text, str(log))
    hlo = parse_hlo_module((program / "gpu.hlo").read_text(), str(program / "gpu.hlo"))
    kernel = log.name[: -len(".mlir-passes.log.xz")]
    fusions = [i for i in hlo.entry.instructions if i.opcode == "fusion"]
    (fusion,) = [i for i in fusions if i.name.replace(".", "_") == kernel]
    ours = emit_fusion(hlo, fusion)
    xla_grid, our_grid = grid_of(Executor(theirs)), grid_of(Executor(ours))
    assert (our_grid.threads, our_grid.blocks) == (xla_grid.threads, xla_grid.blocks)


def test_the_known_differences_name_corpus_kernels() -> None:
    assert set(KNOWN_DIFFERENCES) <= {kernel_id(log) for log in GPU_LOGS}
