"""Checking a pipeline stage by stage, the way `xla-emit-run --check` does.

Every fusion is compiled once while the IR after each pass is kept; then the
whole module runs with the kernels of each stage in turn (stage 0 is the
emitters' output) and its outputs are compared with the reference outputs.
Passes that leave every kernel's IR unchanged are not run again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from xla_emit.emitters.triton.route import runs_as_triton
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.runtime.compare import DEFAULT_MAX_ULP, Comparison, compare, tolerance_rule
from xla_emit.runtime.expectations import Expectation, output_expectations
from xla_emit.runtime.kernels import KernelCache, compile_fusion, fusion_key, triton_fusion_key
from xla_emit.runtime.module_runtime import ModuleRuntime, kernel_fusions
from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, AfterPass, apply_pipeline
from xla_emit.runtime.triton_kernels import (
    TRITON_PIPELINE,
    TritonCompiler,
    compile_triton_fusion,
)

EMITTED = "emitted"


@dataclass
class StageResult:
    """The outputs of one stage compared with the reference."""

    stage: str
    comparisons: list[Comparison]
    seconds: float

    @property
    def matches(self) -> bool:
        return all(c.matches for c in self.comparisons)


@dataclass
class PipelineCheck:
    """Every stage's comparison, in pipeline order, and what the summary says of it."""

    stages: list[StageResult] = field(default_factory=list[StageResult])
    # The rule each output was held to, in words, per output.
    rules: list[str] = field(default_factory=list[str])
    # Kernel name -> the names of the stages that changed its IR (and so ran anew).
    kernels: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    # Launches that are library calls, not kernels of ours: no stage changes them.
    library_calls: list[str] = field(default_factory=list[str])
    # Every stage in pipeline order, checked or not (unchanged stages are not rerun).
    stage_names: list[str] = field(default_factory=list[str])

    @property
    def first_failure(self) -> StageResult | None:
        return next((stage for stage in self.stages if not stage.matches), None)

    def report(self) -> str:
        lines: list[str] = []
        for stage in self.stages:
            status = "ok" if stage.matches else "DIFFERS"
            details = "; ".join(f"out{i}: {c.describe()}" for i, c in enumerate(stage.comparisons))
            lines.append(f"{stage.stage}: {status} ({details}) [{stage.seconds:.2f} s]")
        failure = self.first_failure
        if failure is not None:
            lines.append(f"first stage whose outputs differ: {failure.stage}")
        return "\n".join(lines)

    def summary(self, oracle: str) -> str:
        """Per kernel and stage, what was checked against `oracle` and under which rule."""
        checked = {stage.stage: stage for stage in self.stages}
        lines = [f"check summary, against {oracle}:"]
        for number, rule in enumerate(self.rules):
            lines.append(f"  out{number} held to: {rule}")
        for name, changed in self.kernels.items():
            verdicts = [_stage_verdict(stage, checked) for stage in changed]
            untouched = len(self.stage_names) - len(changed)
            tail = f"; unchanged by the other {untouched} passes" if untouched else ""
            lines.append(f"  kernel {name}: {', '.join(verdicts)}{tail}")
        for name in self.library_calls:
            lines.append(f"  {name}: a library call, no stage changes it; held via the outputs")
        failure = self.first_failure
        verdict = "ok" if failure is None else f"outputs differ after pass '{failure.stage}'"
        run = f"{len(self.stages)} of {len(self.stage_names)} stages run"
        lines.append(f"  {run} (a pass that changes no kernel is not rerun): {verdict}")
        return "\n".join(lines)


def _stage_verdict(stage: str, checked: dict[str, StageResult]) -> str:
    result = checked.get(stage)
    if result is None:
        return f"{stage} not run"
    return f"{stage} {'ok' if result.matches else 'DIFFERS'}"


