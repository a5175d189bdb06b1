"""Keeping freed memory in the process, for runs that allocate and free large arrays.

The interpreter computes a chunk at a time: every op of every chunk allocates
arrays of hundreds of KiB and frees them soon after. With glibc's defaults,
blocks that large are mapped afresh (`mmap`) or handed back to the kernel when
freed (the heap top is trimmed past 128 KiB), so each chunk touches new pages
and pays a page fault for every 4 KiB: for bf16[6,512,4096] GELU that was
about 120,000 faults, half of the kernel's CPU time spent in the kernel (sys).

`keep_freed_memory` raises those thresholds with `mallopt`, as a tool that owns
its process may: arrays under 64 MiB come from the heap, the heap grows in
64 MiB steps and is trimmed only past 256 MiB free. Where the C library has no
`mallopt` (not glibc) nothing changes.
"""

from __future__ import annotations

import ctypes

# glibc's <malloc.h>
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3

TRIM_THRESHOLD = 256 << 20
TOP_PAD = 64 << 20
MMAP_THRESHOLD = 64 << 20


def keep_freed_memory() -> bool:
    """Tune the C allocator of this process as above; whether it took the settings."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return False
    settings = (
        (_M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (_M_TRIM_THRESHOLD, TRIM_THRESHOLD),
        (_M_TOP_PAD, TOP_PAD),
    )
    return all(mallopt(parameter, value) == 1 for parameter, value in settings)
