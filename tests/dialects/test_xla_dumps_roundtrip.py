"""Every IR that today's XLA dumps for the corpus parses, verifies and prints back.

The corpus (`tests/corpus/gpu`, made by `tools/make_corpus.py --gpu`) holds,
per fusion, XLA:GPU's pass log and XLA:CPU's emitter IR. For every distinct
snapshot up to the one `xla-lower-tensors` receives, and every CPU kernel:
printing is a fixed point (print, parse, print gives the same text), and the
printed text is XLA's text up to the differences the README lists under
"Working with XLA's dumps": SSA value names (xDSL numbers its own), attribute
aliases (printed inline), `builtin.module`, `func.return`, `func.call` (printed
in full),
`%r:2 =` and `%r#1` (printed `%r, %r_1 =` and `%r_1`), `-> ()` and argument
attributes on declarations (xDSL 0.74 drops the latter when it reads them), `floordiv` in
indexing maps (XLA prints `/`), and how a float constant is spelled (the value
is the same).
"""

from __future__ import annotations

import lzma
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import Snapshot, before_lower_tensors, read_pass_log
from xla_emit.ir.verify import verify_module

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
GPU_LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz"))
CPU_KERNELS = sorted(CORPUS.glob("*/cpu/*.mlir.xz"))


@cache
def distinct_snapshots(log: Path) -> list[Snapshot]:
    """The snapshots up to `xla-lower-tensors` whose text differs from every earlier one."""
    seen: set[str] = set()
    kept: list[Snapshot] = []
    for snapshot in before_lower_tensors(read_pass_log(log)):
        if snapshot.body not in seen:
            seen.add(snapshot.body)
            kept.append(snapshot)
    return kept


_ALIAS = re.compile(r"^(#[\w$.]+) = (.*)$", re.MULTILINE)
_FLOAT = re.compile(r"(?<![\w.#%])-?\d+\.\d+(?:[eE][-+]?\d+)?")
_HEX = re.compile(r"\b0x[0-9A-Fa-f]+\b")
_VALUE = re.compile(r"%[\w$.-]+(?::\d+|#\d+)?")
# A function declaration's signature, up to its `attributes`.
_DECLARATION = re.compile(r"^(\s*func\.func private @.*?\))( (?:-> .*?)?attributes .*[^{]$)", re.M)
_RESULT_GROUP = re.compile(r"^(\s*)%_(?:, %_)+ = ", re.MULTILINE)


def normalized(text: str) -> list[str]:
    """`text` with the differences the module docstring lists taken out, line by line."""
    aliases = dict(_ALIAS.findall(text))
    text = _ALIAS.sub("", text)
    for name in sorted(aliases, key=len, reverse=True):
        text = re.sub(re.escape(name) + r"(?![\w$.])", lambda _, n=name: aliases[n], text)
    text = re.sub(r"\bbuiltin\.module\b", "module", text)
    text = re.sub(r"\bfunc\.(return|call)\b", r"\1", text)
    text = re.sub(r"\) -> \(\) attributes", ") attributes", text)
    text = _DECLARATION.sub(lambda m: re.sub(r" \{[^{}]*\}", "", m.group(1)) + m.group(2), text)
    text = text.replace(" floordiv ", " / ")
    text = _FLOAT.sub(lambda m: repr(float(np.float32(float(m.group(0))))), text)
    text = _HEX.sub(lambda m: m.group(0).lower(), text)
    text = _VALUE.sub("%_", text)
    text = _RESULT_GROUP.sub(r"\1%_ = ", text)
    return [" ".join(line.split()) for line in text.split("\n") if line.strip()]


def assert_round_trips(text: str, name: str) -> None:
    module, source_map = parse_mlir(text, name)
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, f"{name} (printed)")
    assert str(again) == printed, "printing is not a fixed point"
    assert normalized(printed) == normalized(text)


_NAMES = re.compile(r"\b(?:[a-z_]+\.)+[a-z_]+\b|#[\w.]+")


def first_sightings() -> list[tuple[Path, Snapshot]]:
    """The snapshots that first show an op, attribute or dialect name, over the corpus.

    Parsing them all covers every construct the dumps contain in a fraction of
    the time the whole set takes (the slow test below).
    """
    seen: set[str] = set()
    chosen: list[tuple[Path, Snapshot]] = []
    for log in GPU_LOGS:
        for snapshot in distinct_snapshots(log):
            names = set(_NAMES.findall(snapshot.body))
            if names - seen:
                chosen.append((log, snapshot))
            seen |= names
    return chosen


def test_the_corpus_is_there() -> None:
    assert len(GPU_LOGS) >= 21 and len(CPU_KERNELS) >= 15


@pytest.mark.parametrize(
    ("log", "snapshot"),
    first_sightings(),
    ids=lambda v: v.parts[-3] if isinstance(v, Path) else f"{v.index}-{v.pass_arg}",
)
def test_each_construct_round_trips(log: Path, snapshot: Snapshot) -> None:
    assert_round_trips(snapshot.text, f"{log}#{snapshot.index}")


@pytest.mark.slow
@pytest.mark.parametrize("log", GPU_LOGS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-19]}")
def test_every_gpu_snapshot_round_trips(log: Path) -> None:
    snapshots = distinct_snapshots(log)
    assert snapshots[0].index == 0
    for snapshot in snapshots:
        assert_round_trips(snapshot.text, f"{log}#{snapshot.index}")


@pytest.mark.parametrize("kernel", CPU_KERNELS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-8]}")
def test_every_cpu_kernel_round_trips(kernel: Path) -> None:
    assert_round_trips(lzma.decompress(kernel.read_bytes()).decode(), str(kernel))


def test_the_normalization_keeps_real_differences() -> None:
    xla = "%0 = arith.constant 9.99999974E-6 : f32\n%1 = arith.addf %0, %0 : f32"
    ours = "%c = arith.constant 1.000000e-05 : f32\n%d = arith.addf %c, %c : f32"
    assert normalized(xla) == normalized(ours)
    assert normalized(xla) != normalized(ours.replace("1.000000e-05", "2.0e-05"))
    assert normalized(xla) != normalized(ours.replace("addf", "mulf"))
