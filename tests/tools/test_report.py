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
from xla_emit.tools.kernel_match import Launch, compare_results, match_kernel
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
            first = f"first at result {number} [{index}]"
            return f"{int(bad.sum())} of {mine.size} elements differ; {first}"
    return "equal"


def run_xla_kernel(
    folder: Path, kernel: str, operands: list[np.ndarray], triton: bool | None = None
) -> tuple[list, str]:
    """XLA's kernel run here on `operands`, with ours (our Triton emitter's tile program
    where `triton`, by default where the runtime takes the Triton route): (ours, the
    verdict's prefix)."""
    module = hlo_module(folder)
    fusion = next(i for c in module.computations for i in c.instructions if i.name == kernel)
    if runs_as_triton(fusion) if triton is None else triton:
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
        # A Triton gemm the runtime gives the library: our tile program for it is compared.
        if re.search(r'"kind":"__triton_(?:nested_)?gemm', line[0]) is None:
            return "library call"
        verdict = run_xla_kernel(folder, kernel, operands[kernel], triton=True)[1]
        return f"library call; our tile program: {verdict}"
    return run_xla_kernel(folder, kernel, operands[kernel])[1]


def verdict_matches(verdict: str, expected: str) -> bool:
    """The report's verdict carries the two values after the index: the prefix must agree."""
    if " elements differ; first at " in expected:
        return verdict.startswith(expected + ":")
    return verdict == expected


def launched_count(folder: Path) -> int:
    """Fusions and custom calls outside fused computations, counted off the HLO text."""
    hlo = (folder / GPU_HLO).read_text()
    fused = set(re.findall(r" fusion(?:-start)?\(.*?calls=%([\w.\-]+)", hlo))
    count = 0
    for block in re.split(r"\n\}\n", hlo):
        header = re.search(r"^(?:ENTRY )?%([\w.\-]+) \(", block, re.M)
        if header is None or header[1] in fused:
            continue
        count += len(
            re.findall(
                r"^\s*(?:ROOT )?%\S+ = .*? (?:fusion|fusion-start|custom-call)\(", block, re.M
            )
        )
    return count


def route_counts(folder: Path) -> dict[str, int]:
    """How many kernels take each route, counted off the bundle's files: a native emitter's
    leaves a pass log, a Triton fusion says `__triton`, a dynamic-slice fusion is a thunk."""
    hlo = (folder / GPU_HLO).read_text()
    bundle = open_bundle(folder)
    thunks = read_text(folder / "xla" / f"{bundle.module_name}.thunk_sequence.txt")
    return {
        "native emitter": len(list((folder / "xla").glob("*.mlir-passes.log*"))),
        "Triton": len(re.findall(r'"kind":"__triton"', hlo)),
        "dynamic-slice copy": thunks.count("kDynamicSliceFusion"),
    }


def check_routes(folder: Path, routes: list[str]) -> None:
    assert len(routes) == launched_count(folder)
    for route, count in route_counts(folder).items():
        assert routes.count(route) == count, route


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


def kernel_log(folder: Path, kernel: str) -> Path | None:
    """XLA's pass log of a kernel, found by name: a native emitter's, else a Triton one's."""
    module_name = open_bundle(folder).module_name
    names = {kernel, re.sub(r"[^A-Za-z0-9_]", "_", kernel)}
    for suffix in ("mlir-passes.log", "xtile-to-triton.txt"):
        for name in sorted(names):
            found = sorted((folder / "xla").glob(f"{module_name}.{name}.{suffix}*"))
            if found:
                return found[0]
    return None


