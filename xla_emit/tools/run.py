"""`xla-emit-run`: runs an HLO module or an MLIR kernel and writes its outputs as npz.

    xla-emit-run FILE.hlo [--reference] [--fusion NAME] [--inputs IN.npz | --random-inputs SEED]
                 [-o OUT.npz]
    xla-emit-run BUNDLE [--reference] [--check] [-o OUT.npz]
    xla-emit-run FILE.mlir [--entry NAME] [-p PASSES] [--inputs IN.npz | --random-inputs SEED]
    xla-emit-run PALLAS.mlir --inputs IN.npz [--output-shapes 20x128,...] [-o OUT.npz]
    either form: [--check] [--time] [--backend gpu|tpu|pto]

`--reference` runs the module in the numpy HLO evaluator. Otherwise each
fusion of a `.hlo` module is compiled through `-p` (default
`xla-gpu-pipeline`) and interpreted, and an `.mlir` kernel is interpreted
(after `-p`, if given) on its backend's executor: GPU kernels on the SIMT
executor, TPU kernels on the TPU one, PTO programs (`.mlir` or PTO-AS `.pto`)
on the tile executor. `--backend` names the backend; without it the module's
attributes and parameter types say which (see `xla_emit.runtime.backends`).
A Pallas kernel (a function with `dimension_semantics`) runs over its grid:
its npz holds the `pallas_call`'s full arrays (see `runtime.backends`).
`--check` turns on every safety check and compares the
outputs after every pass with the reference (`.mlir`: with the kernel as
given), and `--time` prints per-pass and per-kernel times (see
`xla_emit.runtime.commands`). Inputs are `arg0,
arg1, ...` in parameter order, outputs `out0, out1, ...`; bf16 travels as
uint16 bit patterns. Without `-o` the outputs' types and shapes are printed.
Each way of running a module is one function from `RunOptions` to the
outputs (see `_MODES`).

A bundle (`xla-emit-jax`'s folder) runs its `gpu.hlo` on its own inputs (unless
`--inputs` or `--random-inputs` say otherwise) and compares every output with
XLA:CPU's (`runtime.compare`: 4 ulp, or a small error relative to the largest
output); with `--check` an output outside that is an error.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from xla_emit.diagnostics import UserError
from xla_emit.runtime.sources import STDIN, input_format, read_input
from xla_emit.runtime.timing import PARSE
from xla_emit.startup import define_classes_quickly, loading_without_collection
from xla_emit.tools.cli import (
    add_input_format,
    add_limit_arguments,
    add_timing,
    add_version,
    limits_of,
)

if TYPE_CHECKING:
    import numpy as np

    from xla_emit.hlo.ir import HloModule
    from xla_emit.runtime.reporting import InterpreterOptions
    from xla_emit.runtime.tf32_outputs import Tf32Move
    from xla_emit.runtime.timing import Timer

# The backends `--backend` names (`runtime.backends.BACKENDS`, which a test keeps in step):
# spelled out so that `--help` answers before the interpreter loads.
BACKEND_NAMES = ("gpu", "pto", "tpu")

_DESCRIPTION = "Run an HLO module or an MLIR kernel and write its outputs as npz."


@dataclass(frozen=True)
class RunOptions:
    file: str
    inputs: str | None
    random_inputs: int | None
    output: str | None
    reference: bool
    input_format: str | None
    timing: bool
    interpreter: InterpreterOptions
    # The one fusion of an HLO module to run, on its own operands (None: the module).
    fusion: str | None = None


def seed(text: str) -> int:
    """A random seed: numpy takes non-negative integers only."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def build_argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xla-emit-run", description=_DESCRIPTION)
    _ = parser.add_argument(
        "file", help="the HLO module or MLIR kernel to run, - for stdin, or a bundle folder"
    )
    inputs = parser.add_mutually_exclusive_group()
    _ = inputs.add_argument("--inputs", metavar="IN.npz", help="inputs arg0, arg1, ...")
    _ = inputs.add_argument(
        "--random-inputs",
        metavar="SEED",
        type=seed,
        help="deterministic random inputs (default seed 0)",
    )
    _ = parser.add_argument(
        "-o", "--output", metavar="OUT.npz", help="where to write out0, out1, ... (- for stdout)"
    )
    _ = parser.add_argument(
        "--reference", action="store_true", help="run the numpy HLO evaluator (the oracle)"
    )
    _ = parser.add_argument("--entry", metavar="NAME", help="the kernel function to run (.mlir)")
    _ = parser.add_argument(
        "--fusion",
        metavar="NAME",
        help="run only the fusion NAME of an HLO module (inputs: its operands)",
    )
    _ = parser.add_argument(
        "--output-shapes",
        metavar="SHAPES",
        type=output_shapes,
        help="full output arrays of a Pallas kernel, e.g. 20x128,1x128 (default: what the "
        "output blocks cover over the grid)",
    )
    _ = parser.add_argument(
        "-p",
        "--passes",
        metavar="PASSES",
        help="pass pipeline for every kernel (.hlo: xla-gpu-pipeline)",
    )
    _ = parser.add_argument(
        "--check", action="store_true", help="every safety check; compare outputs after every pass"
    )
    _ = parser.add_argument(
        "--time", action="store_true", help="print per-pass and per-kernel times"
    )
    _ = parser.add_argument(
        "--backend",
        choices=BACKEND_NAMES,
        help="the backend whose executor runs a kernel (default: the module's attributes say)",
    )
    _ = parser.add_argument(
        "--engine",
        choices=("interpreter", "native"),
        default="interpreter",
        help="what runs an HLO module's kernels: the interpreter (the reference) or native "
        "code JIT-compiled by LLVM for this CPU (needs the [llvm] extra)",
    )
    add_limit_arguments(parser)
    add_input_format(parser)
    add_timing(parser)
    add_version(parser)
    return parser


