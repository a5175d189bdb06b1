"""Library fusions as `xla-emit-opt` prints them: what runs, not a kernel nobody launches.

A gemm or sort fusion runs as a library call plus a kernel per other op
(`hlo.launches`). Its emitted kernel would show something `xla-emit-run`
never runs, so by default the module says instead, in an attribute that
survives every pass and parses as MLIR:

    module attributes {xla_emit.library_calls = {gemm_fusion = [
        "dot.4 (library): cuBLAS gemm (f32[64,128], f32[32,64]) -> f32[128,32]",
        "wrapped_add.1: kernel (f32[32,128], f32[32,128]) -> f32[32,128]"]}}

Each entry names the launch as `xla-emit-run --time` lists it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.launches import library_fusion_launches

LIBRARY_CALLS_ATTRIBUTE = "xla_emit.library_calls"


def library_calls_attribute(fusions: Sequence[HloInstruction]) -> DictionaryAttr:
    """Each library fusion's launches, by fusion name, as `describe` writes them."""
    return DictionaryAttr(
        {
            fusion.name: ArrayAttr(
                [StringAttr(launch.describe()) for launch in library_fusion_launches(fusion)]
            )
            for fusion in fusions
        }
    )
