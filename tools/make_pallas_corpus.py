"""Writes the Pallas corpus: Pallas TPU kernels as Mosaic MLIR, inputs, and interpret-mode outputs.

    python tools/make_pallas_corpus.py [--out tests/corpus/pallas] [--only NAME ...]

Run it in an environment with jax and jaxlib 0.10.2, or 0.12 (`--out
tests/corpus/pallas/jax-0.12`); never needed by `make test`.
Each kernel is a `pl.pallas_call` the project writes itself. For each one the
tool writes

- `<name>.mlir`: the Mosaic module Pallas hands to the TPU compiler. The call is
  lowered for TPU on this (CPU-only) machine; the module is taken from the
  `tpu_custom_call`'s serialized body and deserialized with jaxlib's
  `mosaic-serde{serialize=false}` pass, then printed without locations.
- `<name>.inputs.npz` (`arg0, arg1, ...`) and `<name>.outputs.npz`
  (`out0, ...`): the same call run with Pallas's `interpret=True` on CPU. bf16
  arrays are stored as uint16 bit patterns.

Inputs come from fixed seeds (small integers where sums must be exact), and
the npz files carry fixed timestamps, so regenerating gives the same bytes.
The kernels named `bad_*` hold the classic alignment mistakes; their outputs
are still what interpret mode computes (it does not model tiling).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import json
import os
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib import tpu as tpu_ext
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
from jaxlib.mlir import ir
from jaxlib.mlir.passmanager import PassManager

# jax 0.12 moved `reciprocal` to the TPU module (0.10.2 has it in `pl` only).
reciprocal = getattr(pltpu, "reciprocal", None) or pl.reciprocal
F32 = jnp.float32
BF16 = jnp.bfloat16
I32 = jnp.int32

# --------------------------------------------------------------------------- lowering


def mosaic_bodies(stablehlo: ir.Module) -> list[bytes]:
    """The serialized Mosaic modules of every `tpu_custom_call` in a lowered program."""
    bodies: list[bytes] = []

    def walk(op: ir.Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    if inner.name == "stablehlo.custom_call":
                        config = json.loads(ir.StringAttr(inner.attributes["backend_config"]).value)
                        bodies.append(base64.b64decode(config["custom_call_config"]["body"]))
                    walk(inner.operation)

    walk(stablehlo.operation)
    return bodies


def mosaic_text(body: bytes) -> str:
    """Mosaic's own printed form of a serialized kernel module (no locations)."""
    ctx = jax_mlir.make_ir_context()
    tpu_ext.register_dialect(ctx)
    with ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(body)
        PassManager.parse("builtin.module(mosaic-serde{serialize=false})").run(module.operation)
        return module.operation.get_asm(enable_debug_info=False)


def lower_for_tpu(fn: Callable[..., object], args: Sequence[np.ndarray]) -> list[str]:
    """Every Mosaic kernel `fn` lowers to, as text, lowered for TPU on CPU."""
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
    with target_tpu():
        lowered = jax.jit(fn).trace(*specs).lower(lowering_platforms=("tpu",))
    return [mosaic_text(body) for body in mosaic_bodies(lowered.compiler_ir("stablehlo"))]


def target_tpu() -> contextlib.AbstractContextManager[object]:
    """From jax 0.12 on, lowering asks which TPU it targets (`run_scoped` sizes VMEM by it);
    on a CPU-only machine an abstract mesh on one v6e core says so. 0.10.2 never asks."""
    if jax.__version_info__ < (0, 12):
        return contextlib.nullcontext()
    from jax._src import mesh as mesh_lib

    device = mesh_lib.AbstractDevice(device_kind="TPU v6 lite", num_cores=1, platform="tpu")
    mesh = jax.sharding.AbstractMesh((1,), ("x",), abstract_device=device)
    return jax.sharding.use_abstract_mesh(mesh)


# --------------------------------------------------------------------------- kernels


