"""The side-by-side report of a bundle: per kernel XLA's route and ours, and the program.

    xla-emit-dump BUNDLE --report [-o report.md|report.html] [--progress]
    xla-emit-jax ... --report        (writes both BUNDLE/report.md and BUNDLE/report.html)

Per kernel of XLA's optimized module: XLA's route (`jax.routes`) and ours (our
emitter's kind, or the kernel library for a gemm or sort fusion), XLA's launch
(its thunk sequence) and ours (the emitted kernel's grid), and, for a kernel XLA
emitted natively or through Triton, the op census of XLA's emitter IR (the first
snapshot of its pass log) against that of ours (in today's `xla.*` spelling, as `xla-emit-opt
--fusion NAME --emit xla` prints it), with the ops each has more of, and how
many steps of XLA's pass log our passes reproduce (`xla-emit-dump --replay`), and our
kernel's outputs against XLA's kernel's, bit for bit, on the operands the program gives
it (`kernel_match`). Then the whole program, run by the module runtime on the bundle's
inputs, against XLA:CPU's outputs (`runtime.compare`), and the fusion graph
(`fusion_graph`) coloured by route and verdict.

`build_report` computes it all once; `markdown_report` and `html_report` write it
(the page: tables and the graph's SVG inline).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.npz import load_arrays, read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.jax.bundle import GPU_HLO, INPUTS, OUTPUTS, Bundle, existing
from xla_emit.jax.routes import DYNAMIC_SLICE, TRITON_GEMM, XlaKernel, xla_kernels
from xla_emit.progress import Progress
from xla_emit.tools.kernel_match import (
    XLA_LAUNCHES_NONE,
    KernelMatch,
    Launch,
    ProgramRun,
    library_call,
    match_kernel,
    match_tile_program,
    record_program,
)

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

LIBRARY = "kernel library"
TRITON_TILES = "Triton tile program"
TRITON_LOG = "xtile-to-triton.txt"
TTIR = "ttir.txt"


@dataclass(frozen=True)
class KernelRow:
    """One kernel of XLA's, side by side with ours. Grids are (blocks, threads per block)."""

    name: str
    xla_route: str
    xla_grid: tuple[int, int] | None
    our_route: str
    our_grid: tuple[int, int] | None
    xla_ops: Counter[str] | None
    our_ops: Counter[str] | None
    # Of the steps of XLA's pass log whose pass we implement: how many ours reproduces
    # (the same op census after it), and how many there are.
    replayed: tuple[int, int] | None = None
    # Our kernel's outputs against XLA's kernel's on the same operands.
    outputs: KernelMatch = field(default_factory=library_call)

    @property
    def census_difference(self) -> str:
        if self.xla_ops is None or self.our_ops is None:
            return ""
        from xla_emit.tools.dump import census_difference

        return census_difference(self.our_ops, self.xla_ops)


@dataclass(frozen=True)
class OutputRow:
    name: str
    shape: str
    verdict: str
    matches: bool


def _product(values: Sequence[int]) -> int:
    total = 1
    for value in values:
        total *= value
    return total


