"""Numpy goldens for PTOAS's sample kernels (`test/samples/**/*.pto`), keyed by the
sample's path under `test/samples`; `tools/run_ptoas_samples.py` checks them.

Each golden restates what its kernel computes, read from the sample (its views,
loops and ops) and pto-isa's ISA pages, in plain numpy over the sample's flat
input buffers (in their element types), in float64 with the kernel's roundings to
bf16/f16 where it converts. It returns the expected contents of every buffer the
kernel writes, by parameter position, as the whole buffer: elements the kernel
does not write keep their input values. Nothing here calls the PTO executor or
shares its code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

Arrays = list[np.ndarray]


@dataclass(frozen=True)
class Golden:
    """Expected outputs from the inputs (by parameter position), with the run's settings."""

    outputs: Callable[[Arrays], dict[int, np.ndarray]]
    # Scalar parameters by position (others are 0).
    scalars: dict[int, float] = field(default_factory=dict)
    # Range of the random inputs (integers: 8 times it).
    low: float = -1.0
    high: float = 1.0
    # (rtol, atol) instead of the output type's rounding.
    tolerance: tuple[float, float] | None = None
    # The tiles the kernel prints (`pto.tprint`), in order, when it reports through them.
    printed: Callable[[Arrays], list[np.ndarray]] | None = None


def f64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def bf16(x: np.ndarray) -> np.ndarray:
    """Round to bf16 (from f32, as a tcvt from an f32 tile does) and back to float64."""
    return np.asarray(x, np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)


def f32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, np.float32).astype(np.float64)


def grid(a: np.ndarray, rows: int, cols: int, stride: int | None = None) -> np.ndarray:
    """The rows x cols row-major matrix at the start of flat buffer `a` (row stride `stride`)."""
    stride = cols if stride is None else stride
    return f64(a[: (rows - 1) * stride + cols]).take(
        np.arange(rows)[:, None] * stride + np.arange(cols)[None, :]
    )


def put(out: np.ndarray, values: np.ndarray, stride: int, row: int = 0, col: int = 0) -> None:
    """Write `values` (a matrix) into flat buffer `out` (float64) at (row, col), row stride."""
    rows, cols = values.shape
    index = (row + np.arange(rows))[:, None] * stride + col + np.arange(cols)[None, :]
    out[index] = values


def written(a: np.ndarray) -> np.ndarray:
    """A float64 copy of an output buffer: elements not written keep their input values."""
    return f64(a).copy()


def elementwise(f: Callable[..., np.ndarray], inputs: int, rows: int = 32, cols: int = 32):
    """out (parameter `inputs`) = f(in0, in1, ...) over rows x cols row-major buffers."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[inputs])
        put(out, f(*(grid(x, rows, cols) for x in a[:inputs])), cols)
        return {inputs: out}

    return outputs


def unchanged(*positions: int) -> Callable[[Arrays], dict[int, np.ndarray]]:
    """Kernels that store nothing: the buffers keep their inputs."""
    return lambda a: {p: f64(a[p]) for p in positions}


# -- control flow ------------------------------------------------------------------------


def control_flow(a: Arrays) -> dict[int, np.ndarray]:
    # i = 0: +1.25, i = 1: -0.75; each i then adds -0.25, +0.5, -0.25.
    out = written(a[1])
    put(out, grid(a[0], 32, 32) + 1.25 - 0.75, 32)
    return {1: out}


def dynamic_branch(a: Arrays) -> dict[int, np.ndarray]:
    # mode 1 (the else branch) over the 20x24 valid region: x * x + x * -0.5 - 1.
    x = grid(a[0], 20, 24, 32)
    out = written(a[1])
    put(out, x * x - 0.5 * x - 1, 32)
    return {1: out}


def mixed_pipe(a: Arrays) -> dict[int, np.ndarray]:
    # i = 0: c = a[:32, :32] @ b[:32, :32] stored; i = 1: c reloaded and halved.
    out = written(a[2])
    put(out, 0.5 * (grid(a[0], 32, 32, 64) @ grid(a[1], 32, 32)), 32)
    return {2: out}


def nested_vec(a: Arrays) -> dict[int, np.ndarray]:
    # acc = in[0:32]; for each 32-row block: acc += block * 0.25 * (1 + 1.25 + 1.25^2).
    acc = grid(a[0], 32, 32) + sum(grid(a[0][32 * 32 * i :], 32, 32) for i in range(2)) * (
        0.25 * (1 + 1.25 + 1.5625)
    )
    out = written(a[1])
    put(out, -acc, 32)
    return {1: out}


# -- PyPTO's parser examples ---------------------------------------------------------------


def matmul_16x128(b_transposed: bool) -> Callable[[Arrays], dict[int, np.ndarray]]:
    """out[16, 128] = a[16, 128] @ b[128, 128] (b read with strides [1, 128] when transposed)."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        b = grid(a[1], 128, 128)
        out = written(a[2])
        put(out, grid(a[0], 16, 128) @ (b.T if b_transposed else b), 128)
        return {2: out}

    return outputs


