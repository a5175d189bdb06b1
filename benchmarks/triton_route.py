"""The Triton route: whole process, in process, and per fusion against the loop fallback.

    .venv/bin/python benchmarks/triton_route.py [--repeats 3] [--quick] [--only PART] [--gemms]
        [--cpu-time]

Three tables, each ratio taken within this one run (PART: process, softmax, fusions):

  process   XLA's layernorm backward f32[64,256] (jax 0.12 corpus), whole process:
            `xla-emit-run gpu.hlo --inputs inputs.npz -o out.npz` against
            `xla-emit-run gpu.hlo --inputs inputs.npz --reference -o ref.npz`,
            best of `--repeats` runs taken in turns. Goal: within 2x.
  softmax   XLA's softmax (jax 0.12 corpus) with its shapes and its output tile scaled
            to f32[4096,4096] (tile [1,4096], as XLA tiles a row softmax: one row per
            program), in process: the module runtime (its `__triton` fusion on the Triton
            route, compiled before timing) against the numpy evaluator on the same
            inputs. Goal: within 2x.
  fusions   every fusion of the Triton corpus (jax 0.10.2 and 0.12) that takes the
            Triton route, on the operands a run of its module gives it: the tile
            program's run against the loop fallback, the fusion emitted by the
            emitters (`emit_fusion`, `xla-gpu-pipeline`) and run by the SIMT
            interpreter, as the runtime ran `__triton` fusions before the route. The
            fallback stops at a step budget (`--fallback-steps`); a stopped run's
            time over the tile program's is a lower bound of the speed-up (`> Nx`).
            Both sides: the best of at least `--repeats` runs (the tile program's run
            on until they took 0.2 s in all, the fallback's while its runs take under
            a second in all).
            Both outputs are compared where the fallback finishes. Goal: 10x.
            `--gemms`: the gemm fusions' rows only. `--cpu-time`: both sides timed in
            the CPU time of the calling thread instead of wall time (on a loaded machine
            the wall time of a run counts the other processes' turns on the cores). Not
            the process's CPU time: after a matmul (the TF32 allowance's evaluation of
            the previous fusion) OpenBLAS's pool threads spin for some 60 ms, and on an
            idle core that doubles the CPU time of the tile runs that follow. Both sides
            run in the calling thread alone (elementwise numpy starts no threads).

Compilation is never timed. Interpreter runs keep the runtime's default checks
(`CheckOptions.fast()`).
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
from subprocess_timing import ROOT, best_of_each, tool

CORPUS = ROOT / "tests" / "corpus" / "triton"
LAYERNORM_BACKWARD = CORPUS / "jax-0.12" / "layernorm_backward_f32"
SOFTMAX = CORPUS / "jax-0.12" / "softmax_f32" / "gpu.hlo"
SOFTMAX_ROWS, SOFTMAX_COLUMNS = 128, 512
FALLBACK_STEPS = 100_000
FALLBACK_SECONDS = 1.0
# A tile program's runs go on until they took this long in all: on a loaded machine the
# other processes slow whole stretches of a few ms, longer than ten runs of a small gemm.
TILE_SECONDS = 0.2
MAX_RUNS = 1000
QUICK_FALLBACK_STEPS = 10_000


# What the fusions table times with: wall time, or the calling thread's CPU time
# (`--cpu-time`; see the module docstring for why not the process's).
clock = time.perf_counter


def timing_clock(cpu_time: bool) -> Callable[[], float]:
    """Wall time, or the calling thread's CPU time (`--cpu-time`; not the process's, which
    counts other threads' spinning, see the module docstring)."""
    return time.thread_time if cpu_time else time.perf_counter


def best_seconds(run: Callable[[], object], repeats: int, min_seconds: float = 0.0) -> float:
    """The least time of `repeats` runs, run on until they took `min_seconds` in all (at
    most `MAX_RUNS`)."""
    timings: list[float] = []
    while len(timings) < repeats or (sum(timings) < min_seconds and len(timings) < MAX_RUNS):
        started = clock()
        run()
        timings.append(clock() - started)
    return min(timings)


