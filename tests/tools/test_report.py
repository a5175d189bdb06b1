"""The side-by-side report's figures against counts made another way.

XLA's grids against the raw lines of its thunk sequence, XLA's op counts against
the lines of the first snapshot, ours against our kernel printed by
`xla-emit-opt --fusion` and counted off the text, the program's verdicts against
numpy on the runtime's outputs, each kernel's verdict against XLA's kernel and ours
run here on operands from the numpy HLO evaluator (not the runtime the report runs),
the fusion graph's nodes, colours and edges against the HLO text. Fast on the quick
start's MLP of both jax versions; every recorded bundle in the slow run.
"""

from __future__ import annotations

import lzma
import re
import shutil
import sys
import xml.etree.ElementTree as ElementTree
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from xla_emit.emitters import emit_fusion
from xla_emit.emitters.triton.emitter import emit_triton_fusion
from xla_emit.emitters.triton.route import runs_as_triton
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.fusion_configs import block_level_config
from xla_emit.hlo.ir import HloComputation, HloModule
from xla_emit.hlo.npz import load_arrays, read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import Executor
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.jax.bundle import GPU_HLO, INPUTS, OUTPUTS, open_bundle, read_text
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.tools import dump, opt
from xla_emit.tools.fusion_graph import (
    DIFFERS_STROKE,
    EQUAL_STROKE,
    OTHER_FILL,
    ROUTE_FILLS,
    UNCOMPARED_STROKE,
)
from xla_emit.tools.kernel_match import Launch, match_kernel
from xla_emit.tools.report import TRITON_TILES, Report, build_report, html_report

BUNDLES = Path(__file__).resolve().parents[1] / "corpus" / "bundles"
ALL = sorted(path.parent for path in BUNDLES.glob("jax-*/*/bundle.json"))
MLPS = [path for path in ALL if path.name == "mlp"]
_LAUNCH = re.compile(r"\] (\S+) grid: \[([\d, ]+)\] threads: \[([\d, ]+)\]")


def first_operands(folder: Path) -> dict[str, list[np.ndarray]]:
    """Each fusion's operands at its first launch, by the numpy HLO evaluator: a loop's
    body and condition are walked once on the loop's initial state (its first trip)."""
    module = hlo_module(folder)
    found: dict[str, list[np.ndarray]] = {}

    def walk(computation: HloComputation, arguments: list) -> None:
        values: dict = {}
        for instruction in computation.instructions:
            if instruction.opcode == "parameter":
                values[instruction] = arguments[instruction.parameter_number or 0]
                continue
            operands = [values[operand] for operand in instruction.operands]
            if instruction.opcode == "while":
                for called in instruction.called_computations:
                    walk(called, operands)
            if instruction.opcode == "fusion":
                found.setdefault(instruction.name, flatten_value(tuple(operands)))
            values[instruction] = evaluate_instruction(instruction, operands)

    walk(module.entry, list(read_inputs(str(folder / INPUTS), module.entry)))
    return found


@cache
def hlo_module(folder: Path) -> HloModule:
    return parse_hlo_module((folder / GPU_HLO).read_text(), str(folder / GPU_HLO))


def xla_kernel_text(folder: Path, kernel: str, suffix: str) -> str | None:
    """The first snapshot of a pass log (or a TTIR file) of XLA's dump, read here."""
    module_name = open_bundle(folder).module_name
    for name in (kernel, re.sub(r"[^A-Za-z0-9_]", "_", kernel)):
        for path in (folder / "xla").glob(f"{module_name}.{name}.{suffix}*"):
            data = path.read_bytes()
            text = (lzma.decompress(data) if path.suffix == ".xz" else data).decode()
            return text if suffix == "ttir.txt" else read_pass_log(path)[0].text
    return None


