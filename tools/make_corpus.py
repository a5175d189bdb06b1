"""Writes the XLA corpus: JAX programs as optimized HLO text, inputs, and XLA's outputs.

    python tools/make_corpus.py [--out tests/corpus] [--only NAME ...]
    python tools/make_corpus.py --gpu [--gpu-ptx] [--out tests/corpus/gpu] [--programs MODULE:NAME]
    python tools/make_corpus.py --triton [--out DIR] [--dumps DIR] [--only NAME ...]

Needs the optional `jax` extra (never needed by `make test`). For each program
it writes `<name>.hlo` (the module after XLA's optimization and fusion passes,
as `jax.jit(f).lower(...).compile().as_text()` prints it, with the
source-location metadata removed so the text does not depend on where the
repository lives), `<name>.inputs.npz` (`arg0, arg1, ...`) and
`<name>.outputs.npz` (`out0, out1, ...`, computed by XLA). bf16 arrays are
stored as uint16 bit patterns. Inputs come from fixed seeds and the npz files
are written with fixed timestamps, so regenerating gives the same bytes
wherever XLA itself is deterministic.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# XLA reads XLA_FLAGS when jax loads it, hence before the imports below.
# XLA:CPU splits large reductions into reduce-window trees; keeping plain
# reduces keeps the corpus within the ops the front end covers. The Triton
# corpus is XLA's default options, so it keeps the pass.
if "--triton" not in sys.argv[1:]:
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + " --xla_disable_hlo_passes=tree_reduction_rewriter"
    ).strip()
if "--gpu" in sys.argv[1:]:
    # XLA:CPU's loop emitters instead of its tiled ones, so its emitter IR is
    # comparable with XLA:GPU's.
    os.environ["XLA_FLAGS"] += " --xla_backend_extra_options=xla_cpu_disable_tiled_emitter=1"
if "--gpu" in sys.argv[1:] or "--triton" in sys.argv[1:]:
    # The CUDA plugin compiles with no GPU present.
    os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
    os.environ["JAX_SKIP_CUDA_CONSTRAINTS_CHECK"] = "1"

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

if "--gpu" not in sys.argv[1:] and "--triton" not in sys.argv[1:]:
    jax.config.update("jax_platforms", "cpu")

BF16 = jnp.bfloat16


@dataclass(frozen=True)
class InputSpec:
    """One argument: shape, dtype name, and how to draw it."""

    shape: tuple[int, ...]
    dtype: str
    low: float = -3.0
    high: float = 3.0


@dataclass(frozen=True)
class Program:
    name: str
    function: Callable[..., object]
    inputs: tuple[InputSpec, ...]


def f32(*shape: int, low: float = -3.0, high: float = 3.0) -> InputSpec:
    return InputSpec(shape, "float32", low, high)


def bf16(*shape: int, low: float = -3.0, high: float = 3.0) -> InputSpec:
    return InputSpec(shape, "bfloat16", low, high)


def s32(*shape: int, low: int = -20, high: int = 20) -> InputSpec:
    return InputSpec(shape, "int32", low, high)


def _gelu_tanh(x: jax.Array) -> jax.Array:
    return jax.nn.gelu(x, approximate=True)


def _elementwise_f32(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.exp(x) * y - jnp.tanh(y) / (1.0 + x * x) + jnp.maximum(x, y)


def _elementwise_bf16(x: jax.Array, y: jax.Array) -> jax.Array:
    return (x + y) * x - y * jnp.asarray(0.5, BF16) + jnp.sqrt(jnp.abs(x)) - jnp.floor(y)


def _unary_mix(x: jax.Array) -> jax.Array:
    return (
        jnp.log1p(jnp.abs(x)) + jnp.expm1(x * 0.1) + jnp.sin(x) * jnp.cos(x)
        + jax.nn.sigmoid(x) + jnp.round(x) + jnp.sign(x) + lax.rsqrt(jnp.abs(x) + 1.0)
    )  # fmt: skip


def _unary_bf16(x: jax.Array) -> tuple[jax.Array, ...]:
    positive = jnp.abs(x) + jnp.asarray(0.5, BF16)
    return (
        jnp.exp(x), jnp.log(positive), jax.nn.sigmoid(x), lax.rsqrt(positive),
        jnp.tanh(x), jnp.sin(x), jnp.expm1(x), jnp.log1p(positive),
    )  # fmt: skip


def _transpose_2d(x: jax.Array) -> jax.Array:
    return x.T + 1.0


def _transpose_3d_exp(x: jax.Array) -> jax.Array:
    return jnp.abs(jnp.transpose(jnp.exp(x), (2, 1, 0)))


def _row_sum(x: jax.Array) -> jax.Array:
    return jnp.sum(x * x, axis=1)


def _column_max(x: jax.Array) -> jax.Array:
    return jnp.max(x, axis=0)


def _softmax(x: jax.Array) -> jax.Array:
    return jax.nn.softmax(x, axis=-1)


def _layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def _slice_concat_pad(x: jax.Array) -> jax.Array:
    left = x[:, 1:5]
    right = x[::2, 8:12]
    joined = jnp.concatenate([left[::2], right, jnp.flip(left[1::2], 1)], axis=1)
    return jnp.pad(joined, ((1, 2), (0, 3)), constant_values=-1.0)


def _iota_compare_select(x: jax.Array) -> jax.Array:
    positions = jnp.arange(x.shape[1], dtype=jnp.float32)[None, :]
    return jnp.where(positions < x * 4.0, x, -x) + jnp.where(x > 0, 1.0, 0.0)


def _converts(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    as_bf16 = (x * 3.0).astype(BF16)
    as_int = (x * 7.0).astype(jnp.int32)
    as_u8 = jnp.clip(x * 40.0, 0, 255).astype(jnp.uint8)
    return as_bf16 + as_bf16, as_int * 3 - 2, as_u8 // 3


def _multi_output(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    s = x + y
    return s, s * y, jnp.sum(s, axis=0)


def _bf16_row_sum(x: jax.Array) -> jax.Array:
    return jnp.sum(x, axis=-1)


def _integer_ops(a: jax.Array, b: jax.Array) -> tuple[jax.Array, ...]:
    nonzero = jnp.where(b == 0, 3, b)
    return (
        lax.div(a, nonzero), lax.rem(a, nonzero), a << 2, lax.shift_right_arithmetic(a, 1),
        lax.shift_right_logical(a, 3), (a & b) | (a ^ 5), jnp.maximum(a, b) - jnp.minimum(a, b),
    )  # fmt: skip


def _dynamic_slices(x: jax.Array, i: jax.Array) -> tuple[jax.Array, jax.Array]:
    window = lax.dynamic_slice(x, (i, jnp.int32(2)), (3, 4))
    updated = lax.dynamic_update_slice(x, window * 10.0, (jnp.int32(1), i))
    return window, updated


def _reverse_broadcast(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.flip(x, 0) * y[None, :] + y[:, None][:4]


def _argmax_rows(x: jax.Array) -> jax.Array:
    return jnp.argmax(x, axis=1).astype(jnp.int32)


def _reshapes(x: jax.Array) -> jax.Array:
    return (x.reshape(4, 2, 16) * 2.0).transpose(1, 0, 2).reshape(8, 16) + 1.0


def _max_pool_grad(x: jax.Array) -> jax.Array:
    """XLA rewrites the pool's select-and-scatter into a variadic (argmax) reduce-window
    and a scatter; rounding makes ties, which the argmax must break as XLA does."""

    def pooled(v: jax.Array) -> jax.Array:
        window = jax.lax.reduce_window(v, -jnp.inf, jax.lax.max, (3, 3), (1, 2), "SAME")
        return (window**2).sum()

    return jax.grad(pooled)(jnp.round(x))


PROGRAMS: tuple[Program, ...] = (
    Program("gelu_bf16", _gelu_tanh, (bf16(8, 256),)),
    Program("elementwise_f32", _elementwise_f32, (f32(16, 32), f32(16, 32))),
    Program("elementwise_bf16", _elementwise_bf16, (bf16(16, 32), bf16(16, 32))),
    Program("unary_mix_f32", _unary_mix, (f32(8, 64),)),
    Program("unary_bf16", _unary_bf16, (bf16(16, 64),)),
    Program("transpose_2d", _transpose_2d, (f32(32, 48),)),
    Program("transpose_3d_exp", _transpose_3d_exp, (f32(6, 20, 34),)),
    Program("row_sum", _row_sum, (f32(16, 128),)),
    Program("column_max", _column_max, (f32(64, 24),)),
    Program("softmax", _softmax, (f32(8, 64),)),
    Program("layernorm", _layernorm, (f32(8, 64), f32(64), f32(64))),
    Program("slice_concat_pad", _slice_concat_pad, (f32(8, 16),)),
    Program("iota_compare_select", _iota_compare_select, (f32(8, 16),)),
    Program("converts", _converts, (f32(4, 32),)),
    Program("multi_output", _multi_output, (f32(8, 16), f32(8, 16))),
    Program("bf16_row_sum", _bf16_row_sum, (bf16(4, 64),)),
    Program("integer_ops", _integer_ops, (s32(6, 8, low=-1000, high=1000), s32(6, 8))),
    Program("dynamic_slices", _dynamic_slices, (f32(6, 8), s32(low=0, high=5))),
    Program("reverse_broadcast", _reverse_broadcast, (f32(4, 8), f32(8))),
    Program("argmax_rows", _argmax_rows, (f32(6, 10),)),
    Program("reshapes", _reshapes, (f32(8, 16),)),
    Program("max_pool_grad", _max_pool_grad, (f32(5, 6),)),
)


def make_inputs(program: Program, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays: list[np.ndarray] = []
    for spec in program.inputs:
        if spec.dtype == "int32":
            arrays.append(
                rng.integers(int(spec.low), int(spec.high) + 1, spec.shape).astype(np.int32)
            )
        else:
            values = rng.uniform(spec.low, spec.high, spec.shape).astype(np.float32)
            arrays.append(values.astype(ml_dtypes.bfloat16) if spec.dtype == "bfloat16" else values)
    return arrays


_METADATA = re.compile(r", metadata=\{[^{}]*\}")
_STACK_TABLES = re.compile(
    r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n.*?(?=\n\n)", re.DOTALL
)


def optimized_hlo(program: Program, arguments: Sequence[np.ndarray]) -> str:
    compiled = jax.jit(program.function).lower(*arguments).compile()
    return strip_hlo(compiled.as_text())


def strip_hlo(text: str) -> str:
    """HLO text without source locations, which name the generating script's paths."""
    text = _STACK_TABLES.sub("", text)
    text = _METADATA.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def storable(array: np.ndarray) -> np.ndarray:
    array = np.asarray(array, order="C")
    return array.view(np.uint16) if array.dtype == ml_dtypes.bfloat16 else array