def matmul_kernel(x_ref, y_ref, o_ref, acc_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        acc_ref[...] = jnp.zeros_like(acc_ref)

    acc_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=F32)

    @pl.when(pl.program_id(2) == pl.num_programs(2) - 1)
    def _():
        o_ref[...] = acc_ref[...].astype(o_ref.dtype)


def matmul(interpret: bool) -> Callable[..., jax.Array]:
    """A (16, 256) x (256, 256) matmul over a 2x2x2 grid with a VMEM accumulator."""

    def call(x: jax.Array, y: jax.Array) -> jax.Array:
        return pl.pallas_call(
            matmul_kernel,
            grid=(2, 2, 2),
            in_specs=[
                pl.BlockSpec((8, 128), lambda i, j, k: (i, k)),
                pl.BlockSpec((128, 128), lambda i, j, k: (k, j)),
            ],
            out_specs=pl.BlockSpec((8, 128), lambda i, j, k: (i, j)),
            out_shape=jax.ShapeDtypeStruct((16, 256), F32),
            scratch_shapes=[pltpu.VMEM((8, 128), F32)],
            compiler_params=pltpu.CompilerParams(
                dimension_semantics=("parallel", "parallel", "arbitrary")
            ),
            interpret=interpret,
        )(x, y)

    return call


def matmul_bf16(interpret: bool) -> Callable[..., jax.Array]:
    """A bf16 matmul accumulating in f32 inside the kernel, one 16-row block per step."""

    def kernel(x_ref, y_ref, o_ref):
        acc = jnp.dot(x_ref[...], y_ref[...], preferred_element_type=F32)
        o_ref[...] = acc.astype(o_ref.dtype)

    def call(x: jax.Array, y: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(2,),
            in_specs=[
                pl.BlockSpec((16, 128), lambda i: (i, 0)),
                pl.BlockSpec((128, 128), lambda i: (0, 0)),
            ],
            out_specs=pl.BlockSpec((16, 128), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct((32, 128), BF16),
            interpret=interpret,
        )(x, y)

    return call


def attention(interpret: bool) -> Callable[..., jax.Array]:
    """Softmax(q k^T / sqrt(d)) v for one head, one 8-row query block per grid step."""

    def kernel(q_ref, k_ref, v_ref, o_ref):
        q = q_ref[...]
        s = jax.lax.dot_general(q, k_ref[...], (((1,), (1,)), ((), ())))
        s = s * (1.0 / 128.0**0.5)
        m = jnp.max(s, axis=1, keepdims=True)
        p = jnp.exp(s - m)
        l_sum = jnp.sum(p, axis=1, keepdims=True)
        o_ref[...] = jnp.dot(p, v_ref[...]) / l_sum

    def call(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(2,),
            in_specs=[
                pl.BlockSpec((8, 128), lambda i: (i, 0)),
                pl.BlockSpec((128, 128), lambda i: (0, 0)),
                pl.BlockSpec((128, 128), lambda i: (0, 0)),
            ],
            out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct((16, 128), F32),
            interpret=interpret,
        )(q, k, v)

    return call


def layernorm(interpret: bool) -> Callable[..., jax.Array]:
    """Row layernorm with gamma and beta, 8 rows per grid step."""

    def kernel(x_ref, g_ref, b_ref, o_ref):
        x = x_ref[...]
        mean = jnp.mean(x, axis=1, keepdims=True)
        centered = x - mean
        var = jnp.mean(centered * centered, axis=1, keepdims=True)
        o_ref[...] = centered * jax.lax.rsqrt(var + 1e-5) * g_ref[...] + b_ref[...]

    def call(x: jax.Array, g: jax.Array, b: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(2,),
            in_specs=[
                pl.BlockSpec((8, 256), lambda i: (i, 0)),
                pl.BlockSpec((1, 256), lambda i: (0, 0)),
                pl.BlockSpec((1, 256), lambda i: (0, 0)),
            ],
            out_specs=pl.BlockSpec((8, 256), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct((16, 256), F32),
            interpret=interpret,
        )(x, g, b)

    return call


def row_blocks_loop(interpret: bool) -> Callable[..., jax.Array]:
    """Sum 8-row slabs found with `pl.ds(pl.multiple_of(i * 8, 8), 8)` in a fori_loop."""

    def kernel(x_ref, o_ref):
        def body(i, acc):
            start = pl.multiple_of(i * 8, 8)
            return acc + x_ref[pl.ds(start, 8), :]

        o_ref[...] = jax.lax.fori_loop(0, 8, body, jnp.zeros((8, 256), F32))

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 256), F32), interpret=interpret
        )(x)

    return call