def replay_count(log: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`k of n` off `xla-emit-dump LOG --replay --no-outputs`'s table."""
    assert dump.main([str(log), "--replay", "--no-outputs"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    return f"{sum(row[2] == 'yes' for row in rows)} of {len(rows)}"


def check_report(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    markdown = report_of(folder, capsys)
    rows = table(markdown, "## Kernels")
    launches = xla_launches(folder)
    assert len(rows) == int(re.search(r"(\d+) kernels of XLA's", markdown)[1])  # type: ignore[index]
    check_routes(folder, [row[2] for row in rows])
    operands = first_operands(folder)
    for _, name, _, ours, xla_grid, our_grid, xla_ops, our_ops, _, replayed, verdict in rows:
        kernel = name.strip("`")
        key = re.sub(r"[^A-Za-z0-9_]", "_", kernel)
        assert xla_grid == launches.get(key, "-"), kernel
        log = kernel_log(folder, kernel)
        assert xla_ops == (str(text_op_count(log)) if log is not None else "-"), kernel
        assert replayed == (replay_count(log, capsys) if log is not None else "-")
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


@cache
def report_for(folder: Path) -> Report:
    return build_report(open_bundle(folder))


def entry_edges(folder: Path) -> set[tuple[str, str]]:
    """Data-flow edges read off the entry computation's text (the MLP has no loops): a
    kernel reads what produced its operands, through any op that launches nothing."""
    hlo = (folder / GPU_HLO).read_text()
    entry = hlo[hlo.index("\nENTRY ") + 1 :].split("\n}", 1)[0].splitlines()[1:]
    produced: dict[str, set[str]] = {}
    edges: set[tuple[str, str]] = set()
    for line in entry:
        match = re.match(r"\s*(ROOT )?%([\w.\-]+) = .*? ([a-z\-]+)\(([^)]*)\)", line)
        assert match is not None, line
        root, name, opcode, operands = match.groups()
        sources = set().union(*(produced[o] for o in re.findall(r"%([\w.\-]+)", operands)))
        if opcode == "parameter":
            produced[name] = {f"arg{int(operands)}"}
        elif opcode in ("fusion", "custom-call"):
            edges |= {(source, name) for source in sources}
            produced[name] = {name}
        else:
            produced[name] = sources
        if root:
            edges |= {(source, "outputs") for source in produced[name]}
    return edges


def svg_nodes(svg: str) -> list[ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    space = "{http://www.w3.org/2000/svg}"
    return [g for g in root.iter(f"{space}g") if g.get("class", "").startswith("node ")]


def check_graph_counts(folder: Path) -> None:
    """Kernels, inputs and outputs of the picture, and its fills by route, counted anew."""
    report = report_for(folder)
    nodes = svg_nodes(report.graph_svg)
    kernels = [g for g in nodes if g.get("class") == "node kernel"]
    assert len(kernels) == launched_count(folder)
    hlo = (folder / GPU_HLO).read_text()
    entry = hlo[hlo.index("\nENTRY ") :]
    assert len([g for g in nodes if g.get("class") == "node input"]) == entry.count(" parameter(")
    assert len([g for g in nodes if g.get("class") == "node output"]) == 1
    space = "{http://www.w3.org/2000/svg}"
    fills = [g.find(f"{space}rect").get("fill") for g in kernels]  # type: ignore[union-attr]
    for route, count in route_counts(folder).items():
        assert fills.count(ROUTE_FILLS[route]) == count, route


@pytest.mark.slow
@pytest.mark.parametrize("folder", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_the_fusion_graph_of_every_recorded_bundle_counts_its_kernels(folder: Path):
    check_graph_counts(folder)


@pytest.mark.parametrize("folder", MLPS, ids=[p.parent.name for p in MLPS])
def test_the_fusion_graph_counts_and_colours_the_kernels(folder: Path):
    check_graph_counts(folder)
    report = report_for(folder)
    space = "{http://www.w3.org/2000/svg}"
    nodes = svg_nodes(report.graph_svg)
    kernels = [g for g in nodes if g.get("class") == "node kernel"]
    hlo = (folder / GPU_HLO).read_text()
    thunk_text = read_text(folder / "xla" / f"{open_bundle(folder).module_name}.thunk_sequence.txt")
    assert len(kernels) == len(_LAUNCH.findall(thunk_text)) == 3
    entry = hlo[hlo.index("\nENTRY ") :]
    assert len([g for g in nodes if g.get("class") == "node input"]) == entry.count(" parameter(")
    assert len([g for g in nodes if g.get("class") == "node output"]) == 1
    fills = [g.find(f"{space}rect").get("fill") for g in kernels]  # type: ignore[union-attr]
    assert fills.count(ROUTE_FILLS["Triton"]) == len(re.findall(r'"kind":"__triton"', hlo))
    gemms = len(re.findall(r'"kind":"__triton_(?:nested_)?gemm(?:_fusion)?"', hlo))
    assert fills.count(ROUTE_FILLS["Triton gemm"]) == gemms == 2
    assert OTHER_FILL not in fills
    # The verdicts: each kernel of ours equal to XLA's is bordered so (the gemms: our tile
    # programs for them).
    operands = first_operands(folder)
    strokes = {
        g.findtext(f"{space}text"): g.find(f"{space}rect").get("stroke")  # type: ignore[union-attr]
        for g in kernels
    }
    for name, stroke in strokes.items():
        route = "kernel library" if name.startswith("gemm") else TRITON_TILES
        expected = expected_verdict(folder, str(name), route, operands)
        if expected.endswith("equal"):
            assert stroke == EQUAL_STROKE, name
        else:
            assert stroke in (DIFFERS_STROKE, UNCOMPARED_STROKE), name
    lines = ElementTree.fromstring(report.graph_svg).iter(f"{space}line")
    assert len([line for line in lines if line.get("class") == "edge"]) == len(entry_edges(folder))


@pytest.mark.parametrize("folder", MLPS, ids=[p.parent.name for p in MLPS])
def test_the_fusion_graph_has_the_edges_of_the_hlo(folder: Path):
    from xla_emit.tools.fusion_graph import GraphKernel, fusion_graph

    report = report_for(folder)
    graph = fusion_graph(
        hlo_module(folder),
        [GraphKernel(row.name, row.xla_route, row.outputs.equal) for row in report.kernels],
    )
    assert set(graph.edges()) == entry_edges(folder)


class _Page(HTMLParser):
    """Tags and the cells of each table, read back from the page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self._table = ""
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "table":
            self._table = dict(attrs).get("class") or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.mark.parametrize("folder", MLPS, ids=[p.parent.name for p in MLPS])
def test_the_html_page_is_a_document_with_the_tables_and_the_graph(folder: Path):
    report = report_for(folder)
    page = html_report(report)
    assert page.startswith("<!DOCTYPE html>\n<html")
    parsed = _Page()
    parsed.feed(page)
    for tag in ("html", "head", "title", "style", "body", "h1", "svg", "figure"):
        assert tag in parsed.tags, tag
    kernels = parsed.tables["kernels"]
    assert len(kernels) == 1 + len(report.kernels)
    assert [row[1] for row in kernels[1:]] == [row.name for row in report.kernels]
    assert [row[-1] for row in kernels[1:]] == [row.outputs.verdict for row in report.kernels]
    assert all(len(row) == 11 for row in kernels)
    assert len(parsed.tables["program"]) == 1 + len(load_arrays(str(folder / OUTPUTS), "outputs"))
    assert len(svg_nodes(page[page.index("<svg") : page.index("</svg>") + 6])) == 3 + 3 + 1


def test_a_kernel_of_xla_s_that_differs_is_reported_where(tmp_path: Path):
    """XLA's softmax kernel made to subtract the row's minimum, not its maximum: the same
    function, rounded otherwise, so some elements differ in their last bits."""
    folder = tmp_path / "mlp"
    shutil.copytree(BUNDLES / "jax-0.12.0.1" / "mlp", folder)
    (log,) = folder.glob("xla/*triton_softmax.2.xtile-to-triton.txt.xz")
    text = lzma.decompress(log.read_bytes()).decode()
    assert text.count('"stablehlo.maximum"') >= 1
    log.write_bytes(
        lzma.compress(text.replace('"stablehlo.maximum"', '"stablehlo.minimum"').encode())
    )
    operands = first_operands(folder)["triton_softmax.2"]
    expected = run_xla_kernel(folder, "triton_softmax.2", operands)[1]
    assert expected != "equal" and not expected.startswith("not run")
    report = build_report(open_bundle(folder))
    (row,) = [row for row in report.kernels if row.name == "triton_softmax.2"]
    assert row.outputs.equal is False
    assert row.outputs.verdict.startswith(expected + ": XLA's ")
    (node,) = [
        g
        for g in svg_nodes(report.graph_svg)
        if "triton_softmax.2" in ElementTree.tostring(g, "unicode")
    ]
    space = "{http://www.w3.org/2000/svg}"
    assert node.find(f"{space}rect").get("stroke") == DIFFERS_STROKE  # type: ignore[union-attr]


def test_results_are_compared_bit_for_bit():
    ours = [np.array([1.0, 2.0, np.nan], np.float32), np.array([[3, 4]], np.int32)]
    assert compare_results(ours, [a.copy() for a in ours]).verdict == "equal"
    other = [ours[0], np.array([[3, 5]], np.int32)]
    assert compare_results(ours, other).verdict == (
        "1 of 2 elements differ; first at result 1 [0, 1]: XLA's 5, ours 4"
    )
    # -0.0 and 0.0 are equal numbers but not the same bits.
    zero = [np.array([0.0], np.float32)]
    assert compare_results(zero, [np.array([-0.0], np.float32)]).verdict == (
        "1 of 1 elements differ; first at result 0 [0]: XLA's -0 (0x80000000), ours 0 (0x00000000)"
    )
    assert compare_results(zero, []).verdict == "XLA's kernel has 0 results, ours 1"
    wider = [np.array([0.0], np.float64)]
    assert (
        compare_results(zero, wider).verdict
        == "result 0 is float64 in XLA's kernel, float32 in ours"
    )
    assert compare_results(zero, [np.zeros(2, np.float32)]).verdict == (
        "result 0 has 2 elements in XLA's kernel, 1 in ours"
    )


def test_a_fusion_without_xla_s_kernel_says_so():
    module = hlo_module(MLPS[0])
    (softmax,) = [i for i in module.entry.instructions if i.name == "triton_softmax.2"]
    launch = Launch([], [np.zeros(1, np.float32)])
    assert match_kernel(softmax, [], True, launch).verdict == "no kernel of XLA's in the bundle"
    assert match_kernel(softmax, [Path("x.ttir.txt")], True, None).equal is None


def test_progress_names_each_step_on_stderr_when_forced(capsys: pytest.CaptureFixture[str]):
    folder = MLPS[-1]
    assert dump.main([str(folder), "--report", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "report" in err
    for step in ("the program on the bundle's inputs", "the fusion graph"):
        assert step in err
    for row in report_for(folder).kernels:
        assert row.name in err


def test_progress_without_tqdm_is_one_line_a_step(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    from xla_emit.progress import Progress, tracked

    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` raises ImportError
    assert list(tracked(["a", "b"], "replay", True)) == ["a", "b"]
    steps = Progress("xla-emit-jax", 2, True)
    steps.step("compile")
    steps.close()
    assert capsys.readouterr().err == (
        "replay [1/2] a\nreplay [2/2] b\nxla-emit-jax [1/2] compile\n"
    )
    assert list(tracked(["a"], "quiet", False)) == ["a"]
    assert capsys.readouterr().err == ""


def test_a_markdown_report_links_the_graph_written_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    folder = MLPS[-1]
    assert dump.main([str(folder), "--report", "-o", str(tmp_path / "r.md")]) == 0
    markdown = (tmp_path / "r.md").read_text()
    assert markdown.rstrip().endswith("![The fusion graph](fusion-graph.svg)")
    svg = (tmp_path / "fusion-graph.svg").read_text()
    assert len([g for g in svg_nodes(svg) if g.get("class") == "node kernel"]) == 3
    assert dump.main([str(folder), "--report", "-o", str(tmp_path / "no" / "r.md")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err and "Traceback" not in err
