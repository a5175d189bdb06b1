"""Time `xla-gpu-pipeline` on the seed's GELU and on generated elementwise kernels.

    .venv/bin/python benchmarks/pipeline_scaling.py [--repeats 3]

The GELU is emitted from `examples/gelu.hlo` by the loop emitter; the
elementwise kernels are written directly in the loop emitter's form (the
seed's first listing: an `xla_gpu.loop` over bf16[6,512,4096] calling one
subgraph function) with a chain of N elementwise ops (multiply, add, tanh,
subtract in turn). Emission is not timed; the pipeline runs on a fresh copy
of each kernel and the best of `--repeats` runs is reported with the time per
input op and the ratio to the previous size. The vector dimension is
unrolled 4 times, so the final kernel holds about 4N ops: growth close to
linear shows as ratios close to 2.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from passes.pipelines import PIPELINES, available_passes
from xla_emit.emitters import emit_hlo_module
from xla_emit.tools.context import make_context, parse_mlir

SIZES = (100, 200, 400, 800)
_TENSOR = "tensor<6x512x4096xbf16>"
_MAP = (
    '#xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, '
    "(bl_x floordiv 8) mod 512, (bl_x mod 8) * 512 + th_x * 4 + vector_index), "
    'domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">'
)
_BINARY = {1: "arith.mulf", 2: "arith.addf", 0: "arith.subf"}


def elementwise_kernel(num_ops: int) -> str:
    """The loop emitter's kernel for a fusion that is a chain of `num_ops` elementwise ops."""
    body = [
        f"  %v0 = tensor.extract %a[%i, %j, %k] : {_TENSOR}",
        f"  %w = tensor.extract %b[%i, %j, %k] : {_TENSOR}",
    ]
    for n in range(1, num_ops + 1):
        if n % 4 == 3:
            body.append(f"  %v{n} = math.tanh %v{n - 1} : bf16")
        else:
            body.append(f"  %v{n} = {_BINARY[n % 4 % 3]} %v{n - 1}, %w : bf16")
    body.append(f"  return %v{num_ops} : bf16")
    return "\n".join(
        [
            f"func.func @main(%a: {_TENSOR}, %b: {_TENSOR}, %out: {_TENSOR}) -> {_TENSOR} {{",
            "  %th = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}",
            "  %bl = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}",
            f"  %r = xla_gpu.loop (%th, %bl)[%vi] -> (%d0, %d1, %d2) in {_MAP}",
            f"      iter_args(%it = %out) -> ({_TENSOR}) {{",
            "    %v = xla_gpu.pure_call @chain(%a, %b, %d0, %d1, %d2)",
            f"        : ({_TENSOR}, {_TENSOR}, index, index, index) -> bf16",
            f"    %n = tensor.insert %v into %it[%d0, %d1, %d2] : {_TENSOR}",
            f"    xla_gpu.yield %n : {_TENSOR}",
            "  }",
            f"  return %r : {_TENSOR}",
            "}",
            f"func.func private @chain(%a: {_TENSOR}, %b: {_TENSOR},",
            "                          %i: index, %j: index, %k: index) -> bf16 {",
            *body,
            "}",
        ]
    )


def time_pipeline(ctx: Context, module: ModuleOp, repeats: int) -> tuple[float, int]:
    """Best wall time of the pipeline over `repeats` fresh copies, and the ops it leaves."""
    pipeline = PassPipeline.parse_spec(available_passes(), PIPELINES["xla-gpu-pipeline"])
    best = float("inf")
    result = module
    for _ in range(repeats):
        result = module.clone()
        start = time.perf_counter()
        pipeline.apply(ctx, result)
        best = min(best, time.perf_counter() - start)
    return best, sum(1 for _ in result.walk())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    ctx = make_context()
    gelu = Path(__file__).resolve().parents[1] / "examples" / "gelu.hlo"
    cases = [("GELU (seed)", emit_hlo_module(gelu.read_text(), str(gelu)))]
    cases += [
        (f"{n} elementwise ops", parse_mlir(elementwise_kernel(n), f"chain{n}.mlir", ctx)[0])
        for n in SIZES
    ]
    print("| kernel | ops in | ops out | time (s) | µs per op in | ratio to previous |")
    print("|---|---:|---:|---:|---:|---:|")
    previous: float | None = None
    for name, module in cases:
        ops_in = sum(1 for _ in module.walk())
        seconds, ops_out = time_pipeline(ctx, module, args.repeats)
        ratio = "" if previous is None else f"{seconds / previous:.2f}"
        per_op = 1e6 * seconds / ops_in
        print(f"| {name} | {ops_in} | {ops_out} | {seconds:.3f} | {per_op:.0f} | {ratio} |")
        # Ratios compare the generated kernels with each other, not with the GELU.
        previous = None if name.startswith("GELU") else seconds


if __name__ == "__main__":
    main()
