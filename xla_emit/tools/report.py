"""The side-by-side report of a bundle: per kernel XLA's route and ours, and the program.

    xla-emit-dump BUNDLE --report [-o report.md]     (xla-emit-jax ... --report writes both
                                                      BUNDLE/report.md and BUNDLE/report.html)

Per kernel of XLA's optimized module: XLA's route (`jax.routes`) and ours (our
emitter's kind, or the kernel library for a gemm or sort fusion), XLA's launch
(its thunk sequence) and ours (the emitted kernel's grid), and, for a kernel XLA
emitted natively, the op census of XLA's emitter IR (the first snapshot of its
pass log) against that of ours (in today's `xla.*` spelling, as `xla-emit-opt
--fusion NAME --emit xla` prints it), with the ops each has more of, and how
many steps of XLA's pass log our passes reproduce (`xla-emit-dump --replay`). Then the whole
program, run by the module runtime on the bundle's inputs, against XLA:CPU's
outputs (`runtime.compare`).
"""

from __future__ import annotations

import html
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.npz import load_arrays, read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.jax.bundle import GPU_HLO, INPUTS, OUTPUTS, Bundle
from xla_emit.jax.routes import XlaKernel, xla_kernels

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

LIBRARY = "kernel library"
TRITON_TILES = "Triton tile program"


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


def kernel_row(module: HloModule, bundle: Bundle, kernel: XlaKernel) -> KernelRow:
    from passes.gpu.respell import RespellPass
    from xla_emit.emitters import emit_fusion, fusion_launch_dimensions
    from xla_emit.emitters.fusion import fused_computation
    from xla_emit.emitters.hero import analyze_fusion
    from xla_emit.emitters.triton.emitter import emit_triton_fusion
    from xla_emit.emitters.triton.route import runs_as_triton
    from xla_emit.hlo.launches import is_library_fusion
    from xla_emit.ir import make_context
    from xla_emit.ir.pass_log import before_lower_tensors
    from xla_emit.tools.dump import op_census, parsed, replay

    instruction = _instruction(module, kernel.name)
    thunk = kernel.thunk
    xla_grid = (_product(thunk.grid), _product(thunk.threads)) if thunk else None
    xla_ops: Counter[str] | None = None
    replayed: tuple[int, int] | None = None
    log = bundle.pass_log(kernel.name)
    if log is not None:
        snapshots = read_pass_log(log)
        # Parsed, not read off the text: XLA prints `func.return` as a bare `return`.
        xla_ops = op_census(parsed(snapshots[0], str(log)))
        steps = replay(before_lower_tensors(snapshots), str(log), outputs=False)
        replayed = (sum(step.same_ops == "yes" for step in steps), len(steps))
    if instruction.opcode != "fusion" or is_library_fusion(instruction):
        return KernelRow(
            kernel.name, kernel.route, xla_grid, LIBRARY, None, xla_ops, None, replayed
        )
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
    )


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


def kernel_rows(bundle: Bundle, progress: bool = False) -> list[KernelRow]:
    from tqdm import tqdm

    module = parse_hlo_module(bundle.text(GPU_HLO), str(bundle.file(GPU_HLO)))
    kernels = xla_kernels(bundle)
    shown = tqdm(kernels, desc="kernels", unit="kernel", disable=not progress, file=sys.stderr)
    return [kernel_row(module, bundle, kernel) for kernel in shown]


