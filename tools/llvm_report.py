"""Our PTX against XLA's for every fusion of the GPU corpus (`tests/corpus/gpu/`).

    .venv/bin/python tools/llvm_report.py [--only NAME ...] [--write docs/llvm.md]

For each program, emits `gpu.hlo`'s kernels, lowers them (`-p xla-gpu-to-llvm`),
compiles the LLVM IR to PTX for `sm_90` and assembles it with `ptxas -v`; XLA's
PTX (`gpu/xla.ptx.xz`, for `sm_90a`) is assembled the same way. One table row per
kernel: parameters and their alignment, launch bounds, global load and store
widths, instruction count and registers, ours / XLA's. `--write` puts the table
into the file between the `llvm-report` markers. Needs llvmlite and the
`nvidia-cuda-nvcc-cu12` wheel (`pip install '.[llvm,ptx]'`).
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xla_emit.diagnostics import UserError  # noqa: E402
from xla_emit.emitters import emit_hlo_module  # noqa: E402
from xla_emit.runtime.llvm_ir import module_to_llvm_ir  # noqa: E402
from xla_emit.runtime.pipeline import apply_pipeline  # noqa: E402
from xla_emit.runtime.ptx import KernelResources, assemble, llvm_ir_to_ptx  # noqa: E402
from xla_emit.runtime.ptx_stats import (  # noqa: E402
    KernelFigures,
    kernel_figures,
    ptx_target,
    shapes_text,
)

CORPUS = ROOT / "tests" / "corpus" / "gpu"
BEGIN, END = "<!-- llvm-report begin -->", "<!-- llvm-report end -->"


@dataclass(frozen=True)
class Side:
    figures: KernelFigures
    resources: KernelResources | None


def our_ptx(program: Path) -> str:
    source = program / "gpu.hlo"
    module = emit_hlo_module(source.read_text(), str(source))
    apply_pipeline(module, "xla-gpu-to-llvm")
    return llvm_ir_to_ptx(module_to_llvm_ir(module))


def sides(text: str) -> dict[str, Side]:
    """Each kernel of the PTX modules in `text` (XLA writes one module per `.ptx` file)."""
    found: dict[str, Side] = {}
    for ptx in re.split(r"(?m)^(?=\.version)", text):
        if ".version" not in ptx:
            continue
        resources = {r.name: r for r in assemble(ptx, ptx_target(ptx) or "sm_90")}
        found |= {k.name: Side(k, resources.get(k.name)) for k in kernel_figures(ptx)}
    return found


def params_text(side: Side) -> str:
    aligns = sorted({align for _, align in side.figures.params})
    return f"{len(side.figures.params)} (align {'/'.join(str(a) for a in aligns)})"


def pair(ours: str, xla: str) -> str:
    return ours if ours == xla else f"{ours} / {xla}"


def row(program: str, kernel: str, ours: Side, xla: Side | None) -> str:
    def both(text: Callable[[Side], str]) -> str:
        return text(ours) if xla is None else pair(text(ours), text(xla))

    def resource(side: Side, figure: str) -> str:
        return str(getattr(side.resources, figure)) if side.resources else "?"

    cells = [
        program,
        f"`{kernel}`",
        both(params_text),
        both(lambda s: s.figures.launch_bounds or "-"),
        both(lambda s: shapes_text(s.figures.global_loads)),
        both(lambda s: shapes_text(s.figures.global_stores)),
        both(lambda s: str(s.figures.instructions)),
        both(lambda s: resource(s, "registers")),
        both(lambda s: resource(s, "shared_bytes")),
        both(lambda s: resource(s, "spill_stores")),
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| program | kernel | params | launch bounds | global loads | global stores "
    "| instructions | registers | shared bytes | spill bytes |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def report(names: list[str] | None) -> str:
    rows = [HEADER]
    for program in sorted(p for p in CORPUS.iterdir() if (p / "gpu.hlo").is_file()):
        if names and program.name not in names:
            continue
        ours = sides(our_ptx(program))
        xla_file = program / "gpu" / "xla.ptx.xz"
        theirs = {}
        if xla_file.is_file():
            theirs = sides(lzma.decompress(xla_file.read_bytes()).decode())
        for kernel, side in ours.items():
            rows.append(row(program.name, kernel, side, theirs.get(kernel)))
    return "\n".join(rows) + "\n"


def write_into(path: Path, table: str) -> None:
    text = path.read_text()
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    path.write_text(text[:start] + "\n" + table + text[stop:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="*", help="program names")
    parser.add_argument("--write", help="a markdown file with llvm-report markers")
    args = parser.parse_args(argv)
    try:
        table = report(args.only)
    except UserError as error:
        print(str(error).splitlines()[0], file=sys.stderr)
        return 1
    if args.write:
        write_into(Path(args.write), table)
    else:
        print(table, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
