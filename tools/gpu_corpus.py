"""The corpus of today's XLA:GPU: what `python tools/make_corpus.py --gpu` writes.

For each program, in `tests/corpus/gpu/NAME/`:

- `gpu.hlo`: the module XLA:GPU optimizes for an H100 (a deviceless compile with
  the CUDA plugin and the target in `xla_emit/jax/targets/h100.txtpb`), source
  locations stripped;
- `gpu/KERNEL.mlir-passes.log.xz`: XLA:GPU's kernel pipeline log for each fusion
  (`--xla_dump_emitter_re=.*`): the module before every MLIR pass, the first
  snapshot being the emitter's output;
- `gpu/xla.ptx.xz`: the PTX XLA:GPU writes for the module's kernels (its `*.ptx`
  dumps, in order), what `tools/llvm_report.py` compares ours with;
- `cpu.hlo` and `cpu/KERNEL.mlir.xz`: XLA:CPU's optimized module and the emitter
  IR of each of its kernels (`xla_cpu_disable_tiled_emitter=1`, so the same loop
  emitters as on GPU);
- `inputs.npz` (`arg0, ...`) and `outputs.npz` (`out0, ...`): XLA:CPU's results,
  LZMA-compressed members.

Arrays larger than `PERIODIC_ABOVE` elements repeat a random block of a prime
number of elements, so that they compress to a few kilobytes while an index
mapped to the wrong place still reads a different value (the period divides no
dimension). They are large enough that XLA vectorizes the loop emitter (about
132 SMs x 2048 threads elements on an H100).
"""

from __future__ import annotations

import lzma
import re
import tempfile
import zipfile
from pathlib import Path

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax
from jax.experimental import topologies
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P
from make_corpus import InputSpec, Program, bf16, f32, s32, strip_hlo, write_npz

BF16 = jnp.bfloat16
PERIODIC_ABOVE = 1 << 13
PERIOD = 4093
H100_CONFIG = Path(__file__).resolve().parents[1] / "xla_emit" / "jax" / "targets" / "h100.txtpb"
# Softmax and layernorm stay on the reduction and loop emitters instead of Triton.
GPU_OPTIONS = {"xla_disable_hlo_passes": "triton-softmax-rewriter"}
DUMP_OPTIONS = {"xla_dump_emitter_re": ".*", "xla_dump_hlo_as_text": True}


def f16(*shape: int, low: float = -3.0, high: float = 3.0) -> InputSpec:
    return InputSpec(shape, "float16", low, high)


def _gelu(x: jax.Array) -> jax.Array:
    return jax.nn.gelu(x, approximate=True)


