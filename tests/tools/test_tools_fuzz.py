"""Hostile input never crashes a tool: random bytes, binary files, deep nesting, huge shapes.

Every parser (HLO text, MLIR, indexing maps, layouts) and every tool
(xla-emit-opt, xla-emit-run, xla-emit-layout, the PTO runner) is fed each
input in process. The only acceptable outcomes are success and a `UserError`
(exit status 1 with a located or plain `error:` line); an uncaught exception
fails the test with its traceback. `test_opt_fuzz.py` mutates valid programs;
this file starts from garbage and extremes.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xla_emit.diagnostics import UserError
from xla_emit.hlo import parse_hlo_module
from xla_emit.indexing import parse_indexing_map
from xla_emit.ir import parse_mlir
from xla_emit.layout import parse_shape
from xla_emit.layout.shape import LayoutSyntaxError
from xla_emit.tools.layout import main as layout_main
from xla_emit.tools.opt import main as opt_main
from xla_emit.tools.run import main as run_main
from xla_emit.tools.run_pto import main as run_pto_main

DEEP = 5000


def _binary() -> bytes:
    generator = random.Random(1234)
    return bytes(generator.randrange(256) for _ in range(2048))


# Each a whole program text (bytes: written as they are).
HOSTILE_FILES: dict[str, bytes] = {
    "empty": b"",
    "binary": _binary(),
    "nul_bytes": b"\x00" * 64,
    "zip_magic": b"PK\x03\x04" + b"\x00" * 60,
    "latin1": "func.func @caf\xe9() {}".encode("latin-1"),
    "parentheses": b"(" * DEEP + b")" * DEEP,
    "braces": b"{" * DEEP + b"}" * DEEP,
    "angles": b"!t = " + b"tensor<" * DEEP + b"f32" + b">" * DEEP,
    "hlo_tuple": b"HloModule m\nENTRY e {\n  ROOT p = "
    + b"(" * DEEP
    + b"f32[]"
    + b")" * DEEP
    + b" parameter(0)\n}\n",
    "hlo_huge": b"HloModule m\nENTRY e {\n  ROOT p = f32[1000000,1000000] parameter(0)\n}\n",
    "hlo_overflow": b"HloModule m\nENTRY e {\n  ROOT p = f32[99999999999999999999,9] "
    b"parameter(0)\n}\n",
    "hlo_rank": b"HloModule m\nENTRY e {\n  ROOT p = f32[" + b"1," * 3000 + b"1] parameter(0)\n}\n",
    "mlir_huge": b"func.func @main(%a: tensor<1000000x1000000xf32>) -> tensor<1000000x1000000xf32> "
    b"{\n  return %a : tensor<1000000x1000000xf32>\n}\n",
    "mlir_dynamic": b"func.func @main(%a: tensor<?x?xf32>) {\n  return\n}\n",
    "mlir_map": b'#m = #xla.indexing_map<"(d0) -> ('
    + b"(" * DEEP
    + b"d0"
    + b")" * DEEP
    + b'), domain: d0 in [0, 3]">\nfunc.func @f() {\n  return\n}\n',
    "unterminated_string": b'func.func @f() attributes {a = "' + b"x" * 10000 + b"\n",
}
HOSTILE_SHAPES = [
    "",
    "f32[" + "1," * 3000 + "1]",
    "f32[1000000000,1000000000]{1,0:T(8,128)}",
    "f32[99999999999999999999]",
    "f32[4,4]{1,0:T(" + "2," * 3000 + "2)}",
    "f32[4,4]{1,0" + ":T(2,2)" * 3000 + "}",
    "(" * DEEP,
    "\x00\xff",
]
HOSTILE_MAPS = [
    "",
    "(d0) -> (" + "(" * DEEP + "d0" + ")" * DEEP + "), domain: d0 in [0, 3]",
    "(d0) -> (d0" + " floordiv 2" * 3000 + "), domain: d0 in [0, 3]",
    "(d0) -> (d0), domain: d0 in [0, 99999999999999999999999]",
    "(" + ", ".join(f"d{i}" for i in range(3000)) + ") -> ()",
    "\x00\xff->",
]


def file_tools(tmp_path: Path) -> dict[str, Callable[[Path], int]]:
    out = str(tmp_path / "out.npz")
    return {
        "opt_mlir": lambda path: opt_main([str(path.with_suffix(".mlir"))]),
        "opt_hlo": lambda path: opt_main([str(path.with_suffix(".hlo"))]),
        "run_mlir": lambda path: run_main([str(path.with_suffix(".mlir")), "-o", out]),
        "run_hlo": lambda path: run_main([str(path.with_suffix(".hlo")), "-o", out]),
        "run_reference": lambda path: run_main([str(path.with_suffix(".hlo")), "--reference"]),
        "run_pto": lambda path: run_pto_main(
            [str(path.with_suffix(".pto")), "--random-inputs", "0"]
        ),
        "run_inputs": lambda path: run_main(
            ["examples/tpu/misaligned.mlir", "--inputs", str(path.with_suffix(".npz"))]
        ),
    }


def assert_one_line_error_or_success(status: int, stderr: str, tool: str) -> None:
    assert status in (0, 1), tool
    assert "Traceback" not in stderr, tool
    if status == 1:
        assert "error: " in stderr.splitlines()[0], tool


def feed_every_tool(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    stem = tmp_path / "input"
    for suffix in (".mlir", ".hlo", ".pto", ".npz"):
        stem.with_suffix(suffix).write_bytes(data)
    for name, tool in file_tools(tmp_path).items():
        status = tool(stem)
        err = capsys.readouterr().err
        assert_one_line_error_or_success(status, err, name)
    text = data.decode("utf-8", errors="replace")
    for parse in (parse_hlo_module, parse_mlir):
        with contextlib.suppress(UserError):
            parse(text, "input")


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    feed_every_tool(tmp_path, HOSTILE_FILES[name], capsys)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(min_size=1, max_size=512))
def test_random_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    feed_every_tool(tmp_path, data, capsys)


@pytest.mark.parametrize("shape", HOSTILE_SHAPES, ids=range(len(HOSTILE_SHAPES)))
def test_hostile_layout_shapes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    # The layout library reports its own syntax errors; the tool turns them into UserErrors.
    with contextlib.suppress(UserError, LayoutSyntaxError):
        parse_shape(shape)
    for flags in ([], ["--json", "--index", "0,0"], ["--svg", str(tmp_path / "out.svg")]):
        status = layout_main([shape, *flags])
        assert_one_line_error_or_success(status, capsys.readouterr().err, "xla-emit-layout")


@pytest.mark.parametrize("text", HOSTILE_MAPS, ids=range(len(HOSTILE_MAPS)))
def test_hostile_indexing_maps(text: str) -> None:
    with contextlib.suppress(UserError):
        parse_indexing_map(text)


@settings(max_examples=30, deadline=None)
@given(text=st.text(alphabet="d0s1()[]{},:+-*/ floordivmodin->domain", max_size=200))
def test_random_indexing_map_text(text: str) -> None:
    with contextlib.suppress(UserError):
        parse_indexing_map(text)
