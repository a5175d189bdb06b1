"""`xla-host-widen-bf16`: bf16 arithmetic computed in f32 and rounded inline, for the host.

A CPU without bf16 instructions has LLVM promote each `fmul bfloat` to f32 and
round back through a library call (`__truncsfbf2`) per operation: no inlining,
no vectorization, and most of a bf16 kernel's time. XLA computes a bf16 op in f32
and rounds after every op; this pass writes exactly that in the kernel's own
IR on the `llvm` dialect (after `xla-lower-to-llvm`):

* a scalar bf16 `fadd`/`fsub`/`fmul`/`fdiv`/`frem` or intrinsic call becomes
  `fpext` of its operands, the op in f32 and the rounding below;
* `fptrunc float to bfloat` becomes integer arithmetic on the bits: round to
  nearest even, a NaN stays a quiet NaN (the rounding of `__truncsfbf2` and of
  the interpreter), which LLVM inlines and vectorizes.

Results are bit for bit those of the library call.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import BFloat16Type, IntegerAttr, ModuleOp, f32, i16, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xla_emit.dialects.llvm_ext import IntrinsicOp

_ARITHMETIC = (llvm.FAddOp, llvm.FSubOp, llvm.FMulOp, llvm.FDivOp, llvm.FRemOp)
_ICMP_UGT = 8  # index of `ugt` in the llvm dialect's icmp predicates
_NAN_ABOVE = 0x7F800000  # magnitudes above +inf are NaNs
_QUIET_BIT = 0x40  # of the upper 16 bits


@dataclass(frozen=True)
class HostWidenBf16Pass(ModulePass):
    name = "xla-host-widen-bf16"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            widened = widen(inner)
            if widened is not None:
                ops, result = widened
                Rewriter.replace_op(inner, ops, [result])


def widen(op: Operation) -> tuple[list[Operation], SSAValue] | None:
    """The ops replacing a scalar bf16 op, and its new result; None to keep it."""
    if isinstance(op, llvm.FPTruncOp):
        if isinstance(op.results[0].type, BFloat16Type) and op.operands[0].type == f32:
            ops = round_to_bf16(op.operands[0])
            return ops, ops[-1].results[0]
        return None
    if not op.results or not isinstance(op.results[0].type, BFloat16Type):
        return None
    if not isinstance(op, (*_ARITHMETIC, llvm.CallIntrinsicOp, IntrinsicOp)):
        return None
    if any(not isinstance(v.type, BFloat16Type) for v in op.operands):
        return None
    extended = [llvm.FPExtOp(v, f32) for v in op.operands]
    wide: Operation
    if isinstance(op, llvm.CallIntrinsicOp):
        wide = llvm.CallIntrinsicOp(op.intrin, [e.results[0] for e in extended], [f32])
    elif isinstance(op, IntrinsicOp):  # `llvm.intr.maximum` and its kind
        wide = type(op)([e.results[0] for e in extended], f32)
    else:
        wide = type(op)(extended[0].results[0], extended[1].results[0])
    ops = [*extended, wide, *round_to_bf16(wide.results[0])]
    return ops, ops[-1].results[0]


def round_to_bf16(value: SSAValue) -> list[Operation]:
    """f32 -> bf16, to nearest even, on the bits; the last op's result is the bf16."""
    ops: list[Operation] = []

    def emit(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    def constant(n: int) -> SSAValue:
        return emit(llvm.ConstantOp(IntegerAttr(n, i32), i32))

    bits = emit(llvm.BitcastOp(value, i32))
    magnitude = emit(llvm.AndOp(bits, constant(0x7FFFFFFF)))
    is_nan = emit(llvm.ICmpOp(magnitude, constant(_NAN_ABOVE), IntegerAttr(_ICMP_UGT, i64)))
    high = emit(llvm.LShrOp(bits, constant(16)))
    odd = emit(llvm.AndOp(high, constant(1)))
    bias = emit(llvm.AddOp(odd, constant(0x7FFF)))
    rounded_high = emit(llvm.LShrOp(emit(llvm.AddOp(bits, bias)), constant(16)))
    quiet = emit(llvm.OrOp(high, constant(_QUIET_BIT)))
    chosen = emit(llvm.SelectOp(is_nan, quiet, rounded_high))
    emit(llvm.BitcastOp(emit(llvm.TruncOp(chosen, i16)), BFloat16Type()))
    return ops
