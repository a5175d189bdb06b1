"""`pto-verify-target`: check the PTO rules that depend on the target.

The op verifiers of the `pto` dialect check what every target requires; this
pass adds what A2A3 or A5 requires on top (TTRANS's source layout, transpose
domain and 32-byte alignment; A2A3's element types of elementwise ops; A2A3's
extent limits of tload and tmatmul; the location pairs, layouts and element
types of textract (`xla_emit/pto/textract_rules.py`) and tinsert; the ops only A5
has; compare-form tgather's element types; alloc_tile's box-layout fit and address
alignment), and PTOAS's module rules for every target (void entry functions, no recursion).
The target comes from the `target-arch` option, else the module's `pto.target_arch`
attribute, else A2A3.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto import (
    AllocTileOp,
    BinaryOpBase,
    PTOEnumAttrBase,
    TCvtOp,
    TExtractOp,
    TileOpBase,
    TileTypeBase,
    TInsertOp,
    TLoadOp,
    TMatmulOp,
    TTransOp,
    module_target,
)
from xla_emit.dialects.pto.aggregate_types import StructType
from xla_emit.dialects.pto.cube_ops import TExtractFpOp, TGatherOp
from xla_emit.dialects.pto.vector_ops import ExpandOpBase, ScalarOperandOpBase, TSelOp
from xla_emit.passes.diagnostics import OpError

from xla_emit.pto.move_rules import PlacedTile, a5_only_errors, tinsert_errors
from xla_emit.pto.rules import (
    elementwise_errors,
    extent_errors,
    low_precision_cvt_errors,
    tgather_compare_errors,
    ttrans_errors,
)
from xla_emit.pto.targets import Target
from xla_emit.pto.textract_rules import ExtractForm, textract_errors


def target_errors(op: Operation, target: Target) -> list[str]:
    """Every target-specific rule `op` breaks (empty for ops without such rules)."""
    if isinstance(op, AllocTileOp):
        error = op.ptoas_layout_error()
        return [error] if error else []
    if not isinstance(op, TileOpBase):
        # Table-built tile ops (taddrelu) have their target rule only.
        return a5_only_errors(target, op.name.removeprefix("pto."))
    if any(isinstance(v.type, MemRefType) for v in op.operands):
        return []  # after PTOAS's view lowering: the tile types are gone
    if isinstance(op, TTransOp):
        return ttrans_errors(target, op.source().desc(), op.destination_type().desc())
    if isinstance(op, TCvtOp):
        elements = (op.source().element_name, op.destination_type().element_name)
        return low_precision_cvt_errors(target, *elements)
    if isinstance(op, BinaryOpBase | TSelOp | ScalarOperandOpBase | ExpandOpBase):
        return elementwise_errors(
            target, op.name.removeprefix("pto."), op.destination_type().element_name
        )
    if isinstance(op, TLoadOp):
        return extent_errors(target, "tload", {"rows": op.destination_type().valid_rows.data})
    if isinstance(op, TMatmulOp):
        (m, k), n = op.source(0).valid_shape, op.source(1).valid_cols.data
        return extent_errors(target, "tmatmul", {"m": m, "k": k, "n": n})
    if isinstance(op, TExtractOp | TExtractFpOp):
        placed = _placed(op.source()), _placed(op.destination_type())
        return textract_errors(target, *placed, _extract_form(op))
    if isinstance(op, TInsertOp):
        # A fourth input is the pre-quantization scalar.
        quantized = len(op.ins) > 3
        placed = _placed(op.source()), _placed(op.destination_type())
        return tinsert_errors(target, *placed, quantized)
    if isinstance(op, TGatherOp) and len(op.outs) == 2:
        mode = op.attributes.get("cmpMode")
        cmp_mode = mode.data if isinstance(mode, PTOEnumAttrBase) else "eq"
        return tgather_compare_errors(target, op.source().element_name, cmp_mode)
    return a5_only_errors(target, op.name.removeprefix("pto."))


def _extract_form(op: TileOpBase) -> ExtractForm:
    """textract's ins are (src, row, col[, pre-quant scalar]); textract_fp's are
    (src, fp, row, col)."""
    relu = op.attributes.get("reluPreMode")
    fp = op.ins[1].type if isinstance(op, TExtractFpOp) else None
    return ExtractForm(
        fp_loc=fp.loc.data if isinstance(fp, TileTypeBase) else None,
        pre_quant=isinstance(op, TExtractOp) and len(op.ins) > 3,
        relu=isinstance(relu, PTOEnumAttrBase) and relu.value.data != "no_relu",
        acc_to_vec="accToVecMode" in op.attributes,
    )


def _placed(tile: TileTypeBase) -> PlacedTile:
    return PlacedTile(
        tile.loc.data, tile.element_name, tile.blayout.data, tile.slayout.data, tile.fractal.data
    )


def verify_target(module: ModuleOp, override: str | None) -> Target:
    """Raise an `OpError` at the first op breaking a rule of the module's target."""
    try:
        target = module_target(module, override)
    except (ValueError, VerifyException) as error:
        raise OpError(module, str(error)) from None
    verify_entry_functions(module)
    verify_struct_provenance(module)
    for op in module.walk():
        errors = target_errors(op, target)
        if errors:
            raise OpError(op, errors[0], errors[1:])
    return target


