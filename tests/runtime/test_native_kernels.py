"""Corpus kernels run natively (grid as loops, JIT by llvmlite) against XLA's outputs.

Each program here is one loop fusion; its inputs and XLA:CPU's outputs are in
the corpus. bf16 outputs must match XLA bit for bit (the host computes bf16
arithmetic in f32 and rounds after every op, as XLA does); f32 ones within the
project's 4 ulp (XLA contracts a multiply and an add into one FMA, we do not).
Skipped where llvmlite is missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.emitters import emit_hlo_module
from xla_emit.runtime.compare import compare
from xla_emit.runtime.pipeline import apply_pipeline

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
ONE_FUSION = (
    "gelu_bf16",
    "reverse_broadcast",
    "iota_compare_select",
    "reshapes",
    "elementwise_f32",
    "elementwise_bf16",
    "unary_mix_f32",
    "slice_concat_pad",
    "transpose_3d_exp",
)


def fusion_inputs(hlo: str, inputs: np.lib.npyio.NpzFile) -> list[np.ndarray]:
    """The entry's arguments in the order of the one fusion's operands."""
    entry = hlo[hlo.index("ENTRY") :]
    parameters = dict(re.findall(r"(%[\w.\-]+) = \S+ parameter\((\d+)\)", entry))
    match = re.search(r" fusion\(([^)]*)\)", entry)
    assert match is not None
    operands = [name.strip() for name in match.group(1).split(",")]
    return [np.ascontiguousarray(inputs[f"arg{parameters[name]}"]) for name in operands]


@pytest.mark.parametrize("name", ONE_FUSION)
def test_native_run_matches_xla_bit_for_bit(name: str) -> None:
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.runtime.native import run_kernel

    hlo_path = CORPUS / f"{name}.hlo"
    hlo = hlo_path.read_text()
    module = emit_hlo_module(hlo, str(hlo_path))
    apply_pipeline(module, "xla-gpu-to-llvm")
    expected = np.load(CORPUS / f"{name}.outputs.npz")["out0"]
    # Garbage where the kernel should write: an element it skips cannot pass.
    output = np.full_like(expected, 0x7F, subok=False)
    output.view(np.uint8)[:] = 0xA5
    run_kernel(module, [*fusion_inputs(hlo, np.load(CORPUS / f"{name}.inputs.npz")), output])
    if expected.dtype == np.float32:
        comparison = compare(expected, output)
        assert comparison.matches, comparison.describe()
    else:
        assert output.tobytes() == expected.tobytes()


def test_wrong_number_of_buffers_is_an_error() -> None:
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.runtime.native import run_kernel

    hlo_path = CORPUS / "reshapes.hlo"
    module = emit_hlo_module(hlo_path.read_text(), str(hlo_path))
    apply_pipeline(module, "xla-gpu-to-llvm")
    with pytest.raises(UserError, match="takes 2 buffers, got 1"):
        run_kernel(module, [np.zeros(128, np.float32)])


def test_a_strided_buffer_is_an_error() -> None:
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.runtime.native import run_kernel

    hlo_path = CORPUS / "reshapes.hlo"
    module = emit_hlo_module(hlo_path.read_text(), str(hlo_path))
    apply_pipeline(module, "xla-gpu-to-llvm")
    strided = np.zeros(256, np.float32)[::2]
    with pytest.raises(UserError, match="needs C-contiguous buffers"):
        run_kernel(module, [strided, np.zeros(128, np.float32)])


EXACT_FUNCTIONS = {"floor": np.floor, "ceil": np.ceil, "sqrt": np.sqrt, "absf": np.abs}


@pytest.mark.parametrize("function", sorted(EXACT_FUNCTIONS))
def test_exact_math_is_llvms_intrinsic_with_the_c_librarys_bits(function: str) -> None:
    """floor, ceil, sqrt, |x| on the host: LLVM's intrinsic (inline, vectorizable), no C
    library call, and numpy's bits (IEEE fixes them) on edge values."""
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.ir import parse_mlir
    from xla_emit.runtime.native import kernel_ir, run_kernel

    tiny = np.finfo(np.float32).smallest_subnormal
    edges = [0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 4.0, 1e30, -1e30, tiny, -tiny, np.inf, -np.inf]
    values = np.array(edges * 2 + [np.nan] * 6, np.float32)  # 32 elements
    text = f"""
func.func @kernel(%in: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32>
    attributes {{xla.entry}} {{
  %tid = gpu.thread_id x {{xla.range = [0 : index, 31 : index]}}
  %x = tensor.extract %in[%tid] : tensor<32xf32>
  %y = math.{function} %x : f32
  %r = tensor.insert %y into %out[%tid] : tensor<32xf32>
  func.return %r : tensor<32xf32>
}}
"""
    module, _ = parse_mlir(text, "exact.mlir")
    apply_pipeline(module, "xla-host-thread-loops,xla-lower-tensors,xla-lower-to-llvm")
    ir = kernel_ir(module)
    assert "declare float @floorf" not in ir and "declare float @sqrtf" not in ir
    assert "declare float @ceilf" not in ir and "declare float @fabsf" not in ir
    out = np.zeros(32, np.float32)
    run_kernel(module, [values, out])
    with np.errstate(invalid="ignore"):
        expected = EXACT_FUNCTIONS[function](values)
    assert out.tobytes() == expected.tobytes()


