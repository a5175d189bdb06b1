"""`xla-emit-dump`: read XLA's MLIR pass logs (plain or `.xz`), one snapshot per pass.

The logs are the emitters' `*.mlir-passes.log` and the Triton route's
`*.xtile-to-triton.txt`, `*.canonicalize-cse.txt` and `*.triton-to-llvm.txt`
(whose pretty-form locations are dropped as they are read).

    xla-emit-dump LOG                      # index, pass, anchor, op count of every snapshot
    xla-emit-dump LOG --extract 3 -o k.mlir
    xla-emit-dump LOG --extract xla-flatten-tensors
    xla-emit-dump LOG --replay             # our passes on XLA's before-snapshots
    xla-emit-dump LOG --replay --passes inline,xla-flatten-tensors --no-outputs
    xla-emit-dump LOG --replay --lowered   # also the steps down to the llvm dialect
    xla-emit-dump BUNDLE                   # each kernel: XLA's route, launch grid, files
    xla-emit-dump BUNDLE --fusion NAME [--extract N | --replay]   # that kernel's log
    xla-emit-dump BUNDLE --report [-o report.md|report.html] [--progress]   # XLA's and ours

`--replay` runs, for every pass of XLA's pipeline that this project implements
(same name), ours on the module XLA's pass received and compares the result
with what XLA's next pass received: the op census (op name and count), and the
outputs of both modules on the same random inputs, up to `xla-lower-tensors`
(in a Triton log, up to the TTIR `convert-triton-to-tritongpu` receives).
`--lowered` goes on to the end of an emitter log (`xla-lower-tensors`,
`xla-merge-pointers`, `xla-lower-to-llvm-gpu`, ...), comparing the op census
only there: the interpreter runs tensors, not pointers.
A pass XLA ran on several functions in a row counts as one step (compared with
the snapshot after its last function). A function pass (one whose snapshots
name a function) is applied to the functions XLA applied it to in that step
only: where XLA interleaves two function passes, the next snapshot has the pass
applied to the first function and not yet to the others. The passes XLA runs
inside a pass (the inliner's `cse` on every function) are part of its step:
ours runs them after the pass, and the comparison is with the snapshot after
the last of them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr

from xla_emit.diagnostics import UserError
from xla_emit.dialects.xla import lookup_function
from xla_emit.interpreter import Executor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import (
    TRITON_TO_TRITONGPU,
    Snapshot,
    find_snapshot,
    modelled_snapshots,
    read_pass_log,
)
from xla_emit.ir.verify import verify_module
from xla_emit.passes import all_passes
from xla_emit.runtime.kernel_io import random_kernel_inputs
from xla_emit.runtime.pipeline import apply_pipeline

# An op as printed: `%r = dialect.op`, a bare `dialect.op`, or the generic `"dialect.op"(`.
_OP = re.compile(r'^\s*(?:%[^=]*= )?"?([a-z_][\w]*\.[\w.]+)"?(?=[ (]|$)', re.MULTILINE)


def text_census(text: str) -> Counter[str]:
    """Ops by name, read off the printed text (fast: no parsing)."""
    return Counter(_OP.findall(text))


def op_census(module: ModuleOp) -> Counter[str]:
    return Counter(op.name for op in module.walk() if op is not module)


def list_snapshots(snapshots: Sequence[Snapshot]) -> str:
    """One row per snapshot; in a Triton log, a line marks where TritonGPU IR begins
    (the snapshots below it are listed and extracted, not modelled)."""
    width = max([34, *(len(snapshot.pass_arg) + 1 for snapshot in snapshots)])
    rows = [f"{'#':>3}  {'pass':<{width}} {'anchor':<34} ops"]
    for snapshot in snapshots:
        count = sum(text_census(snapshot.body).values())
        rows.append(
            f"{snapshot.index:>3}  {snapshot.pass_arg:<{width}} @{snapshot.anchor:<33} {count}"
        )
        if snapshot.pass_arg == TRITON_TO_TRITONGPU:
            rows.append("     -- TritonGPU IR from here on: listed, not modelled --")
    return "\n".join(rows)


@dataclass(frozen=True)
class ReplayRow:
    index: int
    pass_name: str
    same_ops: str
    same_outputs: str
    note: str


def parsed(snapshot: Snapshot, file: str) -> ModuleOp:
    module, source_map = parse_mlir(snapshot.text, file)
    verify_module(module, source_map)
    return module


def census_difference(ours: Counter[str], theirs: Counter[str]) -> str:
    """`+2 vector.load -1 tensor.extract`: what ours has more (+) or fewer (-) of."""
    parts = []
    for name in sorted(set(ours) | set(theirs)):
        delta = ours[name] - theirs[name]
        if delta:
            parts.append(f"{delta:+d} {name}")
    return " ".join(parts)


def run_module(module: ModuleOp, inputs: list[np.ndarray] | None) -> list[np.ndarray]:
    executor = Executor(module)
    function = executor.entry_function()
    if inputs is None:
        inputs = random_kernel_inputs(function, 0)
    return executor.run(inputs)


def same_arrays(ours: Sequence[np.ndarray], theirs: Sequence[np.ndarray]) -> bool:
    if len(ours) != len(theirs):
        return False
    for a, b in zip(ours, theirs, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        if a.size != b.size or a.dtype != b.dtype:
            return False
        a, b = a.reshape(-1), b.reshape(-1)
        if a.dtype.kind == "f" and a.dtype.itemsize >= 4:
            if not np.allclose(a, b, rtol=4 * np.finfo(a.dtype).eps, atol=0, equal_nan=True):
                return False
        elif a.tobytes() != b.tobytes():
            return False
    return True


# Passes that run other passes inside them, as XLA builds them: the inliner runs
# `cse` on every function it visits (`createInlinerPass` with an optimization
# pipeline), and each of those runs prints its own snapshot anchored at the function.
NESTED_PASSES = {"inline": ("cse",)}


@dataclass(frozen=True)
class ReplayStep:
    """One step of XLA's pipeline: what the pass received, what the next pass received,
    the functions XLA ran it on (empty names: the whole module) and the passes XLA ran
    inside it (ours runs them after it)."""

    before: Snapshot
    after: Snapshot
    anchors: tuple[str, ...]
    nested: tuple[str, ...]


def replay_steps(snapshots: Sequence[Snapshot]) -> list[ReplayStep]:
    """XLA's pipeline as steps: a pass XLA ran on several functions in a row is one
    step, and the snapshots of the passes nested in it belong to it too."""
    steps: list[ReplayStep] = []
    index = 0
    while index < len(snapshots) - 1:
        before = snapshots[index]
        following = index + 1
        while following < len(snapshots) and snapshots[following].pass_arg == before.pass_arg:
            following += 1
        anchors = tuple(
            snapshot.anchor if snapshot.anchor_op == "func.func" else ""
            for snapshot in snapshots[index:following]
        )
        nested: list[str] = []
        allowed = NESTED_PASSES.get(before.pass_arg, ())
        while (
            following < len(snapshots)
            and snapshots[following].pass_arg in allowed
            and snapshots[following].anchor_op == "func.func"
        ):
            if snapshots[following].pass_arg not in nested:
                nested.append(snapshots[following].pass_arg)
            following += 1
        if following < len(snapshots):
            steps.append(ReplayStep(before, snapshots[following], anchors, tuple(nested)))
        index = following
    return steps


def apply_to_functions(module: ModuleOp, pass_arg: str, anchors: Sequence[str]) -> None:
    """Runs our pass as XLA ran it: on the whole module, or (a function pass) on `anchors` only.

    Our passes run on a module; for a function pass the result is computed on a
    copy and only the anchored functions are taken from it, so a function XLA
    had not reached yet stays as it was.
    """
    if not all(anchors):
        apply_pipeline(module, pass_arg)
        return
    transformed = module.clone()
    apply_pipeline(transformed, pass_arg)
    for name in anchors:
        symbol = SymbolRefAttr(name)
        old, new = lookup_function(module, symbol), lookup_function(transformed, symbol)
        if old is not None and new is not None:
            new.detach()
            module.body.block.insert_op_before(new, old)
            module.body.block.erase_op(old)


def replay_step(step: ReplayStep, file: str, outputs: bool = True) -> ReplayRow:
    """Our pass on what XLA's received, compared with what XLA's next pass received.
    `outputs=False` compares the census only (the outputs column says `-`)."""
    before = step.before
    ours = parsed(before, file)
    try:
        apply_to_functions(ours, before.pass_arg, step.anchors)
        if step.nested:
            apply_pipeline(ours, ",".join(step.nested))
    except UserError as error:
        note = str(error).splitlines()[0]
        return ReplayRow(before.index, before.pass_arg, "error", "-", note)
    theirs = parsed(step.after, file)
    difference = census_difference(op_census(ours), op_census(theirs))
    same_outputs = compare_outputs(ours, theirs) if outputs else "-"
    return ReplayRow(
        before.index, before.pass_arg, "no" if difference else "yes", same_outputs, difference
    )


def compare_outputs(ours: ModuleOp, theirs: ModuleOp) -> str:
    """`yes`, `NO`, or why the modules could not be run, on the same random inputs."""
    try:
        inputs = random_kernel_inputs(Executor(theirs).entry_function(), 0)
        return "yes" if same_arrays(run_module(ours, inputs), run_module(theirs, inputs)) else "NO"
    except UserError as error:
        return "not run: " + str(error).splitlines()[0]


def replay(
    snapshots: Sequence[Snapshot],
    file: str,
    passes: Collection[str] | None = None,
    outputs: bool = True,
) -> list[ReplayRow]:
    """One row per step of XLA's pipeline whose pass we implement (and, if `passes`
    is given, that it names)."""
    ours = all_passes()
    return [
        replay_step(step, file, outputs)
        for step in replay_steps(snapshots)
        if step.before.pass_arg in ours and (passes is None or step.before.pass_arg in passes)
    ]


def format_replay(rows: Sequence[ReplayRow]) -> str:
    lines = [f"{'#':>3}  {'pass':<28} {'same ops?':<10} {'same outputs?':<14} difference"]
    for row in rows:
        lines.append(
            f"{row.index:>3}  {row.pass_name:<28} {row.same_ops:<10} {row.same_outputs:<14} "
            f"{row.note}".rstrip()
        )
    return "\n".join(lines)


def _parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="xla-emit-dump", description="List, extract and replay XLA's MLIR pass logs."
    )
    parser.add_argument(
        "log",
        help="a *.mlir-passes.log, *.xtile-to-triton.txt, *.triton-to-llvm.txt, ... (or .xz) "
        "from --xla_dump_emitter_re, or a bundle folder",
    )
    parser.add_argument(
        "--fusion", metavar="NAME", help="with a bundle: the pass log of this fusion"
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="with a bundle: XLA's kernels and ours side by side, in Markdown (-o: a .md "
        "or .html file)",
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--extract", metavar="N|PASS", help="snapshot by index or pass name")
    action.add_argument("--replay", action="store_true", help="compare our passes with XLA's")
    parser.add_argument("-o", "--output", help="where --extract writes (default: stdout)")
    parser.add_argument(
        "--passes",
        metavar="P1,P2",
        help="with --replay: only the steps of these passes (default: every pass we implement)",
    )
    parser.add_argument(
        "--lowered",
        action="store_true",
        help="with --replay: also the steps from xla-lower-tensors on (op census only)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="with --report: a step of progress per kernel on stderr (default: on a terminal)",
    )
    parser.add_argument(
        "--no-outputs",
        action="store_true",
        help="with --replay: compare the op census only, without running the modules",
    )
    return parser.parse_args(argv)


def _pass_filter(text: str) -> list[str]:
    """The names of `--passes`; a name that is not one of our passes is an error."""
    names = [name for name in text.split(",") if name]
    known = all_passes()
    for name in names:
        if name not in known:
            raise UserError(f"--passes: no pass of ours is named '{name}'")
    if not names:
        raise UserError("--passes: no pass named")
    return names


def bundle_log(folder: str, fusion: str | None) -> Path | None:
    """A bundle's pass log of `fusion`; None (after printing its kernels) without a fusion."""
    from xla_emit.jax.bundle import open_bundle
    from xla_emit.jax.routes import format_kernels, xla_kernels

    bundle = open_bundle(folder)
    if fusion is None:
        sys.stdout.write(format_kernels(bundle))
        return None
    kernels = {k.name: k for k in xla_kernels(bundle)} | {k.kernel: k for k in xla_kernels(bundle)}
    kernel = kernels.get(fusion)
    if kernel is None:
        names = ", ".join(k.name for k in xla_kernels(bundle))
        raise UserError(f"'{folder}' has no kernel named '{fusion}' (the kernels: {names})")
    log = bundle.pass_log(kernel.name)
    if log is None:
        raise UserError(
            f"'{fusion}' has no MLIR pass log: XLA's route for it is {kernel.route}, not a "
            f"native emitter (its files: {', '.join(sorted(kernel.files)) or 'none'})"
        )
    return log


