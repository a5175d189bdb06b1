"""Library calls and FFTs as XLA:GPU writes them: what `tests/hlo/library_calls/` and `fft/` hold.

Run once with each jax venv (the CUDA plugin, no GPU needed):

    /work/venvs/jax-0.10.2/bin/python tools/library_corpus.py    # NAME.jax0102.hlo
    /work/venvs/jax-0.12/bin/python tools/library_corpus.py      # NAME.jax012.hlo, NAME.xla_cpu.npz

Each program is compiled for an H100 without a device (`/work/shared/reference/
h100_target_config.txtpb`) and its optimized HLO written without source
locations; jax 0.12 also runs it on XLA:CPU and writes the inputs (`arg0`,
...) and XLA's outputs (`out0`, ...) as `NAME.xla_cpu.npz`. Inputs are seeded:
symmetric positive definite matrices for the Cholesky and eigen programs,
complex values with both parts for the FFT.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
os.environ.setdefault("JAX_SKIP_CUDA_CONSTRAINTS_CHECK", "1")

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import topologies
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).parent))
from make_corpus import strip_hlo  # pyright: ignore[reportMissingImports]

ROOT = Path(__file__).parents[1] / "tests" / "hlo"
H100 = Path("/work/shared/reference/h100_target_config.txtpb")
F32, C64 = jnp.float32, jnp.complex64
Shapes = list[tuple[tuple[int, ...], type]]


def _conv(x: jax.Array, w: jax.Array) -> jax.Array:
    return lax.conv_general_dilated(
        x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def _conv_loss(x: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
    return jnp.sum(jax.nn.relu(_conv(x, w) + b) ** 2)


CONV = [((2, 8, 8, 4), F32), ((3, 3, 4, 8), F32), ((8,), F32)]
PROGRAMS: dict[str, tuple[str, Callable[..., object], Shapes]] = {
    "conv_fwd_bias_relu": ("library_calls", lambda x, w, b: jax.nn.relu(_conv(x, w) + b), CONV),
    "conv_grad": ("library_calls", jax.grad(_conv_loss, argnums=(0, 1)), CONV),
    "cholesky": ("library_calls", jnp.linalg.cholesky, [((4, 4), F32)]),
    "cho_solve": (
        "library_calls",
        lambda a, b: jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a), b),
        [((4, 4), F32), ((4, 2), F32)],
    ),
    "trisolve": (
        "library_calls",
        lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True),
        [((3, 4, 4), F32), ((3, 4, 2), F32)],
    ),
    "lu": ("library_calls", jax.scipy.linalg.lu_factor, [((4, 4), F32)]),
    "qr": ("library_calls", jnp.linalg.qr, [((4, 3), F32)]),
    "eigh": ("library_calls", jnp.linalg.eigh, [((4, 4), F32)]),
    "solve": ("library_calls", jnp.linalg.solve, [((4, 4), F32), ((4, 2), F32)]),
    "bmm": (
        "library_calls",
        lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
        [((3, 4, 5), F32), ((3, 5, 6), F32)],
    ),
    "fft": ("fft", lambda x: jnp.real(jnp.fft.ifft(jnp.fft.fft(x) * 2j)), [((4, 8), C64)]),
    "rfft": ("fft", lambda x: jnp.fft.irfft(jnp.fft.rfft(x) * (1 + 1j), n=8), [((4, 8), F32)]),
}


def _inputs(name: str, shapes: Shapes) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    arrays: list[np.ndarray] = []
    for shape, dtype in shapes:
        a = rng.standard_normal(shape).astype(np.dtype(dtype))
        if np.dtype(dtype).kind == "c":
            a = (a + 1j * rng.standard_normal(shape)).astype(np.dtype(dtype))
        if ("cho" in name or "eigh" in name) and len(shape) == 2 and shape[0] == shape[1]:
            a = (a @ a.T + 4 * np.eye(shape[0])).astype(a.dtype)
        arrays.append(a)
    return arrays


def main() -> None:
    tag = "jax0102" if jax.__version__.startswith("0.10.") else "jax012"
    topology = topologies.get_topology_desc(
        platform="cuda", target_config=H100.read_text(), topology="1x1x1"
    )
    mesh = topologies.make_mesh(topology, (1,), ("d",))
    for name, (folder, function, shapes) in PROGRAMS.items():
        specs = [jax.ShapeDtypeStruct(s, d, sharding=NamedSharding(mesh, P())) for s, d in shapes]
        lowered = jax.jit(function).trace(*specs).lower(lowering_platforms=("cuda",))
        text = strip_hlo(lowered.compile().as_text())
        text = re.sub(r', frontend_attributes=\{fingerprint_before_lhs="[0-9a-f]+"\}', "", text)
        (ROOT / folder / f"{name}.{tag}.hlo").write_text(text)
        if tag == "jax012":
            args = _inputs(name, shapes)
            with jax.default_device(jax.devices("cpu")[0]):
                outputs = jax.tree_util.tree_leaves(jax.jit(function)(*args))
            arrays = {f"arg{i}": a for i, a in enumerate(args)}
            arrays |= {f"out{i}": np.asarray(o) for i, o in enumerate(outputs)}
            np.savez(ROOT / folder / f"{name}.xla_cpu.npz", **arrays)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