def whole_process_table(repeats: int) -> None:
    hlo, inputs = LAYERNORM_BACKWARD / "gpu.hlo", LAYERNORM_BACKWARD / "inputs.npz"
    with tempfile.TemporaryDirectory() as name:
        ours_out, reference_out = Path(name) / "ours.npz", Path(name) / "reference.npz"
        common = [*tool("xla-emit-run"), str(hlo), "--inputs", str(inputs)]
        ours_command = [*common, "-o", str(ours_out)]
        reference_command = [*common, "--reference", "-o", str(reference_out)]
        ours, reference = best_of_each([ours_command, reference_command], repeats)
    rows = [
        ("`xla-emit-run gpu.hlo --inputs inputs.npz -o out.npz`", ours),
        ("`xla-emit-run gpu.hlo --inputs inputs.npz --reference -o out.npz`", reference),
    ]
    print("| layernorm backward f32[64,256] (jax 0.12), whole process | wall (s) | CPU (s) |")
    print("|---|---:|---:|")
    for label, measured in rows:
        print(f"| {label} | {measured.wall:.2f} | {measured.cpu:.2f} |")
    wall, cpu = ours.wall / reference.wall, ours.cpu / reference.cpu
    print(f"| ratio (goal <= 2) | {wall:.2f} | {cpu:.2f} |")


def scaled_softmax_text(rows: int, columns: int) -> str:
    """The corpus softmax with its shapes and its output tile [1, columns] scaled."""
    text = SOFTMAX.read_text()
    for old, new in (
        (f"[{SOFTMAX_ROWS},{SOFTMAX_COLUMNS}]", f"[{rows},{columns}]"),
        (f"f32[{SOFTMAX_ROWS}]", f"f32[{rows}]"),
        (f'"sizes":["1","{SOFTMAX_COLUMNS}"]', f'"sizes":["1","{columns}"]'),
    ):
        if old not in text:
            sys.exit(f"{SOFTMAX}: no '{old}' to scale; the corpus module changed")
        text = text.replace(old, new)
    return text


def softmax_table(repeats: int, rows: int, columns: int) -> None:
    from xla_emit.hlo.evaluator import evaluate_module
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.runtime.module_runtime import ModuleRuntime

    module = parse_hlo_module(scaled_softmax_text(rows, columns), "softmax_scaled.hlo")
    values = np.random.default_rng(0).standard_normal((rows, columns), dtype=np.float32)
    runtime = ModuleRuntime(module)
    # Untimed first runs: the tile kernel compiles, both sides' imports and caches warm up.
    [ours_out], [reference_out] = runtime.run([values]), evaluate_module(module, [values])
    ours = best_seconds(lambda: runtime.run([values]), repeats)
    reference = best_seconds(lambda: evaluate_module(module, [values]), repeats)
    worst = float(np.max(np.abs(ours_out - reference_out)))
    print(f"| softmax f32[{rows},{columns}], in process, best of {repeats} | wall (s) |")
    print("|---|---:|")
    print(f"| module runtime (Triton route, tile [1,{columns}]) | {ours:.2f} |")
    print(f"| numpy evaluator | {reference:.2f} |")
    print(f"| ratio (goal <= 2) | {ours / reference:.2f} |")
    print(f"| largest difference of the outputs | {worst:.1e} |")


@dataclass
class FusionTiming:
    program: str
    fusion: str
    kind: str
    programs: int
    triton: float
    fallback: float
    fallback_done: bool
    agree: bool | None


