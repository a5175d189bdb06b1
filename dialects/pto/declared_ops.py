"""PTOAS's ops whose syntax is an MLIR declarative assembly format, built from a table.

Each row of `PTOAS_DECLARED_OPS` (`ptoas_op_table.py`, written by
`tools/ptoas_op_table.py` from PTOAS's `include/PTO/IR/*.td`) names an op, its
operands, results, attributes and regions, and its assembly format; xDSL's
declarative format reads and prints it as PTOAS's generated parser does. An operand
or result kind is PTOAS's type constraint (`vreg`, `mask.b32`, `vmi.vreg`, `ptr|memref`,
`i64`, ...; `*` variadic, `?` optional), checked by the op verifier; an attribute
marked `?` may be left out, `unit` is a flag.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    UnitAttr,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    AttrConstraint,
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    BaseAttr,
    EqAttrConstraint,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.aggregate_types import (
    LocalArrayType,
    MultiTileBufType,
    PrefetchAsyncContextType,
    StructType,
)
from xla_emit.dialects.pto.attrs import (
    AsyncEventType,
    AsyncSessionType,
    PipeHandleType,
    enum_attr,
    keyword_enum_attr,
)
from xla_emit.dialects.pto.dev_access_rules import DEV_ACCESS_RULES
from xla_emit.dialects.pto.ptoas_op_table import (
    PTOAS_DECLARED_OPS,
    PTOAS_ENUM_ATTRS,
    PTOAS_KEYWORD_ENUM_ATTRS,
)
from xla_emit.dialects.pto.table_op_rules import TABLE_OP_RULES
from xla_emit.dialects.pto.types import PtrType, TensorViewType, TileBufType
from xla_emit.dialects.pto.vmi_rules import VMI_RULES
from xla_emit.dialects.pto.vpto_rules import VPTO_RULES
from xla_emit.dialects.pto.vpto_types import AlignType, MaskType, VMIMaskType, VMIVRegType, VRegType


class MaskGranularity(AttrConstraint):
    """A `!pto.mask` of one granularity (`b8`, `b16` or `b32`)."""

    def __init__(self, granularity: str) -> None:
        self.granularity = granularity

    def verify(self, attr: Attribute, constraint_context: object = None) -> None:
        if not isinstance(attr, MaskType) or attr.granularity.data != self.granularity:
            raise VerifyException(f"expected !pto.mask<{self.granularity}>, but got {attr}")

    def mapping_type_vars(self, type_var_mapping: object) -> MaskGranularity:
        return self


def _base(*types: type[Attribute]) -> AttrConstraint:
    constraint: AttrConstraint = BaseAttr(types[0])
    for more in types[1:]:
        constraint = constraint | BaseAttr(more)
    return constraint


KINDS: dict[str, Callable[[], AttrConstraint]] = {
    "i64": lambda: EqAttrConstraint(IntegerType(64)),
    "i32": lambda: EqAttrConstraint(IntegerType(32)),
    "i16": lambda: EqAttrConstraint(IntegerType(16)),
    "i8": lambda: EqAttrConstraint(IntegerType(8)),
    "i1": lambda: EqAttrConstraint(IntegerType(1)),
    "index": lambda: EqAttrConstraint(IndexType()),
    "f32": lambda: EqAttrConstraint(Float32Type()),
    "f16": lambda: EqAttrConstraint(Float16Type()),
    "int": lambda: BaseAttr(IntegerType),
    "vreg": lambda: BaseAttr(VRegType),
    "mask": lambda: BaseAttr(MaskType),
    "mask.b8": lambda: MaskGranularity("b8"),
    "mask.b16": lambda: MaskGranularity("b16"),
    "mask.b32": lambda: MaskGranularity("b32"),
    "align": lambda: BaseAttr(AlignType),
    "vmi.vreg": lambda: BaseAttr(VMIVRegType),
    "vmi.mask": lambda: BaseAttr(VMIMaskType),
    "ptr": lambda: BaseAttr(PtrType),
    "ptr|memref": lambda: _base(PtrType, MemRefType),
    "tile_buf": lambda: BaseAttr(TileBufType),
    "tensor_view": lambda: BaseAttr(TensorViewType),
    "async_session": lambda: BaseAttr(AsyncSessionType),
    "async_event": lambda: BaseAttr(AsyncEventType),
    "prefetch_async_context": lambda: BaseAttr(PrefetchAsyncContextType),
    "local_array": lambda: BaseAttr(LocalArrayType),
    "struct": lambda: BaseAttr(StructType),
    "multi_tile_buf": lambda: BaseAttr(MultiTileBufType),
    "pipe": lambda: BaseAttr(PipeHandleType),
    "any": lambda: AnyAttr(),
}
DECLARED_OP_RULES = {**VMI_RULES, **VPTO_RULES, **DEV_ACCESS_RULES, **TABLE_OP_RULES}
_ = AnyFloat  # floats are `any`: PTOAS's float constraints name lists of widths


def _split(spec: str) -> list[tuple[str, str]]:
    return [tuple(item.split(":", 1)) for item in spec.split()]  # type: ignore[misc]


def _value_defs(
    spec: str,
    single: Callable[..., object],
    optional: Callable[..., object],
    variadic: Callable[..., object],
) -> tuple[dict[str, object], int]:
    defs: dict[str, object] = {}
    segmented = 0
    for written, kind in _split(spec):
        name = _python_name(written)
        base = kind.lstrip("*?")
        constraint = KINDS[base]()
        if kind.startswith("*"):
            defs[name] = variadic(constraint)
            segmented += 1
        elif kind.startswith("?"):
            defs[name] = optional(constraint)
            segmented += 1
        else:
            defs[name] = single(constraint)
    return defs, segmented


def _python_name(name: str) -> str:
    """A field name IRDLOperation accepts (its own `results`, `operands`, ... are taken;
    only formatless ops use these names, so no format names the field)."""
    return name + "_" if name in ("results", "operands", "regions", "name") else name


def declared_op(row: tuple[str, str, str, str, str, str]) -> type[IRDLOperation]:
    """The op class of one table row."""
    name, operands, results, attributes, regions, format_ = row
    fields: dict[str, object] = {"name": f"pto.{name}", "__doc__": f"PTOAS's `pto.{name}`."}
    operand_fields, operand_segments = _value_defs(
        operands, operand_def, opt_operand_def, var_operand_def
    )
    result_fields, result_segments = _value_defs(
        results, result_def, opt_result_def, var_result_def
    )
    fields.update(operand_fields)
    fields.update(result_fields)
    for attr_name, flags in _split(attributes):
        constraint = BaseAttr(UnitAttr) if "unit" in flags else AnyAttr()
        fields[attr_name] = opt_prop_def(constraint) if "?" in flags else prop_def(constraint)
    for region_name in regions.split():
        fields[region_name] = region_def()
    options: list[object] = [ParsePropInAttrDict()]
    if operand_segments > 1:
        options.append(AttrSizedOperandSegments(as_property=True))
    if result_segments > 1:
        options.append(AttrSizedResultSegments(as_property=True))
    fields["irdl_options"] = tuple(options)
    if regions:
        fields["traits"] = traits_def(NoTerminator())
    rule = DECLARED_OP_RULES.get(name)
    if rule is not None:
        # The op's C++ verifier in PTOAS, beyond its operands' type constraints.
        fields["verify_"] = lambda self: rule(self)
    # An op without a format reads and prints in MLIR's generic form, as PTOAS's does.
    # xDSL prints every type in full: `qualified(...)` changes nothing there.
    if format_ and not results:
        # An op without results prints its function type as `(...) -> ()`.
        format_ = re.sub(
            r"functional-type\((\$\w+), results\)", r"`(` type(\1) `)` `->` `(` `)`", format_
        )
    if format_:
        fields["assembly_format"] = re.sub(r"qualified\(\s*(type\([^()]*\))\s*\)", r"\1", format_)
    class_name = "".join(part.title() for part in name.replace(".", "_").split("_")) + "Op"
    op = type(class_name, (IRDLOperation,), fields)
    op.__module__ = __name__
    return irdl_op_definition(op)


# Ops PTOAS parses by hand whose syntax a declarative format still says: vcvt
# (PTOAS also reads the older `round_mode` for `rnd`), mem_bar (a barrier kind as a
# string or a `#pto.mem_bar<...>`).
HAND_PARSED_ROWS = (
    (
        "vcvt",
        "input:vreg mask:mask",
        "result:vreg",
        "",
        "",
        "$input `,` $mask attr-dict `:` type($input) `,` type($mask) `->` type($result)",
    ),
    ("mem_bar", "", "", "kind:", "", "$kind attr-dict"),
)


def declared_ops() -> tuple[list[type[IRDLOperation]], list[tuple[str, str]]]:
    """The table's ops, and the rows xDSL's format cannot express (with why)."""
    built: list[type[IRDLOperation]] = []
    skipped: list[tuple[str, str]] = []
    for row in (*PTOAS_DECLARED_OPS, *HAND_PARSED_ROWS):
        try:
            built.append(declared_op(row))
        except Exception as error:  # noqa: BLE001 - a row xDSL cannot express is reported
            skipped.append((row[0], (str(error) or type(error).__name__).splitlines()[0]))
    return built, skipped


DECLARED_OPS, UNEXPRESSED_OPS = declared_ops()
# PTOAS's enum attributes beyond those `attrs` defines with their uses.
DECLARED_ATTRIBUTES = (
    *(
        enum_attr(mnemonic, cases, f"PTOAS's `#pto.{mnemonic}<...>`.")
        for mnemonic, cases in PTOAS_ENUM_ATTRS
    ),
    *(
        keyword_enum_attr(mnemonic, keys, f"PTOAS's `#pto.{mnemonic}<key = value, ...>`.")
        for mnemonic, keys in PTOAS_KEYWORD_ENUM_ATTRS
    ),
)


def declared_attribute(mnemonic: str) -> type[Attribute]:
    """The table's attribute class `#pto.<mnemonic>`."""
    for attr in DECLARED_ATTRIBUTES:
        if attr.name == f"pto.{mnemonic}":
            return attr
    raise KeyError(mnemonic)
