"""PTOAS's verifier rules of `pto.ld_dev` / `pto.st_dev` (`lib/PTO/IR/VPTO.cpp`,
`verifyLdStDevAccess`): a scalar load or store of device-visible global memory made
by the ordinary AICore program, not by SIMT threads.

- the value type is the pointer's element type (`verifyVPTOScalarAccessTypes`);
- no `l1cache` / `l2cache` policy (the access bypasses the caches it would name);
- a `!pto.ptr` into GM, of an i8, i16, i32 or i64 value;
- outside `pto.simt_entry` functions and `pto.section.simt` bodies, in a function
  marked as a PTO kernel entry (`pto.entry`, `pto.kernel`, `pto.aicore`, `hacc.entry`).

Keyed by op name in `DEV_ACCESS_RULES`; each rule raises `VerifyException` with
PTOAS's message. (Which targets and CANN versions can lower them is an emission
rule: `passes/analysis/ptoas_backend_checks.py`.)
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, MemRefType, UnitAttr
from xdsl.ir import Attribute, Operation
from xla_emit.dialects.pto.types import PtrType, enclosing_function
from xla_emit.dialects.pto.vmi_rules import Rule, require

ENTRY_ATTRS = ("pto.entry", "hacc.entry", "pto.kernel", "pto.aicore")


def _dev_access(mnemonic: str, pointer: int, value_of: str) -> Rule:
    """The rule of one op: its pointer is operand `pointer`; its value is the result
    (`value_of == "result"`) or operand 0."""

    def rule(op: Operation) -> None:
        ptr = op.operands[pointer].type
        value = op.results[0].type if value_of == "result" else op.operands[0].type
        _access_types(mnemonic, ptr, value)
        require(
            "l1cache" not in op.attributes and "l2cache" not in op.attributes,
            "does not accept l1cache or l2cache policy attributes",
        )
        require(isinstance(ptr, PtrType), "requires !pto.ptr operand")
        require(isinstance(ptr, PtrType) and ptr.is_global, "requires GM pointer")
        require(
            isinstance(value, IntegerType) and value.width.data in (8, 16, 32, 64),
            "supports only i8, i16, i32 or i64 values",
        )
        function = enclosing_function(op)
        require(
            not _in_simt_scope(op, function),
            "must be outside pto.simt_entry functions and pto.section.simt",
        )
        require(
            function is not None
            and bool(function.regions[0].blocks)
            and any(isinstance(function.attributes.get(a), UnitAttr) for a in ENTRY_ATTRS),
            "requires an enclosing ordinary AICore entry function",
        )

    return rule


def _access_types(mnemonic: str, ptr: Attribute, value: Attribute) -> None:
    require(
        isinstance(ptr, PtrType | MemRefType),
        f"expects {mnemonic} pointer operand to be !pto.ptr or memref",
    )
    element = ptr.element_type if isinstance(ptr, PtrType | MemRefType) else None
    require(value == element, f"expects {mnemonic} value type to match pointer element type")


def _in_simt_scope(op: Operation, function: Operation | None) -> bool:
    if function is not None and "pto.simt_entry" in function.attributes:
        return True
    parent = op.parent_op()
    while parent is not None and parent is not function:
        if parent.name == "pto.section.simt":
            return True
        parent = parent.parent_op()
    return False


DEV_ACCESS_RULES: dict[str, Rule] = {
    "ld_dev": _dev_access("ld_dev", pointer=0, value_of="result"),
    "st_dev": _dev_access("st_dev", pointer=1, value_of="operand"),
}
