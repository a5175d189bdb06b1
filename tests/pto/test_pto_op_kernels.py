"""Every op of the `pto` dialect over a kernel of our own.

`data/op_kernels.mlir` holds one small kernel per table-built op (its syntax a
declarative format), `data/hand_op_kernels.mlir` one per hand-parsed op no other test
names: each must read, verify and print back exactly as written, and each typed
operand of a table-built op must reject a value of the wrong kind with a located
message naming the operand. The inventory test checks that every registered op is
named by a kernel in our tests (these files, or the tests of the tile and
hand-parsed ops, which also run them against numpy).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from xdsl.printer import Printer
from xla_emit.dialects.pto import PTO
from xla_emit.dialects.pto.declared_ops import HAND_PARSED_ROWS
from xla_emit.dialects.pto.ptoas_op_table import PTOAS_DECLARED_OPS

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

TESTS = Path(__file__).parents[1]
DATA = Path(__file__).parent / "data"


def _kernels(file: str) -> dict[str, str]:
    parts = (DATA / file).read_text().split("// ----- ")[1:]
    return {part.split("\n", 1)[0]: part.split("\n", 1)[1].strip() + "\n" for part in parts}


TABLE_CASES = _kernels("op_kernels.mlir")
CASES = TABLE_CASES | _kernels("hand_op_kernels.mlir")
ROWS = {f"pto.{row[0]}": row for row in (*PTOAS_DECLARED_OPS, *HAND_PARSED_ROWS)}


def _printed_function(text: str, name: str) -> tuple[str, str]:
    """The kernel's function printed, and the name of its first op (or of the op
    named, where it only lives inside another: `pto.yield` in a fusion region)."""
    module, source_map = parse_mlir(text, f"{name}.mlir")
    verify_module(module, source_map)
    function = module.body.block.first_op
    stream = io.StringIO()
    Printer(stream=stream).print_op(function)  # type: ignore[arg-type]
    first = function.body.block.first_op.name  # type: ignore[union-attr]
    if name.startswith("pto.") and first != name:
        nested = [op.name for op in function.walk() if op.name == name]  # type: ignore[attr-defined]
        first = nested[0] if nested else first
    return stream.getvalue().replace("func.return", "return") + "\n", first


@pytest.mark.parametrize("name", sorted(CASES))
def test_kernel_reads_verifies_and_prints_back(name: str) -> None:
    text = CASES[name]
    assert _printed_function(text, name) == (text, name)


def test_every_table_op_has_a_kernel() -> None:
    assert sorted(TABLE_CASES) == sorted(ROWS)


def _named_in_tests() -> set[str]:
    """The op names our PTO tests spell out (`pto.tadd`, or a quoted `"tands"`)."""
    folders = [TESTS / "pto", TESTS / "tools", TESTS / "filecheck"]
    files = [
        p
        for f in folders
        for p in f.rglob("*")
        if p.suffix in (".py", ".mlir", ".pto") and p != Path(__file__)
    ]
    text = "\n".join(p.read_text(errors="ignore") for p in files)
    names = {name.rstrip(".") for name in re.findall(r"pto\.[\w.]+", text)}
    return names | {f"pto.{name}" for name in re.findall(r'"([a-z][\w.]*)"', text)}


# Ops whose tests spell their names from parts (`f"pto.trowexpand{name}"`).
SPELLED_FROM_PARTS = {
    *(
        f"pto.{axis}expand{kind}"
        for axis in ("tcol", "trow")
        for kind in ("add", "sub", "mul", "div", "max", "min", "expdif")
    ),
    *(f"pto.tpart{k}" for k in ("mul", "max", "min")),
    "pto.tgemv.acc",
    "pto.tgemv.bias",
}


def test_inventory_every_registered_op_is_named_by_a_test_kernel() -> None:
    named = _named_in_tests() | SPELLED_FROM_PARTS
    unnamed = {op.name for op in PTO.operations} - named
    assert not unnamed, f"ops no test kernel names: {sorted(unnamed)}"


INTEGER_KINDS = ("int", "i64", "i32", "i16", "i8", "i1", "index")


def _typed_operand(name: str) -> tuple[int, str, str] | None:
    """The first operand whose kind is one type (position, name, kind)."""
    for position, item in enumerate(ROWS[name][1].split()):
        operand, kind = item.split(":", 1)
        if kind.startswith(("*", "?")):
            return None  # generic forms of segmented ops need their sizes: left out
        if kind != "any":
            return position, operand, kind
    return None


ERROR_CASES = sorted(name for name in TABLE_CASES if _typed_operand(name) is not None)


def _generic_with_wrong_operand(name: str) -> tuple[str, str]:
    module, _ = parse_mlir(CASES[name], f"{name}.mlir")
    function = module.body.block.first_op
    op = function.body.block.first_op  # type: ignore[union-attr]
    position, operand, kind = _typed_operand(name)  # type: ignore[misc]
    wrong = "f32" if kind in INTEGER_KINDS else "i32"
    args = ", ".join(
        f"%a{i}: {wrong if i == position else v.type}" for i, v in enumerate(op.operands)
    )
    types = ", ".join(wrong if i == position else str(v.type) for i, v in enumerate(op.operands))
    results = ", ".join(str(r.type) for r in op.results)
    uses = ", ".join(f"%a{i}" for i in range(len(op.operands)))
    lhs = ", ".join(f"%r{i}" for i in range(len(op.results)))
    lhs = f"{lhs} = " if lhs else ""
    stream = io.StringIO()
    printer = Printer(stream=stream)
    if op.properties:
        printer.print_string(" <")
        printer.print_attr_dict(op.properties)
        printer.print_string(">")
    props = stream.getvalue()
    text = (
        f"func.func @k({args}) {{\n"
        f'  {lhs}"{name}"({uses}){props} : ({types}) -> ({results})\n'
        "  return\n}\n"
    )
    return text, operand


@pytest.mark.parametrize("name", ERROR_CASES)
def test_operand_of_the_wrong_kind_is_a_located_error(name: str) -> None:
    text, operand = _generic_with_wrong_operand(name)
    module, source_map = parse_mlir(text, "bad.mlir")
    with pytest.raises(UserError) as caught:
        verify_module(module, source_map)
    location = caught.value.location
    assert location is not None and (location.line, location.column) == (2, 3)
    assert f"'{name}' op operand '{operand}'" in caught.value.message
