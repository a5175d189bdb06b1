"""PTOAS main's textract rules per target (`xla_emit/pto/textract_rules.py`), on our own
small kernels run through `pto-verify-target`: each kernel verifies, and the same kernel
with one thing changed fails with the message of PTOAS's TExtractOp verifier
(`lib/PTO/IR/PTO.cpp`), worked out by hand from its branches."""

from __future__ import annotations

from pathlib import Path

import pytest
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.pto.pto_verify_target import verify_target

from xla_emit.diagnostics import UserError
from xla_emit.ir import op_error, parse_mlir, verify_module
from xla_emit.tools.opt import main as opt_main

NZ = "blayout=col_major, slayout=row_major"
ZN = "blayout=row_major, slayout=col_major"


def tile(loc: str, shape: str, layout: str = "", fractal: int = 0) -> str:
    extra = (f", {layout}" if layout else "") + (f", fractal={fractal}" if fractal else "")
    return f"!pto.tile_buf<{loc}, {shape}{extra}>"


def kernel(
    target: str, src: str, dst: str, fp: str = "", attrs: str = "", quant: bool = False
) -> str:
    """`@k` extracting `src`'s top-left window into `dst` (through `fp`'s fixpipe tile,
    or with a pre-quantization scalar)."""
    fp_in = f", %f: {fp}" if fp else ""
    fp_use = f" fp %f : {fp}" if fp else ""
    scalar = ", %q" if quant else ""
    scalar_type = ", i64" if quant else ""
    return f"""module attributes {{pto.target_arch = "{target}"}} {{
  func.func @k(%s: {src}, %d: {dst}{fp_in}, %q: i64) {{
    %c0 = arith.constant 0 : index
    pto.textract ins(%s, %c0, %c0{scalar} : {src}, index, index{scalar_type}{fp_use}) \
outs(%d : {dst}){attrs}
    return
  }}
}}
"""


def target_error(text: str) -> str:
    """'' where the kernel passes `pto-verify-target`, else its located first error."""
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    try:
        verify_target(module, None)
    except OpError as error:
        return op_error(error.op, error.message, source_map).format().splitlines()[0]
    return ""


A5_ACC = tile("acc", "16x16xf32", NZ, 1024)
A5_VEC = tile("vec", "16x16xf16")
A5_SCALING = tile("scaling", "1x16xf16")

# (target, valid kernel, the kernel with one change, PTOAS's message for the change)
CASES = [
    (  # only an acc source converts its element type
        "a5",
        (tile("vec", "16x32xf16"), tile("vec", "16x16xf16")),
        (tile("vec", "16x32xf16"), tile("vec", "16x16xf32")),
        "expects src and dst to have the same element type",
    ),
    (  # A5 vec -> vec moves ND tiles only
        "a5",
        (tile("vec", "16x32xf16"), A5_VEC),
        (tile("vec", "16x32xf16", NZ), A5_VEC),
        "expects A5 vec->vec textract src/dst to use ND layout",
    ),
    (  # A5 has no 64-bit extract
        "a5",
        (tile("vec", "16x32xi8"), tile("vec", "16x16xi8")),
        (tile("vec", "16x32xi64"), tile("vec", "16x16xi64")),
        "expects A5 textract element type to be an fp8/f16/bf16/f32 or int8 family type",
    ),
    (  # the cube bridge feeds L0A/L0B from L1, not from UB
        "a5",
        (tile("mat", "32x32xf16", NZ), tile("left", "16x16xf16", NZ)),
        (tile("vec", "32x32xf16"), tile("left", "16x16xf16", NZ)),
        "expects A5 textract to use a supported src/dst loc pair",
    ),
    (  # an acc tile leaves through the fixpipe, to mat or vec only
        "a5",
        (A5_ACC, tile("vec", "16x16xf16")),
        (A5_ACC, tile("left", "16x16xf16", NZ)),
        "expects A5 textract to use a supported src/dst loc pair",
    ),
    (  # a right dst takes mat's NZ or ZN tiles, not ND ones
        "a5",
        (tile("mat", "32x32xf16", ZN), tile("right", "16x16xf16", ZN)),
        (tile("mat", "32x32xf16"), tile("right", "16x16xf16", ZN)),
        "expects A5 textract src to use a supported mat blayout/slayout combination",
    ),
    (
        "a5",
        (tile("mat", "32x32xf16", NZ), tile("right", "16x16xf16", ZN)),
        (tile("mat", "32x32xf16", NZ), tile("right", "16x16xf16", NZ)),
        "expects A5 right dst to use row_major blayout and col_major slayout",
    ),
    (  # the accumulator is NZ
        "a5",
        (A5_ACC, tile("mat", "16x16xf16", NZ, 512)),
        (tile("acc", "16x16xf32", ZN, 1024), tile("mat", "16x16xf16", NZ, 512)),
        "expects A5 acc-source textract src to use blayout=col_major and slayout=row_major",
    ),
    (  # acc -> vec writes an ND tile
        "a5",
        (A5_ACC, tile("vec", "16x16xbf16")),
        (A5_ACC, tile("vec", "16x16xbf16", NZ)),
        "expects A5 acc->vec textract dst to use ND layout",
    ),
    (  # without quantization an f32 accumulator narrows to a float only
        "a5",
        (A5_ACC, tile("vec", "16x16xf32")),
        (A5_ACC, tile("vec", "16x16xi8")),
        "expects A5 acc textract element types to be (src=f32,dst=f16/bf16/f32)",
    ),
    (  # A2A3 moves acc only to mat, NZ with 512-byte fractals
        "a2a3",
        (tile("acc", "16x16xf32", NZ, 1024), tile("mat", "16x16xf16", NZ, 512)),
        (tile("acc", "16x16xf32", NZ, 1024), tile("vec", "16x16xf16")),
        "expects A2/A3 acc-source textract dst to use loc=mat",
    ),
    (
        "a2a3",
        (tile("acc", "16x16xf32", NZ, 1024), tile("mat", "16x16xf16", NZ, 512)),
        (tile("acc", "16x16xf32", NZ, 1024), tile("mat", "16x16xf16", NZ, 1024)),
        "expects A2/A3 acc-source textract dst fractal size to be 512",
    ),
    (  # A2A3's acc cast only narrows f32 to a 16-bit float
        "a2a3",
        (tile("acc", "16x16xf32", NZ, 1024), tile("mat", "16x16xbf16", NZ, 512)),
        (tile("acc", "16x16xf32", NZ, 1024), tile("mat", "16x16xf32", NZ, 512)),
        "expects A2/A3 acc textract element types to be src=f32, dst=f16/bf16",
    ),
    (
        "a2a3",
        (tile("mat", "32x32xf16", NZ), tile("right", "16x16xf16", ZN)),
        (tile("mat", "32x32xf16", NZ), tile("right", "16x16xf16", NZ)),
        "expects A2/A3 right dst to use row_major blayout and col_major slayout",
    ),
    (  # A2A3 has no fp8
        "a2a3",
        (tile("vec", "16x32xf16"), tile("vec", "16x16xf16")),
        (tile("vec", "16x32xf8E4M3FN"), tile("vec", "16x16xf8E4M3FN")),
        "expects A2/A3 textract element type to be i8/f16/bf16/f32",
    ),
]


