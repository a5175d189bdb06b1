"""The native engine against jax on XLA:CPU: kernels in process, zoo models whole process.

    .venv/bin/python benchmarks/native_engine.py [--repeats 5] [--jax-python PATH]
                                                 [--only-in-process | --only-whole-process]
                                                 [--models NAME ...]

In process (compilation not timed, best of `--repeats`, wall and CPU time of
this process): GELU bf16[6,512,4096], softmax f32[64,1000] and a row sum
f32[1024,4096] (`examples/*.hlo`) on `ModuleRuntime(native=...)`, against the
same functions jitted by jax and run on XLA:CPU in a subprocess that prints its
own times as JSON (same shapes, random inputs). Goal: within 2x of jax.

Whole process (fresh process, start to exit, best of `--repeats`): the zoo's
models by `xla-emit-run --engine native`, cold (an empty disk cache: every
kernel through the passes and LLVM) and warm (the kernels' LLVM IR from the disk
cache of the cold run), against jax's own process (start-up, tracing, XLA's
compile and the run). Goal: at most jax's time.

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
from zoo_models import _JAX_SNIPPET, ZOO  # noqa: E402  # pyright: ignore[reportMissingImports]

DEFAULT_JAX = Path("/work/venvs/jax-0.10.2/bin/python")
IN_PROCESS = ("gelu", "softmax", "reduction_row")
ZOO_MODELS = (
    "transformer_block", "mlp_step_f32", "mlp_step_bf16", "scan_rnn", "small_cnn",
    "resnet_step", "cumsum", "embedding_lookup", "fft_filter",
)  # fmt: skip

# The in-process programs in jax, timed in its own process; prints {name: [wall, cpu]}.
_JAX_KERNELS = """
import json, sys, time
import jax, jax.numpy as jnp, numpy as np
jax.config.update("jax_platforms", "cpu")
repeats = int(sys.argv[1])

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
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        jitted(device_x).block_until_ready()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    times[name] = [wall, cpu]
print(json.dumps(times))
"""


def best_in_process(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of `repeats` calls (after one untimed call)."""
    run()
    wall = cpu = float("inf")
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        run()
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    return wall, cpu


def ours_in_process(name: str, repeats: int) -> tuple[float, float]:
    from xla_emit.hlo.npz import random_inputs
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.runtime import ModuleRuntime
    from xla_emit.runtime.native_kernels import NativeKernelCache

    path = ROOT / "examples" / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = random_inputs(module.entry, 0)
    runtime = ModuleRuntime(module, native=NativeKernelCache(disk=False))
    return best_in_process(lambda: runtime.run(inputs), repeats)


def jax_in_process(jax_python: str | None, repeats: int) -> dict[str, list[float]]:
    if jax_python is None:
        return {}
    result = subprocess.run(
        [jax_python, "-c", _JAX_KERNELS, str(repeats)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        sys.exit(f"jax failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


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
    parser.add_argument("--jax-python", default=str(DEFAULT_JAX) if DEFAULT_JAX.exists() else None)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--only-in-process", action="store_true")
    only.add_argument("--only-whole-process", action="store_true")
    parser.add_argument("--models", nargs="*", default=list(ZOO_MODELS))
    args = parser.parse_args()
    if not args.only_whole_process:
        in_process(args.jax_python, args.repeats)
    if not args.only_in_process:
        whole_process(args.jax_python, args.repeats, args.models)
    return 0


def in_process(jax_python: str | None, repeats: int) -> None:
    jax = jax_in_process(jax_python, repeats)
    print("| in process | ours, wall | ours, CPU | jax, wall | jax, CPU | wall ratio | CPU ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in IN_PROCESS:
        wall, cpu = ours_in_process(name, repeats)
        jax_wall, jax_cpu = jax.get(name, [None, None])
        print(
            f"| {name} | {cell(wall, 1e3, ' ms')} | {cell(cpu, 1e3, ' ms')} "
            f"| {cell(jax_wall, 1e3, ' ms')} | {cell(jax_cpu, 1e3, ' ms')} "
            f"| {ratio(wall, jax_wall)} | {ratio(cpu, jax_cpu)} |"
        )
    print()


def whole_process(jax_python: str | None, repeats: int, models: list[str]) -> None:
    print("| whole process | ours, cold cache | ours, warm cache | jax | warm / jax |")
    print("|---|---|---|---|---|")
    run = [sys.executable, "-m", "xla_emit.tools.run", "--engine", "native"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XLA_EMIT_CACHE": cache}
        for name in models:
            hlo, inputs = ZOO / f"{name}.hlo", ZOO / f"{name}.inputs.npz"
            command = [*run, str(hlo), "--inputs", str(inputs), "-o", os.devnull]
            for stale in Path(cache).glob("*"):
                stale.unlink()
            cold = best_process(command, 1, env)
            warm = best_process(command, repeats, env)
            jax_time: float | str | None = None
            if jax_python:
                snippet = _JAX_SNIPPET.format(
                    tools=str(ROOT / "tools"), name=name, inputs=str(inputs)
                )
                jax_time = best_process([jax_python, "-c", snippet], repeats, env)
            print(
                f"| {name} | {cell(cold)} | {cell(warm)} | {cell(jax_time)} "
                f"| {ratio(warm, jax_time)} |"
            )


if __name__ == "__main__":
    raise SystemExit(main())
