"""Kernels lowered to the llvm dialect, printed as LLVM IR and compiled to PTX.

The lowered IR must verify and its LLVM IR must be what LLVM itself accepts;
GELU's PTX is compared with what XLA's own compile of the same program prints
(jax 0.10.2, deviceless for an H100, `*.ptx`): `.reqntid 128, 1, 1`, one
`ld.global.nc.v4.b16` load and one `st.global.v4.b16` store per thread.
The tests that need LLVM skip where llvmlite is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.emitters import emit_hlo_module
from xla_emit.ir import SourceMap, verify_module
from xla_emit.runtime.llvm_ir import module_to_llvm_ir
from xla_emit.runtime.pipeline import apply_pipeline

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
# Loop-emitter kernels that lower all the way (some with loops and branches).
LOWERED = (
    "gelu_bf16",
    "unary_bf16",
    "reshapes",
    "reverse_broadcast",
    "iota_compare_select",
    "elementwise_f32",
    "elementwise_bf16",
    "unary_mix_f32",
    "slice_concat_pad",
    "transpose_3d_exp",
    "integer_ops",
    "converts",
)


def lowered(path: Path):
    text = path.read_text()
    module = emit_hlo_module(text, str(path))
    apply_pipeline(module, "xla-gpu-to-llvm")
    return module


def test_gelu_lowers_to_verified_llvm_dialect() -> None:
    module = lowered(ROOT / "examples" / "gelu.hlo")
    verify_module(module, SourceMap("gelu", ""))
    names = {op.name for op in module.walk()}
    # Nothing above the llvm dialect is left but the special registers.
    assert {n.split(".")[0] for n in names} == {"builtin", "llvm", "nvvm"}


@pytest.mark.parametrize("name", LOWERED)
def test_corpus_kernel_is_valid_llvm_ir(name: str) -> None:
    llvmlite = pytest.importorskip("llvmlite.binding", reason="LLVM IR checks need llvmlite")
    llvm_ir = module_to_llvm_ir(lowered(CORPUS / f"{name}.hlo"))
    module = llvmlite.parse_assembly(llvm_ir)
    module.verify()
    kernels = [f for f in module.functions if not f.is_declaration]
    assert kernels, "no kernel defined"


def test_gelu_ptx_matches_xlas_launch_bounds_and_vector_accesses() -> None:
    pytest.importorskip("llvmlite.binding", reason="PTX needs llvmlite")
    from xla_emit.runtime.ptx import llvm_ir_to_ptx

    ptx = llvm_ir_to_ptx(module_to_llvm_ir(lowered(ROOT / "examples" / "gelu.hlo")))
    assert ".target sm_90" in ptx
    assert re.search(r"\.visible \.entry fusion\(", ptx)
    assert ".reqntid 128, 1, 1" in ptx
    assert re.findall(r"ld\.global\.nc\.v4\.b16", ptx) == ["ld.global.nc.v4.b16"]
    assert re.findall(r"st\.global\.v4\.b16", ptx) == ["st.global.v4.b16"]
    # Two buffers, each 16-byte aligned (XLA's: `.align 16` and `.align 256`).
    assert len(re.findall(r"\.param \.u64 \.ptr \.align 16 fusion_param_\d", ptx)) == 2


def test_invalid_llvm_ir_is_a_one_line_error() -> None:
    pytest.importorskip("llvmlite.binding", reason="PTX needs llvmlite")
    from xla_emit.runtime.ptx import llvm_ir_to_ptx

    with pytest.raises(UserError, match="invalid LLVM IR"):
        llvm_ir_to_ptx("define void @f() {\n  ret i32 0\n}\n")


def test_ptx_without_llvmlite_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from xla_emit.runtime.ptx import llvm_ir_to_ptx

    # A `None` entry makes `import llvmlite.binding` fail as if it were not installed.
    monkeypatch.setitem(sys.modules, "llvmlite", None)
    monkeypatch.setitem(sys.modules, "llvmlite.binding", None)
    with pytest.raises(UserError, match=r"PTX needs llvmlite: pip install 'xla-emit\[llvm\]'"):
        llvm_ir_to_ptx("")
