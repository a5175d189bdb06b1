"""The side-by-side report's figures against counts made another way.

XLA's grids against the raw lines of its thunk sequence, XLA's op counts against
the lines of the first snapshot, ours against our kernel printed by
`xla-emit-opt --fusion` and counted off the text, the program's verdicts against
numpy on the runtime's outputs. Fast on the quick start's MLP of both jax
versions; every recorded bundle in the slow run.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo.npz import load_arrays, read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.jax.bundle import GPU_HLO, INPUTS, OUTPUTS, open_bundle, read_text
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.tools import dump, opt
from xla_emit.tools.report import TRITON_TILES, html_report

BUNDLES = Path(__file__).resolve().parents[1] / "corpus" / "bundles"
# jax 0.12's scan_rnn holds `fusion-start`, which the HLO front end does not read yet.
ALL = [
    path
    for path in sorted(path.parent for path in BUNDLES.glob("jax-*/*/bundle.json"))
    if f"{path.parent.name}/{path.name}" != "jax-0.12.0.1/scan_rnn"
]
MLPS = [path for path in ALL if path.name == "mlp"]
_LAUNCH = re.compile(r"\] (\S+) grid: \[([\d, ]+)\] threads: \[([\d, ]+)\]")


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
    for _, name, _, ours, xla_grid, our_grid, xla_ops, our_ops, _, replayed in rows:
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


def test_the_html_page_holds_the_same_tables():
    markdown = "# T\n\ntext `x`\n\n| a | b |\n|---|---|\n| `1` | <2> |\n"
    page = html_report(markdown)
    assert "<h1>T</h1>" in page and "<p>text <code>x</code></p>" in page
    assert "<tr><th>a</th><th>b</th></tr>" in page
    assert "<tr><td><code>1</code></td><td>&lt;2&gt;</td></tr>" in page
