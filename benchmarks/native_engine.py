"""The native engine against jax on XLA:CPU: kernels in process, zoo models whole process.

    .venv/bin/python benchmarks/native_engine.py [--repeats 5] [--rounds 3] [--jax-python PATH]
                                                 [--only-in-process | --only-whole-process]
                                                 [--models NAME ...]

In process (compilation not timed, best of `--repeats` and of at least 0.5 s of
runs, wall and CPU time of this process): GELU bf16[6,512,4096], softmax
f32[64,1000] and a row sum f32[1024,4096] (`examples/*.hlo`) on
`ModuleRuntime(native=...)` (a kernel's blocks on `$XLA_EMIT_NATIVE_THREADS` threads,
default the CPUs), against the same functions jitted by jax and run on
XLA:CPU in a subprocess that prints its own times as JSON (same shapes, random
inputs). The two take `--rounds` turns and each keeps its best, so that a loaded
machine slows both alike. Goal: within 2x of jax.

Whole process (fresh process, start to exit, best of `--repeats`): the zoo's
models by `xla-emit-run --engine native`, cold (an empty disk cache: every
kernel through the passes and LLVM) and warm (the kernels' LLVM IR from the disk
cache of the cold run, runs taken in turns with jax's), against jax's own process
(start-up, tracing, XLA's compile and the run). Our bytecode is compiled first,
as an installed package has it (`subprocess_timing.compile_bytecode`). Goal: at
most jax's time.

jax comes from `--jax-python` (default /work/venvs/jax-0.10.2/bin/python); the
jax columns are skipped where it does not exist. Needs llvmlite (`[llvm]`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from subprocess_timing import compile_bytecode  # noqa: E402  # pyright: ignore[reportMissingImports]
from zoo_models import _JAX_SNIPPET, ZOO  # noqa: E402  # pyright: ignore[reportMissingImports]

DEFAULT_JAX = Path("/work/venvs/jax-0.10.2/bin/python")
THREADS = "XLA_EMIT_NATIVE_THREADS"
IN_PROCESS = ("gelu", "softmax", "reduction_row")
# In process, each program runs at least this long (both ours and jax's).
MIN_SECONDS = 0.5
ZOO_MODELS = (
    "transformer_block", "mlp_step_f32", "mlp_step_bf16", "scan_rnn", "small_cnn",
    "resnet_step", "cumsum", "embedding_lookup", "fft_filter",
)  # fmt: skip

# The in-process programs in jax, timed in its own process; prints {name: [wall, cpu]}.
_JAX_KERNELS = """
import json, sys, time
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_platforms", "cpu")
repeats, seconds = int(sys.argv[1]), float(sys.argv[2])

def gelu(x):
    half, one, a, b = (jnp.bfloat16(v) for v in (0.5, 1.0, 0.79785, 0.044708))
    return x * ((jnp.tanh((x + x * x * x * b) * a) + one) * half)

def softmax(x):
    e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
    return e * (1 / jnp.sum(e, axis=1, keepdims=True))

def reduction_row(x):
    return jnp.sum(x, axis=1)

rng = np.random.default_rng(0)
cases = {
    "gelu": (gelu, rng.standard_normal((6, 512, 4096)).astype(jnp.bfloat16)),
    "softmax": (softmax, rng.standard_normal((64, 1000)).astype(np.float32)),
    "reduction_row": (reduction_row, rng.standard_normal((1024, 4096)).astype(np.float32)),
}
times = {}
for name, (function, x) in cases.items():
    jitted, device_x = jax.jit(function), jnp.asarray(x)
    jitted(device_x).block_until_ready()
    wall = cpu = float("inf")
    started, done = time.perf_counter(), 0
    while done < repeats or time.perf_counter() - started < seconds:
        w, c = time.perf_counter(), time.process_time()
        jitted(device_x).block_until_ready()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
        done += 1
    times[name] = [wall, cpu]
