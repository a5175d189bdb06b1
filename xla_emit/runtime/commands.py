"""What `xla-emit-run` does without `--reference`: interpret an HLO module or a kernel.

`run_hlo_module` compiles every fusion through the pipeline and runs the
module; `run_kernel_file` reads, parses and verifies a kernel once, picks its
backend (`runtime.backends`) and runs it there (after an optional pipeline).
`--check` turns on every safety check and first runs the program after every
pass, comparing with the reference evaluator (`.hlo`) or with the kernel as
given (`.mlir`, any backend); the first pass whose outputs differ is an
error, and a summary names each kernel's stages and the rule each output
was held to. `--time`
prints per-pass and per-kernel times; long runs draw a progress bar on stderr
when it is a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.limits import check_module_memory
from xla_emit.interpreter.budget import run_limits
from xla_emit.ir import parse_mlir, verify_module
from xla_emit.pto.assembly import pto_as_to_mlir
from xla_emit.runtime.backends import GPU, Backend, KernelProgram, backend_of
from xla_emit.runtime.compare import DEFAULT_MAX_ULP
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.limits import check_kernel_module
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.pipeline import apply_pipeline
from xla_emit.runtime.reporting import (
    InterpreterOptions,
    finish_check,
    kernel_time,
    launch_progress,
    pass_timer,
    progress_bar,
    run_progress,
)
from xla_emit.runtime.sources import input_format, read_source
from xla_emit.runtime.stages import check_pipeline, check_stages

__all__ = [
    "InterpreterOptions",
    "finish_check",
    "progress_bar",
    "run_hlo_module",
    "run_kernel_file",
    "run_kernel_source",
]


def run_hlo_module(
    module: HloModule, inputs: Sequence[np.ndarray], options: InterpreterOptions
) -> list[np.ndarray]:
    """Compile every fusion through the pipeline and run the module in the interpreter."""
    check_module_memory(module, options.limits.max_memory)
    with run_limits(options.limits):
        return _run_hlo_module(module, inputs, options)


def _run_hlo_module(
    module: HloModule, inputs: Sequence[np.ndarray], options: InterpreterOptions
) -> list[np.ndarray]:
    if options.backend not in (None, GPU.name):
        raise UserError(f"HLO modules compile for the {GPU.name} backend, not '{options.backend}'")
    pipeline = options.passes if options.passes is not None else GPU.default_pipeline
    if options.check:
        expected = evaluate_module(module, inputs)
        report = check_pipeline(module, inputs, expected, pipeline, progress=run_progress(options))
        finish_check(report, "the reference evaluator")
    cache = KernelCache(pipeline, checks=options.safety_checks)
    native = None
    if options.engine == "native":
        from xla_emit.runtime.native_kernels import NativeKernelCache

        native = NativeKernelCache()
    runtime = ModuleRuntime(module, cache, progress=launch_progress(options), native=native)
    outputs = runtime.run(inputs)
    if options.check and native is not None:
        check_native_outputs(module, inputs, outputs)
    if options.time:
        for name, seconds in cache.pass_seconds.items():
            print(f"pass {name}: {seconds:.3f} s", file=sys.stderr)
        for run in runtime.runs:
            print(kernel_time(run.name, run.seconds, run.lanes), file=sys.stderr)
    return outputs


def check_native_outputs(
    module: HloModule, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray]
) -> None:
    """Under --check with --engine native: the stages above ran in the interpreter (with its
    safety checks); the outputs come from the native engine, held to the same rules."""
    from xla_emit.runtime.expectations import output_expectations

    expected = evaluate_module(module, inputs)
    expectations = output_expectations(module, inputs)
    print("engine: native (kernels JIT-compiled by LLVM for this CPU)", file=sys.stderr)
    for number, (rule, want, got) in enumerate(zip(expectations, expected, outputs, strict=True)):
        comparison = rule.compare(want, got, DEFAULT_MAX_ULP)
        if not comparison.matches:
            raise UserError(f"native engine: out{number} differs: {comparison.describe()}")
    print(f"native engine: {len(outputs)} output(s) match the reference evaluator", file=sys.stderr)


def run_kernel_file(
    path: str, inputs_path: str | None, seed: int | None, options: InterpreterOptions
) -> list[np.ndarray]:
    """Run the kernel in an `.mlir` (or PTO-AS `.pto`) file on the backend it is for."""
    text = read_source(path)
    return run_kernel_source(
        text, path, input_format(text, path) == "pto", inputs_path, seed, options
    )


def run_kernel_source(
    text: str,
    path: str,
    pto_assembly: bool,
    inputs_path: str | None,
    seed: int | None,
    options: InterpreterOptions,
) -> list[np.ndarray]:
    """Run the kernel `text` (read from `path`; PTO-AS if `pto_assembly`) on its backend."""
    if pto_assembly:
        text = pto_as_to_mlir(text, path)
    module, source_map = parse_mlir(text, path)
    verify_module(module, source_map)
    check_kernel_module(module, source_map, options.limits.max_memory)
    backend = backend_of(module, options.backend)
    program = KernelProgram(module, source_map, inputs_path, seed if seed is not None else 0)
    if options.check and options.passes and backend is not GPU:
        # The GPU runner checks its own stages (its inputs come from the kernel as given).
        check_backend_stages(program, backend, options)
    if options.passes and backend is not GPU:
        # The GPU runner applies `-p` itself, after checking it stage by stage.
        apply_pipeline(
            module, options.passes, source_map=source_map, after_pass=pass_timer(options)
        )
    with run_limits(options.limits):
        return backend.run(program, options)


def check_backend_stages(
    program: KernelProgram, backend: Backend, options: InterpreterOptions
) -> None:
    """`--check -p` for a TPU or PTO kernel: run it after every pass that changes it, on the
    same inputs, and compare with the kernel as given (as the GPU runner does)."""
    plain = replace(options, passes=None, check=False)

    def run_stage(stage: ModuleOp) -> list[np.ndarray]:
        with run_limits(options.limits):
            return backend.run(replace(program, module=stage), plain)

    assert options.passes is not None
    report = check_stages(
        program.module.clone(), options.passes, run_stage, progress=run_progress(options)
    )
    finish_check(report, f"the {backend.name.upper()} kernel as given")
