"""What `xla-emit-run` does without `--reference`: interpret an HLO module or an MLIR kernel.

`run_hlo_module` compiles every fusion through the pipeline and runs the
module; `run_mlir_kernel` runs one kernel (after an optional pipeline).
`--check` turns on every safety check and first runs the program after every
pass, comparing with the reference evaluator (`.hlo`) or with the kernel as
given (`.mlir`); the first pass whose outputs differ is an error. `--time`
prints per-pass and per-kernel times; long runs draw a progress bar on stderr
when it is a terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Attribute

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.interpreter.executor import ProgressCallback
from xla_emit.interpreter.pto import run_file as run_pto_file
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.runtime.kernel_io import random_kernel_inputs, read_kernel_inputs
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, AfterPass, apply_pipeline
from xla_emit.runtime.stages import PipelineCheck, check_pipeline


@dataclass(frozen=True)
class InterpreterOptions:
    """The interpreter's command-line options."""

    passes: str | None = None
    check: bool = False
    time: bool = False
    entry: str | None = None

    @property
    def safety_checks(self) -> CheckOptions:
        """Bounds checks always; every check under --check."""
        return CheckOptions() if self.check else CheckOptions.fast()


def run_hlo_module(
    module: HloModule, inputs: Sequence[np.ndarray], options: InterpreterOptions
) -> list[np.ndarray]:
    """Compile every fusion through the pipeline and run the module in the interpreter."""
    pipeline = options.passes if options.passes is not None else DEFAULT_PIPELINE
    if options.check:
        expected = evaluate_module(module, inputs)
        finish_check(check_pipeline(module, inputs, expected, pipeline), "the reference evaluator")
    cache = KernelCache(pipeline, checks=options.safety_checks)
    runtime = ModuleRuntime(module, cache, progress=progress_bar)
    outputs = runtime.run(inputs)
    if options.time:
        for name, seconds in cache.pass_seconds.items():
            print(f"pass {name}: {seconds:.3f} s", file=sys.stderr)
        for run in runtime.runs:
            print(_kernel_time(run.name, run.seconds, run.lanes), file=sys.stderr)
    return outputs


def run_mlir_kernel(
    path: str, inputs_path: str | None, seed: int | None, options: InterpreterOptions
) -> list[np.ndarray]:
    """Run the kernel in an `.mlir` file (after `options.passes`, if any)."""
    from xla_emit.api import check_kernel_pipeline
    from xla_emit.ir import parse_mlir, verify_module

    module, source_map = parse_mlir(_read(path), path)
    verify_module(module, source_map)
    dialects_used = {op.dialect_name() for op in module.walk()}
    if "pto" in dialects_used:
        return _run_pto_kernel(path, inputs_path, seed, options)
    function = Executor(module).entry_function(options.entry)
    if "tpu" in dialects_used or any(
        isinstance(t, MemRefType) for t in function.function_type.inputs.data
    ):
        inputs = (
            read_kernel_inputs(inputs_path, function)
            if inputs_path is not None
            else random_kernel_inputs(function, seed if seed is not None else 0)
        )
        # TPU kernels work on memrefs in their tiled layout, one vector at a time:
        # the scalar-control-flow TPU executor runs them, not the SIMT one.
        scalars_as_python = [a.item() if a.ndim == 0 else a for a in inputs]
        return run_tpu_kernel(module, scalars_as_python, options.entry, source_map.location_of)
    if inputs_path is not None:
        inputs = read_kernel_inputs(inputs_path, function)
    else:
        inputs = random_kernel_inputs(function, seed if seed is not None else 0)
    if options.check and options.passes:
        report = check_kernel_pipeline(_copy(module), inputs, options.passes, options.entry)
        finish_check(report, "the input kernel")
    result_shapes = [_shape(t) for t in function.function_type.outputs.data]
    if options.passes:
        apply_pipeline(
            module, options.passes, source_map=source_map, after_pass=_pass_timer(options)
        )
    executor = Executor(module, checks=options.safety_checks, locator=source_map)
    name = function.sym_name.data
    started = time.perf_counter()
    outputs = executor.run(inputs, entry=options.entry, progress=progress_bar(name))
    if options.time:
        print(
            _kernel_time(name, time.perf_counter() - started, executor.grid.num_lanes),
            file=sys.stderr,
        )
    # Flattening passes change result shapes; report them as the kernel as given declares them.
    return [
        output.reshape(shape)
        if shape is not None and output.size == int(np.prod(shape))
        else output
        for output, shape in zip(outputs, result_shapes, strict=True)
    ]


def _run_pto_kernel(
    path: str, inputs_path: str | None, seed: int | None, options: InterpreterOptions
) -> list[np.ndarray]:
    """PTO tile programs run in the tile executor: returned values, then global memory."""
    inputs = None
    if inputs_path is not None:
        try:
            archive = np.load(inputs_path)
        except (OSError, ValueError, EOFError) as error:
            raise UserError(f"cannot read inputs from '{inputs_path}': {error}") from None
        with archive:
            inputs = {name: archive[name] for name in archive.files}
    outputs = run_pto_file(path, options.entry, inputs, None, seed if seed is not None else 0)
    returned = sorted((k for k in outputs if k.startswith("out")), key=lambda k: int(k[3:]))
    memories = sorted((k for k in outputs if k.startswith("arg")), key=lambda k: int(k[3:]))
    return [outputs[name] for name in returned + memories]


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType | MemRefType) else None


def finish_check(report: PipelineCheck, oracle: str, stream: TextIO | None = None) -> None:
    """Print the stage report; a stage that differs is an error."""
    print(report.report(), file=stream if stream is not None else sys.stderr)
    failure = report.first_failure
    if failure is not None:
        raise UserError(f"outputs differ from {oracle} after pass '{failure.stage}'")


def progress_bar(name: str) -> ProgressCallback | None:
    """A progress bar on stderr, only when stderr is a terminal and the run takes a while."""
    if not sys.stderr.isatty():
        return None
    started = time.perf_counter()

    def show(done: int, total: int) -> None:
        if time.perf_counter() - started < 0.5 and done < total:
            return
        filled = 30 * done // max(total, 1)
        bar = "#" * filled + "." * (30 - filled)
        end = "\n" if done >= total else ""
        print(
            f"\r{name} [{bar}] {100 * done // max(total, 1)}%", end=end, file=sys.stderr, flush=True
        )

    return show


def _kernel_time(name: str, seconds: float, lanes: int) -> str:
    rate = f"{lanes / seconds:.3g} lanes/s" if seconds > 0 else "instant"
    return f"kernel {name}: {seconds:.3f} s, {lanes} lanes ({rate})"


def _pass_timer(options: InterpreterOptions) -> AfterPass | None:
    if not options.time:
        return None
    return lambda name, _module, seconds: print(f"pass {name}: {seconds:.3f} s", file=sys.stderr)


def _copy(module: ModuleOp) -> ModuleOp:
    return module.clone()


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except OSError as error:
        raise UserError(f"cannot read '{path}': {error.strerror}") from None