def kernel_row(
    module: HloModule, bundle: Bundle, kernel: XlaKernel, first_launch: Launch | None = None
) -> KernelRow:
    """`first_launch`: the fusion's operands and our results when the program first ran it."""
    from xla_emit.emitters import emit_fusion, fusion_launch_dimensions
    from xla_emit.emitters.fusion import fused_computation
    from xla_emit.emitters.hero import analyze_fusion
    from xla_emit.emitters.triton.emitter import emit_triton_fusion
    from xla_emit.emitters.triton.route import runs_as_triton
    from xla_emit.hlo.launches import is_library_fusion
    from xla_emit.ir import make_context
    from xla_emit.ir.pass_log import modelled_snapshots
    from xla_emit.passes.gpu.respell import RespellPass
    from xla_emit.tools.dump import op_census, parsed, replay

    instruction = _instruction(module, kernel.name)
    thunk = kernel.thunk
    xla_grid = (_product(thunk.grid), _product(thunk.threads)) if thunk else None
    xla_ops: Counter[str] | None = None
    replayed: tuple[int, int] | None = None
    log = xla_pass_log(bundle, kernel)
    if log is not None:
        snapshots = read_pass_log(log)
        # Parsed, not read off the text: XLA prints `func.return` as a bare `return`.
        xla_ops = op_census(parsed(snapshots[0], str(log)))
        steps = replay(modelled_snapshots(snapshots), str(log), outputs=False)
        replayed = (sum(step.same_ops == "yes" for step in steps), len(steps))
    # In the runtime's order: a Triton fusion our emitter covers (a 16-bit gemm too) runs as
    # a tile program, another gemm or sort fusion in the kernel library.
    if not runs_as_triton(instruction) and (
        instruction.opcode != "fusion" or is_library_fusion(instruction)
    ):
        outputs = library_call()
        if kernel.route == TRITON_GEMM:
            outputs = match_tile_program(
                instruction, _xla_kernel_files(bundle, kernel, True), first_launch
            )
        return KernelRow(
            kernel.name, kernel.route, xla_grid, LIBRARY, None, xla_ops, None, replayed, outputs
        )
    outputs = _match(bundle, kernel, instruction, first_launch)
    if runs_as_triton(instruction):
        tile_kernel = emit_triton_fusion(instruction)
        grid = _triton_grid(instruction, tile_kernel)
        return KernelRow(
            kernel.name,
            kernel.route,
            xla_grid,
            TRITON_TILES,
            grid,
            xla_ops,
            op_census(tile_kernel),
            replayed,
            outputs,
        )
    analysis = analyze_fusion(fused_computation(instruction))
    emitted = emit_fusion(module, instruction)
    launch = fusion_launch_dimensions(emitted)
    # In today's spelling, as XLA's IR is written (what `xla-emit-opt --emit xla` prints).
    RespellPass("xla").apply(make_context(), emitted)
    return KernelRow(
        kernel.name,
        kernel.route,
        xla_grid,
        f"{analysis.kind.value} emitter",
        (launch.num_blocks, launch.num_threads_per_block),
        xla_ops,
        op_census(emitted),
        replayed,
        outputs,
    )


def xla_pass_log(bundle: Bundle, kernel: XlaKernel) -> Path | None:
    """The pass log of XLA's kernel: a native emitter's `*.mlir-passes.log`, a Triton
    fusion's `*.xtile-to-triton.txt` (its first snapshot is the Triton fusion emitter's)."""
    log = bundle.pass_log(kernel.name)
    if log is None and TRITON_LOG in kernel.files:
        log = existing(bundle.path / kernel.files[TRITON_LOG])
    return log


def _match(
    bundle: Bundle, kernel: XlaKernel, fusion: HloInstruction, launch: Launch | None
) -> KernelMatch:
    from xla_emit.emitters.triton.route import runs_as_triton

    triton = runs_as_triton(fusion)
    xla_files = _xla_kernel_files(bundle, kernel, triton)
    if kernel.route == DYNAMIC_SLICE:
        # XLA copies at the offset its thunk computes (`jax.routes`): no kernel to run.
        return KernelMatch(XLA_LAUNCHES_NONE, None)
    return match_kernel(fusion, xla_files, triton, launch)


def _xla_kernel_files(bundle: Bundle, kernel: XlaKernel, triton: bool) -> list[Path]:
    """XLA's kernel as its dump holds it: the pass log of a native emitter's; of a Triton
    fusion's, the emitter's pass log, then its TTIR."""
    if not triton:
        log = bundle.pass_log(kernel.name)
        return [] if log is None else [log]
    names = [kernel.files.get(suffix) for suffix in (TRITON_LOG, TTIR)]
    found = [existing(bundle.path / name) for name in names if name is not None]
    return [path for path in found if path is not None]


def _triton_grid(fusion: HloInstruction, tile_kernel: ModuleOp) -> tuple[int, int]:
    """(programs, threads) of a tile kernel's launch: one program per output tile, a warp of
    32 threads per `num_warps`."""
    from xla_emit.hlo.fusion_configs import triton_launch_config
    from xla_emit.interpreter import CheckOptions
    from xla_emit.runtime.triton_kernels import make_triton_kernel

    num_warps = triton_launch_config(fusion).num_warps
    programs = make_triton_kernel(fusion, tile_kernel, CheckOptions.fast(), 0.0).programs
    return (programs, 32 * num_warps)


def _instruction(module: HloModule, name: str) -> HloInstruction:
    for computation in module.computations:
        for instruction in computation.instructions:
            if instruction.name == name:
                return instruction
    raise UserError(f"no instruction '{name}' in the bundle's {GPU_HLO}")


