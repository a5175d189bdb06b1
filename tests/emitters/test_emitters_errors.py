"""Errors in the HLO the emitters are given: located `UserError`s, and the CLI's report."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.emitters import emit_hlo_module
from xla_emit.tools.opt import main

INTERNAL_TUPLE = """HloModule m

fused {
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  t = (f32[8], f32[8]) tuple(p0, p1)
  ROOT g = f32[8] get-tuple-element(t), index=1
}

ENTRY main {
  a = f32[8] parameter(0)
  b = f32[8] parameter(1)
  ROOT f = f32[8] fusion(a, b), kind=kLoop, calls=fused
}
"""

REVERSED_WINDOW = """HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

fused {
  p0 = f32[8] parameter(0)
  z = f32[] constant(0)
  ROOT p = f32[8] reduce-window(p0, z), window={size=1 rhs_reversal=1}, to_apply=add
}

ENTRY main {
  a = f32[8] parameter(0)
  ROOT f = f32[8] fusion(a), kind=kLoop, calls=fused
}
"""

SCATTER_OF_COMPUTED_OPERAND = """HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

fused {
  p0 = f32[5] parameter(0)
  i = s32[2,1] parameter(1)
  u = f32[2] parameter(2)
  n = f32[5] negate(p0)
  ROOT s = f32[5] scatter(n, i, u), update_window_dims={}, inserted_window_dims={0}, \
scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add
}

ENTRY main {
  a = f32[5] parameter(0)
  i = s32[2,1] parameter(1)
  u = f32[2] parameter(2)
  ROOT f = f32[5] fusion(a, i, u), kind=kInput, calls=fused
}
"""

NO_FUSION = """HloModule plain

ENTRY main {
  a = f32[8] parameter(0)
  ROOT n = f32[8] negate(a)
}
"""


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        # Located at the instruction's name.
        # Tuples inside a fusion are not supported (only a tuple root is).
        (INTERNAL_TUPLE, 6, 3, "Unsupported: tuple 't'"),
        (
            REVERSED_WINDOW,
            12,
            8,
            "Unsupported: reduce-window 'p' (reduce-window with window reversal)",
        ),
        (
            SCATTER_OF_COMPUTED_OPERAND,
            14,
            8,
            "Unsupported: scatter 's' whose operand is computed in the fusion "
            "(XLA updates a parameter's buffer in place)",
        ),
    ],
)
def test_unsupported_ops_are_located(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(UserError) as caught:
        emit_hlo_module(text, "f.hlo")
    error = caught.value
    assert error.message == message
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.column) == (
        "f.hlo",
        line,
        column,
    )


def test_module_without_fusions() -> None:
    with pytest.raises(UserError, match="module 'plain' has no fusion to emit"):
        emit_hlo_module(NO_FUSION, "plain.hlo")


def test_cli_reports_unsupported_op_with_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.hlo"
    path.write_text(REVERSED_WINDOW)
    assert main([str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0] == (
        f"{path}:12:8: error: Unsupported: reduce-window 'p' (reduce-window with window reversal)"
    )
    assert lines[1].startswith("  ROOT p = f32[8] reduce-window(p0, z)")
    assert lines[2] == "       ^"
    assert "Traceback" not in captured.err


def test_cli_reports_hlo_syntax_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "syntax.hlo"
    path.write_text("HloModule m\n\nENTRY main {\n  a = f32[8] parameter(0\n}\n")
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:")
    assert ": error: " in err.splitlines()[0]
    assert "Traceback" not in err


def test_cli_emits_both_spellings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.hlo"
    path.write_text(REVERSED_WINDOW.replace(" rhs_reversal=1", ""))
    assert main([str(path)]) == 0
    seed_spelling = capsys.readouterr().out
    assert "xla_gpu.loop" in seed_spelling and "xla.loop" not in seed_spelling
    assert main([str(path), "--emit=xla"]) == 0
    today = capsys.readouterr().out
    assert "xla.loop" in today and "xla.pure_call" in today and "xla_gpu." not in today


MIXED_OUTPUT_SHAPES = """HloModule m

fused {
  p0 = f32[4,5] parameter(0)
  n = f32[4,5] negate(p0)
  r = f32[20] reshape(n)
  ROOT t = (f32[4,5], f32[20]) tuple(n, r)
}

ENTRY main {
  a = f32[4,5] parameter(0)
  ROOT f = (f32[4,5], f32[20]) fusion(a), kind=kLoop, calls=fused
}
"""


def test_multi_output_loop_fusion_needs_one_element_count() -> None:
    # Outputs of one element count in other shapes run (test_emitters_multi_output_shapes);
    # a slice beside its operand would need two loops.
    text = MIXED_OUTPUT_SHAPES.replace(
        "r = f32[20] reshape(n)", "r = f32[1,5] slice(p0), slice={[0:1],[0:5]}"
    )
    text = text.replace("f32[20]", "f32[1,5]")
    with pytest.raises(UserError) as caught:
        emit_hlo_module(text, "mixed.hlo")
    error = caught.value
    assert error.message == (
        "Unsupported: multi-output loop fusion with outputs of shapes f32[4,5] and f32[1,5]"
    )
    assert error.location is not None and error.location.line == 6


def test_multi_output_loop_fusion_of_one_element_count_runs() -> None:
    from xla_emit import api

    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    negated, flat = api.run_hlo(MIXED_OUTPUT_SHAPES, [x])
    np.testing.assert_array_equal(negated, -x)
    np.testing.assert_array_equal(flat, -x.reshape(20))
