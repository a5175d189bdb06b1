"""Which fusions take the Triton route: the one rule the emitters' printing and the runtime share.

XLA:GPU emits a fusion with Triton's block-level code generation when its backend
config says `__triton` (normalizations) or names a Triton gemm. We run such a fusion
as a tile program when our Triton emitter covers it.
"""

from __future__ import annotations

from xla_emit.diagnostics import UserError
from xla_emit.hlo.fusion_configs import TRITON, TRITON_KINDS, fusion_backend_kind
from xla_emit.hlo.ir import HloInstruction


def runs_as_triton(instruction: HloInstruction) -> bool:
    """A fusion XLA emits with Triton's block-level code generation that our Triton emitter
    covers: normalizations, and gemm fusions whose dots multiply 16-bit floats or f32 (as
    TF32, XLA:GPU's default precision for f32 dots on an H100). Other gemm fusions (f64,
    integers) run op by op, their dot a library call; a normalization with an op the
    emitter lacks runs as one kernel of the emitters."""
    kind = fusion_backend_kind(instruction)
    if kind not in TRITON_KINDS:
        return False
    if kind != TRITON and not _tensor_core_dots(instruction):
        return False
    return _emits(instruction)


def _tensor_core_dots(fusion: HloInstruction) -> bool:
    """Whether the fusion has dots, all of 16-bit floats or f32 (what Triton's `tt.dot`
    takes to the tensor cores)."""
    dots = [i for i in fusion.called_computations[0].instructions if i.opcode == "dot"]
    return bool(dots) and all(
        operand.array_shape.element_type.is_float
        and operand.array_shape.element_type.dtype.itemsize in (2, 4)
        for dot in dots
        for operand in dot.operands
    )


def tf32_dots(fusion: HloInstruction) -> list[HloInstruction]:
    """The f32 dots of a fusion on the Triton route: their inputs are rounded to TF32."""
    if fusion.opcode != "fusion" or fusion_backend_kind(fusion) == TRITON:
        return []
    if not runs_as_triton(fusion):
        return []
    return [
        i
        for i in fusion.called_computations[0].instructions
        if i.opcode == "dot"
        and any(o.array_shape.element_type.dtype.itemsize == 4 for o in i.operands)
    ]


def _emits(fusion: HloInstruction) -> bool:
    """Whether the Triton emitter covers `fusion` (remembered per fusion instruction)."""
    from xla_emit.emitters.triton.emitter import emit_triton_fusion

    known = _EMITTABLE.get(id(fusion))
    if known is None or known[0] is not fusion:
        try:
            emit_triton_fusion(fusion)
            known = (fusion, True)
        except UserError:
            known = (fusion, False)
        _EMITTABLE[id(fusion)] = known
    return known[1]


_EMITTABLE: dict[int, tuple[HloInstruction, bool]] = {}
