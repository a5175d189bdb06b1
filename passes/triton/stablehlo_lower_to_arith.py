"""`stablehlo-lower-to-arith`: elementwise `stablehlo` ops on tiles become `arith` and `math`.

XLA's Triton pipeline runs this right after `tensor-lower-to-triton`:
`stablehlo.add` on floats becomes `arith.addf`, on integers `arith.addi`;
`stablehlo.convert` an `arith.extf`, `truncf`, `sitofp`, ... by the types (float to
integer: `fptosi` with XLA's saturation and NaN -> 0 selected in, bf16 extended first);
`stablehlo.not` an `arith.xori` with all ones; an integer `stablehlo.negate`
`0 - x` (`arith.subi`), an integer `stablehlo.abs` `math.absi`; an integer
`divide`/`remainder` an `arith.divsi`/`remsi` marked `xla.guard_ub`, guarded
after the TTIR by `xla-safe-integer-arithmetic` (XLA's x / 0 = -1);
`stablehlo.bitcast_convert` an `arith.bitcast`;
`stablehlo.compare` an `arith.cmpf`/`cmpi` with the predicate of its
direction; `stablehlo.select` an `arith.select`. Reducer bodies are lowered
too (their 0-d tensors stay tensors). `stablehlo.reduce`, `broadcast_in_dim`,
`reshape`, `transpose` and `iota` are left for `stablehlo-lower-to-triton`.

`lowered_ops` is the one table of what each op means in `arith`: the tile
executor runs a `stablehlo` elementwise op by running the ops it would lower
to, so every stage of the pipeline means the same arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnitAttr,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xla_emit.dialects import arith_vector, stablehlo
from xla_emit.passes.float_to_integer import saturating_float_to_integer
from xla_emit.passes.gpu.safe_integer_arithmetic import GUARD_UB

_FLOAT_BINARY: dict[type[Operation], type[Operation]] = {
    stablehlo.AddOp: arith.AddfOp,
    stablehlo.SubtractOp: arith.SubfOp,
    stablehlo.MultiplyOp: arith.MulfOp,
    stablehlo.DivideOp: arith.DivfOp,
    stablehlo.MaximumOp: arith.MaximumfOp,
    stablehlo.MinimumOp: arith.MinimumfOp,
    stablehlo.PowerOp: math.PowFOp,
}
_INTEGER_BINARY: dict[type[Operation], type[Operation]] = {
    stablehlo.AddOp: arith.AddiOp,
    stablehlo.SubtractOp: arith.SubiOp,
    stablehlo.MultiplyOp: arith.MuliOp,
    stablehlo.DivideOp: arith.DivSIOp,  # marked `xla.guard_ub` (`_GUARDED`)
    stablehlo.RemainderOp: arith.RemSIOp,
    stablehlo.MaximumOp: arith.MaxSIOp,
    stablehlo.MinimumOp: arith.MinSIOp,
    stablehlo.AndOp: arith.AndIOp,
    stablehlo.OrOp: arith.OrIOp,
    stablehlo.XorOp: arith.XOrIOp,
}
# XLA leaves the guard of x / 0 and INT_MIN / -1 to `xla-safe-integer-arithmetic` (after its
# TTIR): the division is marked, and the tile executor runs the guard the pass writes.
_GUARDED = (stablehlo.DivideOp, stablehlo.RemainderOp)
_FLOAT_UNARY: dict[type[Operation], type[Operation]] = {
    stablehlo.NegateOp: arith.NegfOp,
    stablehlo.AbsOp: math.AbsFOp,
    stablehlo.ExponentialOp: math.ExpOp,
    stablehlo.ExponentialMinusOneOp: math.ExpM1Op,
    stablehlo.LogOp: math.LogOp,
    stablehlo.LogPlusOneOp: math.Log1pOp,
    stablehlo.RsqrtOp: math.RsqrtOp,
    stablehlo.SqrtOp: math.SqrtOp,
    stablehlo.TanhOp: math.TanhOp,
    stablehlo.SineOp: math.SinOp,
    stablehlo.CosineOp: math.CosOp,
    stablehlo.FloorOp: math.FloorOp,
    stablehlo.CeilOp: math.CeilOp,
}
_FLOAT_PREDICATES = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
_SIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
_UNSIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}


def _element(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, TensorType) else type_


def _is_float(type_: Attribute) -> bool:
    return isinstance(_element(type_), AnyFloat)


def _width(type_: Attribute) -> int:
    element = _element(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    assert isinstance(element, AnyFloat)
    return element.bitwidth


def lowered_ops(op: Operation, operands: Sequence[SSAValue]) -> list[Operation] | None:
    """The `arith`/`math` ops computing `op` on `operands` (the last one's result is op's),
    or None when `op` is not an elementwise op this pass lowers."""
    result_type = op.results[0].type if op.results else None
    if isinstance(op, stablehlo.ConvertOp):
        assert result_type is not None
        return _convert(operands[0], result_type)
    if isinstance(op, stablehlo.BitcastConvertOp):
        assert result_type is not None
        return [arith.BitcastOp(operands[0], result_type)]
    if isinstance(op, stablehlo.CompareOp):
        return [_compare(op, operands[0], operands[1])]
    if isinstance(op, stablehlo.SelectOp):
        # A tile of conditions: the select of `arith_vector`, as TTIR has it.
        return [
            arith_vector.SelectOp.create(operands=list(operands[:3]), result_types=[result_type])
        ]
    floats = result_type is not None and _is_float(result_type)
    if isinstance(op, stablehlo.NotOp) and not floats:
        assert result_type is not None
        return _bitwise_not(operands[0], result_type)
    if isinstance(op, stablehlo.NegateOp) and not floats:
        assert result_type is not None
        return _integer_negate(operands[0], result_type)
    if isinstance(op, stablehlo.AbsOp) and not floats:
        # As XLA's Triton emitter: the minimum value stays itself.
        return [math.AbsIOp(operands[0])]
    table = (_FLOAT_BINARY if floats else _INTEGER_BINARY) if len(operands) == 2 else None
    if table is not None and type(op) in table:
        marks = {GUARD_UB: UnitAttr()} if not floats and isinstance(op, _GUARDED) else {}
        lowered = table[type(op)].create(
            operands=list(operands), result_types=[result_type], attributes=marks
        )
        return [lowered]
    if len(operands) == 1 and floats and type(op) in _FLOAT_UNARY:
        return [_FLOAT_UNARY[type(op)].create(operands=list(operands), result_types=[result_type])]
    return None


def _bitwise_not(x: SSAValue, result_type: Attribute) -> list[Operation]:
    """`not x` as `x xor all-ones` (a splat constant of -1: every bit set, `true` for i1)."""
    ones = DenseIntOrFPElementsAttr.from_list(result_type, [-1])  # type: ignore[arg-type]
    constant = arith.ConstantOp(ones)
    return [constant, arith.XOrIOp(x, constant.result)]


def _integer_negate(x: SSAValue, result_type: Attribute) -> list[Operation]:
    """Integer `negate x` as `0 - x`, as XLA's Triton emitter writes it (arith has no
    integer negation; the minimum value wraps to itself)."""
    zeros = DenseIntOrFPElementsAttr.from_list(result_type, [0])  # type: ignore[arg-type]
    constant = arith.ConstantOp(zeros)
    return [constant, arith.SubiOp(constant.result, x)]


def _compare(op: stablehlo.CompareOp, lhs: SSAValue, rhs: SSAValue) -> Operation:
    direction = op.comparison_direction.data
    if _is_float(lhs.type):
        compare: Operation = arith.CmpfOp(lhs, rhs, _FLOAT_PREDICATES[direction])
    else:
        kind = op.compare_type.data if op.compare_type is not None else None
        unsigned = kind == "UNSIGNED" or _width(lhs.type) == 1
        predicates = _UNSIGNED_PREDICATES if unsigned else _SIGNED_PREDICATES
        compare = arith.CmpiOp(lhs, rhs, predicates[direction])
    # On tiles the result is a tile of i1: the compares of `arith_vector`, as TTIR has them.
    shaped = arith_vector.CmpfOp if isinstance(compare, arith.CmpfOp) else arith_vector.CmpiOp
    return shaped.create(
        operands=[lhs, rhs],
        result_types=[op.result.type],
        properties=dict(compare.properties),
        attributes=dict(compare.attributes),
    )


def _convert(value: SSAValue, target: Attribute) -> list[Operation]:
    source = value.type
    if _element(source) == _element(target):
        return []
    from_float, to_float = _is_float(source), _is_float(target)
    source_width, target_width = _width(source), _width(target)
    if from_float and to_float:
        op_class = arith.ExtFOp if target_width > source_width else arith.TruncFOp
    elif to_float:
        op_class = arith_vector.UIToFPOp if source_width == 1 else arith_vector.SIToFPOp
    elif from_float:
        return _float_to_integer(value, target)
    elif target_width > source_width:
        op_class = arith_vector.ExtUIOp if source_width == 1 else arith_vector.ExtSIOp
    else:
        op_class = arith_vector.TruncIOp
    return [op_class.create(operands=[value], result_types=[target])]


# The float types whose limits `_float_to_integer` rounds with numpy (bf16 is extended).
_NUMPY_FLOATS: dict[int, type[np.floating[Any]]] = {16: np.float16, 32: np.float32, 64: np.float64}


def _float_to_integer(value: SSAValue, target: Attribute) -> list[Operation]:
    """A float tile to an integer one, saturating, NaN to 0, as XLA's Triton emitter writes
    it (`saturating_float_to_integer`); a bf16 tile is extended to f32 first, as there."""
    ops: list[Operation] = []

    def emit(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    if _width(target) == 1:  # to pred: x != 0
        zero = DenseIntOrFPElementsAttr.from_list(value.type, [0.0])  # type: ignore[arg-type]
        emit(arith_vector.CmpfOp(value, emit(arith.ConstantOp(zero)), "une"))
        return ops
    if isinstance(_element(value.type), BFloat16Type):
        shape = value.type.get_shape() if isinstance(value.type, TensorType) else None
        value = emit(arith.ExtFOp(value, f32 if shape is None else TensorType(f32, shape)))
    float_type = value.type
    rounded = _NUMPY_FLOATS[_width(float_type)]

    def float_limit(limit: int) -> SSAValue:
        with np.errstate(over="ignore"):  # INT_MAX is 2**31 in f32, inf in f16
            splat = [float(rounded(limit))]
        return emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(float_type, splat)))  # type: ignore[arg-type]

    def integer(number: int) -> SSAValue:
        splat = DenseIntOrFPElementsAttr.from_list(target, [number])  # type: ignore[arg-type]
        return emit(arith.ConstantOp(splat))

    element = _element(target)
    assert isinstance(element, IntegerType)
    width = element.width.data
    unsigned = element.signedness.data == Signedness.UNSIGNED
    limits = (0, (1 << width) - 1) if unsigned else (-(1 << (width - 1)), (1 << (width - 1)) - 1)
    saturating_float_to_integer(
        value,
        target,
        signed=not unsigned,
        limits=limits,
        float_limit=float_limit,
        integer=integer,
        emit=emit,
    )
    return ops


@dataclass
class _LowerElementwise(RewritePattern):
    """Any elementwise `stablehlo` op with an `arith` meaning; others are left alone."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, stablehlo.ElementwiseOp | stablehlo.CompareOp | stablehlo.SelectOp):
            return
        ops = lowered_ops(op, op.operands)
        if ops is None:
            return  # an op with no arith counterpart here: stays for a later pass to refuse
        if not ops:  # a convert to its own type
            rewriter.replace(op, [], [op.operands[0]])
            return
        rewriter.replace(op, ops, [ops[-1].results[0]])


@dataclass(frozen=True)
class StablehloLowerToArithPass(ModulePass):
    """Lowers elementwise `stablehlo` ops to `arith` and `math`, as XLA's pass of this name."""

    name = "stablehlo-lower-to-arith"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_LowerElementwise(), apply_recursively=False).rewrite_module(op)
