"""The recorded bundles (`tools/make_bundles.py`, jax 0.10.2 and 0.12) read back.

Oracles: the bundle's own files read another way (the optimized module's HLO
text, the npz archives, the thunk sequence's raw lines), never the reader's
own answers.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import load_arrays
from xla_emit.jax.bundle import GPU_HLO, INPUTS, OUTPUTS, open_bundle, read_text
from xla_emit.jax.routes import DYNAMIC_SLICE, NATIVE, SORT, TRITON, TRITON_GEMM, xla_kernels

BUNDLES = Path(__file__).resolve().parents[1] / "corpus" / "bundles"
ALL = sorted(path.parent for path in BUNDLES.glob("jax-*/*/bundle.json"))
RECORDED = ALL
IDS = [f"{path.parent.name}/{path.name}" for path in RECORDED]


def test_both_jax_versions_are_recorded():
    versions = {path.parent.name for path in ALL}
    assert {"jax-0.10.2", "jax-0.12.0.1"} <= versions
    for version in versions:
        assert (BUNDLES / version / "mlp").is_dir()


def entry_parameters(hlo: str) -> list[str]:
    """`f32[8,64]` for each ENTRY parameter, read off the text in parameter order."""
    entry = hlo[hlo.index("\nENTRY ") :]
    found = re.findall(r"= (\w+\[[\d,]*\])\{?[\d,]*\}? parameter\((\d+)\)", entry)
    return [spec for spec, _ in sorted(found, key=lambda item: int(item[1]))]


@pytest.mark.parametrize("folder", RECORDED, ids=IDS)
def test_the_manifest_agrees_with_the_module_and_the_arrays(folder: Path):
    bundle = open_bundle(folder)
    hlo = (folder / GPU_HLO).read_text()
    assert hlo.startswith(f"HloModule {bundle.module_name},")
    assert entry_parameters(hlo) == bundle.manifest["arguments"]
    inputs = load_arrays(str(folder / INPUTS))
    outputs = load_arrays(str(folder / OUTPUTS), "outputs")
    assert sorted(inputs) == [f"arg{i}" for i in range(len(inputs))]
    assert len(inputs) == len(bundle.manifest["arguments"])
    assert len(outputs) == len(bundle.manifest["outputs"])
    for spec, (_, array) in zip(bundle.manifest["outputs"], sorted(outputs.items()), strict=True):
        dims = [int(d) for d in spec[spec.index("[") + 1 : -1].split(",") if d]
        assert list(array.shape) == dims
    assert all(np.isfinite(a).all() for a in outputs.values() if a.dtype.kind == "f")


@pytest.mark.parametrize("folder", RECORDED, ids=IDS)
def test_every_launch_of_xla_is_a_kernel_of_the_module(folder: Path):
    bundle = open_bundle(folder)
    kernels = xla_kernels(bundle)
    thunk_text = read_text(folder / "xla" / f"{bundle.module_name}.thunk_sequence.txt")
    launches = re.findall(r"\] (\S+) grid: \[([\d, ]+)\] threads: \[([\d, ]+)\]", thunk_text)
    assert launches, "no kernel launch in the thunk sequence"
    by_kernel = {kernel.kernel: kernel for kernel in kernels}
    for name, grid, threads in launches:
        if name not in by_kernel:  # XLA names a sort's kernel after the sort, not the fusion
            assert name.startswith("sort"), name
            continue
        thunk = by_kernel[name].thunk
        assert thunk is not None
        assert list(thunk.grid) == [int(g) for g in grid.split(",")]
        assert list(thunk.threads) == [int(t) for t in threads.split(",")]


@pytest.mark.parametrize("folder", RECORDED, ids=IDS)
def test_routes_follow_the_backend_configs(folder: Path):
    kernels = xla_kernels(open_bundle(folder))
    hlo = (folder / GPU_HLO).read_text()
    triton = len(re.findall(r'"kind":"__triton"', hlo))
    gemm = len(re.findall(r'"kind":"__triton_(?:nested_)?gemm(?:_fusion)?"', hlo))
    assert sum(k.route == TRITON for k in kernels) == triton
    assert sum(k.route == TRITON_GEMM for k in kernels) <= gemm  # nested ones are inside
    for kernel in kernels:
        if kernel.route in (TRITON, TRITON_GEMM):
            assert "ttir.txt" in kernel.files, kernel.name
        if kernel.route == NATIVE:
            assert "mlir-passes.log" in kernel.files, kernel.name
        if kernel.route == SORT:
            assert kernel.fusion_kind == "kCustom"


@pytest.mark.parametrize("folder", RECORDED, ids=IDS)
def test_a_dynamic_slice_fusion_is_a_thunk_of_its_own_without_a_kernel(folder: Path):
    """XLA runs a slice at an offset from the loop's trip count as a `kDynamicSliceFusion`
    thunk (a copy), launching no kernel: so its dump holds no pass log of it (jax 0.12's
    scan_rnn writes its two as async `fusion-start`s)."""
    bundle = open_bundle(folder)
    kernels = [k for k in xla_kernels(bundle) if k.route == DYNAMIC_SLICE]
    thunk_text = read_text(folder / "xla" / f"{bundle.module_name}.thunk_sequence.txt")
    assert len(kernels) == thunk_text.count("kDynamicSliceFusion")
    for kernel in kernels:
        assert kernel.thunk is None and "mlir-passes.log" not in kernel.files, kernel.name
    if folder.name == "scan_rnn":
        assert len(kernels) == 2


def test_a_folder_without_a_manifest_is_no_bundle(tmp_path: Path):
    with pytest.raises(UserError, match=r"is not a bundle: no bundle\.json"):
        open_bundle(tmp_path)
    (tmp_path / "bundle.json").write_text('{"format": "something else"}')
    with pytest.raises(UserError, match="is not an xla-emit-bundle/1 manifest"):
        open_bundle(tmp_path)
