"""PTO-AS programs: translation to MLIR, parsing and execution."""

import re

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module
from xla_emit.pto.assembly import pto_as_to_mlir

SEED_MANUAL = """# The seed's manual-mode transpose.
.arg %src : !pto.tile<16x16xf32>
.arg %out : !pto.partition_tensor_view<16x16xf32>
pto.tassign %src, @tile(0x1000)
%dst = ttrans %src : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>;
tstore %dst, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()  // to GM
"""


def test_seed_program_runs_as_a_transpose() -> None:
    module, source_map = parse_mlir(pto_as_to_mlir(SEED_MANUAL, "seed.pto"), "seed.pto")
    verify_module(module, source_map)
    src = np.arange(256, dtype=np.float32).reshape(16, 16)
    out = np.zeros((16, 16), np.float32)
    PTOExecutor(module).run("main", [Tile(src.copy(), 16, 16), out])
    assert np.array_equal(out, src.T)


def test_instructions_keep_their_lines_and_columns() -> None:
    text = (
        ".arg %a : !pto.tile<8x8xf32>\n\n"
        "  %b = texp %a : !pto.tile<8x8xf32> -> !pto.tile<8x8xi32>\n"
    )
    translated = pto_as_to_mlir(text, "bad.pto")
    module, source_map = parse_mlir(translated, "bad.pto")
    with pytest.raises(UserError) as error:
        verify_module(module, source_map)
    assert str(error.value).startswith(
        "bad.pto:3:3: error: 'pto.texp' op needs a float element type, but got i32"
    )


def test_constants_become_arith_constants() -> None:
    text = (
        ".arg %a : !pto.tile<8x8xf32>\n.arg %o : !pto.partition_tensor_view<8x8xf32>\n"
        ".const %s = 2.5 : f32\n%b = tadds %a, %s : (!pto.tile<8x8xf32>, f32) -> "
        "!pto.tile<8x8xf32>\n"
        "tstore %b, %o : (!pto.tile<8x8xf32>, !pto.partition_tensor_view<8x8xf32>) -> ()\n"
    )
    translated = pto_as_to_mlir(text)
    assert translated.split("\n")[2] == "%s = arith.constant 2.5 : f32"
    module, _ = parse_mlir(translated)
    out = np.zeros((8, 8), np.float32)
    PTOExecutor(module).run("main", [np.ones((8, 8), np.float32), out])
    assert np.array_equal(out, np.full((8, 8), 3.5, np.float32))


def test_pipe_attributes_are_not_comments() -> None:
    translated = pto_as_to_mlir("barrier #pto.pipe<PIPE_V>  # drain the vector pipe\n")
    assert "pto.barrier #pto.pipe<PIPE_V>" in translated
    assert "drain" not in translated


def test_arg_after_instructions_is_an_error() -> None:
    text = ".const %c = 1 : index\n  .arg %a : !pto.tile<8x8xf32>\n"
    with pytest.raises(UserError) as error:
        pto_as_to_mlir(text, "late.pto")
    assert (
        error.value.format() == "late.pto:2:3: error: .arg must come before the instructions\n"
        "  .arg %a : !pto.tile<8x8xf32>\n"
        "  ^"
    )


def test_unknown_statement_is_an_error() -> None:
    with pytest.raises(
        UserError, match=re.escape("expected an instruction, .arg or .const, but got '42 = x'")
    ):
        pto_as_to_mlir("42 = x\n", "junk.pto")


def test_mlir_text_passes_through() -> None:
    text = 'module attributes {pto.target_arch = "a5"} {\n}\n'
    assert pto_as_to_mlir(text) == text