def _elementwise(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.exp(x) * y - jnp.tanh(y) / (1.0 + x * x) + jnp.maximum(x, y)


def _elementwise_bf16(x: jax.Array, y: jax.Array) -> jax.Array:
    return (x + y) * x - y * jnp.asarray(0.5, BF16) + jnp.sqrt(jnp.abs(x)) - jnp.floor(y)


def _transpose_2d(x: jax.Array) -> jax.Array:
    return x.T + 1.0


def _transpose_3d(x: jax.Array) -> jax.Array:
    return jnp.exp(jnp.transpose(x, (2, 1, 0)))


def _transpose_bf16_packed(x: jax.Array) -> jax.Array:
    """XLA's packed transpose (two bf16 per shared-memory word): it reads whole vectors of
    its tile, elements no thread wrote included, and stores only those its map keeps."""
    return x.T * jnp.asarray(2.0, BF16)


def _row_sum(x: jax.Array) -> jax.Array:
    return jnp.sum(x * x, axis=1)


def _column_max(x: jax.Array) -> jax.Array:
    return jnp.max(x, axis=0)


def _multi_dim_sum(x: jax.Array) -> jax.Array:
    return jnp.sum(x, axis=(0, 2))


def _multi_row_sum(x: jax.Array) -> jax.Array:
    """Rows of 8: XLA's row reduction puts several rows in one warp."""
    return jnp.sum(x, axis=1)


def _kv_cache_update(
    cache: jax.Array, key: jax.Array, position: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """A decode step: the new key written into the cache at `position`, then scores."""
    updated = lax.dynamic_update_slice(cache, key[None, :], (position, jnp.int32(0)))
    return updated, updated @ key


def _scatter_add_duplicates(values: jax.Array, segments: jax.Array) -> jax.Array:
    """Segment sums: many rows land on each of 16 segments (atomic adds)."""
    return jnp.zeros((16, values.shape[1]), values.dtype).at[segments].add(values)


def _argmax_rows(x: jax.Array) -> jax.Array:
    return jnp.argmax(x, axis=1).astype(jnp.int32)


def _softmax(x: jax.Array) -> jax.Array:
    return jax.nn.softmax(x, axis=-1)


def _layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def _concatenate(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.concatenate([x * 2.0, y, -x], axis=1)


def _pad(x: jax.Array) -> jax.Array:
    return jnp.pad(x + 1.0, ((1, 2), (3, 5)), constant_values=-1.0)


def _slices(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    return x[1:257, 8:520] * 3.0, x[::2, ::3] + 1.0


def _dynamic_slice(x: jax.Array, i: jax.Array) -> jax.Array:
    return lax.dynamic_slice(x, (i, jnp.int32(5)), (256, 512)) * 2.0


def _dynamic_update_slice(x: jax.Array, update: jax.Array, i: jax.Array) -> jax.Array:
    return lax.dynamic_update_slice(x, update * 10.0, (jnp.int32(3), i))


def _reverse(x: jax.Array) -> jax.Array:
    return jnp.flip(x, (0, 1)) - 1.0


def _iota_compare_select(x: jax.Array) -> jax.Array:
    positions = jnp.arange(x.shape[1], dtype=jnp.float32)[None, :]
    return jnp.where(positions < x * 200.0, x, -x) + jnp.where(x > 0, 1.0, 0.0)


def _converts(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    return (x * 3.0).astype(BF16), (x * 100.0).astype(jnp.int32), (x * 0.5).astype(jnp.float16)


def _converts_back(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    return x.astype(jnp.float32) + 1.0, y.astype(BF16) * jnp.asarray(2.0, BF16)


ROWS, COLUMNS = 512, 640  # 327680 elements: XLA:GPU unrolls by 4

PROGRAMS: tuple[Program, ...] = (
    Program("gelu_bf16", _gelu, (bf16(ROWS, COLUMNS),)),
    Program("gelu_f32", _gelu, (f32(ROWS, COLUMNS),)),
    Program("elementwise_f32", _elementwise, (f32(ROWS, COLUMNS), f32(ROWS, COLUMNS))),
    Program("elementwise_bf16", _elementwise_bf16, (bf16(ROWS, COLUMNS), bf16(ROWS, COLUMNS))),
    Program("transpose_2d", _transpose_2d, (f32(192, 320),)),
    Program("transpose_3d", _transpose_3d, (f32(40, 24, 96),)),
    Program("transpose_bf16_packed", _transpose_bf16_packed, (bf16(130, 70),)),
    Program("row_sum", _row_sum, (f32(256, 512),)),
    Program("column_max", _column_max, (f32(384, 160),)),
    Program("multi_dim_sum", _multi_dim_sum, (f32(16, 48, 64),)),
    Program("multi_row_sum", _multi_row_sum, (f32(4096, 8),)),
    Program("kv_cache_update", _kv_cache_update, (f32(256, 64), f32(64), s32(low=0, high=255))),
    Program(
        "scatter_add_duplicates",
        _scatter_add_duplicates,
        (f32(512, 32), s32(512, low=0, high=15)),
    ),
    Program("argmax_rows", _argmax_rows, (f32(128, 300),)),
    Program("softmax", _softmax, (f32(128, 512),)),
    Program("layernorm", _layernorm, (f32(128, 512), f32(512), f32(512))),
    Program("concatenate", _concatenate, (f32(ROWS, 256), f32(ROWS, 128))),
    Program("pad", _pad, (f32(ROWS, COLUMNS),)),
    Program("slices", _slices, (f32(ROWS, COLUMNS),)),
    Program("dynamic_slice", _dynamic_slice, (f32(ROWS, COLUMNS), s32(low=0, high=300))),
    Program(
        "dynamic_update_slice",
        _dynamic_update_slice,
        (f32(ROWS, COLUMNS), f32(128, 256), s32(low=0, high=500)),
    ),
    Program("reverse", _reverse, (f32(ROWS, COLUMNS),)),
    Program("iota_compare_select", _iota_compare_select, (f32(ROWS, COLUMNS),)),
    Program("converts", _converts, (f32(ROWS, COLUMNS),)),
    Program("converts_back", _converts_back, (f16(ROWS, COLUMNS), s32(ROWS, COLUMNS))),
)


def draw(spec: InputSpec, rng: np.random.Generator, size: int) -> np.ndarray:
    if spec.dtype == "int32":
        return rng.integers(int(spec.low), int(spec.high) + 1, size).astype(np.int32)
    values = rng.uniform(spec.low, spec.high, size).astype(np.float32)
    return values.astype(ml_dtypes.bfloat16 if spec.dtype == "bfloat16" else spec.dtype)


def make_inputs(program: Program, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays: list[np.ndarray] = []
    for spec in program.inputs:
        size = int(np.prod(spec.shape, dtype=np.int64))
        if size > PERIODIC_ABOVE:
            values = np.resize(draw(spec, rng, PERIOD), size)
        else:
            values = draw(spec, rng, size)
        arrays.append(values.reshape(spec.shape))
    return arrays


def h100_arguments(arguments: list[np.ndarray]) -> list[jax.ShapeDtypeStruct]:
    topology = topologies.get_topology_desc(
        platform="cuda", target_config=H100_CONFIG.read_text(), topology="1x1x1"
    )
    mesh = topologies.make_mesh(topology, (1,), ("d",))
    sharding = NamedSharding(mesh, P())
    return [jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=sharding) for a in arguments]


_DUMP_PREFIX = re.compile(r"^module_\d+\.[^.]+\.")


def write_xz(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))


def keep_dumps(dump_dir: Path, suffix: str, out_dir: Path, new_suffix: str) -> None:
    for path in sorted(dump_dir.glob(f"*{suffix}")):
        kernel = _DUMP_PREFIX.sub("", path.name)[: -len(suffix)]
        write_xz(out_dir / f"{kernel}{new_suffix}.xz", path.read_text())


def keep_ptx(dump_dir: Path, out_dir: Path) -> None:
    """XLA's PTX files of one module, joined in their order, as `xla.ptx.xz`."""
    files = sorted(dump_dir.glob("*.ptx"), key=lambda p: int(p.name.split(".")[-2]))
    write_xz(out_dir / "xla.ptx.xz", "\n".join(p.read_text() for p in files))


def write_gpu_ptx(program: Program, out_dir: Path, seed: int) -> None:
    """Only XLA:GPU's PTX of `program` (a deviceless compile), into `NAME/gpu/`."""
    arguments = make_inputs(program, seed)
    with tempfile.TemporaryDirectory() as gpu_dir:
        (
            jax.jit(program.function)
            .trace(*h100_arguments(arguments))
            .lower(lowering_platforms=("cuda",))
            .compile({**GPU_OPTIONS, "xla_dump_to": gpu_dir})
        )
        keep_ptx(Path(gpu_dir), out_dir / program.name / "gpu")


def write_program(program: Program, out_dir: Path, seed: int) -> None:
    folder = out_dir / program.name
    folder.mkdir(parents=True, exist_ok=True)
    arguments = make_inputs(program, seed)
    with tempfile.TemporaryDirectory() as gpu_dir, tempfile.TemporaryDirectory() as cpu_dir:
        gpu = (
            jax.jit(program.function)
            .trace(*h100_arguments(arguments))
            .lower(lowering_platforms=("cuda",))
            .compile({**GPU_OPTIONS, **DUMP_OPTIONS, "xla_dump_to": gpu_dir})
        )
        cpu_device = jax.devices("cpu")[0]
        on_cpu = [jax.device_put(a, cpu_device) for a in arguments]
        cpu = (
            jax.jit(program.function)
            .lower(*on_cpu)
            .compile({**DUMP_OPTIONS, "xla_dump_to": cpu_dir})
        )
        results = cpu(*on_cpu)
        (folder / "gpu.hlo").write_text(strip_hlo(gpu.as_text()))
        (folder / "cpu.hlo").write_text(strip_hlo(cpu.as_text()))
        keep_dumps(Path(gpu_dir), ".mlir-passes.log", folder / "gpu", ".mlir-passes.log")
        keep_ptx(Path(gpu_dir), folder / "gpu")
        keep_dumps(Path(cpu_dir), "_kernel_module-pre-optimization.mlir", folder / "cpu", ".mlir")
    outputs = [np.asarray(r) for r in (results if isinstance(results, tuple) else (results,))]
    write_npz(folder / "inputs.npz", "arg", arguments, zipfile.ZIP_LZMA)
    write_npz(folder / "outputs.npz", "out", outputs, zipfile.ZIP_LZMA)
