"""`keep_freed_memory`: freed arrays stay in the process instead of being faulted in again."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Eight 1 MiB arrays allocated and freed 50 times, as chunk after chunk of a kernel does;
# prints the minor page faults that took.
CHUNKS = """
import resource, sys
import numpy as np
if sys.argv[1] == "keep":
    # Imported only here: an import that frees a large block raises glibc's dynamic mmap
    # threshold, which would blur the default's figure.
    from xla_emit.runtime.allocator import keep_freed_memory
    assert keep_freed_memory()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(50):
    arrays = [np.ones(1 << 20, np.uint8) for _ in range(8)]
    del arrays
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _page_faults(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-c", CHUNKS, mode], capture_output=True, text=True, env=env, check=True
    )
    return int(result.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt's settings are glibc's")
def test_freed_chunks_are_not_faulted_in_again() -> None:
    # 400 MiB allocated in all: 100,000 pages of 4 KiB if every chunk gets fresh memory.
    fresh, kept = _page_faults("default"), _page_faults("keep")
    assert fresh > 50_000
    assert kept < 10_000