def test_a_kernel_cut_into_stretches_asks_for_256_bit_vectors() -> None:
    """out[t] = in[t] + in[t + 64]: two stretches, two loops, a value kept per thread
    between them; the host IR asks LLVM for 256-bit vectors, and the sums are numpy's."""
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.ir import parse_mlir
    from xla_emit.runtime.native import kernel_ir, run_kernel

    text = """
func.func @kernel(%in: tensor<128xf32>, %out: tensor<64xf32>) -> tensor<64xf32>
    attributes {xla.entry} {
  %c64 = arith.constant 64 : index
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %a = tensor.extract %in[%tid] : tensor<128xf32>
  %far = arith.addi %tid, %c64 : index
  %b = tensor.extract %in[%far] : tensor<128xf32>
  %s = arith.addf %a, %b : f32
  %r = tensor.insert %s into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}
"""
    module, _ = parse_mlir(text, "stretches.mlir")
    apply_pipeline(module, "xla-host-thread-loops,xla-lower-tensors,xla-lower-to-llvm")
    header = next(line for line in kernel_ir(module).splitlines() if "@kernel(" in line)
    assert header.startswith("define void @kernel(")
    assert header.endswith('"prefer-vector-width"="256" {')
    values = np.random.default_rng(5).standard_normal(128).astype(np.float32)
    out = np.zeros(64, np.float32)
    run_kernel(module, [values, out])
    assert out.tobytes() == (values[:64] + values[64:]).tobytes()


def test_warp_trees_loop_is_left_to_the_slp_vectorizer() -> None:
    """The row sum's lane 0 combining its warp's values: the loop over the warps carries
    `llvm.loop.vectorize.enable` false (vectorized across warps it gathered), and it is
    the only loop that does."""
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.runtime.kernels import compile_fusion
    from xla_emit.runtime.native import kernel_ir
    from xla_emit.runtime.native_kernels import HOST_PIPELINE

    path = Path(__file__).resolve().parents[2] / "examples" / "reduction_row.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    fusion = module.entry.root
    ir = kernel_ir(compile_fusion(module, fusion, HOST_PIPELINE))
    back_edges = [line for line in ir.splitlines() if "!llvm.loop" in line]
    assert len(back_edges) == 1 and back_edges[0].strip().startswith("br label %")
    assert '!{!"llvm.loop.vectorize.enable", i1 false}' in ir