def program_rows(bundle: Bundle) -> list[OutputRow]:
    """Our whole program (the module runtime) on the bundle's inputs against XLA:CPU's."""
    from xla_emit.runtime.compare import compare
    from xla_emit.runtime.module_runtime import ModuleRuntime
    from xla_emit.runtime.tf32_outputs import xla_cpu_tolerance

    module = parse_hlo_module(bundle.text(GPU_HLO), str(bundle.file(GPU_HLO)))
    outputs = ModuleRuntime(module).run(read_inputs(str(bundle.file(INPUTS)), module.entry))
    expected = load_arrays(str(bundle.file(OUTPUTS)), "outputs")
    tolerance = xla_cpu_tolerance(module)
    rows: list[OutputRow] = []
    for number, output in enumerate(outputs):
        reference = expected[f"out{number}"].reshape(output.shape).view(output.dtype)
        result = compare(reference, output, scale_tolerance=tolerance)
        shape = f"{output.dtype}{list(output.shape)}"
        rows.append(OutputRow(f"out{number}", shape, result.describe(), result.matches))
    return rows


def _grid(grid: tuple[int, int] | None) -> str:
    return "-" if grid is None else f"{grid[0]} x {grid[1]}"


def _replayed(replayed: tuple[int, int] | None) -> str:
    return "-" if replayed is None else f"{replayed[0]} of {replayed[1]}"


def _ops(census: Counter[str] | None) -> str:
    return "-" if census is None else str(sum(census.values()))


def markdown_report(bundle: Bundle, progress: bool = False) -> str:
    manifest = bundle.manifest
    kernels = kernel_rows(bundle, progress)
    program = program_rows(bundle)
    versions = manifest.get("versions", {})
    lines = [
        f"# {manifest.get('function', '?')}: XLA and xla-emit side by side",
        "",
        f"Arguments {' '.join(manifest.get('arguments', []))}; compiled by jax "
        f"{versions.get('jax', '?')} for {manifest.get('target', {}).get('description', '?')}.",
        "",
        "## Kernels",
        "",
        f"{len(kernels)} kernels of XLA's; grids are blocks x threads per block; ops: the op "
        "census of the emitter's IR (XLA's: the first snapshot of its pass log).",
        "",
        "| # | kernel | XLA's route | ours | XLA's grid | our grid | XLA's ops | our ops "
        "| ours has more (+) or fewer (-) | XLA's passes replayed, same ops |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for number, row in enumerate(kernels, 1):
        lines.append(
            f"| {number} | `{row.name}` | {row.xla_route} | {row.our_route} | "
            f"{_grid(row.xla_grid)} | {_grid(row.our_grid)} | {_ops(row.xla_ops)} | "
            f"{_ops(row.our_ops)} | {row.census_difference} | {_replayed(row.replayed)} |"
        )
    matched = sum(row.matches for row in program)
    lines += [
        "",
        "## The whole program against XLA:CPU",
        "",
        f"{matched} of {len(program)} outputs within tolerance (4 ulp, or a small error "
        "relative to the largest output).",
        "",
        "| output | type | against XLA:CPU |",
        "|---|---|---|",
    ]
    lines += [f"| {row.name} | {row.shape} | {row.verdict} |" for row in program]
    return "\n".join(lines) + "\n"


def html_report(markdown: str) -> str:
    """The Markdown report as a page: headings, paragraphs and tables, nothing else."""
    body: list[str] = []
    table: list[list[str]] = []

    def close_table() -> None:
        if not table:
            return
        head, *rows = table
        body.append("<table>")
        body.append("<tr>" + "".join(f"<th>{cell}</th>" for cell in head) + "</tr>")
        body.extend("<tr>" + "".join(f"<td>{cell}</td>" for cell in r) + "</tr>" for r in rows)
        body.append("</table>")
        table.clear()

    for line in markdown.splitlines():
        if line.startswith("|"):
            cells = [_inline(cell.strip()) for cell in line.strip("|").split("|")]
            if not all(set(cell) <= {"-"} for cell in cells):
                table.append(cells)
            continue
        close_table()
        if line.startswith("## "):
            body.append(f"<h2>{_inline(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{_inline(line[2:])}</h1>")
        elif line.strip():
            body.append(f"<p>{_inline(line)}</p>")
    close_table()
    style = "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}"
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><style>{style}</style></head>"
        f"<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def _inline(text: str) -> str:
    """Escaped text with `code` spans."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))
