"""Every fusion of the GPU corpus down to PTX for sm_90, assembled by `ptxas`.

The reductions and transposes are the kernels with shared memory, barriers and
warp shuffles. Figures are checked against independent counts: a grep of the PTX
text, and numbers worked out by hand from the kernels' IR (a transpose tile of
`tensor<1056xf32>` is 4224 bytes of shared memory; a warp reduction of 32 lanes is
five `shfl.sync.down` by 16, 8, 4, 2, 1). The lowering to LLVM IR is checked
without llvmlite; PTX and ptxas skip where llvmlite or ptxas is missing.
"""

from __future__ import annotations

import lzma
import re
from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

from xla_emit.diagnostics import UserError
from xla_emit.emitters import emit_hlo_module
from xla_emit.ir import SourceMap, verify_module
from xla_emit.runtime.llvm_ir import module_to_llvm_ir
from xla_emit.runtime.pipeline import apply_pipeline
from xla_emit.runtime.ptx import assemble, libdevice_path, parse_ptxas_report, ptxas_path
from xla_emit.runtime.ptx_stats import kernel_figures, shapes_text

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "gpu"
PROGRAMS = sorted(p.name for p in CORPUS.iterdir() if (p / "gpu.hlo").is_file())


@cache
def lowered(name: str) -> ModuleOp:
    source = CORPUS / name / "gpu.hlo"
    module = emit_hlo_module(source.read_text(), str(source))
    apply_pipeline(module, "xla-gpu-to-llvm")
    return module


@cache
def our_ptx(name: str) -> str:
    pytest.importorskip("llvmlite.binding", reason="PTX needs llvmlite")
    from xla_emit.runtime.ptx import llvm_ir_to_ptx

    return llvm_ir_to_ptx(module_to_llvm_ir(lowered(name)))


def need_libdevice() -> None:
    """The corpus's kernels call libdevice (`__nv_fabsf`, `__nv_expf`, ...): without it their
    PTX keeps the calls, unresolved (a `ptxas` found on `PATH` comes without libdevice)."""
    if libdevice_path() is None:
        pytest.skip("libdevice missing: pip install '.[ptx]'")


def need_ptxas() -> None:
    if ptxas_path() is None:
        pytest.skip("ptxas missing: pip install '.[ptx]'")
    need_libdevice()


def test_the_corpus_has_its_reductions_and_transposes() -> None:
    assert {"row_sum", "column_max", "argmax_rows", "transpose_2d", "softmax"} <= set(PROGRAMS)


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_fusion_lowers_to_llvm_ir(name: str) -> None:
    module = lowered(name)
    verify_module(module, SourceMap(name, ""))
    # Nothing above the llvm dialect is left but NVVM's ops.
    assert {op.dialect_name() for op in module.walk()} <= {"builtin", "llvm", "nvvm"}
    text = module_to_llvm_ir(module)
    kernels = re.findall(r"^define ptx_kernel void @(\w+)\(", text, re.MULTILINE)
    # One kernel per fusion XLA launched (the fusions of its optimized module).
    hlo = (CORPUS / name / "gpu.hlo").read_text()
    fusions = re.findall(r"%(\S+) = .* fusion\(.*kind=k(?:Loop|Input)", hlo)
    # (XLA names a kernel after its fusion, a `.` spelled `_`.)
    assert sorted(kernels) == sorted(f.replace(".", "_") for f in fusions)
    assert text.count('"nvvm.reqntid"=') == len(kernels)


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_fusion_assembles_for_sm_90(name: str) -> None:
    ptx = our_ptx(name)
    need_ptxas()
    kernels = assemble(ptx)
    entries = re.findall(r"\.visible \.entry (\w+)\(", ptx)
    assert sorted(k.name for k in kernels) == sorted(entries)
    for kernel in kernels:
        assert 0 < kernel.registers <= 255
        assert kernel.spill_stores == kernel.spill_loads == 0


def test_row_sum_reduces_a_warp_with_five_shuffles() -> None:
    ptx = our_ptx("row_sum")
    shuffles = re.findall(r"shfl\.sync\.down\.b32\s+\S+, \S+, (\d+), 31, -1;", ptx)
    assert shuffles == ["16", "8", "4", "2", "1"]
    # 256 threads per block, as the emitter's thread id range says ([0, 255]).
    assert ".reqntid 256, 1, 1" in ptx


def test_transpose_tile_is_shared_memory_behind_a_barrier() -> None:
    ptx = our_ptx("transpose_2d")
    # tensor<1056xf32>: 1056 * 4 bytes, declared once, reached by the kernel.
    assert re.findall(r"\.shared \.align \d+ \.b8 (\w+)\[(\d+)\]", ptx) == [("shared_0", "4224")]
    assert len(re.findall(r"bar\.sync\s+0;", ptx)) == 1
    need_ptxas()
    (kernel,) = assemble(ptx)
    assert kernel.shared_bytes == 4224