SOFTMAX_SCALE = 0.125


def softmax_prepare(a: Arrays) -> dict[int, np.ndarray]:
    s = f32(grid(a[0], 16, 128) * SOFTMAX_SCALE)
    m = s.max(axis=1, keepdims=True)
    p = bf16(np.exp(s - m))
    return {2: p.reshape(-1), 3: m.reshape(-1), 4: p.sum(axis=1)}


def online_update(a: Arrays) -> dict[int, np.ndarray]:
    # is_first = 0, is_last = 1: merge (mij, lij, oi_new) into (mi, li, oi), then dst = oi / li.
    mij, lij, mi, li = (f64(a[i][:16]) for i in (0, 1, 3, 4))
    oi_new, oi = grid(a[2], 16, 128), grid(a[5], 16, 128)
    m = np.maximum(mi, mij)
    alpha, beta = np.exp(mi - m), np.exp(mij - m)
    l_new = alpha * li + beta * lij
    o = oi * alpha[:, None] + oi_new * beta[:, None]
    return {3: m, 4: l_new, 5: o.reshape(-1), 6: (o / l_new[:, None]).reshape(-1)}


def partition_5d(a: Arrays) -> dict[int, np.ndarray]:
    # A 1x1x16x16x16 corner of a [1, 1, 16, 1024, 1024] tensor, copied to the same place.
    z, y, x = np.meshgrid(np.arange(16), np.arange(16), np.arange(16), indexing="ij")
    index = z * 1048576 + y * 1024 + x
    out = written(a[1])
    out[index] = f64(a[0])[index]
    return {1: out}


def matmul_transpose(a: Arrays) -> dict[int, np.ndarray]:
    # arg3 = 1: a from its column-major (dn) view; arg4 = 0: b from its dn view.
    left = f64(a[1][: 32 * 256]).reshape(256, 32).T
    right = f64(a[2][: 256 * 32]).reshape(32, 256).T
    out = written(a[0])
    put(out, left @ right, 32)
    return {0: out}


def matmul_bias(a: Arrays) -> dict[int, np.ndarray]:
    out = written(a[3])
    put(out, grid(a[0], 32, 32) @ grid(a[1], 32, 32) + grid(a[2], 1, 32), 32)
    return {3: out}