def fusion_operands(module: object, inputs: list[np.ndarray]) -> list[tuple[object, list]]:
    """(fusion, operands) of every Triton-route launch of one run of `module`."""
    from xla_emit.runtime.module_runtime import ModuleRuntime

    launches: list[tuple[object, list]] = []

    class Recording(ModuleRuntime):
        def launch_triton(self, fusion, operands):  # type: ignore[no-untyped-def]
            if all(fusion is not seen for seen, _ in launches):
                launches.append((fusion, list(operands)))
            return super().launch_triton(fusion, operands)

    Recording(module).run(inputs)  # type: ignore[arg-type]
    return launches


def time_fusion(
    program: str, module: object, fusion: object, operands: list, steps: int, repeats: int
) -> FusionTiming:
    from xla_emit.diagnostics import UserError
    from xla_emit.hlo.fusion_configs import fusion_backend_kind
    from xla_emit.interpreter.budget import run_limits
    from xla_emit.limits import RunLimits
    from xla_emit.runtime.kernels import KernelCache
    from xla_emit.runtime.module_runtime import ModuleRuntime

    runtime = ModuleRuntime(module)  # type: ignore[arg-type]
    kernel = runtime.kernels.triton_kernel(fusion)  # type: ignore[arg-type]

    def launch() -> object:
        return runtime.launch_triton(fusion, operands)  # type: ignore[arg-type]

    triton = best_seconds(launch, repeats, TILE_SECONDS)
    triton_out = runtime.launch_triton(fusion, operands)  # type: ignore[arg-type]
    fallback_runtime = ModuleRuntime(module, KernelCache())  # type: ignore[arg-type]
    fallback_runtime.kernels.kernel(module, fusion)  # type: ignore[arg-type]  # compile, untimed
    fallback, done, fallback_out = math.inf, True, None
    spent = 0.0
    # Best of `repeats` runs too, as the tile program's, while they take under a second in
    # all (a fallback stopped by the step budget takes about as long every time).
    for _ in range(repeats):
        started = clock()
        try:
            with run_limits(RunLimits(max_steps=steps)):
                fallback_out = fallback_runtime.launch(fusion, operands)  # type: ignore[arg-type]
        except UserError as error:
            if "step budget" not in error.message:
                raise
            done, fallback_out = False, None
        seconds = clock() - started
        fallback, spent = min(fallback, seconds), spent + seconds
        if not done or spent > FALLBACK_SECONDS:
            break
    allowances = _tf32_allowances(fusion, operands)
    agree = None if fallback_out is None else _close(triton_out, fallback_out, allowances)
    kind = fusion_backend_kind(fusion)  # type: ignore[arg-type]
    name = fusion.name  # type: ignore[attr-defined]
    return FusionTiming(program, name, kind, kernel.programs, triton, fallback, done, agree)


def _tf32_allowances(fusion: object, operands: list) -> list[float]:
    """Per output, what a gemm fusion that multiplies TF32 values may differ by from its
    fallback (which multiplies in f32) beyond 8 epsilons: twice TF32's move on these
    operands (`tf32_outputs`); 0 for other fusions."""
    from xla_emit.runtime.tf32_outputs import fusion_tf32_moves

    moves = fusion_tf32_moves(fusion, operands)  # type: ignore[arg-type]
    return [0.0 if move is None else move.allowance() for move in moves]


def _close(a: object, b: object, allowances: list[float] | None = None) -> bool:
    """Equal integers; floats within 8 epsilons of the output's largest magnitude (the two
    kernels sum rows in different orders, as the corpus tests allow), plus the output's
    allowance."""
    left = a if isinstance(a, tuple) else (a,)
    right = b if isinstance(b, tuple) else (b,)
    extra = allowances if allowances is not None else [0.0] * len(left)
    return all(
        _leaf_close(np.asarray(x), np.asarray(y), allowance)
        for x, y, allowance in zip(left, right, extra, strict=True)
    )


