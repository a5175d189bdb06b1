"""Survey jax's own Pallas TPU kernels: how many of them parse, verify, round-trip and prove.

    python tools/survey_pallas_ops.py [--project-python .venv/bin/python] [--keep DIR]

Run it with a Python that has jax and jaxlib 0.10.2 (outside `make test`).
It lowers the kernels of `jax.experimental.pallas.ops.tpu` (matmul, flash
attention forward and backward, paged attention, ragged paged attention,
splash attention, megablox gmm, ...) for TPU on this CPU-only machine, exactly
as `tools/make_pallas_corpus.py` lowers the corpus, and hands each Mosaic
module to this project (run by `--project-python` with the repository on
`PYTHONPATH`): `xla-emit-opt` parses and verifies it, prints it and parses
the print again, and runs `tpu-verify-alignment`. Nothing is written to the
repository; `--keep` keeps the Mosaic texts.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
from make_pallas_corpus import mosaic_bodies, mosaic_text

REPOSITORY = Path(__file__).resolve().parent.parent


def _spec(shape: tuple[int, ...], dtype: object = jnp.float32) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(shape, dtype)


def target_v6e() -> None:
    """Lowering rules that ask for the chip (megablox, ragged paged attention) get TPU v6e."""
    from jax._src.pallas.mosaic import tpu_info

    chip = getattr(tpu_info.ChipVersion, "TPU_V6E", None)
    if chip is not None:
        tpu_info.registry["cpu"] = functools.partial(tpu_info.get_tpu_info_for_chip, chip, 1)


def _matmul(dtype: object) -> tuple[Callable[..., object], list[jax.ShapeDtypeStruct]]:
    from jax.experimental.pallas.ops.tpu import matmul

    fn = functools.partial(matmul.matmul, block_shape=(128, 128), block_k=128)
    return fn, [_spec((256, 512), dtype), _spec((512, 256), dtype)]


def _flash(causal: bool, backward: bool) -> tuple[Callable[..., object], list]:
    from jax.experimental.pallas.ops.tpu import flash_attention as fa

    shape = (1, 2, 256, 128)

    def forward(q, k, v):
        return fa.flash_attention(q, k, v, causal=causal, sm_scale=0.125)

    if backward:

        def loss(q, k, v):
            return jnp.sum(forward(q, k, v))

        return jax.grad(loss, argnums=(0, 1, 2)), [_spec(shape)] * 3
    return forward, [_spec(shape)] * 3


def _paged(dtype: object) -> tuple[Callable[..., object], list]:
    from jax.experimental.pallas.ops.tpu.paged_attention import paged_attention

    fn = functools.partial(paged_attention, pages_per_compute_block=4)
    return fn, [
        _spec((2, 8, 128), dtype),
        _spec((2, 64, 16, 128), dtype),
        _spec((2, 64, 16, 128), dtype),
        _spec((2,), jnp.int32),
        _spec((2, 16), jnp.int32),
    ]


def _ragged_paged() -> tuple[Callable[..., object], list]:
    from jax.experimental.pallas.ops.tpu.ragged_paged_attention import ragged_paged_attention

    fn = functools.partial(
        ragged_paged_attention, sm_scale=0.125, num_kv_pages_per_block=4, num_queries_per_block=16
    )
    return fn, [
        _spec((64, 8, 128), jnp.bfloat16),
        _spec((128, 16, 4, 128), jnp.bfloat16),
        _spec((4,), jnp.int32),
        _spec((4, 16), jnp.int32),
        _spec((5,), jnp.int32),
        _spec((1,), jnp.int32),
    ]


def _splash() -> tuple[Callable[..., object], list]:
    from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_kernel as sk
    from jax.experimental.pallas.ops.tpu.splash_attention import splash_attention_mask as sm

    mask = sm.MultiHeadMask([sm.CausalMask((256, 256)) for _ in range(2)])
    kernel = sk.make_splash_mha(mask, head_shards=1, q_seq_shards=1)
    return (lambda q, k, v: kernel(q, k, v)), [_spec((2, 256, 128))] * 3


def _gmm(dtype: object) -> tuple[Callable[..., object], list]:
    # The package re-exports the function under the module's name: import the module itself.
    gmm = importlib.import_module("jax.experimental.pallas.ops.tpu.megablox.gmm")
    return gmm.gmm, [_spec((512, 256), dtype), _spec((4, 256, 256), dtype), _spec((4,), jnp.int32)]


def _double() -> tuple[Callable[..., object], list]:
    from jax.experimental.pallas.ops.tpu import example_kernel

    return example_kernel.double, [_spec((8, 128))]


CASES: dict[str, Callable[[], tuple[Callable[..., object], list]]] = {
    "matmul_f32": lambda: _matmul(jnp.float32),
    "matmul_bf16": lambda: _matmul(jnp.bfloat16),
    "flash_attention": lambda: _flash(False, False),
    "flash_attention_causal": lambda: _flash(True, False),
    "flash_attention_bwd": lambda: _flash(False, True),
    "paged_attention_f32": lambda: _paged(jnp.float32),
    "paged_attention_bf16": lambda: _paged(jnp.bfloat16),
    "ragged_paged_attention": _ragged_paged,
    "splash_attention": _splash,
    "megablox_gmm_f32": lambda: _gmm(jnp.float32),
    "megablox_gmm_bf16": lambda: _gmm(jnp.bfloat16),
    "example_double": _double,
}


def lower(case: str) -> list[str]:
    fn, specs = CASES[case]()
    lowered = jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",))
    return [mosaic_text(body) for body in mosaic_bodies(lowered.compiler_ir("stablehlo"))]


def project_verdict(python: str, path: Path) -> tuple[bool, bool, str]:
    """(parses and verifies and round-trips, proves alignment, first error line)."""
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    opt = [python, "-m", "xla_emit.tools.opt"]
    parsed = subprocess.run([*opt, str(path)], capture_output=True, text=True, env=env)
    if parsed.returncode != 0:
        return False, False, parsed.stderr.strip().splitlines()[0]
    printed = path.with_suffix(".printed.mlir")
    printed.write_text(parsed.stdout)
    again = subprocess.run([*opt, str(printed)], capture_output=True, text=True, env=env)
    if again.returncode != 0 or again.stdout != parsed.stdout:
        return False, False, "the printed module does not print the same when parsed again"
    proved = subprocess.run(
        [*opt, str(path), "-p", "tpu-verify-alignment"], capture_output=True, text=True, env=env
    )
    message = proved.stderr.strip().splitlines()[0] if proved.returncode else ""
    return True, proved.returncode == 0, message


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project-python", default=str(REPOSITORY / ".venv" / "bin" / "python"))
    parser.add_argument("--keep", type=Path, default=None, help="keep the Mosaic texts here")
    options = parser.parse_args()
    target_v6e()
    out = options.keep or Path(tempfile.mkdtemp(prefix="pallas-survey-"))
    out.mkdir(parents=True, exist_ok=True)
    kernels = parsed = proved = 0
    for case in CASES:
        try:
            texts = lower(case)
        except Exception as error:  # noqa: BLE001 - a library kernel jax cannot lower here
            print(f"{case}: does not lower on CPU ({type(error).__name__}: {error})"[:200])
            continue
        for index, text in enumerate(texts):
            path = out / f"{case}_{index}.mlir"
            path.write_text(text)
            ok, aligned, message = project_verdict(options.project_python, path)
            kernels += 1
            parsed += ok
            proved += aligned
            verdict = "proves" if aligned else ("parses" if ok else "fails")
            print(f"{case}[{index}]: {verdict}" + (f": {message}" if message else ""))
    print(f"{kernels} kernels: {parsed} parse, verify and round-trip; {proved} prove alignment")


if __name__ == "__main__":
    main()
