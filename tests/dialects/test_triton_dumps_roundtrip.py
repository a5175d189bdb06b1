"""XLA's Triton logs parse, verify, print to a fixed point and print XLA's TTIR text back.

Read from the committed corpus (`tests/corpus/triton`) or, where it is not there
yet, from raw `--xla_dump_to` folders under `$XLA_TRITON_DUMPS` (default
`/work/triton-dumps`); skipped when neither exists. Covered: every distinct
snapshot of `*.xtile-to-triton.txt` and `*.canonicalize-cse.txt` (XLA prints
these in the generic syntax, with MLIR's pretty-form locations, which
`xla_emit.ir.pass_log` drops) and every `*.ttir.txt` (pretty syntax), whose
printed text must equal XLA's up to the differences `normalized` takes out
(see `test_xla_dumps_roundtrip`), plus one: xDSL's indexing maps parenthesize
a chain of `mod`s that XLA prints bare (`pid mod 128 mod 16`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.dialects.test_xla_dumps_roundtrip import normalized
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import Snapshot, parse_pass_log, read_log_text, strip_pretty_locations
from xla_emit.ir.verify import verify_module

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "triton"
_RAW = Path(os.environ.get("XLA_TRITON_DUMPS", "/work/triton-dumps"))
ROOT = _CORPUS if _CORPUS.is_dir() else _RAW
LOGS = sorted(
    [*ROOT.rglob("*.xtile-to-triton.txt*"), *ROOT.rglob("*.canonicalize-cse.txt*")]
    if ROOT.is_dir()
    else []
)
TTIR = sorted(ROOT.rglob("*.ttir.txt*")) if ROOT.is_dir() else []
needs_dumps = pytest.mark.skipif(not LOGS, reason=f"no XLA Triton dumps under {ROOT}")


def round_trip(text: str, name: str) -> str:
    module, source_map = parse_mlir(text, name)
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, f"{name} (printed)")
    assert str(again) == printed, "printing is not a fixed point"
    return printed


def distinct(log: Path) -> list[Snapshot]:
    seen: set[str] = set()
    kept: list[Snapshot] = []
    for snapshot in parse_pass_log(read_log_text(log), str(log)):
        if snapshot.body not in seen:
            seen.add(snapshot.body)
            kept.append(snapshot)
    return kept


_MOD_CHAIN = re.compile(r"\(([\w]+ mod \d+)\) mod")


def xla_spelling(text: str) -> list[str]:
    return normalized(_MOD_CHAIN.sub(r"\1 mod", text))


@pytest.mark.slow
@needs_dumps
@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}/{p.name}")
def test_every_triton_log_snapshot_round_trips(log: Path) -> None:
    snapshots = distinct(log)
    assert snapshots[0].index == 0
    for snapshot in snapshots:
        round_trip(snapshot.text, f"{log}#{snapshot.index}")


@needs_dumps
@pytest.mark.parametrize("ttir", TTIR, ids=lambda p: f"{p.parts[-3]}/{p.parts[-2]}/{p.name}")
def test_every_ttir_prints_xlas_text(ttir: Path) -> None:
    text = read_log_text(ttir)
    printed = round_trip(text, str(ttir))
    assert xla_spelling(printed) == xla_spelling(text)


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