def verify_struct_provenance(module: ModuleOp) -> None:
    """PTOAS main's rules for `!pto.struct` (stack storage the value points to): made
    only by `pto.declare_struct`, never a function's argument or result, and never
    handed to a terminator (`return`, `scf.yield`), which would publish the address of
    storage about to die."""
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            kinds = op.function_type
            for what, types in (("argument", kinds.inputs.data), ("result", kinds.outputs.data)):
                for index, kind in enumerate(types):
                    if isinstance(kind, StructType):
                        escape = (
                            "must not be a function argument"
                            if what == "argument"
                            else "must not be returned"
                        )
                        raise OpError(
                            op, f"{what} {index} has type {kind}, but a stack-local struct {escape}"
                        )
            continue
        declares = op.name == "pto.declare_struct"
        for index, result in enumerate(op.results):
            if isinstance(result.type, StructType) and not declares:
                raise OpError(
                    op,
                    f"result {index} has type {result.type}, but only 'pto.declare_struct' may "
                    "produce a !pto.struct result",
                )
            for use in result.uses if declares else ():
                if use.operation.has_trait(IsTerminator):
                    raise OpError(
                        op,
                        "stack-local struct must not escape the scope that declares it, but "
                        f"its value is passed to '{use.operation.name}'",
                    )


def verify_entry_functions(module: ModuleOp) -> None:
    """PTOAS's rules for a module's kernels: the entry functions (those marked
    `pto.entry`) return nothing, and no function
    calls itself, directly or through others (its C++ emission has no recursion)."""
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    definitions = [f for f in functions if not f.is_declaration]
    for function in functions:
        explicit = any(name in function.attributes for name in ENTRY_ATTRIBUTES)
        if explicit and function.is_declaration:
            raise OpError(function, "`pto.entry` is only valid on function definitions")
        # PTOAS main makes only a `pto.entry` function an entry function (a56b18c also
        # took a module's only definition, unless it returned tiles).
        if explicit and not function.is_declaration and function.function_type.outputs.data:
            raise OpError(function, "PTO entry functions must return void")
    callees = {f.sym_name.data: _callees(f) for f in definitions}
    for function in definitions:
        call = _call_cycle(function.sym_name.data, callees)
        if call is not None:
            raise OpError(call, "recursive function calls are not supported")


ENTRY_ATTRIBUTES = ("pto.entry", "hacc.entry")


def _callees(function: func.FuncOp) -> dict[str, func.CallOp]:
    return {
        op.callee.root_reference.data: op for op in function.walk() if isinstance(op, func.CallOp)
    }


def _call_cycle(start: str, callees: dict[str, dict[str, func.CallOp]]) -> func.CallOp | None:
    """A call of `start`'s that leads back to `start`, if any."""
    seen: set[str] = set()
    stack = [(name, call) for name, call in callees.get(start, {}).items()]
    while stack:
        name, first_call = stack.pop()
        if name == start:
            return first_call
        if name in seen:
            continue
        seen.add(name)
        stack.extend((callee, first_call) for callee in callees.get(name, {}))
    return None


@dataclass(frozen=True)
class PTOVerifyTargetPass(ModulePass):
    """Checks the target-specific PTO rules.

    Options: `target-arch` (`a2a3` or `a5`; default: the module's
    `pto.target_arch`, else `a2a3`).
    """

    name = "pto-verify-target"

    target_arch: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_target(op, self.target_arch)
