"""Fusion emitters: HLO fusions to MLIR kernels.

Kernels are built in one form, today's `xla` ops (plus the GPU-only
`xla_gpu` ones); callers that print choose the spelling with
`passes.gpu.respell.RespellPass`.

The hooks other tools call are re-exported here and imported lazily, so that
importing the package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from xla_emit.emitters.launch import LaunchDimensions
    from xla_emit.hlo.ir import HloInstruction, HloModule


def emit_hlo_module(
    text: str, file: str, fusion: str | None = None, library_kernels: bool = True
) -> ModuleOp:
    """Parse HLO text and emit every fusion (or the one named `fusion`) as a kernel function.

    Without `library_kernels`, library fusions are listed, not emitted (see `library_fusions`).
    """
    from xla_emit.emitters.fusion import emit_hlo_module as emit

    return emit(text, file, fusion, library_kernels)


def emit_fusion(module: HloModule, fusion_instruction: HloInstruction) -> ModuleOp:
    """One fusion's kernel: entry function named after the fusion, then its private functions."""
    from xla_emit.emitters.fusion import emit_fusion as emit

    return emit(module, fusion_instruction)


def fusion_launch_dimensions(kernel_module: ModuleOp) -> LaunchDimensions:
    """The launch grid (threads per block, blocks) of a module returned by `emit_fusion`."""
    from xla_emit.emitters.fusion import fusion_launch_dimensions as launch

    return launch(kernel_module)


def format_hlo_partitions(text: str, file: str) -> str:
    """Each fusion's subgraph functions, readable (for `xla-emit-opt --print-partitions`)."""
    from xla_emit.emitters.fusion import format_hlo_partitions as format_partitions

    return format_partitions(text, file)


__all__ = ["emit_fusion", "emit_hlo_module", "format_hlo_partitions", "fusion_launch_dimensions"]
