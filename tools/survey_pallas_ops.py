"""Survey jax's own Pallas TPU kernels: how many of them parse, verify, round-trip and prove.

    python tools/survey_pallas_ops.py [--project-python .venv/bin/python] [--keep DIR] [--run]

Run it with a Python that has jax and jaxlib 0.10.2 or 0.12 (outside `make test`).
It lowers the kernels of `jax.experimental.pallas.ops.tpu` (matmul, flash
attention forward and backward, paged attention, ragged paged attention,
splash attention, megablox gmm, ...) for TPU on this CPU-only machine, exactly
as `tools/make_pallas_corpus.py` lowers the corpus, and hands each Mosaic
module to this project (run by `--project-python` with the repository on
`PYTHONPATH`): `xla-emit-opt` parses and verifies it, prints it and parses
the print again, and runs `tpu-verify-alignment`. Nothing is written to the
repository; `--keep` keeps the Mosaic texts.

With `--run` (jax 0.12) each case also runs once on small inputs under Pallas's
TPU interpret mode on CPU, recording every `pallas_call`'s operands and
results; each call is lowered for TPU on its own and `xla-emit-run` runs the
Mosaic module on the recorded operands (dynamic grid bounds first, then the
prefetch arrays and inputs), and its outputs are compared with interpret
mode's: f32 within 1e-5 of the largest output, bf16 within 1 ulp, integers bit for
bit.
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


def _random(generator: str) -> tuple[Callable[..., object], list]:
    """Philox or threefry random bits of a (256, 256) block, from a (2,) uint32 key."""
    if generator == "philox":
        from jax.experimental.pallas.ops.tpu.random import philox

        return (lambda key: philox.philox_random_bits(key, 32, (256, 256))), [
            _spec((2,), jnp.uint32)
        ]
    from jax.experimental.pallas.ops.tpu.random import threefry

    return (lambda key: threefry.plthreefry_random_bits(key, 32, (256, 256))), [
        _spec((2,), jnp.uint32)
    ]


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
    "random_philox": lambda: _random("philox"),
    "random_threefry": lambda: _random("threefry"),
    "example_double": _double,
}


def lower(case: str) -> list[str]:
    fn, specs = CASES[case]()
    lowered = jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",))
    return [mosaic_text(body) for body in mosaic_bodies(lowered.compiler_ir("stablehlo"))]


def _integer_inputs(case: str) -> dict[int, list]:
    """Integer operands that must be in range, by position: sequence lengths up to the
    pages a sequence has, page indices that are a shuffle of the pages, group sizes that
    sum to at most the rows."""
    import numpy as np

    pages = np.random.default_rng(1).permutation(64)[:32].reshape(2, 16).tolist()
    table: dict[str, dict[int, list]] = {
        "paged_attention_f32": {3: [200, 37], 4: pages},
        "paged_attention_bf16": {3: [200, 37], 4: pages},
        "megablox_gmm_f32": {2: [100, 200, 12, 200]},
        "megablox_gmm_bf16": {2: [100, 200, 12, 200]},
        "random_philox": {0: [0x12345678, 0x9ABCDEF0]},
        "random_threefry": {0: [0x12345678, 0x9ABCDEF0]},
    }
    return table.get(case, {})


def _inputs(case: str, specs: list[jax.ShapeDtypeStruct], seed: int = 0) -> list[object]:
    """Small inputs: floats ~ N(0, 1); integers from `_integer_inputs`, else 1."""
    import numpy as np

    rng = np.random.default_rng(seed)
    chosen = _integer_inputs(case)
    values: list[object] = []
    for position, spec in enumerate(specs):
        if position in chosen:
            values.append(jnp.asarray(np.asarray(chosen[position]).astype(spec.dtype)))
        elif jnp.issubdtype(spec.dtype, jnp.integer):
            values.append(jnp.ones(spec.shape, spec.dtype))
        else:
            values.append(jnp.asarray(rng.standard_normal(spec.shape), spec.dtype))
    return values


def record_calls(case: str) -> list[tuple[dict, list, list]]:
    """Every pallas_call the case makes in interpret mode: (params, operands, results)."""
    from jax._src.pallas import pallas_call as pallas_call_module
    from jax.experimental.pallas import tpu as pltpu

    primitive = pallas_call_module.pallas_call_p
    original = primitive.impl
    calls: list[tuple[dict, list, list]] = []

    def recording(*args: object, **params: object) -> object:
        results = original(*args, **params)
        calls.append((params, list(args), list(results)))
        return results

    fn, specs = CASES[case]()
    primitive.def_impl(recording)
    try:
        with pltpu.force_tpu_interpret_mode(), jax.disable_jit():
            fn(*_inputs(case, specs))
    finally:
        primitive.def_impl(original)
    return calls


def lower_call(params: dict, operands: list) -> str:
    """The Mosaic module of one recorded pallas_call, lowered for TPU."""
    from jax._src.pallas import pallas_call as pallas_call_module

    primitive = pallas_call_module.pallas_call_p
    compiled = dict(params, interpret=False)
    specs = [jax.ShapeDtypeStruct(jnp.shape(o), jnp.result_type(o)) for o in operands]
    fn = jax.jit(lambda *args: primitive.bind(*args, **compiled))
    lowered = fn.trace(*specs).lower(lowering_platforms=("tpu",))
    (body,) = mosaic_bodies(lowered.compiler_ir("stablehlo"))
    return mosaic_text(body)


def run_verdict(python: str, path: Path, operands: list, results: list) -> str:
    """`matches`, or how our interpreter's outputs differ from interpret mode's."""
    import ml_dtypes
    import numpy as np

    def storable(value: object) -> np.ndarray:
        array = np.asarray(value)
        return array.view(np.uint16) if array.dtype == ml_dtypes.bfloat16 else array

    inputs, outputs = path.with_suffix(".inputs.npz"), path.with_suffix(".outputs.npz")
    np.savez(inputs, **{f"arg{n}": storable(o) for n, o in enumerate(operands)})
    shapes = ",".join("x".join(map(str, np.shape(r))) or "1" for r in results)
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    command = [python, "-m", "xla_emit.tools.run", str(path), "--inputs", str(inputs)]
    ran = subprocess.run(
        [*command, "-o", str(outputs), "--output-shapes", shapes],
        capture_output=True,
        text=True,
        env=env,
    )
    if ran.returncode != 0:
        return "fails: " + (ran.stderr.strip().splitlines() or ["(no message)"])[0]
    with np.load(outputs) as archive:
        got = [archive[f"out{n}"] for n in range(len(results))]
    for number, (mine, theirs) in enumerate(zip(got, results, strict=True)):
        reference = np.asarray(theirs)
        if reference.dtype == ml_dtypes.bfloat16:
            apart = np.abs(mine.astype(np.int32) - storable(reference).astype(np.int32))
            if apart.max(initial=0) > 1:
                return f"output {number} differs by {apart.max()} bf16 ulp"
            continue
        if reference.dtype.kind in "iub":
            # Signless integers: the same bits, whatever signedness each side reads them with.
            width = f"u{reference.dtype.itemsize}"
            if not np.array_equal(mine.view(width), reference.view(width)):
                wrong = np.count_nonzero(mine.view(width) != reference.view(width))
                return f"output {number} differs in {wrong} elements"
            continue
        scale = float(np.abs(reference).max(initial=0)) or 1.0
        error = float(np.abs(mine.astype(np.float64) - reference).max(initial=0))
        if error > 1e-5 * scale:
            return f"output {number} differs by {error:.3g} (largest output {scale:.3g})"
    return "matches"


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
    parser.add_argument("--run", action="store_true", help="run against interpret mode")
    options = parser.parse_args()
    target_v6e()
    if options.run:
        run_all(options.project_python, options.keep)
        return
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


def run_all(python: str, keep: Path | None) -> None:
    out = keep or Path(tempfile.mkdtemp(prefix="pallas-run-"))
    out.mkdir(parents=True, exist_ok=True)
    calls = matched = 0
    for case in CASES:
        try:
            recorded = record_calls(case)
        except Exception as error:  # noqa: BLE001 - a kernel interpret mode cannot run here
            print(
                f"{case}: does not run in interpret mode on CPU ({type(error).__name__}: {error})"[
                    :240
                ]
            )
            continue
        for index, (params, operands, results) in enumerate(recorded):
            path = out / f"{case}_call{index}.mlir"
            try:
                path.write_text(lower_call(params, operands))
            except Exception as error:  # noqa: BLE001
                print(f"{case}[{index}]: does not lower alone ({type(error).__name__})")
                continue
            verdict = run_verdict(python, path, operands, results)
            calls += 1
            matched += verdict == "matches"
            print(f"{case}[{index}]: {verdict}")
    print(f"{calls} calls run: {matched} match interpret mode")


if __name__ == "__main__":
    main()
