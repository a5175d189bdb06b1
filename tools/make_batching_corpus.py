"""jax's gather and scatter with batching dims (from `vmap`) and XLA:CPU's results, the
oracle of tests/emitters/test_emitters_batching_dims.py.

    python tools/make_batching_corpus.py tests/corpus/batching

writes `vmap_gather.hlo` and `vmap_scatter_add.hlo` (the modules before XLA's passes,
which rewrite batching dims away) and `vmap_gather_scatter.npz` (inputs x, i, u and
XLA's results g, s). Indices include -1 and out-of-range values: jax wraps negative
gather indices, and the scatter drops windows that do not fit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np


def main(folder: str) -> None:
    out = Path(folder)
    rng = np.random.default_rng(3)
    x = rng.integers(-9, 9, (3, 5, 4)).astype(np.int32)
    i = rng.integers(-1, 6, (3, 2, 2)).astype(np.int32)
    u = rng.integers(-9, 9, (3, 2)).astype(np.int32)
    gather = jax.jit(jax.vmap(lambda a, b: a[b[:, 0], b[:, 1]]))
    scatter = jax.jit(jax.vmap(lambda a, b, c: a.at[b[:, 0], b[:, 1]].add(c, mode="drop")))
    (out / "vmap_gather.hlo").write_text(gather.lower(x, i).compiler_ir("hlo").as_hlo_text())
    scatter_text = scatter.lower(x, i, u).compiler_ir("hlo").as_hlo_text()
    (out / "vmap_scatter_add.hlo").write_text(scatter_text)
    results = {"g": np.asarray(gather(x, i)), "s": np.asarray(scatter(x, i, u))}
    np.savez(out / "vmap_gather_scatter.npz", x=x, i=i, u=u, **results)


if __name__ == "__main__":
    main(sys.argv[1])