def rms_norm(
    cols: int,
    scale: float,
    factor: Callable[[np.ndarray], np.ndarray],
    positions: tuple[int, int, int] = (0, 1, 2),
):
    """normed = bf16(x * factor(sum(x^2) * scale + 1e-6) * gamma) over 16 x `cols` rows,
    gamma one f32 row; `factor` is what the kernel applies to the variance. Parameters
    (x, gamma, normed) at `positions`."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        x_at, gamma_at, out_at = positions
        x = grid(a[x_at], 16, cols)
        variance = f32((x * x).sum(axis=1, keepdims=True) * scale + 1e-6)
        out = written(a[out_at])
        put(out, bf16(x * factor(variance) * grid(a[gamma_at], 1, cols)), cols)
        return {out_at: out}

    return outputs


def split_k_matmul(a: Arrays) -> dict[int, np.ndarray]:
    # With bias (arg4 = 1): sum of eight 32-wide K blocks of a[32, 256] @ b[256, 32], + bias.
    out = written(a[0])
    put(out, grid(a[1], 32, 256) @ grid(a[2], 256, 32) + grid(a[3], 1, 32), 32)
    return {0: out}


def matmul_32(left: int, right: int, out: int) -> Callable[[Arrays], dict[int, np.ndarray]]:
    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        result = written(a[out])
        put(result, grid(a[left], 32, 32) @ grid(a[right], 32, 32), 32)
        return {out: result}

    return outputs


def copy_32x32(a: Arrays) -> dict[int, np.ndarray]:
    out = written(a[1])
    put(out, grid(a[0], 32, 32), 32)
    return {1: out}


def if_else_tile(a: Arrays) -> dict[int, np.ndarray]:
    # Both loads write the same tile (the second, arg1, wins); arg2 = 1 takes tb0 + tb0.
    out = written(a[3])
    put(out, 2 * grid(a[1], 256, 64), 64)
    return {3: out}


# -- FFN (a SwiGLU-like gate: a polynomial of the clamped first projection) ---------------


def gate(h1: np.ndarray, h2: np.ndarray, power: int) -> np.ndarray:
    """(0.5 + 0.25 c - 0.02083333 c^power) * h2, c = h1 clamped to [-4.0001, 4.0001]."""
    c = np.clip(h1, -4.0001, 4.0001)
    return (0.5 + 0.25 * c - 0.02083333 * c**power) * h2


def ffn_act(power: int, rows: int, cols: int):
    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[2])
        put(out, gate(grid(a[0], rows, cols, 32), grid(a[1], rows, cols, 32), power), 32)
        return {2: out}

    return outputs


def ffn_fc1(k: int):
    """h1 = x[32, k] @ w1[k, 32], h2 = x @ w3 (parameters 3 and 4)."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        x = grid(a[0], 32, k)
        h1, h2 = written(a[3]), written(a[4])
        put(h1, x @ grid(a[1], k, 32), 32)
        put(h2, x @ grid(a[2], k, 32), 32)
        return {3: h1, 4: h2}

    return outputs


def ffn_block(k: int, power: int, w2: int, scratch: tuple[int, int, int], out: int):
    """The whole FFN: h1, h2 (scratch[0], [1]), h = gate (scratch[2]), out = h @ w2."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        x = grid(a[0], 32, k)
        h1, h2 = x @ grid(a[1], k, 32), x @ grid(a[2], k, 32)
        h = gate(f32(h1), f32(h2), power)
        return {
            scratch[0]: h1.reshape(-1),
            scratch[1]: h2.reshape(-1),
            scratch[2]: h.reshape(-1),
            out: (f32(h) @ grid(a[w2], 32, 32)).reshape(-1),
        }

    return outputs


# -- FlashAttention (its "softmax" is a degree-4 polynomial for exp, over 32.0001) ------------


def poly_softmax(scores: np.ndarray, degree: int = 4) -> np.ndarray:
    s = np.clip(f32(scores * np.float32(0.1767767)), -4.0001, 4.0001)
    terms = 1.0001 + s + 0.5 * s**2 + 0.1666667 * s**3
    return (terms + (0.04166667 * s**4 if degree == 4 else 0)) / 32.0001


def softmax_block(rows: int, cols: int):
    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[1])
        put(out, poly_softmax(grid(a[0], rows, cols, 32)), 32)
        return {1: out}

    return outputs


def matmul_k(k: int, m: int = 32, n: int = 32):
    """out (parameter 2) = a[m, k] @ b[k, n] (a's rows k wide, b's rows 32 wide)."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[2])
        put(out, grid(a[0], m, k, max(k, 32)) @ grid(a[1], k, n, 32), 32)
        return {2: out}

    return outputs


