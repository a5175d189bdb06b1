"""Writes the inputs the README's example kernels run on (the repository ships them).

    python examples/make_inputs.py [FOLDER]   # default: examples/

- `tpu/window_inputs.npz`: `examples/tpu/*.mlir` (@window): an 8x1024 f32 ramp,
  the 8x32 output, and the window's start column 200 (not a multiple of 128).
- `pto/online_softmax_inputs.npz`: `examples/pto/online_softmax.mlir`: 16 rows of
  64 normal f32 values (flat, as the kernel's pointer reads them) and the output.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def write_inputs(folder: Path) -> list[Path]:
    window = folder / "tpu" / "window_inputs.npz"
    np.savez(
        window,
        arg0=np.arange(8 * 1024, dtype=np.float32).reshape(8, 1024),
        arg1=np.zeros((8, 32), np.float32),
        arg2=np.array(200),
    )
    softmax = folder / "pto" / "online_softmax_inputs.npz"
    x = np.random.default_rng(0).standard_normal(16 * 64).astype(np.float32)
    np.savez(softmax, arg0=x, arg1=np.zeros(16 * 64, np.float32))
    return [window, softmax]


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    for path in write_inputs(target):
        print(path)
