"""The named pipelines: every stage resolves to a registered pass, the table
order is the seed's stage order, and running a pipeline is deterministic."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xla_emit.passes import all_passes
from xla_emit.passes.pipelines import PIPELINES, available_passes

from xla_emit.emitters import emit_hlo_module
from xla_emit.ir import make_context

GELU_HLO = Path(__file__).resolve().parents[2] / "examples" / "gelu.hlo"

# The seed's listings, in order: inlined, lowered to scf, flattened,
# vectorized, unrolled.
SEED_STAGES = (
    "inline",
    "xla-lower-xla-loops-to-scf",
    "xla-flatten-tensors",
    "xla-vectorize-loads-stores",
    "xla-gpu-optimize-loops",
)


def _pass_name(stage: str) -> str:
    """`xla-gpu-optimize-loops{greedy_cleanup=false}` -> `xla-gpu-optimize-loops`."""
    return stage.split("{")[0]


def test_every_stage_is_a_registered_pass() -> None:
    known = available_passes()
    for name, spec in PIPELINES.items():
        stages = spec.split(",")
        assert all(_pass_name(stage) in known for stage in stages), name
        assert len(PassPipeline.parse_spec(known, spec).passes) == len(stages)


def test_pipeline_follows_the_seed_stage_order() -> None:
    stages = [_pass_name(stage) for stage in PIPELINES["xla-gpu-pipeline"].split(",")]
    positions = [stages.index(stage) for stage in SEED_STAGES]
    assert positions == sorted(positions)
    # Each stage is followed by the clean-up before the next stage starts.
    for stage in SEED_STAGES:
        after = stages[stages.index(stage) + 1 :]
        assert "canonicalize" in after[:3] and "cse" in after[:4], stage


def test_our_pipeline_passes_are_ours() -> None:
    ours = set(all_passes())
    stages = {_pass_name(stage) for stage in PIPELINES["xla-gpu-to-standard"].split(",")}
    assert stages - {"canonicalize", "cse"} <= ours


def _pipeline_output() -> str:
    ctx = make_context()
    module = emit_hlo_module(GELU_HLO.read_text(), str(GELU_HLO))
    PassPipeline.parse_spec(available_passes(), PIPELINES["xla-gpu-pipeline"]).apply(ctx, module)
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_pipeline_output_is_deterministic() -> None:
    first = _pipeline_output()
    assert first == _pipeline_output()
    assert first.count("vector.transfer_read") == 1


def test_host_route_leaves_out_vector_loads_and_stores() -> None:
    """The host route keeps one thread's accesses scalar so LLVM vectorizes across threads;
    the GPU route keeps XLA's vector loads and stores."""
    host = [_pass_name(stage) for stage in PIPELINES["xla-host-to-llvm"].split(",")]
    gpu = [_pass_name(stage) for stage in PIPELINES["xla-gpu-to-llvm"].split(",")]
    assert "xla-vectorize-loads-stores" in gpu
    assert "xla-vectorize-loads-stores" not in host
