"""Run PTOAS's sample kernels (`test/samples/**/*.pto`) in the PTO executor and
check them against numpy goldens.

    PYTHONPATH=. .venv/bin/python tools/run_ptoas_samples.py PTOAS_CHECKOUT [-k SUBSTRING]

Each sample's entry function (its `pto.entry` function, else the last one)
gets random global buffers of its pointers' element types, each as large as
the largest constant-shaped `pto.make_tensor_view` over it reaches (through
calls too); scalar parameters get 0 unless the sample's golden names them.
Samples with a golden in `tools/ptoas_goldens.py` (numpy, written from what
the kernel computes, sharing no code with the executor) have every output
buffer compared with it, elements the kernel leaves alone included. Prints one
line per sample (`matches golden`, `differs from golden ...`, `ran (no
golden)` or the executor's first error), then `N/106 ran, M checked against
goldens, K matched`. Not part of `make test`: it needs a PTOAS checkout
(github.com/hw-native-sys/PTOAS).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ptoas_goldens import GOLDENS, Golden
from xla_emit.dialects import pto

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.element_types import explicit_signedness_dtype
from xla_emit.runtime.pto_kernels import parse_pto_program, run_pto_module

DEFAULT_ELEMENTS = 4096
NO_GOLDEN = Golden(lambda a: {})


def constant(value: object) -> int | None:
    op = getattr(value, "owner", None)
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return int(op.value.value.data)
    return None


def buffer_sizes(functions: dict[str, func.FuncOp], entry: func.FuncOp) -> dict[int, int]:
    """Elements each pointer parameter needs: the furthest constant view over it, in the
    function or in the functions it passes the pointer to."""
    sizes: dict[int, int] = {}
    params = list(entry.body.block.args)
    for op in entry.walk():
        if isinstance(op, pto.MakeTensorViewOp) and op.ptr in params:
            dims = [constant(v) for v in op.shape]
            strides = [constant(v) for v in op.strides]
            if None in dims or None in strides:
                continue
            extent = 1 + sum((d - 1) * s for d, s in zip(dims, strides, strict=True))  # type: ignore[operator]
            index = params.index(op.ptr)
            sizes[index] = max(sizes.get(index, 0), extent)
        elif isinstance(op, func.CallOp):
            callee = functions.get(op.callee.root_reference.data)
            if callee is None or not callee.body.blocks:
                continue
            for position, size in buffer_sizes(functions, callee).items():
                operand = op.arguments[position]
                if operand in params:
                    index = params.index(operand)
                    sizes[index] = max(sizes.get(index, 0), size)
    return sizes


def random_buffer(rng: np.random.Generator, dtype: np.dtype, count: int, golden: Golden):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        low, high = max(info.min, int(golden.low * 8)), min(info.max, int(golden.high * 8))
        return rng.integers(low, high + 1, count).astype(dtype)
    return rng.uniform(golden.low, golden.high, count).astype(dtype)


def inputs_for(module: ModuleOp, entry: func.FuncOp, golden: Golden) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    functions = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
    sizes = buffer_sizes(functions, entry)
    inputs: dict[str, np.ndarray] = {}
    for index, param in enumerate(entry.body.block.args):
        if isinstance(param.type, pto.PtrType):
            dtype = explicit_signedness_dtype(param.type.element_type)
            count = sizes.get(index, DEFAULT_ELEMENTS)
            inputs[f"arg{index}"] = random_buffer(rng, dtype, count, golden)
        else:
            inputs[f"arg{index}"] = np.array(golden.scalars.get(index, 0))
    return inputs


def tolerance(dtype: np.dtype, golden: Golden) -> tuple[float, float]:
    """(rtol, atol) for comparing an output of `dtype`: the type's rounding, or the golden's."""
    if golden.tolerance is not None:
        return golden.tolerance
    if np.issubdtype(dtype, np.integer):
        return 0.0, 0.0
    if dtype == np.dtype(ml_dtypes.bfloat16):
        return 1 / 64, 1 / 64
    if dtype == np.dtype(np.float16):
        return 2e-3, 2e-3
    return 1e-4, 1e-4


def compare(name: str, got: np.ndarray, expected: np.ndarray, golden: Golden) -> str | None:
    """None when `got` matches; else what differs."""
    rtol, atol = tolerance(got.dtype, golden)
    g, e = got.astype(np.float64), np.asarray(expected, np.float64).reshape(got.shape)
    close = np.isclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    if close.all():
        return None
    worst = int(np.argmax(np.where(close, 0, np.abs(g - e))))
    return (
        f"{name}: {int((~close).sum())} of {close.size} elements differ (element {worst}: "
        f"{g.reshape(-1)[worst]} != {e.reshape(-1)[worst]})"
    )


def run_sample(path: Path, relative: str) -> str:
    module, source_map = parse_pto_program(str(path))
    entries = [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]
    if not entries:
        return "error: no function with a body"
    marked = [f for f in entries if "pto.entry" in f.attributes]
    entry = marked[0] if marked else entries[-1]
    golden = GOLDENS.get(relative, NO_GOLDEN)
    inputs = inputs_for(module, entry, golden)
    before = {k: v.copy() for k, v in inputs.items()}
    with contextlib.redirect_stdout(io.StringIO()) as stdout:
        outputs = run_pto_module(module, source_map, entry.sym_name.data, dict(inputs), None)
    if not any(isinstance(p.type, pto.PtrType) for p in entry.body.block.args):
        return "ran (stores nothing)"
    if relative not in GOLDENS:
        return "ran (no golden)"
    args = [before[f"arg{i}"] for i in range(len(before))]
    expected = golden.outputs(args)
    for position, value in sorted(expected.items()):
        got = outputs[f"arg{position}"]
        if args[position].dtype == np.dtype(ml_dtypes.bfloat16):
            got = got.view(ml_dtypes.bfloat16)
        problem = compare(f"arg{position}", got, value, golden)
        if problem is not None:
            return f"differs from golden ({problem})"
    if golden.printed is not None:
        problem = compare_printed(stdout.getvalue(), golden.printed(args), golden)
        if problem is not None:
            return f"differs from golden ({problem})"
    return "matches golden"


def compare_printed(text: str, expected: list[np.ndarray], golden: Golden) -> str | None:
    """The tiles `pto.tprint` printed (one line each) against the golden's."""
    prefix = "pto.tprint: "
    tiles = [ast.literal_eval(x[len(prefix) :]) for x in text.splitlines() if x.startswith(prefix)]
    if len(tiles) != len(expected):
        return f"printed {len(tiles)} tiles, expected {len(expected)}"
    for index, (tile, want) in enumerate(zip(tiles, expected, strict=True)):
        problem = compare(f"printed tile {index}", np.array(tile, np.float32), want, golden)
        if problem is not None:
            return problem
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a PTOAS checkout")
    parser.add_argument("-k", default="", help="run only the samples whose path contains this")
    options = parser.parse_args(argv)
    root = Path(options.checkout) / "test" / "samples"
    files = sorted(root.rglob("*.pto"))
    if not files:
        print(f"error: no test/samples/**/*.pto under {options.checkout}", file=sys.stderr)
        return 1
    counts = {"ran": 0, "checked": 0, "matched": 0}
    selected = [p for p in files if options.k in str(p.relative_to(root))]
    np.seterr(all="ignore")  # kernels on random data divide by zero; goldens see the same
    for path in selected:
        relative = str(path.relative_to(root))
        try:
            verdict = run_sample(path, relative)
        except UserError as error:
            verdict = "error: " + error.format().splitlines()[0].split("error: ", 1)[-1]
        except (ValueError, IndexError, TypeError, AssertionError) as error:
            verdict = f"error: executor failure {type(error).__name__}: {error}"
        if not verdict.startswith("error"):
            counts["ran"] += 1
            counts["checked"] += verdict.endswith("golden") or "from golden" in verdict
            counts["matched"] += verdict == "matches golden"
        print(f"{relative}: {verdict}")
    print(
        f"{counts['ran']}/{len(selected)} ran, {counts['checked']} checked against goldens, "
        f"{counts['matched']} matched"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
