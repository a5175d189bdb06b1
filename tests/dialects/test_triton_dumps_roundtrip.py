"""XLA's Triton logs parse, verify, print to a fixed point and print XLA's TTIR text back.

Read from the committed corpus (`tests/corpus/triton`, made by
`tools/make_corpus.py --triton`), or from raw `--xla_dump_to` folders under
`$XLA_TRITON_DUMPS` when that is set. Covered: every distinct
snapshot of `*.xtile-to-triton.txt`, `*.canonicalize-cse.txt` and of
`*.triton-to-llvm.txt` up to the TTIR `convert-triton-to-tritongpu` receives (XLA prints
these in the generic syntax, with MLIR's pretty-form locations, which
`xla_emit.ir.pass_log` drops) and every `*.ttir.txt` (pretty syntax), whose
printed text must equal XLA's up to the differences `normalized` takes out
(see `test_xla_dumps_roundtrip`), plus two: xDSL's indexing maps parenthesize
a chain of `mod`s that XLA prints bare (`pid mod 128 mod 16`), and an nvvm enum
that older MLIR prints `#nvvm<grid_dep_action wait>` prints
`#nvvm.grid_dep_action<wait>`. The logs' snapshots are compared in the generic
syntax XLA prints them in, the `*.ttir.txt` files in the pretty one.
"""

from __future__ import annotations

import io
import os
import re
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from tests.dialects.test_xla_dumps_roundtrip import normalized
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import (
    Snapshot,
    modelled_snapshots,
    parse_pass_log,
    read_log_text,
    strip_pretty_locations,
)
from xla_emit.ir.verify import verify_module

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "triton"
# Raw `--xla_dump_to` folders can stand in for (or be tried beside) the corpus.
ROOT = Path(os.environ.get("XLA_TRITON_DUMPS", _CORPUS))
LOGS = sorted(
    [
        *ROOT.rglob("*.xtile-to-triton.txt*"),
        *ROOT.rglob("*.canonicalize-cse.txt*"),
        *ROOT.rglob("*.triton-to-llvm.txt*"),
    ]
    if ROOT.is_dir()
    else []
)
TTIR = sorted(ROOT.rglob("*.ttir.txt*")) if ROOT.is_dir() else []


def label(path: Path) -> str:
    """`jax-0.12/softmax_f32/triton/triton_softmax.2.ttir.txt.xz`: the file under ROOT."""
    return str(path.relative_to(ROOT))


needs_dumps = pytest.mark.skipif(not LOGS, reason=f"no XLA Triton dumps under {ROOT}")


def round_trip(text: str, name: str) -> ModuleOp:
    module, source_map = parse_mlir(text, name)
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, f"{name} (printed)")
    assert str(again) == printed, "printing is not a fixed point"
    return module


def generic_text(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(module)
    return stream.getvalue()


@cache
def distinct(log: Path) -> list[Snapshot]:
    seen: set[str] = set()
    kept: list[Snapshot] = []
    for snapshot in modelled_snapshots(parse_pass_log(read_log_text(log), str(log))):
        if snapshot.body not in seen:
            seen.add(snapshot.body)
            kept.append(snapshot)
    return kept


_MOD_CHAIN = re.compile(r"\(([\w]+ mod \d+)\) mod")
# Older MLIR prints `#nvvm<grid_dep_action wait>`; we print `#nvvm.grid_dep_action<wait>`.
_OPAQUE_NVVM = re.compile(r"#nvvm<(\w+) (\w+)>")


def xla_spelling(text: str) -> list[str]:
    text = _OPAQUE_NVVM.sub(r"#nvvm.\1<\2>", text)
    return normalized(_MOD_CHAIN.sub(r"\1 mod", text))


_NAMES = re.compile(r"\b(?:[a-z_]+\.)+[a-z_]+\b|#[\w.]+")


def first_sightings() -> list[tuple[Path, int]]:
    """The snapshots that first show an op or attribute name, over every log: a quick
    test covers each construct the logs hold (the slow one reads them all)."""
    seen: set[str] = set()
    chosen: list[tuple[Path, int]] = []
    for log in LOGS:
        for snapshot in distinct(log):
            names = set(_NAMES.findall(snapshot.body))
            if names - seen:
                chosen.append((log, snapshot.index))
            seen |= names
    return chosen


def check_snapshot(log: Path, snapshot: Snapshot) -> None:
    module = round_trip(snapshot.text, f"{log}#{snapshot.index}")
    # XLA prints these logs in the generic syntax: so do we, to compare.
    assert xla_spelling(generic_text(module)) == xla_spelling(snapshot.body)


@needs_dumps
@pytest.mark.parametrize(
    ("log", "index"),
    first_sightings() if LOGS else [],
    ids=lambda v: label(v) if isinstance(v, Path) else f"#{v}",
)
def test_each_construct_of_the_triton_logs_round_trips(log: Path, index: int) -> None:
    (snapshot,) = [s for s in distinct(log) if s.index == index]
    check_snapshot(log, snapshot)


@pytest.mark.slow
@needs_dumps
@pytest.mark.parametrize("log", LOGS, ids=lambda p: label(p))
def test_every_triton_log_snapshot_round_trips(log: Path) -> None:
    snapshots = distinct(log)
    assert snapshots[0].index == 0
    for snapshot in snapshots:
        check_snapshot(log, snapshot)


@needs_dumps
@pytest.mark.parametrize("ttir", TTIR, ids=lambda p: label(p))
def test_every_ttir_prints_xlas_text(ttir: Path) -> None:
    text = read_log_text(ttir)
    module = round_trip(text, str(ttir))
    assert xla_spelling(str(module)) == xla_spelling(text)


def test_pretty_locations_are_dropped_in_place() -> None:
    text = (
        '#loc = "fusion"\n'
        '  ^bb0(%arg0: memref<4xf32> "fusion", %arg1: index [unknown]):\n'
        '    %0 = "arith.constant"() <{value = 0 : index}> : () -> index "multiply.1"\n'
        '    %1 = tt.extern_elementwise %a {libname = "", symbol = "f"} : (f32) -> f32\n'
    )
    assert strip_pretty_locations(text) == (
        "\n"
        "  ^bb0(%arg0: memref<4xf32>, %arg1: index):\n"
        '    %0 = "arith.constant"() <{value = 0 : index}> : () -> index\n'
        '    %1 = tt.extern_elementwise %a {libname = "", symbol = "f"} : (f32) -> f32\n'
    )
