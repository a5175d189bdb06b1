"""`xla-emit-opt` shows what `xla-emit-run` runs: a gemm fusion is library calls, not a kernel.

The oracle is the run itself: `xla-emit-run --time` lists every launch, a
library call as `NAME (library)`. What opt lists for a library fusion, and the
kernels it emits for the others, must be those launches in that order.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr

from xla_emit.ir import make_context, parse_mlir
from xla_emit.tools import opt, run

MODULE = Path(__file__).parents[2] / "examples" / "gemm_bias.hlo"


def opt_output(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert opt.main([str(MODULE), *args]) == 0
    return capsys.readouterr().out


def run_launches(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> list[str]:
    """The launch names `xla-emit-run --time` prints, in order."""
    out = tmp_path / "out.npz"
    assert run.main([str(MODULE), "--time", "-o", str(out), *args]) == 0
    stderr = capsys.readouterr().err
    return re.findall(r"^kernel (.+): [\d.]+ s,", stderr, re.MULTILINE)


def listed_calls(text: str) -> dict[str, list[str]]:
    """Fusion name -> the launch names of the module's `xla_emit.library_calls`."""
    module, _ = parse_mlir(text, "opt-output.mlir", make_context())
    listing = module.attributes["xla_emit.library_calls"]
    assert isinstance(listing, DictionaryAttr)
    calls: dict[str, list[str]] = {}
    for name, entries in listing.data.items():
        assert isinstance(entries, ArrayAttr)
        calls[name] = [cast(StringAttr, e).data.split(":")[0] for e in entries.data]
    return calls


def entry_kernels(text: str) -> list[str]:
    return re.findall(r"func\.func @(\w+)\(.*attributes \{xla\.entry\}", text)


def test_gemm_fusion_is_listed_as_the_launches_the_run_makes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    printed = opt_output(capsys, "--fusion", "gemm_fusion")
    assert entry_kernels(printed) == []
    launches = run_launches(capsys, tmp_path, "--fusion", "gemm_fusion")
    assert listed_calls(printed) == {"gemm_fusion": launches}
    assert launches[0] == "dot.1 (library)"
    assert "cuBLAS gemm (f32[4,8], f32[8,3]) -> f32[4,3]" in printed


def test_module_shows_every_launch_of_the_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    printed = opt_output(capsys)
    listed = listed_calls(printed)
    shown = [*listed["gemm_fusion"], *entry_kernels(printed)]
    assert shown == run_launches(capsys, tmp_path)


def test_emit_library_kernels_emits_the_kernel_the_run_never_launches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    printed = opt_output(capsys, "--emit-library-kernels")
    assert entry_kernels(printed) == ["gemm_fusion", "loop_neg"]
    assert "xla_emit.library_calls" not in printed


def test_listing_parses_and_survives_the_pipeline(capsys: pytest.CaptureFixture[str]) -> None:
    pipeline = "xla-lower-xla-to-scf,inline,xla-erase-dead-functions,canonicalize"
    printed = opt_output(capsys, "-p", pipeline)
    assert listed_calls(printed)["gemm_fusion"][0] == "dot.1 (library)"
    source = Path(__file__).with_name("listing.mlir")
    try:
        source.write_text(printed)
        assert opt.main([str(source)]) == 0
        assert capsys.readouterr().out == printed
    finally:
        source.unlink()


# A dot outside any fusion: XLA:GPU leaves such library calls in the entry computation.
ENTRY_DOT = """\
HloModule entry_dot

fused_neg {
  p0 = f32[4,3]{1,0} parameter(0)
  ROOT n = f32[4,3]{1,0} negate(p0)
}

ENTRY main {
  a = f32[4,8]{1,0} parameter(0)
  b = f32[8,3]{1,0} parameter(1)
  d = f32[4,3]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT neg = f32[4,3]{1,0} fusion(d), kind=kLoop, calls=fused_neg
}
"""
# cuSOLVER and cuBLAS custom calls in the entry, beside a gemm fusion.
CHOLESKY = Path(__file__).parents[2] / "tests" / "corpus" / "zoo" / "cholesky_solve.hlo"


def library_launches(capsys: pytest.CaptureFixture[str], tmp_path: Path, module: Path) -> list[str]:
    """The library calls `xla-emit-run --time` makes for `module`, in order."""
    out = tmp_path / "out.npz"
    assert run.main([str(module), "--random-inputs", "0", "--time", "-o", str(out)]) == 0
    stderr = capsys.readouterr().err
    return re.findall(r"^kernel (.+ \(library\)): [\d.]+ s,", stderr, re.MULTILINE)


@pytest.mark.parametrize("source", ["entry_dot", "cholesky_solve"])
def test_library_calls_outside_fusions_are_listed_as_the_run_makes_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str
) -> None:
    module = CHOLESKY
    if source == "entry_dot":
        module = tmp_path / "entry_dot.hlo"
        module.write_text(ENTRY_DOT)
    assert opt.main([str(module)]) == 0
    listed = listed_calls(capsys.readouterr().out)
    listed_library = [name for names in listed.values() for name in names if "(library)" in name]
    launches = library_launches(capsys, tmp_path, module)
    assert launches and sorted(listed_library) == sorted(launches)
    if source == "entry_dot":
        assert listed == {"d": ["d (library)"]}


def test_one_fusion_lists_no_library_call_outside_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert opt.main([str(CHOLESKY), "--fusion", "loop_add_fusion"]) == 0
    assert "xla_emit.library_calls" not in capsys.readouterr().out