@dataclass(frozen=True)
class Report:
    """Everything the report says of a bundle, computed once; Markdown and HTML write it."""

    manifest: dict[str, Any]
    kernels: list[KernelRow]
    program: list[OutputRow]
    graph_svg: str


def build_report(bundle: Bundle, progress: bool = False) -> Report:
    """The program run once (each fusion's first operands kept), then each kernel compared
    and replayed: a step of progress each when `progress`."""
    from xla_emit.tools.fusion_graph import GraphKernel, fusion_graph, to_svg

    module = parse_hlo_module(bundle.text(GPU_HLO), str(bundle.file(GPU_HLO)))
    kernels = xla_kernels(bundle)
    steps = Progress("report", len(kernels) + 2, progress)
    try:
        steps.step("the program on the bundle's inputs")
        run = record_program(module, bundle)
        rows: list[KernelRow] = []
        for kernel in kernels:
            steps.step(kernel.name)
            rows.append(kernel_row(module, bundle, kernel, run.launches.get(kernel.name)))
        steps.step("the fusion graph")
        graph = fusion_graph(
            module,
            [
                GraphKernel(row.name, row.xla_route, row.outputs.equal, row.outputs.verdict)
                for row in rows
            ],
        )
    finally:
        steps.close()
    return Report(bundle.manifest, rows, program_rows(module, bundle, run), to_svg(graph))


def program_rows(module: HloModule, bundle: Bundle, run: ProgramRun) -> list[OutputRow]:
    """Our whole program (the module runtime) on the bundle's inputs against XLA:CPU's."""
    from xla_emit.runtime.tf32_outputs import compare_after_tf32, tf32_moves

    expected = load_arrays(str(bundle.file(OUTPUTS)), "outputs")
    moves = tf32_moves(module, read_inputs(str(bundle.file(INPUTS)), module.entry))
    rows: list[OutputRow] = []
    for number, output in enumerate(run.outputs):
        reference = expected[f"out{number}"].reshape(output.shape).view(output.dtype)
        result = compare_after_tf32(reference, output, moves[number])
        shape = f"{output.dtype}{list(output.shape)}"
        rows.append(OutputRow(f"out{number}", shape, result.describe(), result.matches))
    return rows


def _grid(grid: tuple[int, int] | None) -> str:
    return "-" if grid is None else f"{grid[0]} x {grid[1]}"


def _replayed(replayed: tuple[int, int] | None) -> str:
    return "-" if replayed is None else f"{replayed[0]} of {replayed[1]}"


def _ops(census: Counter[str] | None) -> str:
    return "-" if census is None else str(sum(census.values()))


KERNEL_COLUMNS = (
    "#",
    "kernel",
    "XLA's route",
    "ours",
    "XLA's grid",
    "our grid",
    "XLA's ops",
    "our ops",
    "ours has more (+) or fewer (-)",
    "XLA's passes replayed, same ops",
    "our outputs against XLA's kernel's",
)
PROGRAM_COLUMNS = ("output", "type", "against XLA:CPU")


def kernel_cells(number: int, row: KernelRow) -> list[str]:
    """A kernel's row as text, `code` spans marked with backquotes."""
    return [
        str(number),
        f"`{row.name}`",
        row.xla_route,
        row.our_route,
        _grid(row.xla_grid),
        _grid(row.our_grid),
        _ops(row.xla_ops),
        _ops(row.our_ops),
        row.census_difference,
        _replayed(row.replayed),
        row.outputs.verdict,
    ]


def title(report: Report) -> str:
    return f"{report.manifest.get('function', '?')}: XLA and xla-emit side by side"


def introduction(report: Report) -> str:
    manifest = report.manifest
    versions = manifest.get("versions", {})
    return (
        f"Arguments {' '.join(manifest.get('arguments', []))}; compiled by jax "
        f"{versions.get('jax', '?')} for {manifest.get('target', {}).get('description', '?')}."
    )


def kernels_summary(report: Report) -> str:
    equal = sum(row.outputs.equal is True for row in report.kernels)
    compared = sum(row.outputs.equal is not None for row in report.kernels)
    return (
        f"{len(report.kernels)} kernels of XLA's; grids are blocks x threads per block; ops: "
        "the op census of the emitter's IR (XLA's: the first snapshot of its pass log). "
        f"Our kernel's outputs equal XLA's kernel's bit for bit in {equal} of {compared} "
        "kernels compared (both run in our interpreter on the operands the program gives "
        "the fusion)."
    )


