"""Complex HLO (c64, c128) as `complex` dialect ops, as XLA's elemental emitter writes them.

`real`, `imag` and `abs` become `complex.re`, `complex.im`, `complex.abs`;
`complex(re, im)` is `complex.create`; arithmetic and the transcendental ops
have one `complex` op each; `compare` EQ/NE is `complex.eq`/`complex.neq`;
converts go through the parts (a real value gets a zero imaginary part; HLO
converts complex values only to complex types). The real or
imaginary part of a real operand is the operand or zero.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import complex as cplx
from xdsl.ir import Operation, SSAValue

from xla_emit.emitters.elemental_ops import ScalarOps, convert_scalar, unsupported
from xla_emit.emitters.types import complex_type
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import PrimitiveType

_UNARY: dict[str, Callable[[SSAValue], Operation]] = {
    "negate": cplx.NegOp,
    "exponential": cplx.ExpOp,
    "exponential-minus-one": cplx.Expm1Op,
    "log": cplx.LogOp,
    "log-plus-one": cplx.Log1pOp,
    "sqrt": cplx.SqrtOp,
    "rsqrt": cplx.RsqrtOp,
    "tanh": cplx.TanhOp,
    "sine": cplx.SinOp,
    "cosine": cplx.CosOp,
    "tan": cplx.TanOp,
    "sign": cplx.SignOp,
    "abs": cplx.AbsOp,
}
_BINARY: dict[str, Callable[[SSAValue, SSAValue], Operation]] = {
    "add": cplx.AddOp,
    "subtract": cplx.SubOp,
    "multiply": cplx.MulOp,
    "divide": cplx.DivOp,
    "power": cplx.PowOp,
}


def is_complex_op(instruction: HloInstruction, operand_type: PrimitiveType) -> bool:
    """Ops on or to complex values; `select` picks complex values like any other."""
    if instruction.opcode in ("real", "imag", "complex"):
        return True
    if instruction.opcode == "select":
        return False
    return operand_type.is_complex or instruction.array_shape.element_type.is_complex


def emit_complex_op(
    emitter: ScalarOps,
    instruction: HloInstruction,
    operand_type: PrimitiveType,
    result_type: PrimitiveType,
    operands: list[SSAValue],
) -> SSAValue:
    opcode = instruction.opcode
    if opcode == "copy":
        return operands[0]
    if opcode == "complex":
        create = cplx.CreateOp(operands[0], operands[1], complex_type(result_type))
        return emitter.insert(create).results[0]
    if opcode in ("real", "imag") and not operand_type.is_complex:
        if opcode == "real":
            return operands[0]
        return emitter.scalar_constant(0.0, result_type)
    if opcode == "real":
        return emitter.insert(cplx.ReOp(operands[0])).results[0]
    if opcode == "imag":
        return emitter.insert(cplx.ImOp(operands[0])).results[0]
    if opcode == "convert":
        return _convert(emitter, operands[0], operand_type, result_type)
    if opcode == "compare":
        direction = instruction.comparison_direction
        op_class = {"EQ": cplx.EqualOp, "NE": cplx.NotEqualOp}.get(direction or "")
        if op_class is None:
            raise unsupported(instruction, f"{direction} on {operand_type.value}")
        return emitter.insert(op_class(operands[0], operands[1])).results[0]
    folded = fold_complex_op(opcode, operands)
    if folded is not None:
        return folded
    if len(operands) == 2 and opcode in _BINARY:
        return emitter.insert(_BINARY[opcode](operands[0], operands[1])).results[0]
    if len(operands) == 1 and opcode in _UNARY:
        return emitter.insert(_UNARY[opcode](operands[0])).results[0]
    raise unsupported(instruction, f"on {operand_type.value}")


def _defined_by(value: SSAValue, op_class: type[Operation]) -> Operation | None:
    return value.owner if isinstance(value.owner, op_class) else None


def fold_complex_op(opcode: str, operands: list[SSAValue]) -> SSAValue | None:
    """The value MLIR's `complex.add`/`complex.sub` folders (`ComplexOps.cpp`) replace the
    op with, if any: `b + (a - b)`, `(a - b) + b` and `(a + b) - b` are `a`.

    XLA's canonicalization folds them in every fusion kernel (its GPU log of `p4 + (p1 -
    p4)` on c128 stores p1; XLA:CPU's fused kernel too), so the result is `a` exactly, its
    -0 and infinite parts kept, not the sum IEEE arithmetic rounds. The evaluator folds the
    same instructions (`hlo/complex_ops.folded_operand`).
    """
    if len(operands) != 2:
        return None
    lhs, rhs = operands
    if opcode == "add":
        for sub, other in ((lhs, rhs), (rhs, lhs)):
            op = _defined_by(sub, cplx.SubOp)
            if op is not None and op.operands[1] is other:
                return op.operands[0]
    if opcode == "subtract":
        op = _defined_by(lhs, cplx.AddOp)
        if op is not None and op.operands[1] is rhs:
            return op.operands[0]
    return None


def _convert(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    if source == target:
        return x
    part = target.component_type
    if source.is_complex:
        real = emitter.insert(cplx.ReOp(x)).results[0]
        imaginary = emitter.insert(cplx.ImOp(x)).results[0]
        real = convert_scalar(emitter, real, source.component_type, part)
        imaginary = convert_scalar(emitter, imaginary, source.component_type, part)
    else:
        real = convert_scalar(emitter, x, source, part)
        imaginary = emitter.scalar_constant(0.0, part)
    return emitter.insert(cplx.CreateOp(real, imaginary, complex_type(target))).results[0]