def parse_options(argv: Sequence[str] | None) -> RunOptions:
    namespace = build_argument_parser().parse_args(argv)
    # Only once the command line is known (`--help` exits above): this loads the interpreter.
    define_classes_quickly()
    with loading_without_collection():
        from xla_emit.runtime.reporting import InterpreterOptions

    return RunOptions(
        file=cast(str, namespace.file),
        inputs=cast(str | None, namespace.inputs),
        random_inputs=cast(int | None, namespace.random_inputs),
        output=cast(str | None, namespace.output),
        reference=cast(bool, namespace.reference),
        input_format=cast(str | None, namespace.input_format),
        timing=cast(bool, namespace.timing),
        fusion=cast(str | None, namespace.fusion),
        interpreter=InterpreterOptions(
            passes=cast(str | None, namespace.passes),
            check=cast(bool, namespace.check),
            time=cast(bool, namespace.time),
            entry=cast(str | None, namespace.entry),
            backend=cast(str | None, namespace.backend),
            limits=limits_of(namespace),
            progress=cast(bool, namespace.progress),
            output_shapes=cast("tuple[tuple[int, ...], ...] | None", namespace.output_shapes),
            engine=cast(str, namespace.engine),
        ),
    )


def output_shapes(text: str) -> tuple[tuple[int, ...], ...]:
    """`20x128,1x128` as ((20, 128), (1, 128)); `-` alone is a 0-d output."""
    try:
        return tuple(
            () if shape == "-" else tuple(int(d) for d in shape.split("x"))
            for shape in text.split(",")
        )
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a list of shapes like 20x128,1x128"
        ) from None


@dataclass(frozen=True)
class Program:
    """The program to run: its text, the name errors use for it, and what it is written in;
    for a bundle, its folder (whose inputs and XLA:CPU outputs go with the module)."""

    text: str
    file: str
    kind: str
    bundle: str | None = None


def read_program(options: RunOptions) -> Program:
    from xla_emit.jax.bundle import GPU_HLO, is_bundle

    if options.file != STDIN and is_bundle(options.file):
        file = str(Path(options.file) / GPU_HLO)
        text, file = read_input(file)
        return Program(text, file, "hlo", options.file)
    text, file = read_input(options.file)
    return Program(text, file, input_format(text, file, options.input_format))


def load_module(program: Program, options: RunOptions) -> HloModule:
    """The HLO module to run: the file's, or the one fusion `--fusion` names on its own."""
    from xla_emit.runtime.sources import load_hlo_module

    module = load_hlo_module(program.file, program.text)
    if options.fusion is None:
        return module
    from xla_emit.hlo.select_fusion import fusion_as_module

    return fusion_as_module(module, options.fusion)


def module_inputs(module: HloModule, options: RunOptions, bundle: str | None) -> list[np.ndarray]:
    from xla_emit.hlo.limits import check_module_memory
    from xla_emit.hlo.npz import random_inputs, read_inputs
    from xla_emit.jax.bundle import INPUTS

    check_module_memory(module, options.interpreter.limits.max_memory)
    if options.inputs is not None:
        return read_inputs(options.inputs, module.entry)
    if bundle is not None and options.random_inputs is None:
        return read_inputs(str(Path(bundle) / INPUTS), module.entry)
    seed = options.random_inputs if options.random_inputs is not None else 0
    return random_inputs(module.entry, seed)


def run_reference(program: Program, options: RunOptions, timer: Timer) -> list[np.ndarray]:
    """Evaluates the module with the numpy reference evaluator."""
    from xla_emit.hlo.evaluator import evaluate_module

    with timer.measure(PARSE):
        module = load_module(program, options)
    with timer.measure("inputs"):
        inputs = module_inputs(module, options, program.bundle)
    with timer.measure("run (reference evaluator)"):
        return evaluate_module(module, inputs)


def run_interpreted(program: Program, options: RunOptions, timer: Timer) -> list[np.ndarray]:
    """Compiles every fusion through the pipeline and runs the module in the interpreter."""
    from xla_emit.runtime.commands import run_hlo_module

    with timer.measure(PARSE):
        module = load_module(program, options)
    with timer.measure("inputs"):
        inputs = module_inputs(module, options, program.bundle)
    with timer.measure("compile (emit, passes, verify) and run"):
        return run_hlo_module(module, inputs, options.interpreter)


