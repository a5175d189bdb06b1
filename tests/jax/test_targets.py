"""The shipped GpuTargetConfigProtos: XLA's device facts, and the errors a bad file gets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.jax.targets import TARGETS_FOLDER, load_target, shipped_targets

# (SMs, compute capability major, shared memory per SM) as NVIDIA documents the parts.
FACTS = {
    "a100": (108, 8, 167936),
    "h100": (132, 9, 233472),
    "h200": (132, 9, 233472),
    "b200": (148, 10, 233472),
}


def field(text: str, name: str) -> int:
    match = re.search(rf"^\s*{name}: (\d+)", text, re.MULTILINE)
    assert match is not None, name
    return int(match[1])


@pytest.mark.parametrize("name", sorted(FACTS))
def test_each_shipped_target_holds_its_gpus_facts(name: str):
    text = load_target(name).text
    cores, major, shared = FACTS[name]
    assert field(text, "core_count") == cores
    assert re.search(rf"cuda_compute_capability {{ major: {major} }}", text)
    assert field(text, "shared_memory_per_core") == shared
    # Every target states the fields the H100 one does (what jaxlib 0.10.2 reads).
    keys = {line.split(":")[0].strip() for line in text.splitlines() if ":" in line}
    reference = load_target("h100").text
    assert keys == {line.split(":")[0].strip() for line in reference.splitlines() if ":" in line}


def test_the_shipped_names_are_the_files():
    assert shipped_targets() == sorted(p.stem for p in TARGETS_FOLDER.glob("*.txtpb"))
    assert set(shipped_targets()) == set(FACTS)


def test_a_config_file_is_taken_by_its_path(tmp_path: Path):
    path = tmp_path / "mine.txtpb"
    path.write_text(load_target("a100").text)
    assert load_target(str(path)).description == "NVIDIA A100-SXM4-80GB"


def test_a_missing_or_foreign_target_is_one_line(tmp_path: Path):
    with pytest.raises(UserError, match=r"neither a shipped target \(a100, b200, h100, h200\)"):
        load_target(str(tmp_path / "absent.txtpb"))
    foreign = tmp_path / "foreign.txtpb"
    foreign.write_text("platform_name: 'CUDA'\n")
    with pytest.raises(UserError, match="does not parse as a GpuTargetConfigProto"):
        load_target(str(foreign))
