"""Named pipelines: a name that stands for a sequence of passes in a `-p` spec.

`PIPELINES` maps each name to the `-p` spec it expands to; `xla-emit-opt`
and `xla-emit-run` expand every name they meet, so `-p xla-gpu-pipeline`
(alone or inside a longer spec) runs the whole sequence and `--print-ir-after-all`
shows every stage. The stages are written as a table of pass specs so that
each stage and its clean-up read on one line.
"""

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.transforms import get_all_passes
from xla_emit.passes import BUILT_IN_PASSES, all_passes, built_in_passes

# Removes what a stage leaves behind: folded constants, dead ops, duplicates.
_CLEANUP = ("canonicalize", "cse")

# XLA's loop-transformation stages (`pass_pipelines.cc`) in the order of the
# seed's listings, each followed by the clean-up.
_XLA_GPU_STAGES: tuple[tuple[str, ...], ...] = (
    # Predicated accesses to scf.if; then inlining, dropping the inlined callees.
    ("xla-lower-xla-to-scf",),
    ("inline", "xla-erase-dead-functions", *_CLEANUP),
    # Loops constrained only at a variable's last value split into main + tail;
    # xla_gpu.loop -> scf.for + scf.if; the range facts fold the thread/block checks.
    ("xla-gpu-peel-loops", "xla-lower-xla-loops-to-scf", "xla-simplify-arith", *_CLEANUP),
    # Flat tensors; an invariant scf.if in a loop is tested once, before it.
    ("xla-flatten-tensors", "xla-unswitch-loops", *_CLEANUP),
    ("xla-vectorize-loads-stores{greedy-cleanup=false}", *_CLEANUP),
    ("xla-gpu-optimize-loops{greedy-cleanup=false}", *_CLEANUP),
)

# After the loop transformations: index arithmetic in plain arith, so only
# standard dialects (and the gpu ids) remain.
_TO_STANDARD_STAGES: tuple[tuple[str, ...], ...] = (
    ("xla-simplify-arith", "xla-simplify-affine", *_CLEANUP),
)


def _spec(stages: tuple[tuple[str, ...], ...]) -> str:
    return ",".join(name for stage in stages for name in stage)


# XLA's Triton pipeline (`xtile` + `stablehlo` on tiles, down to `tt`), as far as its
# TTIR: what stays is what XLA's TTIR holds.
_XLA_TRITON_STAGES: tuple[tuple[str, ...], ...] = (
    ("stablehlo-lower-to-arith",),
    ("stablehlo-lower-to-triton", *_CLEANUP),
)

# Tensors to pointers, complex arithmetic on the parts and tanh inlined as XLA's GPU
# pipeline does them, then everything to the llvm and nvvm dialects.
_TO_LLVM_STAGES: tuple[tuple[str, ...], ...] = (
    ("xla-lower-tensors", "convert-complex-to-standard"),
    ("xla-expand-float-ops", "xla-lower-to-llvm", *_CLEANUP),
)
# On the GPU, parameters of one buffer slice are one pointer (XLA passes the same
# address twice); the host engine passes each its own buffer, so only the GPU merges.
_GPU_TO_LLVM_STAGES: tuple[tuple[str, ...], ...] = (
    ("xla-lower-tensors", "convert-complex-to-standard", "xla-merge-pointers"),
    *_TO_LLVM_STAGES[1:],
)

# The native CPU engine's route: a block per call, its threads as loops split at the
# barriers and shuffles, then the same lowering to LLVM.
_HOST_STAGES: tuple[tuple[str, ...], ...] = (
    ("xla-host-inline-calls", "xla-erase-dead-functions", "xla-host-serialize-atomics"),
    # A warp's shuffle tree read by lane 0 alone: lane 0 combines the lanes' values
    # from shared memory (one barrier instead of a loop over the threads per shuffle).
    ("xla-host-warp-reductions", *_CLEANUP),
    ("xla-host-thread-loops", *_CLEANUP),
    ("xla-host-approximate-tanh", "xla-host-approximate-exp"),
)

