"""`tools/ptoas_op_table.py` on a small `.td` tree of our own: classes with template
arguments, defs overriding their lets, `#` in mnemonics, hand-parsed ops left out,
enum attributes with their spellings."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]

OPS_TD = """
class PTO_Op<string mnemonic, list<Trait> traits = []>
    : Op<PTO_Dialect, mnemonic, !listconcat(traits, [ ])>;
class VMI_Op<string mnemonic, list<Trait> traits = []>
    : PTO_Op<"vmi." # mnemonic, traits>;

// A binary register op: the class gives the arguments and the format.
class Binary<string mnemonic> : PTO_Op<mnemonic, [Pure]> {
  let arguments = (ins PTO_VectorType:$lhs, PTO_VectorType:$rhs,
                       PTO_B32MaskTypeConstraint:$mask);
  let results = (outs PTO_VectorType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask)
      `->` type($result)
  }];
}
def AddOp : Binary<"ours_vadd">;
def MulOp : Binary<"ours_vmul"> {
  let results = (outs PTO_VectorType:$product);
}
def LoadOp : VMI_Op<"ours_load"> {
  let arguments = (ins PtrOrMemRef:$source, Optional<Index>:$stride,
                       OptionalAttr<StrAttr>:$mode, UnitAttr:$fast);
  let results = (outs Variadic<VMI_VRegTypeConstraint>:$parts);
  let assemblyFormat = "$source (`,` $stride^)? attr-dict `:` type($source) `->` type($parts)";
}
def HandOp : PTO_Op<"ours_hand"> {
  let arguments = (ins I64:$x);
  let hasCustomAssemblyFormat = 1;
}
"""
ATTRS_TD = """
def Ours_Speed : I32EnumAttr<"Speed", "how fast", [
    I32EnumAttrCase<"Slow", 0, "slow">,
    I32EnumAttrCase<"Fast", 1>
  ]>;
def Ours_SpeedAttr : EnumAttr<PTO_Dialect, Ours_Speed, "ours_speed">;
def OURS_SIDE_LEFT : I32EnumAttrCase<"Left", 0, "left">;
def OURS_SIDE_RIGHT : I32EnumAttrCase<"RIGHT", 1>;
def Ours_SideEnum : PTO_I32Enum<"Side", "which side", [OURS_SIDE_LEFT, OURS_SIDE_RIGHT]>;
def Ours_SideAttr : PTO_Attr<"Side", "ours_side"> {
  let parameters = (ins EnumParameter<Ours_SideEnum>:$side);
  let assemblyFormat = "`<` params `>`";
}
def Ours_PairAttr : PTO_Attr<"Pair", "ours_pair"> {
  let parameters = (ins EnumParameter<Ours_SideEnum>:$first, EnumParameter<Ours_Speed>:$pace);
  let assemblyFormat = "`<` `first` `=` $first `,` `pace` `=` $pace `>`";
}
"""


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "ptoas_op_table", ROOT / "tools/ptoas_op_table.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _include(tmp_path: Path) -> Path:
    include = tmp_path / "include/PTO/IR"
    include.mkdir(parents=True)
    (include / "PTOOps.td").write_text(OPS_TD)
    for name in ("VMIOps.td", "VPTOOps.td", "VPTOUbOps.td", "VMIAttrs.td"):
        (include / name).write_text("")
    (include / "PTOAttrs.td").write_text(ATTRS_TD)
    return include


def test_rows_follow_classes_and_overrides(tmp_path: Path) -> None:
    rows = _tool().table_rows(_include(tmp_path), hand_written=set())
    fmt = (
        "$lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask) "
        "`->` type($result)"
    )
    assert rows == [
        ("ours_vadd", "lhs:vreg rhs:vreg mask:mask.b32", "result:vreg", "", "", fmt),
        ("ours_vmul", "lhs:vreg rhs:vreg mask:mask.b32", "product:vreg", "", "", fmt),
        (
            "vmi.ours_load",
            "source:ptr|memref stride:?index",
            "parts:*vmi.vreg",
            "mode:? fast:unit?",
            "",
            "$source (`,` $stride^)? attr-dict `:` type($source) `->` type($parts)",
        ),
    ]


def test_ops_written_by_hand_are_left_out(tmp_path: Path) -> None:
    rows = _tool().table_rows(_include(tmp_path), hand_written={"ours_vmul"})
    assert [row[0] for row in rows] == ["ours_vadd", "vmi.ours_load"]


def test_enum_attributes_keep_each_case_spelling(tmp_path: Path) -> None:
    include = _include(tmp_path)
    assert _tool().enum_rows(include, known=set()) == [
        ("ours_side", ("left", "RIGHT")),
        ("ours_speed", ("slow", "Fast")),
    ]
    assert _tool().enum_rows(include, known={"ours_speed", "ours_side"}) == []


def test_attributes_of_several_enums_are_written_key_by_key(tmp_path: Path) -> None:
    """A `PTO_Attr` of enum parameters each spelled `key = value` (cases written as defs
    the enum names, or in its list)."""
    include = _include(tmp_path)
    assert _tool().keyword_enum_rows(include, known=set()) == [
        ("ours_pair", (("first", ("left", "RIGHT")), ("pace", ("slow", "Fast")))),
    ]


def test_every_row_of_the_dialect_table_builds() -> None:
    from xla_emit.dialects.pto.declared_ops import DECLARED_OPS, UNEXPRESSED_OPS

    assert UNEXPRESSED_OPS == []
    assert len(DECLARED_OPS) == 452


def test_a_row_naming_its_results_results_builds() -> None:
    """`results` is IRDLOperation's own attribute: the field gets another Python name,
    and the op still takes its variadic results (`pto.vmi.channel_split`)."""
    from xla_emit.dialects.pto.declared_ops import declared_op

    from xla_emit.ir import parse_mlir, verify_module

    op = declared_op(("ours_split", "source:vmi.vreg", "results:*vmi.vreg", "", "", ""))
    assert op.name == "pto.ours_split"
    half = "!pto.vmi.vreg<64xf32>"
    text = f"""func.func @k(%v: !pto.vmi.vreg<128xf32>) {{
  %a, %b = "pto.vmi.channel_split"(%v) : (!pto.vmi.vreg<128xf32>) -> ({half}, {half})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