def lane_blocks_loop(interpret: bool) -> Callable[..., jax.Array]:
    """Add 128-lane column blocks found with an i32 loop counter times 128."""

    def kernel(x_ref, o_ref):
        def body(j, acc):
            return acc + x_ref[:, pl.ds(pl.multiple_of(j * 128, 128), 128)]

        o_ref[...] = jax.lax.fori_loop(0, 3, body, jnp.zeros((8, 128), F32))

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 128), F32), interpret=interpret
        )(x)

    return call


def loop_stride_rows(interpret: bool) -> Callable[..., jax.Array]:
    """Rows `pl.ds(i, 8)` for i in range(0, 32, 8): aligned by the loop's step, no hint."""

    def kernel(x_ref, o_ref):
        def body(i, acc):
            return acc + x_ref[pl.ds(i * 8, 8), :] * 2.0

        o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros((8, 256), F32))

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 256), F32), interpret=interpret
        )(x)

    return call


def scalar_prefetch_gather(interpret: bool) -> Callable[..., jax.Array]:
    """Gather 8-row blocks in the order a scalar-prefetched index table gives."""

    def kernel(idx_ref, x_ref, o_ref):
        o_ref[...] = x_ref[...] + idx_ref[pl.program_id(0)].astype(F32)

    def call(idx: jax.Array, x: jax.Array) -> jax.Array:
        grid_spec = pltpu.PrefetchScalarGridSpec(
            num_scalar_prefetch=1,
            grid=(4,),
            in_specs=[pl.BlockSpec((8, 128), lambda i, idx_ref: (idx_ref[i], 0))],
            out_specs=pl.BlockSpec((8, 128), lambda i, idx_ref: (i, 0)),
        )
        return pl.pallas_call(
            kernel,
            grid_spec=grid_spec,
            out_shape=jax.ShapeDtypeStruct((32, 128), F32),
            interpret=interpret,
        )(idx, x)

    return call


def dma_rows(interpret: bool) -> Callable[..., jax.Array]:
    """Copy an 8-row slab of an HBM array into VMEM scratch by DMA, then scale it."""

    def kernel(x_hbm, o_ref, buf, sem):
        start = pl.multiple_of(pl.program_id(0) * 8, 8)
        copy = pltpu.make_async_copy(x_hbm.at[pl.ds(start, 8)], buf, sem)
        copy.start()
        copy.wait()
        o_ref[...] = buf[...] * 3.0

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(2,),
            in_specs=[pl.BlockSpec(memory_space=pl.ANY)],
            out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct((16, 128), F32),
            scratch_shapes=[pltpu.VMEM((8, 128), F32), pltpu.SemaphoreType.DMA],
            interpret=interpret,
        )(x)

    return call


def strided_rows(interpret: bool) -> Callable[..., jax.Array]:
    """Every other row of a (16, 128) block: a strided load."""

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[pl.ds(0, 8, stride=2), :] + x_ref[pl.ds(1, 8, stride=2), :]

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 128), F32), interpret=interpret
        )(x)

    return call


