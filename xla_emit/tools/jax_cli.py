"""`xla-emit-jax`: compile a JAX function for a GPU without one and write a bundle.

    xla-emit-jax model.py:mlp f32[8,128] f32[128,256] f32[256,64] -o mlp.bundle
    xla-emit-jax model.py:mlp f32[8,128] ... -o mlp.bundle --target a100 --seed 3
    xla-emit-jax model.py:mlp ... -o mlp.bundle --xla-option KEY=VALUE   # not XLA's default
    xla-emit-jax model.py:mlp ... -o mlp.bundle --report --progress   # + report.md, .html

The bundle (layout in `xla_emit.jax.bundle`) holds XLA:GPU's optimized module,
each kernel's emitter IR and pass log, Triton dumps, LLVM IR, PTX, buffer
assignment and thunk sequence, seeded inputs and XLA:CPU's outputs; then

    xla-emit-run mlp.bundle --check      # our kernels against XLA:CPU and the evaluator
    xla-emit-opt mlp.bundle --fusion NAME
    xla-emit-dump mlp.bundle             # XLA's kernels: route, launch grid, artefacts

Needs the `jax` extra (jax, jaxlib, jax-cuda12-plugin); no GPU.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xla_emit.diagnostics import UserError
from xla_emit.tools.cli import add_version


def build_argument_parser() -> argparse.ArgumentParser:
    from xla_emit.jax.targets import DEFAULT_TARGET, shipped_targets

    parser = argparse.ArgumentParser(
        prog="xla-emit-jax",
        description="Compile a JAX function for a GPU (no GPU needed) and write a bundle.",
    )
    add = parser.add_argument
    add("function", help="the function: FILE.py:NAME or package.module:NAME")
    add("specs", nargs="*", metavar="SPEC", help="one per argument, as HLO: f32[8,128] bf16[64]")
    add("-o", "--output", required=True, metavar="BUNDLE", help="the bundle folder to write")
    add(
        "--target",
        default=DEFAULT_TARGET,
        help=f"{', '.join(shipped_targets())} or a GpuTargetConfigProto file "
        f"(default {DEFAULT_TARGET})",
    )
    add(
        "--xla-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a compiler option (XLA's defaults otherwise), e.g. "
        "xla_disable_hlo_passes=triton-softmax-rewriter",
    )
    add("--seed", type=int, default=0, help="seed of the inputs (default 0)")
    add(
        "--report",
        action="store_true",
        help="also write BUNDLE/report.md and report.html: XLA's kernels and ours side by side",
    )
    add(
        "--progress",
        action="store_true",
        help="a step of progress on stderr for the compile, the capture and each kernel of "
        "the report (default: on a terminal)",
    )
    add_version(parser)
    return parser


def summary(bundle_path: str) -> str:
    from xla_emit.jax.bundle import open_bundle

    bundle = open_bundle(bundle_path)
    manifest = bundle.manifest
    thunks = bundle.thunks()
    lines = [
        f"wrote {bundle_path}: {manifest['function']} compiled for "
        f"{manifest['target']['description']} (jax {manifest['versions']['jax']}), "
        f"{len(thunks)} kernel launches, {len(bundle.dump_files())} files of XLA's"
    ]
    lines += [
        f"  {thunk.kernel}: {thunk.kind}, grid {list(thunk.grid)}, threads {list(thunk.threads)}"
        for thunk in thunks
    ]
    return "\n".join(lines)


def run(argv: Sequence[str] | None) -> int:
    args = build_argument_parser().parse_args(argv)
    from xla_emit.jax.capture import compile_function, compiler_option, load_function
    from xla_emit.jax.specs import parse_spec
    from xla_emit.jax.targets import load_target

    # What can be checked without jax is checked first: a typo costs no import.
    specs = [parse_spec(text) for text in args.specs]
    options = dict(compiler_option(text) for text in args.xla_option)
    load_target(args.target)
    function = load_function(args.function)
    progress = args.progress or sys.stderr.isatty()
    compile_function(
        function,
        specs,
        args.output,
        target=args.target,
        options=options,
        seed=args.seed,
        name=args.function,
        progress=progress,
    )
    print(summary(args.output))
    if args.report:
        write_reports(args.output, progress)
    return 0


def write_reports(folder: str, progress: bool = False) -> None:
    from pathlib import Path

    from xla_emit.jax.bundle import open_bundle
    from xla_emit.tools.report import build_report, html_report, write_markdown

    report = build_report(open_bundle(folder), progress=progress)
    write_markdown(report, Path(folder) / "report.md")
    (Path(folder) / "report.html").write_text(html_report(report))
    print(f"wrote {Path(folder) / 'report.md'} and report.html")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