def test_argmax_reducer_of_two_results_shuffles_value_and_index() -> None:
    ptx = our_ptx("argmax_rows")
    # Value (f32 bits) and index (i32) each shuffled at 16, 8, 4, 2, 1.
    distances = re.findall(r"shfl\.sync\.down\.b32\s+\S+, \S+, (\d+), 31, -1;", ptx)
    assert sorted(distances, key=int) == sorted(["16", "8", "4", "2", "1"] * 2, key=int)


def test_softmax_links_libdevices_exp() -> None:
    ptx = our_ptx("softmax")
    need_libdevice()
    # Linked and inlined: no call of, nor declaration for, `__nv_expf` is left; its
    # body computes exp with PTX's `ex2.approx` after a range reduction.
    assert "__nv_expf" not in ptx and "call" not in ptx
    assert "ex2.approx" in ptx


def test_gelu_inlines_xlas_tanh_approximation() -> None:
    ptx = our_ptx("gelu_f32")
    need_libdevice()
    # No libdevice call: the rational approximation (7 + 4 fmas, one division per
    # element) is in the kernel, as in XLA's (4 elements per thread).
    assert "tanh" not in ptx and "call" not in ptx
    assert len(re.findall(r"\bdiv\.(?:rn|full|approx)[.\w]*\.f32", ptx)) == 4
    assert len(re.findall(r"\bfma\.rn\.f32", ptx)) >= 4 * 9


def test_figures_match_a_grep_of_xlas_own_ptx() -> None:
    text = lzma.decompress((CORPUS / "row_sum" / "gpu" / "xla.ptx.xz").read_bytes()).decode()
    (kernel,) = [k for k in kernel_figures(text) if k.name == "input_reduce_fusion"]
    body = text[text.index(".entry input_reduce_fusion") :]
    body = body[: body.index("\n}") + 2]
    assert kernel.global_loads["v2.b32"] == len(re.findall(r"ld\.global\.nc\.v2\.b32", body))
    assert kernel.mix["shfl"] == len(re.findall(r"\bshfl\.sync", body))
    assert kernel.launch_bounds == "reqntid 256, 1, 1"


def test_kernel_figures_of_a_hand_written_kernel() -> None:
    ptx = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(
\t.param .u64 .ptr .align 16 k_param_0,
\t.param .u64 .ptr .align 256 k_param_1
)
.reqntid 128, 1, 1
{
\t.reg .b32 \t%r<9>;
\tld.param.u64 \t%rd1, [k_param_0];
\tld.global.nc.v4.b32 \t{%r1, %r2, %r3, %r4}, [%rd1];
\tld.global.nc.v4.b32 \t{%r5, %r6, %r7, %r8}, [%rd1+16];
\t@%p1 bra \t$L__BB0_2;
$L__BB0_2:
\tst.global.b32 \t[%rd1], %r1;   // a comment
\tret;
}
"""
    (kernel,) = kernel_figures(ptx)
    assert kernel.params == [("u64", 16), ("u64", 256)]
    assert kernel.launch_bounds == "reqntid 128, 1, 1"
    assert kernel.instructions == 6
    assert shapes_text(kernel.global_loads) == "v4.b32 x2"
    assert shapes_text(kernel.global_stores) == "b32 x1"
    assert kernel.mix == {"ld": 3, "bra": 1, "st": 1, "ret": 1}


def test_ptxas_report_is_read_per_kernel() -> None:
    report = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'reduce' for 'sm_90'
ptxas info    : Function properties for reduce
    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 4224 bytes smem, 368 bytes cmem[0]
ptxas info    : Compiling entry function 'copy' for 'sm_90'
ptxas info    : Function properties for copy
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 0 barriers, 360 bytes cmem[0]
"""
    reduce, copy = parse_ptxas_report(report)
    assert (reduce.name, reduce.registers, reduce.shared_bytes) == ("reduce", 40, 4224)
    assert (reduce.stack_bytes, reduce.spill_stores, reduce.spill_loads) == (8, 4, 12)
    assert (copy.name, copy.registers, copy.shared_bytes, copy.spill_stores) == ("copy", 10, 0, 0)


def test_ptxas_rejecting_ptx_is_a_one_line_error() -> None:
    need_ptxas()
    with pytest.raises(UserError, match=r"^error: ptxas: .*") as error:
        assemble(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n")
    assert "\n" not in str(error.value)