def masked_select(interpret: bool) -> Callable[..., jax.Array]:
    """Vector compares, selects, iota and an integer column sum."""

    def kernel(x_ref, o_ref, n_ref):
        x = x_ref[...]
        col = jax.lax.broadcasted_iota(I32, x.shape, 1)
        keep = (x > 0.0) & (col < 100)
        o_ref[...] = jnp.where(keep, x, -x)
        n_ref[...] = jnp.sum(keep.astype(I32), axis=0, keepdims=True)

    def call(x: jax.Array) -> tuple[jax.Array, jax.Array]:
        return pl.pallas_call(
            kernel,
            out_shape=(jax.ShapeDtypeStruct((8, 128), F32), jax.ShapeDtypeStruct((1, 128), I32)),
            interpret=interpret,
        )(x)

    return call


def bad_lane_offset(interpret: bool) -> Callable[..., jax.Array]:
    """The classic off-by-one: `pl.ds(start + 1, 128)` on the lane dimension."""

    def kernel(x_ref, o_ref):
        start = pl.multiple_of(pl.program_id(0) * 128, 128)
        o_ref[...] = x_ref[:, pl.ds(start + 1, 128)]

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(2,),
            in_specs=[pl.BlockSpec((8, 384), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((8, 128), lambda i: (0, i)),
            out_shape=jax.ShapeDtypeStruct((8, 256), F32),
            interpret=interpret,
        )(x)

    return call


def bad_f32_rows(interpret: bool) -> Callable[..., jax.Array]:
    """8-row slices of an f32 ref at row `program_id * 4`: not provably a multiple of 8."""

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[pl.ds(pl.program_id(0) * 4, 8), :]

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel,
            grid=(3,),
            in_specs=[pl.BlockSpec((16, 256), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((8, 256), lambda i: (i, 0)),
            out_shape=jax.ShapeDtypeStruct((24, 256), F32),
            interpret=interpret,
        )(x)

    return call


def bad_bf16_rows(interpret: bool) -> Callable[..., jax.Array]:
    """bf16 rows at multiples of 8 in a VMEM scratch: on v6 bf16 scratch tiles hold 16 rows."""

    def kernel(x_ref, o_ref):
        def scoped(buf):
            buf[...] = x_ref[...]

            def body(i, acc):
                rows = buf[pl.ds(pl.multiple_of(i * 8, 8), 8), :]
                return acc + rows.astype(F32)

            o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros((8, 256), F32))

        pl.run_scoped(scoped, pltpu.VMEM((32, 256), BF16))

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 256), F32), interpret=interpret
        )(x)

    return call


def edge_rows(interpret: bool) -> Callable[..., jax.Array]:
    """A (20, 256) array in (8, 128) blocks: the last row of blocks hangs 4 rows past the end
    (a partial edge block: reads there are unspecified, writes there are dropped)."""

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2.0 + 1.0

    def call(x: jax.Array) -> jax.Array:
        spec = pl.BlockSpec((8, 128), lambda i, j: (i, j))
        return pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct((20, 256), F32),
            grid=(3, 2),
            in_specs=[spec],
            out_specs=spec,
            interpret=interpret,
        )(x)

    return call


def squeezed_lane_edge(interpret: bool) -> Callable[..., jax.Array]:
    """A (3, 16, 200) array in (None, 8, 128) blocks: the leading dim squeezed out of the
    kernel's refs, the last block of lanes hanging 56 lanes past the end."""

    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2.0 + pl.program_id(0).astype(F32)

    def call(x: jax.Array) -> jax.Array:
        spec = pl.BlockSpec((None, 8, 128), lambda b, i, j: (b, i, j))
        return pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct((3, 16, 200), F32),
            grid=(3, 2, 2),
            in_specs=[spec],
            out_specs=spec,
            interpret=interpret,
        )(x)

    return call