# Vector loads and stores (one thread's neighbouring elements) would keep LLVM's loop
# vectorizer off the thread loop, which vectorizes across threads instead.
_NOT_ON_THE_HOST = frozenset({"xla-vectorize-loads-stores"})


def _pass_name(stage: str) -> str:
    """The pass a stage runs, without its options."""
    return stage.split("{", 1)[0]


PIPELINES: dict[str, str] = {
    "xla-gpu-pipeline": _spec(_XLA_GPU_STAGES),
    "xla-triton-pipeline": _spec(_XLA_TRITON_STAGES),
    "xla-gpu-to-standard": _spec(_XLA_GPU_STAGES + _TO_STANDARD_STAGES),
    "xla-gpu-to-llvm": _spec(_XLA_GPU_STAGES + _TO_STANDARD_STAGES + _GPU_TO_LLVM_STAGES),
    "xla-host-to-llvm": _spec(
        tuple(stage for stage in _XLA_GPU_STAGES if _pass_name(stage[0]) not in _NOT_ON_THE_HOST)
        + _TO_STANDARD_STAGES
        + _HOST_STAGES
        + _TO_LLVM_STAGES
        + (("xla-host-widen-bf16", *_CLEANUP),)
    ),
    "pto-level2-pipeline": "pto-verify-target,pto-to-dps,pto-materialize-tmp-tiles,pto-plan-memory",
}

# Passes that must see the whole module (they follow calls, erase or retype functions, or
# lower the module's own form), as XLA anchors them on `mlir::ModuleOp`: MLIR refuses to
# nest them under `func.func`, and so do we.
MODULE_PASSES = frozenset(
    {
        "inline",
        "xla-erase-dead-functions",
        "xla-flatten-tensors",
        "xla-lower-tensors",
        "xla-lower-to-llvm",
        "pto-verify-pipes",
        # MLIR's symbol-dce needs a symbol table op to run on.
        "symbol-dce",
    }
)


def available_passes(spec: str | None = None) -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes and ours (ours are also in the multiverse through our plugin).

    Given the `-p` spec (named pipelines expanded) that will be parsed: when it
    names only xDSL's own passes and ours, just those, without scanning the
    installed packages for plugins.
    """
    if spec is not None and names_only_built_in_passes(spec):
        return {**get_all_passes(), **built_in_passes()}
    from xdsl.universe import Universe

    passes = dict(Universe.get_multiverse().all_passes)
    passes.update(all_passes())
    return passes


def names_only_built_in_passes(spec: str) -> bool:
    """Whether every pass of a `-p` spec (named pipelines expanded) is xDSL's or ours."""
    built_in = get_all_passes().keys() | BUILT_IN_PASSES.keys()
    parts = (part.strip() for part in _split_top_level(spec))
    return all(part.split("{", 1)[0].strip() in built_in for part in parts if part)


def expand_pipelines(spec: str) -> str:
    """Replace each named pipeline in a `-p` spec by the passes it stands for."""
    names = [part.strip() for part in _split_top_level(spec)]
    return ",".join(PIPELINES.get(name, name) for name in names if name)


def _split_top_level(spec: str) -> list[str]:
    """Split a pass spec at commas that are not inside `{...}` options."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(spec):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(spec[start:i])
            start = i + 1
    parts.append(spec[start:])
    return parts


def pipeline_pass(name: str) -> type[ModulePass]:
    """A pass that runs the pipeline `name`, for drivers without named pipelines (`xdsl-opt`)."""
    spec = PIPELINES[name]

    def apply(_self: ModulePass, ctx: Context, op: ModuleOp) -> None:
        PassPipeline.parse_spec(available_passes(), spec).apply(ctx, op)

    namespace = {"name": name, "apply": apply, "__doc__": f"The pipeline {spec}."}
    class_name = "".join(part.title() for part in name.split("-")) + "Pass"
    return dataclass(frozen=True)(type(class_name, (ModulePass,), namespace))