def program_summary(report: Report) -> str:
    matched = sum(row.matches for row in report.program)
    return (
        f"{matched} of {len(report.program)} outputs within tolerance (4 ulp, or a small "
        "error relative to the largest output)."
    )


def _markdown_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


# The graph's SVG beside a Markdown report, which links it (a page holds it inline).
GRAPH_FILE = "fusion-graph.svg"


def markdown_report(report: Report, graph_file: str | None = None) -> str:
    """The report in Markdown; `graph_file`: where the graph's SVG is, relative to it."""
    kernels = [kernel_cells(n, row) for n, row in enumerate(report.kernels, 1)]
    program = [[row.name, row.shape, row.verdict] for row in report.program]
    lines = [
        f"# {title(report)}",
        "",
        introduction(report),
        "",
        "## Kernels",
        "",
        kernels_summary(report),
        "",
        *_markdown_table(KERNEL_COLUMNS, kernels),
        "",
        "## The whole program against XLA:CPU",
        "",
        program_summary(report),
        "",
        *_markdown_table(PROGRAM_COLUMNS, program),
        "",
        "## The fusion graph",
        "",
        "Kernels filled by XLA's route, bordered by our kernel's verdict (the HTML report "
        "holds it inline).",
    ]
    if graph_file is not None:
        lines += ["", f"![The fusion graph]({graph_file})"]
    return "\n".join(lines) + "\n"


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.equal, td.within { background: #e5f5e0; }
td.differs, td.outside { background: #fde0dd; }
td.number { text-align: right; }
figure { margin: 1em 0; overflow-x: auto; }
"""


def html_report(report: Report) -> str:
    """A page of its own: the tables as HTML tables (verdicts shaded), the graph as SVG."""
    kernel_rows = [
        _html_row(kernel_cells(n, row), _verdict_class(row.outputs.equal))
        for n, row in enumerate(report.kernels, 1)
    ]
    program_rows = [
        _html_row([row.name, row.shape, row.verdict], "within" if row.matches else "outside")
        for row in report.program
    ]
    body = [
        f"<h1>{_inline(title(report))}</h1>",
        f"<p>{_inline(introduction(report))}</p>",
        '<h2 id="kernels">Kernels</h2>',
        f"<p>{_inline(kernels_summary(report))}</p>",
        _html_table(KERNEL_COLUMNS, kernel_rows, "kernels"),
        '<h2 id="program">The whole program against XLA:CPU</h2>',
        f"<p>{_inline(program_summary(report))}</p>",
        _html_table(PROGRAM_COLUMNS, program_rows, "program"),
        '<h2 id="graph">The fusion graph</h2>',
        "<p>Data flow between XLA's kernels: fill by XLA's route, border by our kernel's "
        "outputs against XLA's kernel's (green equal, red different, grey dashed not "
        "compared).</p>",
        f"<figure>{report.graph_svg}</figure>",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{_inline(title(report))}</title>\n<style>{_STYLE}</style>\n</head>\n"
        "<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def write_markdown(report: Report, path: Path) -> None:
    """`path` and the graph's SVG beside it (`UserError` if either cannot be written)."""
    graph = path.with_name(GRAPH_FILE)
    try:
        graph.write_text(report.graph_svg)
        path.write_text(markdown_report(report, GRAPH_FILE))
    except OSError as error:
        raise UserError(f"cannot write '{path}': {error.strerror}") from None


def _verdict_class(equal: bool | None) -> str:
    return "" if equal is None else "equal" if equal else "differs"


def _html_row(cells: Sequence[str], verdict: str) -> str:
    """The last cell carries the verdict's shading."""
    parts = []
    for position, cell in enumerate(cells):
        classes = "number" if cell.isdigit() else ""
        if position == len(cells) - 1 and verdict:
            classes = verdict
        attribute = f' class="{classes}"' if classes else ""
        parts.append(f"<td{attribute}>{_inline(cell)}</td>")
    return "<tr>" + "".join(parts) + "</tr>"


def _html_table(columns: Sequence[str], rows: Sequence[str], name: str) -> str:
    head = "".join(f"<th>{_inline(column)}</th>" for column in columns)
    return (
        f'<table class="{name}">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody>\n</table>"
    )


def _inline(text: str) -> str:
    """Escaped text with `code` spans."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))
