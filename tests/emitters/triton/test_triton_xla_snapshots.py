"""Our Triton kernels against XLA's own, both run in the tile executor: bit for bit.

Normalization (`__triton`) and gemm (`__triton_gemm`, `__triton_nested_gemm_fusion`)
fusions alike.

XLA's kernels are the first snapshot of its Triton pass log (`IR Dump Before
TensorLowerToTritonPass`, the fusion emitter's output) and its TTIR (`tt` ops), from the
corpus of XLA:GPU dumps (`tests/corpus/triton/<jax>/<model>/triton/<fusion>.{xtile-to-
triton.txt,ttir.txt}.xz`, beside the fusion's `<fusion>.hlo.xz`); ours is emitted from
that HLO. Both get the same inputs and the
launch size of the fusion's tiling (jax 0.10.2's XLA put no `xla.range` on the pid).
"""

from __future__ import annotations

import lzma
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from xla_emit.emitters.triton.emitter import emit_triton_fusion
from xla_emit.hlo.fusion_configs import TRITON_KINDS, block_level_config, fusion_backend_kind
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import read_pass_log

_CORPUS = Path(__file__).parents[2] / "corpus" / "triton"
_LOGS = sorted(_CORPUS.glob("jax-*/*/triton/*.xtile-to-triton.txt.xz"))


def _parse_snapshot(log: Path):
    return parse_mlir(read_pass_log(log)[0].text, str(log))[0]


def _parse_ttir(log: Path):
    ttir = log.with_name(log.name.replace(".xtile-to-triton.txt.xz", ".ttir.txt.xz"))
    if not ttir.exists():
        pytest.skip(f"no TTIR beside {log.name}")
    return parse_mlir(lzma.decompress(ttir.read_bytes()).decode(), str(ttir))[0]


def _compare(log: Path, xla_kernel: Callable[[Path], ModuleOp] = _parse_snapshot) -> None:
    fusion_name = log.name.removesuffix(".xtile-to-triton.txt.xz")
    hlo = log.with_name(f"{fusion_name}.hlo.xz")
    module = parse_hlo_module(lzma.decompress(hlo.read_bytes()).decode(), str(hlo))
    fusion = module.entry.root
    if fusion_backend_kind(fusion) not in TRITON_KINDS:
        pytest.skip(f"{fusion_name} is not a Triton fusion")
    ours = emit_triton_fusion(fusion)
    theirs = xla_kernel(log)
    warps = block_level_config(fusion).num_warps
    ours_executor = TileExecutor(ours, num_warps=warps)
    programs = ours_executor.num_programs(ours_executor.entry_function())
    rng = np.random.default_rng(7)
    inputs = [
        rng.standard_normal(p.array_shape.dimensions).astype(p.array_shape.element_type.dtype)
        for p in module.entry.parameters
    ]
    expected = TileExecutor(theirs, num_warps=warps, programs=programs).run(inputs)
    actual = ours_executor.run(inputs)
    for ours_out, theirs_out in zip(actual, expected, strict=True):
        assert ours_out.tobytes() == theirs_out.tobytes()


@pytest.mark.skipif(not _LOGS, reason="the Triton corpus (tests/corpus/triton) is not here")
@pytest.mark.parametrize("model", ["softmax_f32", "attention_bf16", "split_k_bf16"])
def test_a_model_s_triton_fusions_equal_xla_s_kernels_bit_for_bit(model: str) -> None:
    logs = [log for log in _LOGS if f"/{model}/" in log.as_posix()]
    if not logs:
        pytest.skip(f"no {model} in the Triton corpus")
    for log in logs:
        _compare(log)
        _compare(log, _parse_ttir)


@pytest.mark.slow
@pytest.mark.parametrize("log", _LOGS, ids=lambda p: f"{p.parts[-4]}/{p.parts[-3]}/{p.name}")
def test_every_triton_fusion_equals_xla_s_kernel_bit_for_bit(log: Path) -> None:
    _compare(log)


@pytest.mark.slow
@pytest.mark.parametrize("log", _LOGS, ids=lambda p: f"{p.parts[-4]}/{p.parts[-3]}/{p.name}")
def test_every_triton_fusion_equals_xla_s_ttir_bit_for_bit(log: Path) -> None:
    _compare(log, _parse_ttir)