def write_report(folder: str, output: str | None, progress: bool = False) -> int:
    from xla_emit.jax.bundle import open_bundle
    from xla_emit.tools.report import build_report, html_report, markdown_report, write_markdown

    report = build_report(open_bundle(folder), progress=progress or sys.stderr.isatty())
    if output is None:
        sys.stdout.write(markdown_report(report))
        return 0
    if not output.endswith(".html"):
        write_markdown(report, Path(output))  # and the graph's SVG beside it
        return 0
    try:
        Path(output).write_text(html_report(report))
    except OSError as error:
        raise UserError(f"cannot write '{output}': {error.strerror}") from None
    return 0


def run(argv: Sequence[str] | None = None) -> int:
    from xla_emit.jax.bundle import is_bundle

    args = _parse_arguments(argv)
    log = Path(args.log)
    if is_bundle(log) and args.report:
        return write_report(args.log, args.output, args.progress)
    if is_bundle(log):
        found = bundle_log(args.log, args.fusion)
        if found is None:
            return 0
        log = found
    elif args.fusion is not None:
        raise UserError("--fusion picks a kernel of a bundle; the input is a pass log")
    snapshots = read_pass_log(log)
    if args.extract is not None:
        text = find_snapshot(snapshots, args.extract).body
        if args.output:
            try:
                Path(args.output).write_text(text)
            except OSError as error:
                raise UserError(f"cannot write '{args.output}': {error.strerror}") from None
        else:
            sys.stdout.write(text)
        return 0
    if args.replay:
        passes = _pass_filter(args.passes) if args.passes is not None else None
        modelled = modelled_snapshots(snapshots)
        rows = replay(modelled, str(log), passes, not args.no_outputs)
        if args.lowered and len(modelled) < len(snapshots):
            rows += replay(snapshots[len(modelled) - 1 :], str(log), passes, outputs=False)
        print(format_replay(rows))
        return 0
    print(list_snapshots(snapshots))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: user errors print one located line and exit 1."""
    try:
        return run(argv)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader stopped early (`| head`): what it read is all it wanted. Python's
        # recipe: point stdout at /dev/null so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