def run_kernel(program: Program, options: RunOptions, timer: Timer) -> list[np.ndarray]:
    """Runs a kernel (MLIR, or PTO-AS) in its backend's executor."""
    from xla_emit.runtime.commands import run_kernel_source

    with timer.measure("parse, passes and run"):
        return run_kernel_source(
            program.text,
            program.file,
            program.kind == "pto",
            options.inputs,
            options.random_inputs,
            options.interpreter,
        )


Mode = Callable[[Program, RunOptions, "Timer"], "list[np.ndarray]"]

_MODES: dict[str, Mode] = {
    "reference": run_reference,
    "interpret": run_interpreted,
    "kernel": run_kernel,
}


def select_mode(program: Program, options: RunOptions) -> Mode:
    if options.interpreter.engine != "interpreter" and (program.kind != "hlo" or options.reference):
        raise UserError("--engine native runs the kernels of an HLO module (not --reference)")
    if program.kind != "hlo":
        if options.fusion is not None:
            raise UserError("--fusion picks a fusion of an HLO module; for MLIR, --entry NAME")
        if options.reference:
            raise UserError("--reference evaluates .hlo modules; an .mlir kernel has no reference")
        return _MODES["kernel"]
    if options.reference:
        return _MODES["reference"]
    return _MODES["interpret"]


def report_outputs(outputs: Sequence[np.ndarray]) -> None:
    for number, output in enumerate(outputs):
        print(f"out{number}: {output.dtype}{list(output.shape)}")


def write_npz_outputs(path: str, outputs: Sequence[np.ndarray]) -> None:
    """Write `out0, out1, ...` to `path`; `-` is stdout, as the archive's bytes."""
    from xla_emit.hlo.npz import write_outputs

    if path != STDIN:
        write_outputs(path, outputs)
        return
    with tempfile.TemporaryDirectory() as folder:
        archive = Path(folder) / "outputs.npz"
        write_outputs(str(archive), outputs)
        sys.stdout.flush()
        sys.stdout.buffer.write(archive.read_bytes())
        sys.stdout.buffer.flush()


def run(options: RunOptions, timer: Timer) -> None:
    from xla_emit.runtime.allocator import keep_freed_memory

    # This process computes chunk after chunk of large arrays: keep freed memory for the next.
    keep_freed_memory()
    program = read_program(options)
    outputs = select_mode(program, options)(program, options, timer)
    if options.output is not None:
        with timer.measure("write outputs"):
            write_npz_outputs(options.output, outputs)
    elif program.bundle is None:
        report_outputs(outputs)
    if program.bundle is not None and options.inputs is None and options.random_inputs is None:
        from xla_emit.runtime.tf32_outputs import tf32_moves

        module = load_module(program, options)
        moves = tf32_moves(module, module_inputs(module, options, program.bundle))
        compare_with_xla_cpu(program.bundle, outputs, options.interpreter.check, moves)


def compare_with_xla_cpu(
    bundle: str,
    outputs: Sequence[np.ndarray],
    check: bool,
    moves: Sequence[Tf32Move | None] | None = None,
) -> None:
    """One line per output against the bundle's XLA:CPU outputs; with `check`, a miss fails.
    `moves`: per output, how far TF32 dots move it (XLA:CPU multiplies in f32)."""
    from xla_emit.hlo.npz import load_arrays
    from xla_emit.jax.bundle import OUTPUTS
    from xla_emit.runtime.tf32_outputs import compare_after_tf32

    expected = load_arrays(str(Path(bundle) / OUTPUTS), "outputs")
    if len(expected) != len(outputs):
        raise UserError(
            f"the module has {len(outputs)} outputs, XLA:CPU's {OUTPUTS} {len(expected)}"
        )
    missed: list[str] = []
    for number, output in enumerate(outputs):
        name = f"out{number}"
        reference = expected[name].reshape(output.shape).view(output.dtype)
        move = moves[number] if moves is not None else None
        result = compare_after_tf32(reference, output, move)
        verdict = "" if result.identical else (" (within tolerance)" if result.matches else "")
        print(
            f"{name}: {output.dtype}{list(output.shape)} against XLA:CPU: {result.describe()}"
            f"{verdict}"
        )
        if not result.matches:
            missed.append(name)
    if check and missed:
        raise UserError(f"{', '.join(missed)} outside the tolerance against XLA:CPU's outputs")


def collect_garbage_for_a_one_shot_run() -> None:
    """Tune Python's cycle collector for a process that compiles, runs and exits.

    A run creates many objects (xDSL's op classes, the IR, the interpreter's
    tables) and little cyclic garbage: collecting the youngest generation every
    10,000 allocations instead of 700 halves the collector's time. At exit
    Python frees every object in a cycle one by one, 0.15-0.2 s of CPU after a
    GELU run for memory the OS takes back anyway; objects frozen by then are
    left alone.
    """
    gc.set_threshold(10_000, 10, 10)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def main(argv: Sequence[str] | None = None) -> int:
    from xla_emit.runtime.timing import Timer

    collect_garbage_for_a_one_shot_run()
    options = parse_options(argv)
    timer = Timer()
    try:
        run(options, timer)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    finally:
        if options.timing:
            sys.stderr.write(timer.report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