class StagedCompiler:
    """Compiles fusions once, keeping a copy of each kernel after every pass.

    The stages are the emitters' output, then every pass of the GPU pipeline, then
    every pass of the Triton pipeline: an emitter kernel keeps its last form through
    the Triton stages, a Triton kernel its emitted form through the GPU ones, so each
    stage changes one kind of kernel and is checked on its own.
    """

    def __init__(self, pipeline: str, triton_pipeline: str = TRITON_PIPELINE):
        self.pipeline = pipeline
        self.triton_pipeline = triton_pipeline
        self._gpu_names: list[str] = []
        self._triton_names: list[str] = []
        self._kernels: dict[str, list[ModuleOp]] = {}
        self._triton_kernels: dict[str, list[ModuleOp]] = {}
        # Fusion key -> the name of the first fusion compiled under it.
        self.names: dict[str, str] = {}

    @property
    def stage_names(self) -> list[str]:
        return [EMITTED, *self._gpu_names, *self._triton_names]

    def compile_all(self, module: HloModule, fusions: Sequence[HloInstruction]) -> None:
        for fusion in fusions:
            if runs_as_triton(fusion):
                self._compile_triton(fusion)
                continue
            key = fusion_key(fusion, self.pipeline)
            if key in self._kernels:
                continue
            names, snapshots = _compile_stages(module, fusion, self.pipeline)
            self._kernels[key] = snapshots
            self.names[key] = fusion.name
            if len(names) > len(self._gpu_names):
                self._gpu_names = names

    def _compile_triton(self, fusion: HloInstruction) -> None:
        key = triton_fusion_key(fusion, self.triton_pipeline)
        if key in self._triton_kernels:
            return
        names: list[str] = []
        kernel = compile_triton_fusion(fusion, "", None)
        snapshots = [kernel.clone()]

        def keep(name: str, current: ModuleOp, _seconds: float) -> None:
            names.append(name)
            snapshots.append(current.clone())

        apply_pipeline(kernel, self.triton_pipeline, after_pass=keep)
        self._triton_kernels[key] = snapshots
        self.names[key] = fusion.name
        if len(names) > len(self._triton_names):
            self._triton_names = names

    def _gpu_stage(self, snapshots: list[ModuleOp], stage: int) -> ModuleOp:
        return snapshots[min(stage, len(snapshots) - 1)]

    def _triton_stage(self, snapshots: list[ModuleOp], stage: int) -> ModuleOp:
        after_gpu = max(0, stage - len(self._gpu_names))
        return snapshots[min(after_gpu, len(snapshots) - 1)]

    def distinct_stages(self) -> list[int]:
        """Stage numbers whose IR differs from the previous stage for some kernel."""
        kept = [0]
        for stage in range(1, len(self.stage_names)):
            changed = any(
                str(self._gpu_stage(k, stage)) != str(self._gpu_stage(k, stage - 1))
                for k in self._kernels.values()
            ) or any(
                str(self._triton_stage(k, stage)) != str(self._triton_stage(k, stage - 1))
                for k in self._triton_kernels.values()
            )
            if changed:
                kept.append(stage)
        return kept

    def changed_stages(self, stages: Sequence[int]) -> dict[str, list[str]]:
        """Kernel name -> the names of `stages` that changed its IR (the first always)."""
        changed: dict[str, list[str]] = {}
        kinds = ((self._kernels, self._gpu_stage), (self._triton_kernels, self._triton_stage))
        for kernels, at_stage in kinds:
            for key, snapshots in kernels.items():
                changed[self.names[key]] = [
                    self.stage_names[stage]
                    for stage in stages
                    if stage == 0
                    or str(at_stage(snapshots, stage)) != str(at_stage(snapshots, stage - 1))
                ]
        return changed

    def compiler_for(
        self, stage: int
    ) -> Callable[[HloModule, HloInstruction, str, AfterPass | None], ModuleOp]:
        def compiler(
            _module: HloModule, fusion: HloInstruction, _pipeline: str, _after: AfterPass | None
        ) -> ModuleOp:
            snapshots = self._kernels[fusion_key(fusion, self.pipeline)]
            return self._gpu_stage(snapshots, stage).clone()

        return compiler

    def triton_compiler_for(self, stage: int) -> TritonCompiler:
        def compiler(fusion: HloInstruction, _pipeline: str, _after: AfterPass | None) -> ModuleOp:
            snapshots = self._triton_kernels[triton_fusion_key(fusion, self.triton_pipeline)]
            return self._triton_stage(snapshots, stage).clone()

        return compiler

    def kernel_cache(self, stage: int, checks: CheckOptions) -> KernelCache:
        """A cache whose kernels are every fusion's IR at `stage`."""
        return KernelCache(
            self.pipeline,
            self.compiler_for(stage),
            checks,
            triton_pipeline=self.triton_pipeline,
            triton_compiler=self.triton_compiler_for(stage),
        )


def _compile_stages(
    module: HloModule, fusion: HloInstruction, pipeline: str
) -> tuple[list[str], list[ModuleOp]]:
    """The names of the passes and a copy of the kernel before the first and after each."""
    names: list[str] = []
    kernel = compile_fusion(module, fusion, "", None)
    snapshots = [kernel.clone()]

    def keep(name: str, current: ModuleOp, _seconds: float) -> None:
        names.append(name)
        snapshots.append(current.clone())

    apply_pipeline(kernel, pipeline, after_pass=keep)
    return names, snapshots


