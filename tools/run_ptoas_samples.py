"""Run PTOAS's sample kernels (`test/samples/**/*.pto`) in the PTO executor.

    PYTHONPATH=. .venv/bin/python tools/run_ptoas_samples.py PTOAS_CHECKOUT

Each sample's entry function gets random global buffers, each as large as the
largest constant-shaped `pto.make_tensor_view` over it reaches (scalar
parameters get 1). Samples whose numpy golden is a closed formula (PTOAS's
`*_golden.py` next to them computes it; restated here in numpy) are checked
against it; the others are only run. Prints one line per sample: `ok`,
`matches golden`, `differs from golden` or the executor's first error. Not part
of `make test`: it needs a PTOAS checkout (github.com/hw-native-sys/PTOAS).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import SSAValue

from dialects import pto
from xla_emit.diagnostics import UserError
from xla_emit.runtime.pto_kernels import parse_pto_program, run_pto_module

DEFAULT_ELEMENTS = 4096
# Sample -> (output parameter, golden from the inputs by position), as the
# sample's `*_golden.py` computes it.
GOLDENS: dict[str, tuple[int, Callable[[list[np.ndarray]], np.ndarray]]] = {
    "Addc/addc.pto": (3, lambda a: a[0] + a[1] + a[2]),
    "VectorAddition/vadd.pto": (2, lambda a: a[0] + a[1]),
}


def constant(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return int(op.value.value.data)
    return None


def buffer_sizes(module: ModuleOp, entry: func.FuncOp) -> dict[int, int]:
    """Elements each pointer parameter needs: the furthest constant view over it."""
    sizes: dict[int, int] = {}
    params = list(entry.body.block.args)
    for op in entry.walk():
        if not isinstance(op, pto.MakeTensorViewOp) or op.ptr not in params:
            continue
        dims = [constant(v) for v in op.shape]
        strides = [constant(v) for v in op.strides]
        if None in dims or None in strides:
            continue
        extent = 1 + sum((d - 1) * s for d, s in zip(dims, strides, strict=True))  # type: ignore[operator]
        index = params.index(op.ptr)
        sizes[index] = max(sizes.get(index, 0), extent)
    return sizes


def inputs_for(module: ModuleOp, entry: func.FuncOp, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = buffer_sizes(module, entry)
    inputs: dict[str, np.ndarray] = {}
    for index, param in enumerate(entry.body.block.args):
        if isinstance(param.type, pto.PtrType):
            count = sizes.get(index, DEFAULT_ELEMENTS)
            values = rng.uniform(-1, 1, count).astype(np.float32)
            inputs[f"arg{index}"] = values
        else:
            inputs[f"arg{index}"] = np.array(0)
    return inputs


def run_sample(path: Path, relative: str) -> str:
    module, source_map = parse_pto_program(str(path))
    entries = [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]
    if not entries:
        return "no function with a body"
    marked = [f for f in entries if "pto.entry" in f.attributes]
    entry = marked[0] if marked else entries[-1]
    inputs = inputs_for(module, entry, seed=0)
    outputs = run_pto_module(module, source_map, entry.sym_name.data, dict(inputs), None)
    golden = GOLDENS.get(relative)
    if golden is None:
        return "ok"
    position, formula = golden
    args = [inputs[f"arg{i}"].astype(np.float64) for i in range(len(inputs))]
    expected = formula(args)
    got = outputs[f"arg{position}"].astype(np.float64)
    if np.allclose(got, expected, rtol=1e-6, atol=1e-6):
        return "matches golden"
    return f"differs from golden (max error {np.max(np.abs(got - expected)):.3g})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a PTOAS checkout")
    options = parser.parse_args(argv)
    root = Path(options.checkout) / "test" / "samples"
    files = sorted(root.rglob("*.pto"))
    if not files:
        print(f"error: no test/samples/**/*.pto under {options.checkout}", file=sys.stderr)
        return 1
    verdicts: dict[str, int] = {}
    for path in files:
        relative = str(path.relative_to(root))
        try:
            verdict = run_sample(path, relative)
        except UserError as error:
            verdict = "error: " + error.format().splitlines()[0].split("error: ", 1)[-1]
        except (ValueError, IndexError, TypeError, AssertionError) as error:
            verdict = f"error: executor failure {type(error).__name__}: {error}"
        key = verdict if not verdict.startswith("error") else "error"
        verdicts[key] = verdicts.get(key, 0) + 1
        print(f"{relative}: {verdict}")
    print(", ".join(f"{count} {verdict}" for verdict, count in sorted(verdicts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