def differing(ours: list[np.ndarray], theirs: list[np.ndarray]) -> str:
    """`equal`, or how many elements of the first differing result differ and where first."""
    for number, (mine, xla) in enumerate(zip(ours, theirs, strict=True)):
        mine, xla = np.asarray(mine).reshape(-1), np.asarray(xla).reshape(-1)
        width = f"u{mine.dtype.itemsize}"
        bad = mine.view(width) != xla.view(width)
        if mine.dtype.kind == "f" or mine.dtype.name == "bfloat16":
            both_nan = np.isnan(mine.astype(np.float64)) & np.isnan(xla.astype(np.float64))
            bad &= ~both_nan
        if bad.any():
            shape = np.asarray(ours[number]).shape
            index = ", ".join(str(int(i)) for i in np.unravel_index(int(np.argmax(bad)), shape))
            return f"{int(bad.sum())} of {mine.size} elements differ; first at result {number} [{index}]"
    return "equal"


def run_xla_kernel(folder: Path, kernel: str, operands: list[np.ndarray]) -> tuple[list, str]:
    """XLA's kernel run here on `operands`, with ours: (ours, the verdict's prefix)."""
    module = hlo_module(folder)
    fusion = next(i for c in module.computations for i in c.instructions if i.name == kernel)
    if runs_as_triton(fusion):
        ours_module = emit_triton_fusion(fusion)
        warps = block_level_config(fusion).num_warps
        executor = TileExecutor(ours_module, num_warps=warps)
        programs = executor.num_programs(executor.entry_function())
        arguments = [
            np.asarray(a).reshape(o.array_shape.dimensions)
            for a, o in zip(operands, fusion.operands, strict=True)
        ]
        ours = executor.run(arguments)
        outcome = ""
        for suffix, note in (("xtile-to-triton.txt", ""), ("ttir.txt", " (XLA's TTIR)")):
            text = xla_kernel_text(folder, kernel, suffix)
            if text is None:
                continue
            theirs_module = parse_mlir(text, suffix)[0]
            try:
                theirs = TileExecutor(theirs_module, num_warps=warps, programs=programs).run(
                    arguments
                )
            except Exception as error:  # noqa: BLE001 - the report says "not run" then
                outcome = outcome or f"not run: {str(error).splitlines()[0]}"
                continue
            return ours, differing(ours, theirs) + note
        return ours, outcome
    text = xla_kernel_text(folder, kernel, "mlir-passes.log")
    assert text is not None, kernel
    ours = Executor(emit_fusion(module, fusion)).run(operands)
    theirs = Executor(parse_mlir(text, kernel)[0]).run(operands)
    return ours, differing(ours, theirs)


def expected_verdict(
    folder: Path, kernel: str, ours_route: str, operands: dict[str, list[np.ndarray]]
) -> str:
    hlo = (folder / GPU_HLO).read_text()
    line = re.search(rf"^\s*(?:ROOT )?%{re.escape(kernel)} = .*$", hlo, re.M)
    assert line is not None, kernel
    called = re.search(r"calls=%([\w.\-]+)", line[0])
    body = ""
    if called is not None:
        body = hlo[hlo.index(f"%{called[1]} (") :].split("\n}", 1)[0]
    if '"dynamic_slice_fusion"' in line[0] or "dynamic_slice_config" in body:
        return "XLA launches no kernel"
    if ours_route == "kernel library":
        return "library call"
    return run_xla_kernel(folder, kernel, operands[kernel])[1]


def verdict_matches(verdict: str, expected: str) -> bool:
    """The report's verdict carries the two values after the index: the prefix must agree."""
    if " elements differ; first at " in expected:
        return verdict.startswith(expected + ":")
    return verdict == expected


