"""tools/run_ptoas_samples.py on a checkout-shaped folder of our own kernels, placed at
the paths of PTOAS samples whose goldens `tools/ptoas_goldens.py` has: a kernel that
computes what its golden says matches, one that computes something else differs, one
the executor cannot run is an error, and the summary counts them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import run_ptoas_samples

TILE = "!pto.tile_buf<vec, 32x32xf32>"
VIEW = "!pto.tensor_view<?x?xf32>"
PART = "!pto.partition_tensor_view<32x32xf32>"


def kernel(params: int, body: str) -> str:
    """A kernel over `params` 32x32 f32 buffers: %t0.. loaded from all but the last, `body`
    computing %r, stored into the last."""
    lines = ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index"]
    lines.append("%c32 = arith.constant 32 : index")
    for i in range(params):
        lines.append(
            f"%v{i} = pto.make_tensor_view %arg{i}, shape = [%c32, %c32], "
            f"strides = [%c32, %c1] : {VIEW}"
        )
        lines.append(
            f"%p{i} = pto.partition_view %v{i}, offsets = [%c0, %c0], sizes = [%c32, %c32] "
            f": {VIEW} -> {PART}"
        )
        lines.append(f"%t{i} = pto.alloc_tile : {TILE}")
    for i in range(params - 1):
        lines.append(f"pto.tload ins(%p{i} : {PART}) outs(%t{i} : {TILE})")
    lines.append(body)
    last = params - 1
    lines.append(f"pto.tstore ins(%t{last} : {TILE}) outs(%p{last} : {PART})")
    args = ", ".join(f"%arg{i}: !pto.ptr<f32>" for i in range(params))
    text = "\n    ".join(lines)
    return f"module {{\n  func.func @k({args}) {{\n    {text}\n    return\n  }}\n}}\n"


def write(root: Path, relative: str, text: str) -> None:
    path = root / "test" / "samples" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_matches_differs_and_errors_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add3 = f"pto.taddc ins(%t0, %t1, %t2 : {TILE}, {TILE}, {TILE}) outs(%t3 : {TILE})"
    write(tmp_path, "Addc/addc.pto", kernel(4, add3))
    subtract = f"pto.tsub ins(%t0, %t1 : {TILE}, {TILE}) outs(%t2 : {TILE})"
    write(tmp_path, "VectorAddition/vadd.pto", kernel(3, subtract))
    scaling = "!pto.tile_buf<scaling, 32x32xf32>"
    scale_address = (
        f"%s = pto.alloc_tile : {scaling}\n"
        f"    pto.tget_scale_addr ins(%t0 : {TILE}) outs(%s : {scaling})"
    )
    write(tmp_path, "Scale/scale_addr.pto", kernel(2, scale_address))
    assert run_ptoas_samples.main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Addc/addc.pto: matches golden"
    assert lines[1].startswith("Scale/scale_addr.pto: error: ")
    assert "the PTO executor cannot run 'pto.tget_scale_addr'" in lines[1]
    # a - b against a + b: every element but one whose b is within the tolerance of 0.
    assert lines[2].startswith(
        "VectorAddition/vadd.pto: differs from golden (arg2: 1023 of 1024 elements differ"
    )
    assert lines[3] == "2/3 ran, 2 checked against goldens, 1 matched"


def test_an_empty_checkout_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_ptoas_samples.main([str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"error: no test/samples/**/*.pto under {tmp_path}\n"
