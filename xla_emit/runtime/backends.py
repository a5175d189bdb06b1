"""The backends as seams: what each target runs, and how the runtime picks one.

A backend declares its dialects, the pipeline HLO fusions go through by
default, its input convention and the function that runs a parsed kernel.
The runtime picks the backend from `--backend` or, failing that, from the
module's own attributes and types, never from the ops it contains:

- an `xla_emit.backend = "gpu" | "tpu" | "pto"` module attribute says so explicitly;
- PTO: the module's `pto.target_arch`, or `!pto.*` parameter types;
- TPU: a function's Mosaic attributes (`dimension_semantics`, `window_params`,
  ...) or memref parameters (TPU kernels work on memrefs in VMEM);
- otherwise GPU: tensor-in, tensor-out kernels of the XLA GPU emitters.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import check_argument_names, load_arrays
from xla_emit.interpreter import Executor
from xla_emit.ir import SourceMap
from xla_emit.runtime.kernel_io import random_kernel_inputs, read_kernel_inputs
from xla_emit.runtime.limits import check_launch_grid
from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, apply_pipeline
from xla_emit.runtime.reporting import (
    InterpreterOptions,
    finish_check,
    kernel_time,
    pass_timer,
    progress_bar,
)
from xla_emit.runtime.stages import check_kernel_pipeline

BACKEND_ATTRIBUTE = "xla_emit.backend"
# Function attributes of Mosaic TPU kernels (jax.experimental.pallas.tpu).
TPU_FUNCTION_ATTRIBUTES = frozenset(
    {
        "dimension_semantics",
        "window_params",
        "iteration_bounds",
        "scalar_prefetch",
        "scratch_operands",
    }
)


@dataclass(frozen=True)
class KernelProgram:
    """A parsed and verified kernel module, where it came from, and how to run it."""

    module: ModuleOp
    source_map: SourceMap
    inputs_path: str | None
    seed: int


KernelRunner = Callable[[KernelProgram, InterpreterOptions], list[np.ndarray]]


@dataclass(frozen=True)
class Backend:
    """One target: its dialects, default pipeline, input convention and executor."""

    name: str
    dialects: tuple[str, ...]
    # What an HLO module's fusions go through; '' for targets the HLO emitters do not serve.
    default_pipeline: str
    input_convention: str
    run: KernelRunner


def _kernel_inputs(program: KernelProgram, function: FuncOp) -> list[np.ndarray]:
    if program.inputs_path is not None:
        return read_kernel_inputs(program.inputs_path, function)
    return random_kernel_inputs(function, program.seed)


def _run_simt(program: KernelProgram, options: InterpreterOptions) -> list[np.ndarray]:
    """The GPU kernel (after `-p`, if any) on the SIMT executor, one lane per thread."""
    module, source_map = program.module, program.source_map
    function = Executor(module).entry_function(options.entry)
    inputs = _kernel_inputs(program, function)
    if options.check and options.passes:
        report = check_kernel_pipeline(module.clone(), inputs, options.passes, options.entry)
        finish_check(report, "the input kernel")
    result_shapes = [_shape(t) for t in function.function_type.outputs.data]
    if options.passes:
        apply_pipeline(
            module, options.passes, source_map=source_map, after_pass=pass_timer(options)
        )
    executor = Executor(module, checks=options.safety_checks, locator=source_map)
    entry = executor.entry_function(options.entry)
    check_launch_grid(executor.launch_grid(entry), entry, source_map, options.limits.max_memory)
    name = function.sym_name.data
    started = time.perf_counter()
    outputs = executor.run(
        inputs, entry=options.entry, progress=progress_bar(name, options.progress)
    )
    if options.time:
        elapsed = time.perf_counter() - started
        print(kernel_time(name, elapsed, executor.grid.num_lanes), file=sys.stderr)
    # Flattening passes change result shapes; report them as the kernel as given declares them.
    return [
        output.reshape(shape)
        if shape is not None and output.size == int(np.prod(shape))
        else output
        for output, shape in zip(outputs, result_shapes, strict=True)
    ]


def _run_tpu(program: KernelProgram, options: InterpreterOptions) -> list[np.ndarray]:
    """TPU kernels work on memrefs in their tiled layout, one vector at a time:
    the scalar-control-flow TPU executor runs them, not the SIMT one."""
    # Each backend's executor loads with the first kernel it runs: a GPU run needs neither.
    from xla_emit.dialects.tpu.kernel import grid_of, is_kernel
    from xla_emit.interpreter.tpu import run_tpu_kernel

    pallas = [f for f in program.module.body.block.ops if isinstance(f, FuncOp) and is_kernel(f)]
    # Without --inputs a kernel with no grid runs once on random whole arrays, as any function.
    given = program.inputs_path is not None or grid_of(pallas[0]) if len(pallas) == 1 else False
    if given and options.entry in (None, pallas[0].sym_name.data):
        return _run_pallas_grid(program, pallas[0], options)
    function = Executor(program.module).entry_function(options.entry)
    inputs = _kernel_inputs(program, function)
    scalars_as_python = [a.item() if a.ndim == 0 else a for a in inputs]
    locate = program.source_map.location_of
    return run_tpu_kernel(program.module, scalars_as_python, options.entry, locate)


def _run_pallas_grid(
    program: KernelProgram, function: FuncOp, options: InterpreterOptions
) -> list[np.ndarray]:
    """A Pallas kernel over its grid. The npz holds the `pallas_call`'s operands, full
    arrays: `arg0, ...` the scalar-prefetch arrays, then the inputs; the kernel's refs
    past them are its outputs. The module does not carry the full shapes, so outputs
    take `--output-shapes`, else the extent their blocks cover over the grid."""
    from xla_emit.interpreter.tpu_grid import output_shapes_from_grid, run_pallas_kernel

    name = function.sym_name.data
    if program.inputs_path is None:
        raise UserError(
            f"@{name} is a Pallas kernel: give its operands, full arrays, with --inputs "
            "(the module does not carry their shapes)"
        )
    archive = load_arrays(program.inputs_path)
    count = len(archive)
    check_argument_names(program.inputs_path, archive, count)
    inputs = [archive[f"arg{n}"] for n in range(count)]
    shapes = options.output_shapes
    if shapes is None:
        locate = program.source_map.location_of
        shapes = tuple(output_shapes_from_grid(program.module, inputs, locate))
    return run_pallas_kernel(program.module, inputs, shapes, program.source_map.location_of)


def _run_pto(program: KernelProgram, options: InterpreterOptions) -> list[np.ndarray]:
    """PTO tile programs run in the tile executor: returned values, then global memory."""
    from xla_emit.runtime.pto_kernels import run_pto_module

    inputs = load_arrays(program.inputs_path) if program.inputs_path is not None else None
    outputs = run_pto_module(
        program.module, program.source_map, options.entry, inputs, None, program.seed
    )
    returned = sorted((k for k in outputs if k.startswith("out")), key=lambda k: int(k[3:]))
    memories = sorted((k for k in outputs if k.startswith("arg")), key=lambda k: int(k[3:]))
    return [outputs[name] for name in returned + memories]


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType | MemRefType) else None


GPU = Backend(
    "gpu",
    ("xla", "xla_gpu", "gpu", "scf", "arith", "math", "tensor", "vector", "func"),
    DEFAULT_PIPELINE,
    "arg0, arg1, ... for the parameters (trailing output arguments left out), typed by the IR",
    _run_simt,
)
TPU = Backend(
    "tpu",
    ("tpu", "vector", "memref", "scf", "arith", "math", "func"),
    "",
    "arg0, arg1, ... for every memref and scalar parameter; 0-d arrays for scalars",
    _run_tpu,
)
PTO = Backend(
    "pto",
    ("pto", "scf", "arith", "func"),
    "",
    "arg0, arg1, ... for every parameter; outputs: returned values, then global memory",
    _run_pto,
)
BACKENDS: dict[str, Backend] = {backend.name: backend for backend in (GPU, TPU, PTO)}


def backend_named(name: str) -> Backend:
    backend = BACKENDS.get(name)
    if backend is None:
        choices = ", ".join(BACKENDS)
        raise UserError(f"unknown backend '{name}' (choose one of {choices})")
    return backend


def backend_of(module: ModuleOp, requested: str | None = None) -> Backend:
    """The backend `requested` by name, else the one the module's attributes and types name."""
    if requested is not None:
        return backend_named(requested)
    explicit = module.attributes.get(BACKEND_ATTRIBUTE)
    if isinstance(explicit, StringAttr):
        return backend_named(explicit.data)
    # Kernels are the public functions; private ones are their callees.
    functions = [
        op
        for op in module.body.block.ops
        if isinstance(op, FuncOp) and op.body.blocks and not _is_private(op)
    ]
    if "pto.target_arch" in module.attributes or any(
        _is_pto_type(t) for f in functions for t in f.function_type.inputs.data
    ):
        return PTO
    if any(_is_tpu_kernel(f) for f in functions):
        return TPU
    return GPU


def _is_private(function: FuncOp) -> bool:
    visibility = function.sym_visibility
    return visibility is not None and visibility.data == "private"


def _is_pto_type(type_: Attribute) -> bool:
    return type_.name.startswith("pto.")


def _is_tpu_kernel(function: FuncOp) -> bool:
    if TPU_FUNCTION_ATTRIBUTES & function.attributes.keys():
        return True
    return any(isinstance(t, MemRefType) for t in function.function_type.inputs.data)