def vector_ops(interpret: bool) -> Callable[..., jax.Array]:
    """Iota, rolls, transposes, concatenation, broadcasts, argmax and all-reductions."""

    def kernel(x_ref, y_ref, o_ref, i_ref):
        x = x_ref[...]
        rows = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 0)
        lanes = jax.lax.broadcasted_iota(jnp.int32, (8, 128), 1)
        rolled = pltpu.roll(x, shift=3, axis=1) + pltpu.roll(x, shift=2, axis=0)
        square = y_ref[...]
        flipped = jnp.transpose(square)
        both = jnp.concatenate([x[:, :64], rolled[:, 64:]], axis=1)
        col = jnp.sum(x, axis=0, keepdims=True)
        row = jnp.max(x, axis=1, keepdims=True)
        o_ref[...] = both + col + row + (rows * lanes).astype(F32) + flipped[:8, :]
        i_ref[...] = jnp.broadcast_to(jnp.argmax(x, axis=1, keepdims=True).astype(I32), (8, 128))

    def call(x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
        return pl.pallas_call(
            kernel,
            out_shape=(
                jax.ShapeDtypeStruct((8, 128), F32),
                jax.ShapeDtypeStruct((8, 128), I32),
            ),
            interpret=interpret,
        )(x, y)

    return call


def lane_gather(interpret: bool) -> Callable[..., jax.Array]:
    """Lane gathers by computed indices, reciprocals, bitcasts and bf16 rounding."""

    def kernel(x_ref, o_ref):
        x = x_ref[...]
        reverse = 127 - jax.lax.broadcasted_iota(jnp.int32, (8, 128), 1)
        gathered = jnp.take_along_axis(x, reverse, axis=1)
        halves = reciprocal(jnp.abs(x) + 1.0, approx=False)
        rounded = (x * 1.00390625).astype(jnp.bfloat16).astype(F32)
        same_bits = pltpu.bitcast(pltpu.bitcast(x, jnp.int32) + 1, F32)
        o_ref[...] = gathered + halves + rounded + same_bits

    def call(x: jax.Array) -> jax.Array:
        return pl.pallas_call(
            kernel, out_shape=jax.ShapeDtypeStruct((8, 128), F32), interpret=interpret
        )(x)

    return call


def ref_bitcast_isfinite(interpret: bool) -> Callable[..., jax.Array]:
    """`jnp.isfinite` (Mosaic's `tpu.weird`) and a ref read as another dtype (`memref_bitcast`)."""

    def kernel(x_ref, w_ref, h_ref, f_ref):
        x = x_ref[...]
        f_ref[...] = jnp.where(jnp.isfinite(x), x, -1.0)
        h_ref[...] = w_ref.bitcast(jnp.bfloat16)[...].astype(F32)

    def call(x: jax.Array, w: jax.Array) -> tuple[jax.Array, jax.Array]:
        return pl.pallas_call(
            kernel,
            out_shape=(
                jax.ShapeDtypeStruct((16, 128), F32),
                jax.ShapeDtypeStruct((8, 128), F32),
            ),
            interpret=interpret,
        )(x, w)

    return call


# --------------------------------------------------------------------------- inputs


def ints(
    rng: np.random.Generator,
    shape: tuple[int, ...],
    dtype: object = np.float32,
    low: int = -4,
    high: int = 5,
) -> np.ndarray:
    """Small integers: sums and products of them are exact in f32 and bf16."""
    return rng.integers(low, high, size=shape).astype(dtype)


def uniform(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Values in [-2, 2] on a grid of 1/16: varied, yet they compress well."""
    return (rng.integers(-32, 33, size=shape) / 16.0).astype(np.float32)


def with_nonfinite(values: np.ndarray) -> np.ndarray:
    """`values` with an infinity of each sign and a NaN in every row."""
    values = values.copy()
    values[:, 5], values[:, 77], values[:, 126] = np.inf, -np.inf, np.nan
    return values


def words(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Any 32-bit patterns: read as bf16 pairs they hold every kind of value."""
    return rng.integers(-(2**31), 2**31, size=shape).astype(np.int32)


@dataclass(frozen=True)
class Kernel:
    name: str
    build: Callable[[bool], Callable[..., object]]
    inputs: Callable[[np.random.Generator], list[np.ndarray]]


KERNELS: tuple[Kernel, ...] = (
    Kernel("matmul", matmul, lambda r: [ints(r, (16, 256)), ints(r, (256, 256))]),
    Kernel(
        "matmul_bf16", matmul_bf16, lambda r: [ints(r, (32, 128), BF16), ints(r, (128, 128), BF16)]
    ),
    Kernel(
        "attention",
        attention,
        lambda r: [uniform(r, (16, 128)), uniform(r, (128, 128)), uniform(r, (128, 128))],
    ),
    Kernel(
        "layernorm",
        layernorm,
        lambda r: [uniform(r, (16, 256)), uniform(r, (1, 256)), uniform(r, (1, 256))],
    ),
    Kernel("row_blocks_loop", row_blocks_loop, lambda r: [ints(r, (64, 256))]),
    Kernel("lane_blocks_loop", lane_blocks_loop, lambda r: [ints(r, (8, 384))]),
    Kernel("loop_stride_rows", loop_stride_rows, lambda r: [ints(r, (32, 256))]),
    Kernel(
        "scalar_prefetch_gather",
        scalar_prefetch_gather,
        lambda r: [np.array([3, 0, 2, 1], np.int32), ints(r, (32, 128))],
    ),
    Kernel("dma_rows", dma_rows, lambda r: [ints(r, (16, 128))]),
    Kernel("strided_rows", strided_rows, lambda r: [ints(r, (16, 128))]),
    Kernel("masked_select", masked_select, lambda r: [ints(r, (8, 128))]),
    Kernel("edge_rows", edge_rows, lambda r: [ints(r, (20, 256))]),
    Kernel("squeezed_lane_edge", squeezed_lane_edge, lambda r: [ints(r, (3, 16, 200))]),
    Kernel(
        "vector_ops",
        vector_ops,
        lambda r: [r.permutation(1024).reshape(8, 128).astype(np.float32), ints(r, (128, 128))],
    ),
    Kernel("lane_gather", lane_gather, lambda r: [uniform(r, (8, 128))]),
    Kernel(
        "ref_bitcast_isfinite",
        ref_bitcast_isfinite,
        lambda r: [with_nonfinite(uniform(r, (8, 128))), words(r, (8, 128))],
    ),
    Kernel("bad_lane_offset", bad_lane_offset, lambda r: [ints(r, (8, 384))]),
    Kernel("bad_f32_rows", bad_f32_rows, lambda r: [ints(r, (16, 256))]),
    Kernel("bad_bf16_rows", bad_bf16_rows, lambda r: [ints(r, (32, 256), BF16)]),
)


# --------------------------------------------------------------------------- writing


def storable(array: np.ndarray) -> np.ndarray:
    """bf16 has no numpy dtype of its own: keep its bit pattern as uint16."""
    array = np.asarray(array)
    return array.view(np.uint16) if array.dtype == BF16 else array


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """A compressed npz with fixed timestamps, so equal arrays give equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, array in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, storable(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, member.getvalue())
    return buffer.getvalue()


def write_kernel(kernel: Kernel, out: Path) -> None:
    args = kernel.inputs(np.random.default_rng(sum(map(ord, kernel.name))))
    texts = lower_for_tpu(kernel.build(False), args)
    if len(texts) != 1:
        raise SystemExit(f"{kernel.name}: expected one Mosaic kernel, got {len(texts)}")
    results = kernel.build(True)(*args)
    outputs = results if isinstance(results, tuple) else (results,)
    (out / f"{kernel.name}.mlir").write_text(texts[0])
    (out / f"{kernel.name}.inputs.npz").write_bytes(
        npz_bytes({f"arg{i}": a for i, a in enumerate(args)})
    )
    (out / f"{kernel.name}.outputs.npz").write_bytes(
        npz_bytes({f"out{i}": np.asarray(o) for i, o in enumerate(outputs)})
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("tests/corpus/pallas"))
    parser.add_argument("--only", nargs="*", default=None, help="kernel names to write")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    for kernel in KERNELS:
        if options.only and kernel.name not in options.only:
            continue
        write_kernel(kernel, options.out)
        print(f"wrote {kernel.name}")


if __name__ == "__main__":
    main()
