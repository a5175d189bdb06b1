"""Compiling fusions to kernels: emission, the pipeline, and a cache by fusion text.

A `FusionCompiler` turns one fusion instruction into a kernel module; the
default emits it with `xla_emit.emitters.emit_fusion` and runs a pipeline
over it. Instructions that are not fusions get wrapped in a fusion of their
own first (`wrap_as_fusion`), as XLA does before emitting them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.launches import wrapped_name
from xla_emit.hlo.printer import print_computation
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, AfterPass, apply_pipeline
from xla_emit.runtime.triton_kernels import (
    TRITON_PIPELINE,
    TritonCompiler,
    TritonKernel,
    build_triton_kernel,
    compile_triton_fusion,
)

# (module, fusion instruction, pipeline spec, hook after each pass) -> kernel module
FusionCompiler = Callable[[HloModule, HloInstruction, str, AfterPass | None], ModuleOp]


def compile_fusion(
    module: HloModule,
    fusion: HloInstruction,
    pipeline: str = DEFAULT_PIPELINE,
    after_pass: AfterPass | None = None,
) -> ModuleOp:
    """Emit `fusion` as a kernel and run `pipeline` over it."""
    from xla_emit.emitters import emit_fusion

    kernel = emit_fusion(module, fusion)
    apply_pipeline(kernel, pipeline, after_pass=after_pass)
    return kernel


def wrap_as_fusion(instruction: HloInstruction) -> HloInstruction:
    """A fusion computing just `instruction`, with one parameter per operand."""
    parameters = [
        HloInstruction(f"param_{number}", "parameter", operand.shape, parameter_number=number)
        for number, operand in enumerate(instruction.operands)
    ]
    inner = replace(instruction, operands=list(parameters), location=instruction.location)
    computation = HloComputation(wrapped_name(instruction), [*parameters, inner], inner)
    kind = "kInput" if instruction.opcode == "reduce" else "kLoop"
    return HloInstruction(
        wrapped_name(instruction),
        "fusion",
        instruction.shape,
        list(instruction.operands),
        fusion_kind=kind,
        called_computations=[computation],
        location=instruction.location,
    )


def fusion_key(fusion: HloInstruction, pipeline: str) -> str:
    """Fusions with equal text compile to equal kernels."""
    computation = fusion.called_computations[0]
    operands = ", ".join(str(operand.shape) for operand in fusion.operands)
    return f"{pipeline}\n{fusion.shape} ({operands})\n{print_computation(computation)}"


@dataclass
class Kernel:
    """A compiled kernel and the executor that runs it."""

    module: ModuleOp
    entry: FuncOp
    executor: Executor
    compile_seconds: float


@dataclass
class KernelCache:
    """Compiled kernels by fusion text, plus per-pass compile times."""

    pipeline: str = DEFAULT_PIPELINE
    compiler: FusionCompiler = compile_fusion
    checks: CheckOptions = field(default_factory=CheckOptions.fast)
    max_lanes: int | None = None
    pass_seconds: dict[str, float] = field(default_factory=dict[str, float])
    triton_pipeline: str = TRITON_PIPELINE
    triton_compiler: TritonCompiler = compile_triton_fusion
    _kernels: dict[str, Kernel] = field(default_factory=dict[str, Kernel])
    _triton_kernels: dict[str, TritonKernel] = field(default_factory=dict[str, TritonKernel])
    # A fusion launched again finds its kernel without printing its computation for the key.
    _triton_by_fusion: WeakKeyDictionary[HloInstruction, TritonKernel] = field(
        default_factory=WeakKeyDictionary[HloInstruction, TritonKernel]
    )

    def kernel(self, module: HloModule, fusion: HloInstruction) -> Kernel:
        key = fusion_key(fusion, self.pipeline)
        cached = self._kernels.get(key)
        if cached is None:
            cached = self._compile(module, fusion)
            self._kernels[key] = cached
        return cached

    def triton_kernel(self, fusion: HloInstruction) -> TritonKernel:
        """The tile kernel of a `__triton` fusion (compiled on first use)."""
        known = self._triton_by_fusion.get(fusion)
        if known is not None:
            return known
        key = triton_fusion_key(fusion, self.triton_pipeline)
        cached = self._triton_kernels.get(key)
        if cached is None:
            compiler = self.triton_compiler
            cached = build_triton_kernel(
                fusion, self.triton_pipeline, self.checks, compiler, self._record_pass
            )
            self._triton_kernels[key] = cached
        self._triton_by_fusion[fusion] = cached
        return cached

    def _compile(self, module: HloModule, fusion: HloInstruction) -> Kernel:
        started = time.perf_counter()
        kernel_module = self.compiler(module, fusion, self.pipeline, self._record_pass)
        elapsed = time.perf_counter() - started
        executor = (
            Executor(kernel_module, checks=self.checks)
            if self.max_lanes is None
            else Executor(kernel_module, checks=self.checks, max_lanes=self.max_lanes)
        )
        return Kernel(kernel_module, executor.entry_function(), executor, elapsed)

    def _record_pass(self, name: str, _module: ModuleOp, seconds: float) -> None:
        self.pass_seconds[name] = self.pass_seconds.get(name, 0.0) + seconds

    def __len__(self) -> int:
        return len(self._kernels) + len(self._triton_kernels)


def triton_fusion_key(fusion: HloInstruction, pipeline: str) -> str:
    """Triton fusions with equal text and equal tiles compile to equal tile kernels."""
    config = dict(fusion.extra_attributes).get("backend_config", "")
    return f"{fusion_key(fusion, pipeline)}\n{config}"
