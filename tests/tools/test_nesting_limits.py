"""Deeply nested input is a located "nested too deeply" error, never a RecursionError.

Each case is far past Python's recursion limit (5000 brackets, a 3000-level
expression); the message names the limit and the position of the first
bracket or operator past it, counted by hand from the generated text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_emit.tools.opt import main as opt_main
from xla_emit.tools.run import main as run_main

DEEP = 5000


def first_line_of_error(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.splitlines()[0]


def test_mlir_brackets_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "parens.mlir"
    prefix = "func.func @f() {\n  %0 = arith.constant "
    path.write_text(prefix + "(" * DEEP + "1" + ")" * DEEP + " : i32\n  return\n}\n")
    assert opt_main([str(path)]) == 1
    # `{` of the function is level 1, so the 64th `(` is level 65.
    column = len("  %0 = arith.constant ") + 64
    assert first_line_of_error(capsys) == (
        f"{path}:2:{column}: error: nested too deeply (limit 64 levels of brackets and regions)"
    )


def test_mlir_regions_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "regions.mlir"
    body = "scf.execute_region {\n" * 100 + "scf.yield\n}\n" * 100
    path.write_text("func.func @f() {\n" + body + "return\n}\n")
    assert run_main([str(path)]) == 1
    # The function's `{` and 63 regions fit; the 64th region opens on line 65.
    assert first_line_of_error(capsys) == (
        f"{path}:65:20: error: nested too deeply (limit 64 levels of brackets and regions)"
    )


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    from xla_emit.ir.parse import check_nesting

    check_nesting('"' + "(" * DEEP + '" // ' + "[" * DEEP + "\n" + "()" * DEEP, "f.mlir")
    # Comparisons and arrows hold no brackets: a file of many of them is not "deep".
    check_nesting("affine_set<(d0) : (d0 >= 0, 4 - d0 <= 8)> -> " * DEEP, "f.mlir")


def indexing_map_module(expression: str) -> str:
    return (
        f'#m = #xla.indexing_map<"(d0) -> ({expression}), domain: d0 in [0, 3]">\n'
        "func.func @f() {\n  return\n}\n"
    )


@pytest.mark.parametrize(
    ("expression", "offset_of_problem"),
    [
        # The result is level 1, so the 100th `(` opens level 101; the error points
        # at the token after it (the expression starts at offset 9 of the map text).
        ("(" * DEEP + "d0" + ")" * DEEP, 9 + 100),
        # `(...((d0) * 2 + 1) * 2 ...`: 3000 levels, every operator adds one.
        (
            "(" * 1500 + "d0" + "".join(") * 2 + 1" if i % 2 else ") * 2" for i in range(1500)),
            9 + 100,
        ),
        # A flat chain of 3000 floordivs is a 3001-level tree; the 100th operator is too many.
        ("d0" + " floordiv 2" * 3000, 9 + 2 + 99 * 11 + 1),
        # The 100th `-` opens level 101.
        ("-" * 3000 + "d0", 9 + 99),
    ],
    ids=["parentheses", "mixed", "floordiv_chain", "negations"],
)
def test_indexing_map_expression_past_the_limit(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    expression: str,
    offset_of_problem: int,
) -> None:
    path = tmp_path / "map.mlir"
    path.write_text(indexing_map_module(expression))
    assert opt_main([str(path)]) == 1
    line = first_line_of_error(capsys)
    assert line.endswith(
        "error: invalid indexing map: expression nested too deeply (limit 100 levels)"
    )
    # Column 25 is the map text's first character (after `#m = #xla.indexing_map<"`).
    assert line.startswith(f"{path}:1:{25 + offset_of_problem}:")


def test_indexing_map_at_the_limit_still_parses() -> None:
    from xla_emit.indexing import parse_indexing_map

    text = "(d0) -> (" + "(" * 99 + "d0 floordiv 2" + ")" * 99 + "), domain: d0 in [0, 7]"
    assert str(parse_indexing_map(text)) == "(d0) -> (d0 floordiv 2), domain: d0 in [0, 7]"


def test_hlo_rank_past_numpy_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rank.hlo"
    dims = ",".join(["1"] * 3000)
    literal = "{" * 3000 + "1" + "}" * 3000
    path.write_text(f"HloModule m\nENTRY main {{\n  ROOT c = f32[{dims}] constant({literal})\n}}\n")
    assert run_main([str(path), "--reference"]) == 1
    # The first dimension is at column 16; the 65th at 16 + 2 * 64.
    assert first_line_of_error(capsys) == (
        f"{path}:3:{16 + 2 * 64}: error: shape has more than 64 dimensions"
    )


def test_hlo_tuple_shape_past_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tuple.hlo"
    path.write_text(
        "HloModule m\nENTRY main {\n  ROOT p = "
        + "(" * DEEP
        + "f32[]"
        + ")" * DEEP
        + " parameter(0)\n}\n"
    )
    assert run_main([str(path)]) == 1
    assert first_line_of_error(capsys) == (
        f"{path}:3:{12 + 64}: error: tuple shape nested too deeply (more than 64 levels)"
    )