def report_of(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert dump.main([str(folder), "--report"]) == 0
    return capsys.readouterr().out


def table(markdown: str, heading: str) -> list[list[str]]:
    section = markdown[markdown.index(heading) :]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    end = next((i for i, row in enumerate(cells[2:], 2) if row[0] == "output"), len(cells))
    return cells[2:end]


def xla_launches(folder: Path) -> dict[str, str]:
    """Kernel name -> `blocks x threads`, multiplied out from the raw thunk lines."""
    bundle = open_bundle(folder)
    text = read_text(folder / "xla" / f"{bundle.module_name}.thunk_sequence.txt")
    launches: dict[str, str] = {}
    for name, grid, threads in _LAUNCH.findall(text):
        blocks = int(np.prod([int(g) for g in grid.split(",")]))
        launches[name] = f"{blocks} x {int(np.prod([int(t) for t in threads.split(',')]))}"
    return launches


def text_op_count(log: Path) -> int:
    """Ops of the first snapshot, counted off its lines (MLIR prints `func.return` bare)."""
    body = read_pass_log(log)[0].body
    ops = re.findall(r'^\s*(?:%[^=\n]*= )?"?([a-z_]+\.[\w.]+|return)"?[ (\n]', body, re.M)
    return sum(op != "builtin.module" for op in ops)


def printed_op_count(folder: Path, kernel: str, capsys: pytest.CaptureFixture[str]) -> int:
    # The generic form prints every op on a line of its own, regions' ops included.
    assert (
        opt.main([str(folder), "--fusion", kernel, "--emit", "xla", "--mlir-print-op-generic"]) == 0
    )
    printed = capsys.readouterr().out
    ops = re.findall(r'^\s*(?:%[^=\n]*= )?"?([a-z_]+\.[\w.]+)"?[ (\n]', printed, re.M)
    return sum(op != "builtin.module" for op in ops)


def replay_count(folder: Path, kernel: str, capsys: pytest.CaptureFixture[str]) -> str:
    """`k of n` off `xla-emit-dump --fusion K --replay --no-outputs`'s table."""
    assert dump.main([str(folder), "--fusion", kernel, "--replay", "--no-outputs"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    return f"{sum(row[2] == 'yes' for row in rows)} of {len(rows)}"


def check_report(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    markdown = report_of(folder, capsys)
    rows = table(markdown, "## Kernels")
    launches = xla_launches(folder)
    bundle = open_bundle(folder)
    assert len(rows) == int(re.search(r"(\d+) kernels of XLA's", markdown)[1])  # type: ignore[index]
    operands = first_operands(folder)
    for _, name, _, ours, xla_grid, our_grid, xla_ops, our_ops, _, replayed, verdict in rows:
        kernel = name.strip("`")
        key = re.sub(r"[^A-Za-z0-9_]", "_", kernel)
        assert xla_grid == launches.get(key, "-"), kernel
        log = bundle.pass_log(kernel)
        assert xla_ops == (str(text_op_count(log)) if log is not None else "-"), kernel
        assert replayed == (replay_count(folder, kernel, capsys) if log is not None else "-")
        if ours.endswith("emitter"):
            assert int(our_ops) == printed_op_count(folder, kernel, capsys), kernel
            assert re.fullmatch(r"\d+ x \d+", our_grid)
        elif ours == TRITON_TILES:
            assert int(our_ops) == printed_op_count(folder, kernel, capsys), kernel
            # One program per output tile, 32 threads per warp: XLA's own launch.
            assert our_grid == xla_grid, kernel
        else:
            assert (our_grid, our_ops) == ("-", "-")
        expected = expected_verdict(folder, kernel, ours, operands)
        assert verdict_matches(verdict, expected), (kernel, verdict, expected)

    module = parse_hlo_module((folder / GPU_HLO).read_text(), str(folder / GPU_HLO))
    ours = ModuleRuntime(module).run(read_inputs(str(folder / INPUTS), module.entry))
    expected = load_arrays(str(folder / OUTPUTS), "outputs")
    program = table(markdown, "## The whole program")
    assert len(program) == len(expected) == len(ours)
    for (name, shape, verdict), array in zip(program, ours, strict=True):
        theirs = expected[name].view(array.dtype).reshape(array.shape)
        error = np.max(np.abs(theirs.astype(np.float64) - array.astype(np.float64)), initial=0)
        assert shape == f"{array.dtype}{list(array.shape)}"
        if error == 0:
            assert verdict == "bit-identical"
        else:
            assert verdict.startswith(f"max abs error {error:.6g},")


@pytest.mark.parametrize("folder", MLPS, ids=[p.parent.name for p in MLPS])
def test_the_report_of_the_quick_start_is_right(folder: Path, capsys: pytest.CaptureFixture[str]):
    check_report(folder, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("folder", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_the_report_of_every_recorded_bundle_is_right(
    folder: Path, capsys: pytest.CaptureFixture[str]
):
    check_report(folder, capsys)