def _leaf_close(x: np.ndarray, y: np.ndarray, allowance: float = 0.0) -> bool:
    if not np.issubdtype(x.dtype, np.floating) and x.dtype != ml_dtypes.bfloat16:
        return bool(np.array_equal(x, y))
    wide_x, wide_y = x.astype(np.float64), y.astype(np.float64)
    scale = max(float(np.max(np.abs(wide_y), initial=0.0)), np.finfo(np.float32).tiny)
    relative = 8 * float(ml_dtypes.finfo(x.dtype).eps)
    return bool(np.all(np.abs(wide_x - wide_y) <= relative * scale + allowance))


def corpus_fusions() -> list[tuple[str, object, list[tuple[object, list]]]]:
    from xla_emit.hlo.npz import read_inputs
    from xla_emit.hlo.parser import parse_hlo_module

    found = []
    for folder in sorted(CORPUS.glob("jax-*/*")):
        hlo = folder / "gpu.hlo"
        if not hlo.exists():
            continue
        module = parse_hlo_module(hlo.read_text(), str(hlo))
        inputs = read_inputs(str(folder / "inputs.npz"), module.entry)
        launches = fusion_operands(module, inputs)
        if launches:
            found.append(
                (f"{folder.parent.name.removeprefix('jax-')} {folder.name}", module, launches)
            )
    return found


def fusions_table(
    repeats: int, steps: int, gemms_only: bool = False, cpu_time: bool = False
) -> None:
    from xla_emit.hlo.fusion_configs import TRITON, fusion_backend_kind

    global clock
    clock = timing_clock(cpu_time)
    timings = [
        time_fusion(program, module, fusion, operands, steps, repeats)
        for program, module, launches in corpus_fusions()
        for fusion, operands in launches
        if not gemms_only or fusion_backend_kind(fusion) != TRITON  # type: ignore[arg-type]
    ]
    print(
        "| jax, program | fusion | kind | programs | tile program (ms) | "
        f"fallback (ms; step budget {steps}) | speed-up (goal >= 10x) |"
    )
    print("|---|---|---|---:|---:|---:|---:|")
    for t in timings:
        speedup = t.fallback / t.triton
        mark = f"{speedup:.0f}x" if t.fallback_done else f"> {speedup:.0f}x"
        if t.agree is False:
            mark += " (outputs differ)"
        print(
            f"| {t.program} | `{t.fusion}` | `{t.kind}` | {t.programs} | {1e3 * t.triton:.1f} | "
            f"{1e3 * t.fallback:.0f}{'' if t.fallback_done else ' (stopped)'} | {mark} |"
        )
    for kind in sorted({t.kind for t in timings}):
        of_kind = [t for t in timings if t.kind == kind]
        least = min(of_kind, key=lambda t: t.fallback / t.triton)
        bound = "a lower bound" if not least.fallback_done else "the fallback finished"
        stopped = sum(not t.fallback_done for t in of_kind)
        print(
            f"\n`{kind}`: {len(of_kind)} fusions, the fallback stopped on {stopped}; least "
            f"speed-up {least.fallback / least.triton:.1f}x ({bound}), `{least.fusion}`."
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smaller step budget, 1 repeat")
    parser.add_argument("--only", choices=("process", "softmax", "fusions"))
    parser.add_argument("--fallback-steps", type=int, help="the loop fallback's step budget")
    parser.add_argument("--gemms", action="store_true", help="only the gemm fusions' rows")
    parser.add_argument(
        "--cpu-time", action="store_true", help="time fusions in thread CPU time, not wall time"
    )
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    steps = args.fallback_steps or (QUICK_FALLBACK_STEPS if args.quick else FALLBACK_STEPS)
    parts: dict[str, Callable[[], None]] = {
        "process": lambda: whole_process_table(max(repeats, 3)),
        "softmax": lambda: softmax_table(repeats, 4096, 4096),
        "fusions": lambda: fusions_table(repeats, steps, args.gemms, args.cpu_time),
    }
    for number, (name, part) in enumerate(parts.items()):
        if args.only in (None, name):
            if number and args.only is None:
                print()
            part()
            sys.stdout.flush()


if __name__ == "__main__":
    main()
