"""XLA's snapshots after `xla-lower-tensors` parse, verify and print back.

From the module `xla-lower-tensors` leaves (pointers, `llvm.load %p invariant`,
shared memory as `llvm.mlir.global ... {addr_space = 3}`) down to the `llvm`
dialect module `xla-lower-to-llvm-gpu` leaves (`nvvm.shfl.sync`, `nvvm.barrier`,
`llvm.intr.maximum`, structs of a reducer's results). As for the earlier
snapshots (`test_xla_dumps_roundtrip.py`): printing is a fixed point and the text
is XLA's up to the differences listed there, and two more of the `llvm` dialect:
xDSL prints no `// pred: ^bb0` comments after block labels, and writes
`llvm.mlir.constant(0) : i64` where MLIR writes `llvm.mlir.constant(0 : i64) : i64`
(the same constant).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from test_xla_dumps_roundtrip import _NAMES, normalized  # pyright: ignore[reportPrivateUsage]

from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import LOWER_TENSORS, Snapshot, read_pass_log
from xla_emit.ir.verify import verify_module

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
GPU_LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz"))
_COMMENT = re.compile(r"\s*//.*$", re.MULTILINE)
_TYPED_CONSTANT = re.compile(r"llvm\.mlir\.constant\((-?\d+) : i\d+\)")


@cache
def after_lower_tensors(log: Path) -> list[Snapshot]:
    """The distinct snapshots from the one `xla-lower-tensors` leaves to the last."""
    snapshots = read_pass_log(log)
    start = next(i for i, s in enumerate(snapshots) if s.pass_arg == LOWER_TENSORS)
    seen: set[str] = set()
    kept: list[Snapshot] = []
    for snapshot in snapshots[start + 1 :]:
        if snapshot.body not in seen:
            seen.add(snapshot.body)
            kept.append(snapshot)
    return kept


def lowered_normalized(text: str) -> list[str]:
    text = _COMMENT.sub("", text)
    return normalized(_TYPED_CONSTANT.sub(r"llvm.mlir.constant(\1)", text))


def assert_round_trips(text: str, name: str) -> None:
    module, source_map = parse_mlir(text, name)
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, f"{name} (printed)")
    assert str(again) == printed, "printing is not a fixed point"
    assert lowered_normalized(printed) == lowered_normalized(text)


def first_sightings() -> list[tuple[Path, Snapshot]]:
    """The snapshots that first show an op, attribute or dialect name, over the corpus."""
    seen: set[str] = set()
    chosen: list[tuple[Path, Snapshot]] = []
    for log in GPU_LOGS:
        for snapshot in after_lower_tensors(log):
            names = set(_NAMES.findall(snapshot.body))
            if names - seen:
                chosen.append((log, snapshot))
            seen |= names
    return chosen


def test_the_lowered_snapshots_are_there() -> None:
    passes = {s.pass_arg for log in GPU_LOGS[:1] for s in read_pass_log(log)}
    assert {"xla-merge-pointers", "xla-lower-to-llvm-gpu", "reconcile-unrealized-casts"} <= passes


@pytest.mark.parametrize(
    ("log", "snapshot"),
    first_sightings(),
    ids=lambda v: v.parts[-3] if isinstance(v, Path) else f"{v.index}-{v.pass_arg}",
)
def test_each_lowered_construct_round_trips(log: Path, snapshot: Snapshot) -> None:
    assert_round_trips(snapshot.text, f"{log}#{snapshot.index}")


@pytest.mark.slow
@pytest.mark.parametrize("log", GPU_LOGS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-19]}")
def test_every_lowered_snapshot_round_trips(log: Path) -> None:
    for snapshot in after_lower_tensors(log):
        assert_round_trips(snapshot.text, f"{log}#{snapshot.index}")


def test_the_normalization_keeps_a_different_constant() -> None:
    xla = "%0 = llvm.mlir.constant(16 : i32) : i32 // pred: ^bb0"
    assert lowered_normalized(xla) == lowered_normalized("%c = llvm.mlir.constant(16) : i32")
    assert lowered_normalized(xla) != lowered_normalized("%c = llvm.mlir.constant(8) : i32")