def write_npz(
    path: Path, prefix: str, arrays: Sequence[np.ndarray], method: int = zipfile.ZIP_DEFLATED
) -> None:
    """An npz file with fixed timestamps, so equal arrays give equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for number, array in enumerate(arrays):
            member = io.BytesIO()
            np.lib.format.write_array(member, storable(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{prefix}{number}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            archive.writestr(info, member.getvalue())
    path.write_bytes(buffer.getvalue())


def write_program(program: Program, out_dir: Path, seed: int) -> None:
    arguments = make_inputs(program, seed)
    text = optimized_hlo(program, arguments)
    results = jax.jit(program.function)(*arguments)
    outputs = [np.asarray(r) for r in (results if isinstance(results, tuple) else (results,))]
    (out_dir / f"{program.name}.hlo").write_text(text)
    write_npz(out_dir / f"{program.name}.inputs.npz", "arg", arguments)
    write_npz(out_dir / f"{program.name}.outputs.npz", "out", outputs)


def load_programs(spec: str) -> tuple[Program, ...]:
    """`MODULE:NAME`: a tuple of `Program` defined in another module of tools/."""
    module_name, _, attribute = spec.partition(":")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    return tuple(getattr(importlib.import_module(module_name), attribute))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus = Path(__file__).resolve().parents[1] / "tests" / "corpus"
    parser.add_argument("--out", help="output folder (default: tests/corpus[/gpu])")
    parser.add_argument("--only", nargs="*", help="program names to (re)generate")
    parser.add_argument("--gpu", action="store_true", help="the XLA:GPU corpus with dumps")
    parser.add_argument(
        "--gpu-ptx", action="store_true", help="only XLA:GPU's PTX of the GPU corpus (xla.ptx.xz)"
    )
    parser.add_argument(
        "--triton",
        action="store_true",
        help="the Triton corpus: XLA:GPU's default options (tests/corpus/triton/jax-VERSION)",
    )
    parser.add_argument(
        "--dumps", help="with --triton: keep each program's whole XLA dump in DUMPS/NAME"
    )
    parser.add_argument("--programs", help="MODULE:NAME, a program list from tools/MODULE.py")
    args = parser.parse_args(argv)
    writer = write_program
    programs = PROGRAMS
    out_dir = corpus
    if args.gpu:
        gpu_corpus = importlib.import_module("gpu_corpus")
        writer, programs, out_dir = gpu_corpus.write_program, gpu_corpus.PROGRAMS, corpus / "gpu"
        if args.gpu_ptx:
            writer = gpu_corpus.write_gpu_ptx
    if args.triton:
        triton_corpus = importlib.import_module("triton_corpus")
        writer = triton_corpus.writer(Path(args.dumps) if args.dumps else None)
        programs, out_dir = triton_corpus.PROGRAMS, triton_corpus.default_folder(corpus)
    if args.programs:
        programs = load_programs(args.programs)
    out_dir = Path(args.out) if args.out else out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    for program in programs:
        if args.only and program.name not in args.only:
            continue
        # The seed depends on the name only, so adding programs changes no other file.
        writer(program, out_dir, seed=zlib.crc32(program.name.encode()))
        print(f"wrote {program.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
