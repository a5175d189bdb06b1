"""`xla-lower-to-llvm-gpu`: the name XLA's GPU pipeline gives `xla-lower-to-llvm`.

XLA's emitter pipeline for NVIDIA GPUs runs `LowerToLLVMGPUPass`
(`xla-lower-to-llvm-gpu`) where its generic pipeline runs `xla-lower-to-llvm`;
for the NVPTX target they lower alike. Registered under XLA's name so that
`xla-emit-dump --replay` replays that step of XLA's logs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.passes.gpu.lower_to_llvm import LowerToLLVMPass


@dataclass(frozen=True)
class LowerToLLVMGPUPass(LowerToLLVMPass):
    """`xla-lower-to-llvm` under the name of XLA's GPU pipeline. No options."""

    name = "xla-lower-to-llvm-gpu"