def check_pipeline(
    module: HloModule,
    inputs: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    pipeline: str = DEFAULT_PIPELINE,
    checks: CheckOptions | None = None,
    max_ulp: int = DEFAULT_MAX_ULP,
    stop_at_first_failure: bool = True,
    expectations: Sequence[Expectation] | None = None,
    progress: Callable[[str], None] | None = None,
) -> PipelineCheck:
    """Run `module` after every stage of `pipeline` and compare with `expected`.

    Each output is held to what its computation allows (`expectations`, by
    default read off the module): bit-exact, within the bound of a reordered
    sum, or within `max_ulp`. `progress` hears of each stage as it starts.
    """
    checks = checks if checks is not None else CheckOptions()
    if expectations is None:
        expectations = output_expectations(module, inputs)
    staged = StagedCompiler(pipeline)
    staged.compile_all(module, kernel_fusions(module))
    distinct = staged.distinct_stages()
    result = PipelineCheck(
        rules=[x.rule(e.dtype, max_ulp) for x, e in zip(expectations, expected, strict=True)],
        kernels=staged.changed_stages(distinct),
        stage_names=list(staged.stage_names),
    )
    for number, stage in enumerate(distinct):
        if progress is not None:
            progress(f"check: stage {number + 1}/{len(distinct)} ({staged.stage_names[stage]})")
        cache = staged.kernel_cache(stage, checks)
        started = time.perf_counter()
        runtime = ModuleRuntime(module, cache)
        outputs = runtime.run(inputs)
        if not result.library_calls:
            result.library_calls = _library_launches(runtime, result.kernels)
        comparisons = [
            expectation.compare(e, a, max_ulp)
            for expectation, e, a in zip(expectations, expected, outputs, strict=True)
        ]
        result.stages.append(
            StageResult(staged.stage_names[stage], comparisons, time.perf_counter() - started)
        )
        if stop_at_first_failure and not result.stages[-1].matches:
            break
    return result


def _library_launches(runtime: ModuleRuntime, kernels: dict[str, list[str]]) -> list[str]:
    """The launches of a run that are library calls (no kernel of ours), once each."""
    names = [run.name for run in runtime.runs if run.name not in kernels]
    return list(dict.fromkeys(names))


def check_kernel_pipeline(
    module: ModuleOp,
    inputs: Sequence[np.ndarray | np.generic | int | float],
    pipeline: str,
    entry: str | None = None,
    checks: CheckOptions | None = None,
    max_ulp: int = DEFAULT_MAX_ULP,
) -> PipelineCheck:
    """Run a kernel after every pass of `pipeline` and compare with the kernel as given."""
    checks = checks if checks is not None else CheckOptions()
    return check_stages(
        module,
        pipeline,
        lambda stage: Executor(stage, checks=checks).run(inputs, entry=entry),
        max_ulp,
    )


def check_stages(
    module: ModuleOp,
    pipeline: str,
    run: Callable[[ModuleOp], list[np.ndarray]],
    max_ulp: int = DEFAULT_MAX_ULP,
    progress: Callable[[str], None] | None = None,
) -> PipelineCheck:
    """Run the module after every pass of `pipeline` (with `run`, on a copy of each stage)
    and compare with the module as given; passes that change nothing are not rerun.

    Any backend's kernels: `run` is how the backend runs one.
    """
    stages: list[tuple[str, ModuleOp]] = [(EMITTED, module.clone())]
    apply_pipeline(
        module,
        pipeline,
        after_pass=lambda name, current, _s: stages.append((name, current.clone())),
    )
    distinct: list[tuple[str, ModuleOp]] = []
    previous_text: str | None = None
    for name, stage in stages:
        text = str(stage)
        if text != previous_text:
            distinct.append((name, stage))
        previous_text = text
    names = [name for name, _ in distinct]
    result = PipelineCheck(
        kernels={_kernel_name(module): names}, stage_names=[name for name, _ in stages]
    )
    expected: list[np.ndarray] | None = None
    for number, (name, stage) in enumerate(distinct):
        if progress is not None:
            progress(f"check: stage {number + 1}/{len(distinct)} ({name})")
        started = time.perf_counter()
        outputs = run(stage)
        if expected is None:
            expected = outputs
            result.rules = [tolerance_rule(e.dtype, max_ulp) for e in expected]
        comparisons = [
            compare(e, _like(a, e), max_ulp) for e, a in zip(expected, outputs, strict=True)
        ]
        result.stages.append(StageResult(name, comparisons, time.perf_counter() - started))
        if not result.stages[-1].matches:
            break
    return result


def _kernel_name(module: ModuleOp) -> str:
    """The module's public functions, `@a, @b` (a kernel module's entries)."""

    names = [
        f"@{op.sym_name.data}"
        for op in module.body.block.ops
        if isinstance(op, FuncOp)
        and (op.sym_visibility is None or op.sym_visibility.data != "private")
    ]
    return ", ".join(names) or "the module"


def _like(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """A flattened stage's output in the shape of the first stage's."""
    return actual.reshape(expected.shape) if actual.size == expected.size else actual