print(json.dumps(times))
"""


def best_in_process(
    run: Callable[[], object], repeats: int, seconds: float = MIN_SECONDS
) -> tuple[float, float]:
    """Best wall and best CPU seconds of `repeats` calls, more until `seconds` have passed
    (after one untimed call): a short kernel needs many tries on a loaded machine."""
    run()
    wall = cpu = float("inf")
    started = time.perf_counter()
    done = 0
    while done < repeats or time.perf_counter() - started < seconds:
        w, c = time.perf_counter(), time.process_time()
        run()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
        done += 1
    return wall, cpu


def ours_in_process(name: str) -> Callable[[], object]:
    """One run of `examples/<name>.hlo` on the native engine (its kernels compiled here)."""
    from xla_emit.hlo.npz import random_inputs
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.runtime import ModuleRuntime
    from xla_emit.runtime.native_kernels import NativeKernelCache

    path = ROOT / "examples" / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = random_inputs(module.entry, 0)
    runtime = ModuleRuntime(module, native=NativeKernelCache(disk=False))
    return lambda: runtime.run(inputs)


def jax_in_process(jax_python: str | None, repeats: int) -> dict[str, list[float]]:
    if jax_python is None:
        return {}
    result = subprocess.run(
        [jax_python, "-c", _JAX_KERNELS, str(repeats), str(MIN_SECONDS)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"jax failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def in_process_rounds(
    jax_python: str | None, repeats: int, rounds: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Best [wall, CPU] per program, ours and jax's, over `rounds` turns of each."""
    runs = {name: ours_in_process(name) for name in IN_PROCESS}
    ours: dict[str, list[float]] = {}
    jax: dict[str, list[float]] = {}
    for _ in range(rounds):
        for name, times in jax_in_process(jax_python, repeats).items():
            jax[name] = [min(t, b) for t, b in zip(times, jax.get(name, times), strict=True)]
        for name, run in runs.items():
            times = list(best_in_process(run, repeats))
            ours[name] = [min(t, b) for t, b in zip(times, ours.get(name, times), strict=True)]
    return ours, jax


def best_process(command: list[str], repeats: int, env: dict[str, str]) -> float | str:
    times: list[float] = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env)
        times.append(time.perf_counter() - started)
        if result.returncode != 0:
            lines = (result.stderr or result.stdout).strip().splitlines()
            return f"fails: {lines[-1] if lines else result.returncode}"
    return min(times)


def cell(value: float | str | None, unit: float = 1.0, suffix: str = " s") -> str:
    if value is None:
        return "skipped"
    return f"{value * unit:.2f}{suffix}" if isinstance(value, float) else value


def ratio(ours: float | str | None, other: float | str | None) -> str:
    if isinstance(ours, float) and isinstance(other, float):
        return f"{ours / other:.2f}x"
    return "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="turns of ours and jax's in process")
    parser.add_argument("--jax-python", default=str(DEFAULT_JAX) if DEFAULT_JAX.exists() else None)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--only-in-process", action="store_true")
    only.add_argument("--only-whole-process", action="store_true")
    parser.add_argument("--models", nargs="*", default=list(ZOO_MODELS))
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    from xla_emit.runtime.block_pool import default_workers

    print(f"native engine threads: {default_workers()} (${THREADS} to change)")
    if not args.only_whole_process:
        in_process(args)
    if not args.only_in_process:
        whole_process(args)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


def in_process(args: argparse.Namespace) -> None:
    ours, jax = in_process_rounds(args.jax_python, args.repeats, args.rounds)
    print("| in process | ours, wall | ours, CPU | jax, wall | jax, CPU | wall ratio | CPU ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in IN_PROCESS:
        wall, cpu = ours[name]
        jax_wall, jax_cpu = jax.get(name, [None, None])
        print(
            f"| {name} | {cell(wall, 1e3, ' ms')} | {cell(cpu, 1e3, ' ms')} "
            f"| {cell(jax_wall, 1e3, ' ms')} | {cell(jax_cpu, 1e3, ' ms')} "
            f"| {ratio(wall, jax_wall)} | {ratio(cpu, jax_cpu)} |"
        )
    print()


def whole_process(args: argparse.Namespace) -> None:
    print("| whole process | ours, cold cache | ours, warm cache | jax | warm / jax |")
    print("|---|---|---|---|---|")
    compile_bytecode()
    run = [sys.executable, "-m", "xla_emit.tools.run", "--engine", "native"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XLA_EMIT_CACHE": cache}
        for name in args.models:
            hlo, inputs = ZOO / f"{name}.hlo", ZOO / f"{name}.inputs.npz"
            command = [*run, str(hlo), "--inputs", str(inputs), "-o", os.devnull]
            for stale in Path(cache).glob("*"):
                stale.unlink()
            cold = best_process(command, 1, env)
            commands = [command]
            if args.jax_python:
                snippet = _JAX_SNIPPET.format(
                    tools=str(ROOT / "tools"), name=name, inputs=str(inputs)
                )
                commands.append([args.jax_python, "-c", snippet])
            # Taken in turns, so that load hits both alike.
            best: list[float | str] = [float("inf")] * len(commands)
            for _ in range(args.repeats):
                for i, each in enumerate(commands):
                    elapsed = best_process(each, 1, env)
                    previous = best[i]
                    if isinstance(elapsed, str) or isinstance(previous, str):
                        best[i] = elapsed if isinstance(elapsed, str) else previous
                    else:
                        best[i] = min(previous, elapsed)
            warm = best[0]
            jax_time = best[1] if len(best) > 1 else None
            print(
                f"| {name} | {cell(cold)} | {cell(warm)} | {cell(jax_time)} "
                f"| {ratio(warm, jax_time)} |"
            )


if __name__ == "__main__":
    raise SystemExit(main())
