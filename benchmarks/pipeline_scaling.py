"""Time `xla-gpu-pipeline` on the seed's GELU and on generated elementwise kernels.

    .venv/bin/python benchmarks/pipeline_scaling.py [--repeats 3]

The GELU is emitted from `examples/gelu.hlo` by the loop emitter; the
elementwise kernels are generated HLO loop fusions over bf16[6,512,4096]
with a chain of N elementwise ops (multiply, add, tanh, subtract in turn),
emitted the same way (one `xla_gpu.loop` calling one subgraph function).
Emission is not timed; the pipeline runs on a fresh copy
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
from xla_emit.passes.pipelines import PIPELINES, available_passes

from xla_emit.emitters import emit_hlo_module
from xla_emit.ir import make_context

SIZES = (100, 200, 400, 800)
_SHAPE = "bf16[6,512,4096]"
_BINARY = {1: "multiply", 2: "add", 0: "subtract"}


def elementwise_fusion(num_ops: int) -> str:
    """HLO of a loop fusion that is a chain of `num_ops` elementwise ops over GELU's shape."""
    body = [f"  a = {_SHAPE} parameter(0)", f"  v0 = {_SHAPE} parameter(1)"]
    for n in range(1, num_ops + 1):
        if n % 4 == 3:
            body.append(f"  v{n} = {_SHAPE} tanh(v{n - 1})")
        else:
            body.append(f"  v{n} = {_SHAPE} {_BINARY[n % 4 % 3]}(v{n - 1}, a)")
    body[-1] = "  ROOT" + body[-1][1:]
    return "\n".join(
        [
            f"HloModule chain{num_ops}",
            "",
            "chain {",
            *body,
            "}",
            "",
            "ENTRY main {",
            f"  p0 = {_SHAPE} parameter(0)",
            f"  p1 = {_SHAPE} parameter(1)",
            f"  ROOT fusion = {_SHAPE} fusion(p0, p1), kind=kLoop, calls=chain",
            "}",
            "",
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
        (f"{n} elementwise ops", emit_hlo_module(elementwise_fusion(n), f"chain{n}.hlo"))
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