def attention(k: int):
    """scores = q[32, k] @ kt[k, 32], softmax = poly_softmax(scores), out = softmax @ v."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        scores = grid(a[0], 32, k) @ grid(a[1], k, 32)
        soft = poly_softmax(f32(scores))
        out = f32(soft) @ grid(a[2], 32, 32)
        return {3: scores.reshape(-1), 4: soft.reshape(-1), 5: out.reshape(-1)}

    return outputs


# -- GQA: FlashAttention's blocks with the scores scaled by a group tile first ---------------


def gqa_softmax(rows: int, cols: int):
    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[2])
        scaled = f32(grid(a[0], rows, cols, 32) * grid(a[1], rows, cols, 32))
        put(out, poly_softmax(scaled), 32)
        return {2: out}

    return outputs


def gqa(k: int, degree: int):
    """scores = q[32, k] @ kt; softmax = poly_softmax(scores * group); out = softmax @ v."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        scores = grid(a[0], 32, k) @ grid(a[1], k, 32)
        soft = poly_softmax(f32(f32(scores) * grid(a[3], 32, 32)), degree)
        out = f32(soft) @ grid(a[2], 32, 32)
        return {4: scores.reshape(-1), 5: soft.reshape(-1), 6: out.reshape(-1)}

    return outputs


# -- Qwen3 decode (the same 17 kernels for A2A3 and A5) --------------------------------------


