"""Library fusions as `xla-emit-opt` prints them: what runs, not a kernel nobody launches.

A gemm or sort fusion runs as a library call plus a kernel per other op
(`hlo.launches`). Its emitted kernel would show something `xla-emit-run`
never runs, so by default the module says instead, in an attribute that
survives every pass and parses as MLIR:

    module attributes {xla_emit.library_calls = {gemm_fusion = [
        "dot.4 (library): cuBLAS gemm (f32[64,128], f32[32,64]) -> f32[128,32]",
        "wrapped_add.1: kernel (f32[32,128], f32[32,128]) -> f32[32,128]"]}}

Each entry names the launch as `xla-emit-run --time` lists it. A library call
outside any fusion (a cuBLAS or cuDNN custom call, a dot or a sort in the entry
computation) is listed the same way, under its own name.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.launches import Launch, library_fusion_launches

LIBRARY_CALLS_ATTRIBUTE = "xla_emit.library_calls"


def library_calls_attribute(
    fusions: Sequence[HloInstruction], unfused: Sequence[Launch] = ()
) -> DictionaryAttr:
    """Each library fusion's launches by fusion name, then each library call outside a
    fusion by its instruction's name, as `describe` writes them."""
    listed = {fusion.name: library_fusion_launches(fusion) for fusion in fusions}
    listed.update({launch.instruction.name: [launch] for launch in unfused})
    return DictionaryAttr(
        {
            name: ArrayAttr([StringAttr(launch.describe()) for launch in launches])
            for name, launches in listed.items()
        }
    )
