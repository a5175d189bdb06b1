"""PTOAS main's verifier of `pto.inttoptr` (`lib/PTO/IR/PTO.cpp`): a 64-bit address
becomes a `!pto.ptr` whose element is a scalar type EmitC can name (a float of 16, 32
or 64 bits, bf16, an integer of 8 to 64 bits, an 8-bit float, hif8 or a packed pair of
4-bit floats; not `index` or `i1`)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import PtrType, element_type_name

EMITC_SCALARS = frozenset(
    {"f16", "bf16", "f32", "f64"}
    | {f"{prefix}{bits}" for prefix in ("i", "si", "ui") for bits in (8, 16, 32, 64)}
    | {"f8E4M3", "f8E4M3FN", "f8E5M2", "!pto.hif8", "!pto.f4E1M2x2", "!pto.f4E2M1x2"}
)


def verify_inttoptr(op: Operation) -> None:
    address = op.operands[0].type
    if not isinstance(address, IntegerType) or address.width.data != 64:
        raise VerifyException("address operand must be i64")
    result = op.results[0].type
    if not isinstance(result, PtrType):
        raise VerifyException("result must be !pto.ptr<...>")
    element = result.element_type
    if element_type_name(element) not in EMITC_SCALARS:
        raise VerifyException(f"result element type is not supported by EmitC: '{element}'")


SCALAR_PTR_RULES = {"inttoptr": verify_inttoptr}
