"""Our loop passes on XLA's before-snapshots give XLA's after-snapshots: same ops, same outputs.

For every corpus log and each of `xla-unswitch-loops`, `xla-vectorize-loads-stores`
and `xla-gpu-optimize-loops`, `xla-emit-dump`'s replay runs our pass on the module
XLA's pass received and compares with what XLA's next pass received: the op
census (op names and counts, hence the vector widths' ops and the unrolled
copies) and the outputs of both modules on the same random inputs. The oracle
is XLA's own snapshot, which shares no code with our passes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects import func, scf

from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import Snapshot, before_lower_tensors, read_pass_log
from xla_emit.tools.dump import ReplayStep, apply_to_functions, format_replay, replay, replay_step

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
# jax 0.12's logs of ordinary programs (reductions, layernorm, a KV-cache update, a
# scatter-add with repeated indices) beside jax 0.10.2's corpus.
CORPUS_JAX_0_12 = CORPUS.parent / "gpu-jax-0.12"
LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz")) + sorted(
    CORPUS_JAX_0_12.glob("*/gpu/*.mlir-passes.log.xz")
)
PASSES = ("xla-unswitch-loops", "xla-vectorize-loads-stores", "xla-gpu-optimize-loops")

# (kernel/log, pass) -> why ours differs from XLA's there. Empty: none does.
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {}


def _log_id(log: Path) -> str:
    kernel = f"{log.parents[1].name}/{log.name.removesuffix('.mlir-passes.log.xz')}"
    return kernel if log.is_relative_to(CORPUS) else f"jax-0.12/{kernel}"


@cache
def _snapshots(log: Path) -> list[Snapshot]:
    return before_lower_tensors(read_pass_log(log))


def _cases() -> list[object]:
    cases: list[object] = []
    for log in LOGS:
        for pass_name in PASSES:
            marks = []
            reason = KNOWN_DIFFERENCES.get((_log_id(log), pass_name))
            if reason is not None:
                marks.append(pytest.mark.xfail(reason=reason, strict=True))
            cases.append(
                pytest.param(log, pass_name, marks=marks, id=f"{_log_id(log)}:{pass_name}")
            )
    return cases


def test_the_corpus_is_there() -> None:
    assert len(LOGS) >= 28


@pytest.mark.parametrize(("log", "pass_name"), _cases())
def test_our_pass_gives_xlas_after_snapshot(log: Path, pass_name: str) -> None:
    rows = replay(_snapshots(log), str(log), passes=[pass_name])
    assert rows, f"XLA's log has no {pass_name} step"
    different = [row for row in rows if row.same_ops != "yes" or row.same_outputs != "yes"]
    assert not different, "\n" + format_replay(different)


def test_the_comparison_sees_a_census_difference() -> None:
    """Our unrolling compared with XLA's snapshot before unrolling: the check can fail."""
    log = CORPUS / "gelu_f32" / "gpu" / "loop_multiply_fusion.mlir-passes.log.xz"
    snapshots = _snapshots(log)
    before = next(s for s in snapshots if s.pass_arg == "xla-gpu-optimize-loops")
    row = replay_step(ReplayStep(before, before, (before.anchor,), ()), str(log))
    assert (row.same_ops, row.same_outputs) == ("no", "yes")
    # The GELU body (2 addf, 6 mulf, 1 tanh, 1 extract, 1 insert) three more
    # times, no loop, and its bounds' constants 1 and 4 unused.
    assert row.note == (
        "+6 arith.addf -2 arith.constant +18 arith.mulf +3 math.tanh -1 scf.for -1 scf.yield"
        " +3 vector.extract +3 vector.insert"
    )


TWO_FUNCTIONS = """
func.func @first(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (f32) {
    %y = arith.addf %a, %x : f32
    scf.yield %y : f32
  }
  func.return %r : f32
}
func.func @second(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (f32) {
    %y = arith.addf %a, %x : f32
    scf.yield %y : f32
  }
  func.return %r : f32
}
"""


def _loops_by_function(anchors: list[str]) -> dict[str, int]:
    module, _ = parse_mlir(TWO_FUNCTIONS, "<two>")
    apply_to_functions(module, "xla-gpu-optimize-loops", anchors)
    return {
        function.sym_name.data: sum(isinstance(op, scf.ForOp) for op in function.walk())
        for function in module.ops
        if isinstance(function, func.FuncOp)
    }


def test_a_function_pass_applies_to_the_anchored_functions_only() -> None:
    # XLA interleaves vectorize and unroll per function: after unrolling @first,
    # @second is not unrolled yet.
    assert _loops_by_function(["first"]) == {"first": 0, "second": 1}
    assert _loops_by_function(["first", "second"]) == {"first": 0, "second": 0}
    # A module pass (no anchor) runs on everything.
    assert _loops_by_function([""]) == {"first": 0, "second": 0}
