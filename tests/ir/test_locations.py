"""MLIR's locations: every form parses, prints back as MLIR prints it, survives passes,
and locates errors at the op's own location first.

The expected texts follow MLIR's location printer (a range on one line prints
`to :EC`, a range that starts and ends at one point prints as that point) and,
for `--mlir-print-debuginfo`, the module JAX 0.4 printed for
`jax.jit(lambda x: x + x)` with its location aliases (numbered by MLIR).
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module
from xla_emit.ir.locations import DebugInfoPrinter, location_text
from xla_emit.runtime.pipeline import apply_pipeline


def first_op(text: str, name: str = "arith.addi") -> Operation:
    module, _ = parse_mlir(text, "t.mlir")
    return next(op for op in module.walk() if op.name == name)


def with_location(location: str) -> str:
    return (
        "func.func @f(%a: i32) -> i32 {\n"
        f"  %b = arith.addi %a, %a : i32 loc({location})\n"
        "  func.return %b : i32\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        ("unknown", "unknown"),
        ('"k.py":12:8', '"k.py":12:8'),
        ('"k.py":12:8 to :30', '"k.py":12:8 to :30'),
        ('"k.py":12:8 to 12:30', '"k.py":12:8 to :30'),
        ('"k.py":12:8 to 14:2', '"k.py":12:8 to 14:2'),
        ('"k.py":12:8 to 12:8', '"k.py":12:8'),
        ('"name"', '"name"'),
        ('"name"("k.py":1:2)', '"name"("k.py":1:2)'),
        ('callsite("f"("a.py":1:2) at "b.py":3:4)', 'callsite("f"("a.py":1:2) at "b.py":3:4)'),
        ('fused["a.py":1:2, "b.py":3:4 to :9]', 'fused["a.py":1:2, "b.py":3:4 to :9]'),
        ('fused<"CSE">["a.py":1:2]', 'fused<"CSE">["a.py":1:2]'),
    ],
)
def test_every_location_form_parses_and_prints_back(written: str, printed: str) -> None:
    op = first_op(with_location(written))
    assert location_text(op.location) == f"loc({printed})"


def test_aliases_before_and_after_their_use_are_the_same_location() -> None:
    before = '#loc3 = loc("k.py":4:2 to :9)\n' + with_location("#loc3")
    after = with_location("#loc5") + '#loc5 = loc("n"(#loc3))\n#loc3 = loc("k.py":4:2 to :9)\n'
    assert location_text(first_op(before).location) == 'loc("k.py":4:2 to :9)'
    assert location_text(first_op(after).location) == 'loc("n"("k.py":4:2 to :9))'


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (with_location("#loc9"), 2, 36, "undefined symbol alias '#loc9'"),
        (with_location("#loc1") + "#loc1 = loc(#loc1)\n", 5, 13, "refers to itself"),
        (
            "#map = affine_map<(d0) -> (d0)>\n" + with_location("#map"),
            3,
            36,
            "'#map' is not a location",
        ),
        (with_location('"k.py":12:8 to'), 2, 50, "Expected ':' after 'to' in a file location"),
        (with_location("callsite(unknown)"), 2, 52, "Expected 'at' in a callsite location"),
        (with_location("bogus"), 2, 36, "expected location"),
    ],
)
def test_bad_locations_are_located_errors(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_mlir(text, "t.mlir")
    location = caught.value.location
    assert location is not None
    assert (location.line, location.column) == (line, column)
    assert message in caught.value.message


# What JAX 0.4 printed for `jax.jit(lambda x: x + x)` with debug info, with
# `stablehlo.add` spelled `arith.addf` and the module's attributes left out.
JAX_MODULE = """\
#loc1 = loc("x")
builtin.module @jit_plus {
  func.func public @main(%arg0: f32 loc("x")) -> f32 {
    %0 = arith.addf %arg0, %arg0 : f32 loc(#loc7)
    func.return %0 : f32 loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("<string>":11:0)
#loc3 = loc("<string>":18:0)
#loc4 = loc("plus"(#loc2))
#loc5 = loc("<module>"(#loc3))
#loc6 = loc(callsite(#loc4 at #loc5))
#loc7 = loc("jit(plus)/jit(main)/add"(#loc6))
"""


def print_with_debuginfo(module: ModuleOp) -> str:
    out = StringIO()
    DebugInfoPrinter(stream=out, print_debuginfo=True).print_module_with_aliases(module)
    return out.getvalue()


def test_debuginfo_prints_aliases_as_mlir_numbers_them() -> None:
    module, _ = parse_mlir(JAX_MODULE, "jit_plus.mlir")
    assert print_with_debuginfo(module) == JAX_MODULE


def test_ops_without_a_location_are_located_where_they_are_written() -> None:
    module, _ = parse_mlir(with_location('"k.py":3:1'), "t.mlir")
    # `arith.addi` has its own; `func.return`, the function and its argument are located
    # in t.mlir, and the implicit module at line 0, as mlir-opt locates what it parses.
    assert print_with_debuginfo(module) == (
        '#loc2 = loc("t.mlir":1:14)\n'
        "builtin.module {\n"
        '  func.func @f(%a: i32 loc("t.mlir":1:14)) -> i32 {\n'
        "    %b = arith.addi %a, %a : i32 loc(#loc3)\n"
        "    func.return %b : i32 loc(#loc4)\n"
        "  } loc(#loc1)\n"
        "} loc(#loc)\n"
        '#loc = loc("t.mlir":0:0)\n'
        '#loc1 = loc("t.mlir":1:1)\n'
        '#loc3 = loc("k.py":3:1)\n'
        '#loc4 = loc("t.mlir":3:3)\n'
    )


def test_an_op_error_names_the_python_line_first_then_the_mlir_text(tmp_path: Path) -> None:
    kernel = tmp_path / "kernel.py"
    kernel.write_text("def kernel(x_ref, o_ref):\n    o_ref[...] = x_ref[...] + 1\n")
    text = (
        "func.func @f(%a: i32) -> i32 {\n"
        "  %b = arith.addi %a, %a : i32\n"
        "  func.return %b, %b : i32, i32 loc(#loc1)\n"
        "}\n"
        f'#loc1 = loc("{kernel}":2:18)\n'
    )
    with pytest.raises(UserError) as caught:
        module, source_map = parse_mlir(text, "k.mlir")
        verify_module(module, source_map)
    error = caught.value
    lines = error.format().splitlines()
    assert lines[0].startswith(f"{kernel}:2:18: error: 'func.return' op")
    assert lines[1:3] == ["    o_ref[...] = x_ref[...] + 1", " " * 17 + "^"]
    assert lines[3:6] == [
        "k.mlir:3:3: note: in the MLIR input",
        "  func.return %b, %b : i32, i32 loc(#loc1)",
        "  ^",
    ]


class _AddToSub(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, arith.SubiOp(op.lhs, op.rhs))


def test_a_rewrite_gives_new_ops_the_location_of_the_op_it_rewrites() -> None:
    module, _ = parse_mlir(with_location('"k.py":7:3'), "t.mlir")
    PatternRewriteWalker(_AddToSub()).rewrite_module(module)
    sub = next(op for op in module.walk() if isinstance(op, arith.SubiOp))
    assert location_text(sub.location) == 'loc("k.py":7:3)'


def test_merged_constants_fuse_their_locations_as_mlirs_folder_does() -> None:
    text = (
        "func.func @f(%a: index) -> (index, index) {\n"
        '  %c4 = arith.constant 4 : index loc("k.py":1:1)\n'
        "  %m = arith.muli %a, %c4 : index\n"
        '  %c4b = arith.constant 4 : index loc("k.py":3:1)\n'
        '  %c4c = arith.constant 4 : index loc("k.py":3:1)\n'
        "  %n = arith.addi %m, %c4b : index\n"
        "  %o = arith.addi %n, %c4c : index\n"
        "  func.return %m, %o : index, index\n"
        "}\n"
    )
    module, source_map = parse_mlir(text, "t.mlir")
    apply_pipeline(module, "xla-simplify-arith", Context(), source_map)
    constants = [op for op in module.walk() if isinstance(op, arith.ConstantOp)]
    assert len(constants) == 1
    assert location_text(constants[0].location) == 'loc(fused<"CSE">["k.py":1:1, "k.py":3:1])'


def test_inlining_keeps_the_callees_locations() -> None:
    text = (
        "func.func private @g(%a: i32) -> i32 {\n"
        '  %b = arith.addi %a, %a : i32 loc("k.py":9:5)\n'
        "  func.return %b : i32\n"
        "}\n"
        "func.func @f(%a: i32) -> i32 {\n"
        "  %b = func.call @g(%a) : (i32) -> i32\n"
        "  func.return %b : i32\n"
        "}\n"
    )
    module, source_map = parse_mlir(text, "t.mlir")
    apply_pipeline(module, "inline", Context(), source_map)
    caller = next(op for op in module.walk() if op.name == "func.func" and "@f" in str(op)[:40])
    add = next(op for op in caller.walk() if isinstance(op, arith.AddiOp))
    assert location_text(add.location) == 'loc("k.py":9:5)'