@pytest.mark.parametrize(("target", "valid", "invalid", "message"), CASES)
def test_textract_rule(
    target: str, valid: tuple[str, str], invalid: tuple[str, str], message: str
) -> None:
    assert target_error(kernel(target, *valid)) == ""
    error = target_error(kernel(target, *invalid))
    assert error.startswith("k.pto:4:5: error: 'pto.textract' op ")
    assert message in error


def test_a_left_tile_takes_its_targets_box_layout_whatever_it_says() -> None:
    """PTOAS's parser gives a left tile row_major boxes on A2A3 and col_major ones on A5,
    so either spelling of the blayout passes on both targets; the slayout still counts."""
    for target in ("a2a3", "a5"):
        for blayout in ("row_major", "col_major"):
            left = tile("left", "16x16xf16", f"blayout={blayout}, slayout=row_major")
            assert target_error(kernel(target, tile("mat", "32x32xf16", NZ), left)) == ""
    zn_left = tile("left", "16x16xf16", ZN)
    error = target_error(kernel("a5", tile("mat", "32x32xf16", NZ), zn_left))
    assert "expects A5 left dst to use col_major blayout and row_major slayout" in error


def test_fixpipe_forms() -> None:
    """`fp` lives in scaling and quantizes an acc source only; its element pairs are the
    quantized ones (A5: i32 may go to bf16, f32 not to i32)."""
    assert target_error(kernel("a5", A5_ACC, tile("vec", "16x16xi8"), A5_SCALING)) == ""
    i32_acc = tile("acc", "16x16xi32", NZ, 1024)
    assert target_error(kernel("a5", i32_acc, tile("vec", "16x16xbf16"), A5_SCALING)) == ""
    cases = [
        (A5_ACC, tile("vec", "16x16xi8"), tile("vec", "1x16xf16"), "expects fp to use loc=scaling"),
        (A5_VEC, A5_VEC, A5_SCALING, "expects fp form to use loc=acc src"),
        (
            i32_acc,
            tile("mat", "16x16xf32", NZ, 512),
            A5_SCALING,
            "expects A5 acc preQuantScalar textract element types to be (src=f32,dst=i8/fp8/",
        ),
    ]
    for src, dst, fp, message in cases:
        error = target_error(kernel("a5", src, dst, fp))
        assert "'pto.textract_fp' op " in error and message in error


def test_forms_only_an_acc_source_takes() -> None:
    mat, left = tile("mat", "32x32xf16", NZ), tile("left", "16x16xf16", NZ)
    relu = " {reluPreMode = #pto<relu_pre_mode normal_relu>}"
    error = target_error(kernel("a5", mat, left, attrs=relu))
    assert "expects reluPreMode form to use loc=acc src" in error
    # The op verifier rejects a pre-quantization word on a non-acc source before any target
    # pass runs (PTOAS's TExtractOp::verify), with the same message.
    with pytest.raises(UserError, match="expects preQuantScalar form to use loc=acc src"):
        target_error(kernel("a5", mat, left, quant=True))
    mode = " {accToVecMode = #pto.acc_to_vec_mode<dual_mode_split_m>}"
    assert target_error(kernel("a5", A5_ACC, tile("vec", "16x16xf32"), attrs=mode)) == ""
    error = target_error(kernel("a5", A5_ACC, tile("mat", "16x16xf16", NZ, 512), attrs=mode))
    assert "expects accToVecMode only on A5 acc->vec textract forms" in error
    error = target_error(kernel("a2a3", A5_ACC, tile("mat", "16x16xf16", NZ, 512), attrs=mode))
    assert "expects accToVecMode only on A5 acc->vec textract forms" in error


def test_the_cli_gives_one_located_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`xla-emit-opt -p pto-verify-target` on a rejected textract: exit 1, one located
    error line, no traceback."""
    path = tmp_path / "k.pto"
    path.write_text(kernel("a5", tile("vec", "32x32xf16"), tile("left", "16x16xf16", NZ)))
    assert opt_main([str(path), "-p", "pto-verify-target"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    where = f"{path}:4:5: error: [pto-verify-target] 'pto.textract' op "
    assert err.startswith(where + "expects A5 textract to use a supported src/dst loc pair")