def projection(a_at: int, w_at: int, out_at: int, k: int, n: int, w_cols: int, out_cols: int):
    """out[16, :n] = a[16, k] @ w[k, :n] (w's rows `w_cols` wide, out's `out_cols`)."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[out_at])
        put(out, grid(a[a_at], 16, k) @ grid(a[w_at], k, n, w_cols), out_cols)
        return {out_at: out}

    return outputs


def qkv_projections(a: Arrays) -> dict[int, np.ndarray]:
    # incore_2: columns 0..255 (4 blocks of 64) of k = normed @ wk and v = normed @ wv.
    normed = grid(a[1], 16, 8192)
    k, v = written(a[0]), written(a[2])
    put(k, normed @ grid(a[3], 8192, 256, 1024), 1024)
    put(v, normed @ grid(a[4], 8192, 256, 1024), 1024)
    return {0: k, 2: v}


def zero_padding_rows(a: Arrays) -> dict[int, np.ndarray]:
    # incore_3: rows 16 i + 8 .. 16 i + 15 of the [2048, 128] buffer become 0.
    out = written(a[0]).reshape(2048, 128)
    out[(np.arange(2048) % 16) >= 8] = 0
    return {0: out.reshape(-1)}


def rotate(lo: np.ndarray, hi: np.ndarray, a: Arrays) -> tuple[np.ndarray, np.ndarray]:
    """RoPE on one 128-wide head: cos/sin halves from parameters 1, 2, 6, 7."""
    cos_hi, cos_lo, sin_hi, sin_lo = (grid(a[i], 1, 64) for i in (1, 2, 6, 7))
    return bf16(f32(lo * cos_lo) - f32(hi * sin_lo)), bf16(f32(hi * cos_hi) + f32(lo * sin_hi))


def rope_and_caches(a: Arrays) -> dict[int, np.ndarray]:
    # incore_4 for batch row 0, block 0: 8 kv heads (rotated k and v into row 4096 ki of
    # the caches) and their 8 query heads each (rotated into row 16 ki + qi of all_q).
    k_proj, q_proj, v_proj = grid(a[4], 1, 1024), grid(a[5], 1, 8192), grid(a[9], 1, 1024)
    q_out, k_cache, v_cache = written(a[0]), written(a[3]), written(a[8])
    for ki in range(8):
        lo, hi = rotate(k_proj[:, 128 * ki : 128 * ki + 64], k_proj[:, 128 * ki + 64 :][:, :64], a)
        put(k_cache, np.hstack([lo, hi]), 128, row=4096 * ki)
        put(v_cache, bf16(v_proj[:, 128 * ki : 128 * ki + 128]), 128, row=4096 * ki)
        for qi in range(8):
            base = (8 * ki + qi) * 128
            lo, hi = rotate(q_proj[:, base : base + 64], q_proj[:, base + 64 : base + 128], a)
            put(q_out, np.hstack([lo, hi]), 128, row=16 * ki + qi)
    return {0: q_out, 3: k_cache, 8: v_cache}


BLOCKS = 2  # the sequence blocks the attention kernels run (their block-count scalar)


def attention_scores(a: Arrays) -> dict[int, np.ndarray]:
    # incore_5: block sb: q[16, 128] @ k_cache's columns 64 sb .. (its dn view: k[d, t] at
    # d + 128 t), into rows 16 sb of the [1024, 64] scores.
    q = grid(a[2], 16, 128)
    out = written(a[0])
    for sb in range(BLOCKS):
        keys = grid(a[1][128 * 64 * sb :], 64, 128)  # rows are tokens
        put(out, q @ keys.T, 64, row=16 * sb)
    return {0: out}


def attention_values(a: Arrays) -> dict[int, np.ndarray]:
    # incore_7: block sb: exp rows 16 sb (16 x 64) @ v_cache rows 64 sb (64 x 128).
    out = written(a[1])
    for sb in range(BLOCKS):
        put(
            out,
            grid(a[0][64 * 16 * sb :], 16, 64) @ grid(a[2][128 * 64 * sb :], 64, 128),
            128,
            row=16 * sb,
        )
    return {1: out}


SEQUENCE = 100  # incore_6's valid length: block 0 has 64 scores, block 1 has 36


def block_softmax(a: Arrays) -> dict[int, np.ndarray]:
    # incore_6: block sb's 8 score rows (rows 16 sb of [1024, 64]), the columns past the
    # valid length padded with -inf, scaled by 1/sqrt(128): row max, bf16 exp, row sum.
    li, mi, exp_out = written(a[0]), written(a[1]), written(a[2])
    for sb in range(BLOCKS):
        valid = min(SEQUENCE - 64 * sb, 64)
        scores = np.full((8, 64), -np.inf)
        scores[:, :valid] = grid(a[3][64 * 16 * sb :], 8, valid, 64)
        scaled = f32(scores * np.float32(0.0883883476483184327))
        row_max = scaled.max(axis=1)
        exp = bf16(np.exp(scaled - row_max[:, None]))
        put(exp_out, exp, 64, row=16 * sb)
        mi[8 * sb : 8 * sb + 8], li[8 * sb : 8 * sb + 8] = row_max, exp.sum(axis=1)
    return {0: li, 1: mi, 2: exp_out}


def merge_blocks(a: Arrays) -> dict[int, np.ndarray]:
    # incore_8: online softmax over blocks 0 .. BLOCKS: block sb's partial output (rows
    # 16 sb, 8 x 128), max (mi[8 sb:]) and sum (li[8 sb:]) merged, then ctx = oi / li.
    oi, mi, li = grid(a[2], 8, 128), f64(a[1][:8]), f64(a[0][:8])
    for sb in range(1, MERGED_BLOCKS):
        cur_oi = grid(a[2][128 * 16 * sb :], 8, 128)
        cur_mi, cur_li = f64(a[1][8 * sb : 8 * sb + 8]), f64(a[0][8 * sb : 8 * sb + 8])
        new_mi = np.maximum(mi, cur_mi)
        alpha, beta = f32(np.exp(mi - new_mi)), f32(np.exp(cur_mi - new_mi))
        li = f32(alpha * li) + f32(beta * cur_li)
        oi = f32(oi * alpha[:, None]) + f32(cur_oi * beta[:, None])
        mi = new_mi
    out = written(a[3])
    out[:1024] = bf16(oi / li[:, None]).reshape(-1)
    return {3: out}


MERGED_BLOCKS = 3


def silu_gate(a: Arrays) -> dict[int, np.ndarray]:
    gate, up = grid(a[0], 16, 256), grid(a[1], 16, 256)
    sigmoid = f32(1 / f32(f32(np.exp(-gate)) + 1))
    out = written(a[2])
    put(out, bf16(f32(gate * sigmoid) * up), 25600)
    return {2: out}


def residual_add(a: Arrays) -> dict[int, np.ndarray]:
    # incore_10: resid1[:, 0:64] = o_acc + hidden (bf16) [:, 0:64].
    out = written(a[2])
    put(out, grid(a[1], 16, 64) + grid(a[0], 16, 64, 8192), 8192)
    return {2: out}


def down_residual(a: Arrays) -> dict[int, np.ndarray]:
    # incore_16: out[:, 0:128] = bf16(down_acc + resid1[:, 0:128]).
    out = written(a[1])
    put(out, bf16(grid(a[0], 16, 128) + grid(a[2], 16, 128, 8192)), 8192)
    return {1: out}


QWEN3: dict[int, Golden] = {
    0: Golden(rms_norm(8192, 1 / 8192, lambda v: 1 / f32(np.sqrt(v)))),
    1: Golden(projection(0, 2, 1, 8192, 256, 8192, 8192)),
    2: Golden(qkv_projections),
    3: Golden(zero_padding_rows),
    4: Golden(rope_and_caches),
    5: Golden(attention_scores, scalars={4: BLOCKS}),
    6: Golden(block_softmax, scalars={4: BLOCKS, 5: SEQUENCE}),
    7: Golden(attention_values, scalars={4: BLOCKS}),
    8: Golden(merge_blocks, scalars={4: MERGED_BLOCKS}, low=0.1),
    9: Golden(projection(0, 1, 2, 8192, 64, 8192, 64)),
    10: Golden(residual_add),
    11: Golden(rms_norm(8192, 1 / 8192, lambda v: 1 / f32(np.sqrt(v)), (2, 1, 0))),
    12: Golden(projection(0, 1, 2, 8192, 256, 25600, 256)),
    13: Golden(projection(0, 1, 2, 8192, 256, 25600, 256)),
    14: Golden(silu_gate),
    15: Golden(projection(0, 1, 2, 25600, 128, 8192, 128)),
    16: Golden(down_residual),
}


# -- cube-vector pipes: the cube multiplies, each vector sub-block gets its part -------------


def pushed_products(blocks: int, split: bool) -> Callable[[Arrays], list[np.ndarray]]:
    """a[16, 16] @ b's 16x16 row blocks, printed by sub-block 0 (its upper halves when the
    push splits rows) and then by sub-block 1 (the lower halves)."""

    def printed(a: Arrays) -> list[np.ndarray]:
        products = [grid(a[0], 16, 16) @ grid(a[1][256 * i :], 16, 16) for i in range(blocks)]
        if not split:
            return products * 2
        return [p[:8] for p in products] + [p[8:] for p in products]

    return printed


def accumulate_product(k: int, n: int) -> Callable[[Arrays], dict[int, np.ndarray]]:
    """out[16, n] += lhs[16, k] @ rhs[k, n]: each sub-block adds its half of each product."""

    def outputs(a: Arrays) -> dict[int, np.ndarray]:
        out = written(a[0])
        product = grid(a[1], 16, k) @ grid(a[2], k, n)
        put(out, grid(a[0], 16, n) + product, n)
        return {0: out}

    return outputs


_GOLDENS: dict[str, Golden] = {
    "TPushTPop/test1/kernel.pto": Golden(unchanged(0, 1), printed=pushed_products(1, True)),
    "TPushTPop/test2/kernel.pto": Golden(unchanged(0, 1), printed=pushed_products(4, True)),
    "TPushTPop/a3/test1/kernel.pto": Golden(unchanged(0, 1), printed=pushed_products(1, False)),
    "TPushTPop/a3/test2/kernel.pto": Golden(unchanged(0, 1), printed=pushed_products(4, False)),
    "TPushTPop/test3/kernel.pto": Golden(
        unchanged(0, 1), printed=lambda a: [grid(a[0], 16, 16) @ grid(a[1], 16, 16)] * 2
    ),
    "TPushTPop/test4/kernel.pto": Golden(accumulate_product(64, 512)),
    "TPushTPop/test5/kernel.pto": Golden(accumulate_product(64, 128)),
    "GQA/gqa-pto-new.pto": Golden(gqa(32, 4)),
    "GQA/gqa_full_tiled.pto": Golden(gqa(128, 3)),
    "GQA/gqa_qk.pto": Golden(matmul_k(32)),
    "GQA/gqa_qk_splitk.pto": Golden(matmul_k(128)),
    "GQA/gqa_softmax.pto": Golden(gqa_softmax(32, 32), low=-8, high=8),
    "GQA/gqa_softmax_dynamic.pto": Golden(
        gqa_softmax(20, 24), scalars={3: 20, 4: 24}, low=-8, high=8
    ),
    "GQA/gqa_sv.pto": Golden(matmul_k(32)),
    "FlashAttention/flash_attention-pto-new.pto": Golden(attention(32)),
    "FlashAttention/flash_attention_full_intermediate.pto": Golden(attention(32)),
    "FlashAttention/flash_attention_full_tiled.pto": Golden(attention(128)),
    "FlashAttention/flash_attention_qk.pto": Golden(matmul_k(32)),
    "FlashAttention/flash_attention_qk_boundary.pto": Golden(
        matmul_k(24, 20, 28), scalars={3: 20, 4: 24, 5: 28}
    ),
    "FlashAttention/flash_attention_qk_splitk.pto": Golden(matmul_k(128)),
    "FlashAttention/flash_attention_softmax.pto": Golden(softmax_block(32, 32), low=-8, high=8),
    "FlashAttention/flash_attention_softmax_boundary.pto": Golden(
        softmax_block(20, 24), scalars={2: 20, 3: 24}, low=-8, high=8
    ),
    "FlashAttention/flash_attention_sv.pto": Golden(matmul_k(32)),
    "FlashAttention/flash_attention_sv_splitk.pto": Golden(matmul_k(128)),
    "FFN/ffn-pto-new.pto": Golden(ffn_block(32, 3, 3, (4, 5, 6), 7), scalars={8: 32, 9: 32}),
    "FFN/ffn_act.pto": Golden(ffn_act(3, 20, 24), scalars={3: 20, 4: 24}, low=-6, high=6),
    "FFN/ffn_act_dynamic.pto": Golden(ffn_act(5, 20, 24), scalars={3: 20, 4: 24}, low=-6, high=6),
    "FFN/ffn_fc1.pto": Golden(ffn_fc1(32)),
    "FFN/ffn_fc1_splitk.pto": Golden(ffn_fc1(128)),
    "FFN/ffn_fc2.pto": Golden(matmul_32(0, 1, 2)),
    "FFN/ffn_full_tiled.pto": Golden(ffn_block(128, 5, 3, (4, 5, 6), 7)),
    "Sync/compensation_test.pto": Golden(unchanged(0), scalars={1: 1}),
    "Sync/decode_projection_incore_0.pto": Golden(
        rms_norm(8192, 1 / 8192, lambda v: 1 / np.sqrt(v))
    ),
    "Sync/rmsnorm_incore_0.pto": Golden(rms_norm(5120, 1 / 5120, lambda v: v)),
    "Sync/matmul.pto": Golden(split_k_matmul, scalars={4: 1}),
    "Sync/nested_loop_confliect.pto": Golden(copy_32x32),
    "Sync/rar_optimization_test.pto": Golden(unchanged(0, 1)),
    "Sync/test_auto_sync_tail_hint.pto": Golden(unchanged(0, 1)),
    "Sync/test_dynamic_valid_shape.pto": Golden(unchanged(0, 1), scalars={2: 64}),
    "Sync/test_if_else_tile_result.pto": Golden(if_else_tile, scalars={2: 1}),
    "Sync/test_tmov_col_major_16x1_align_a5.pto": Golden(
        lambda a: {1: np.concatenate([f64(a[0][:16]), f64(a[1][16:])])}
    ),
    "Partition5D/partition5d.pto": Golden(partition_5d),
    "Partition5D/partition5d_dynamic.pto": Golden(
        partition_5d, scalars={7: 1, 8: 1, 9: 16, 10: 16, 11: 16}
    ),
    "Matmul_transpose/Matmul_transpose-pto-ir.pto": Golden(matmul_transpose, scalars={3: 1, 4: 0}),
    "MatmulVectorMix/matmul_vector_mix-pto-new.pto": Golden(matmul_bias),
    "Addc/addc.pto": Golden(elementwise(lambda x, y, z: x + y + z, 3)),
    "VectorAddition/vadd.pto": Golden(elementwise(np.add, 2)),
    "Complex/mix_kernel.pto": Golden(unchanged(0, 1, 2)),
    "Concat/concat-pto-ir.pto": Golden(
        lambda a: {2: np.hstack([grid(a[0], 32, 16), grid(a[1], 32, 16)]).reshape(-1)}
    ),
    "ControlFlow/control_flow-pto-new.pto": Golden(control_flow),
    "ControlFlow/control_flow_dynamic_branch.pto": Golden(
        dynamic_branch, scalars={2: 20, 3: 24, 4: 1}
    ),
    "ControlFlow/control_flow_mixed_pipe.pto": Golden(mixed_pipe),
    "ControlFlow/control_flow_nested_vec.pto": Golden(nested_vec),
    "PyPTOIRParser/orchestration_example_kernel_add.pto": Golden(elementwise(np.add, 2, 16, 16)),
    "PyPTOIRParser/orchestration_example_kernel_mul.pto": Golden(
        elementwise(np.multiply, 2, 16, 16)
    ),
    "PyPTOIRParser/vector_example_dag_kernel_add.pto": Golden(elementwise(np.add, 2, 128, 128)),
    "PyPTOIRParser/vector_example_dag_kernel_mul.pto": Golden(
        elementwise(np.multiply, 2, 128, 128)
    ),
    "PyPTOIRParser/paged_attention_example_kernel_init_inplace.pto": Golden(unchanged(0, 1, 2)),
    "PyPTOIRParser/paged_attention_example_kernel_qk_matmul.pto": Golden(matmul_16x128(True)),
    "PyPTOIRParser/paged_attention_example_kernel_pv_matmul.pto": Golden(matmul_16x128(False)),
    "PyPTOIRParser/paged_attention_example_kernel_softmax_prepare.pto": Golden(
        softmax_prepare, scalars={1: SOFTMAX_SCALE}
    ),
    "PyPTOIRParser/paged_attention_example_kernel_online_update.pto": Golden(
        online_update, scalars={7: 0, 8: 1}, low=0.1
    ),
}
for _kernel, _size in (
    ("orchestration_example_kernel_add_scalar", 16),
    ("vector_example_dag_kernel_add_scalar", 128),
):
    _GOLDENS[f"PyPTOIRParser/{_kernel}.pto"] = Golden(
        lambda a, n=_size: {2: grid(a[0], n, n).reshape(-1) + 0.75}, scalars={1: 0.75}
    )

for _number, _golden in QWEN3.items():
    for _target in ("A3", "A5"):
        _GOLDENS[f"Qwen3Decode{_target}/qwen3_decode_incore_{_number}.pto"] = _golden

GOLDENS: dict[str, Golden] = _GOLDENS
