"""The model zoo: small real JAX programs (training steps, attention, convolution, loops).

Each program is a function and its argument specs; `tools/make_zoo.py`
compiles it for an H100 and records XLA:CPU's outputs. Sizes are large enough
that XLA picks its real emitters and library calls, and small enough that the
interpreter runs a whole program in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax


@dataclass(frozen=True)
class Arg:
    """One argument: shape, dtype name, and the range values are drawn from."""

    shape: tuple[int, ...]
    dtype: str = "float32"
    low: float = -1.0
    high: float = 1.0


@dataclass(frozen=True)
class ZooProgram:
    name: str
    function: object
    args: tuple[Arg, ...]


def _mlp_loss(params: tuple[jax.Array, ...], x: jax.Array, y: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = params
    hidden = jax.nn.relu(x @ w1 + b1)
    prediction = hidden @ w2 + b2
    return jnp.mean(((prediction - y) ** 2).astype(jnp.float32))


def mlp_step(
    w1: jax.Array, b1: jax.Array, w2: jax.Array, b2: jax.Array, x: jax.Array, y: jax.Array
) -> tuple[jax.Array, ...]:
    """Forward, loss, gradients and an SGD update of a two-layer MLP."""
    params = (w1, b1, w2, b2)
    loss, grads = jax.value_and_grad(_mlp_loss)(params, x, y)
    updated = tuple(p - (0.1 * g).astype(p.dtype) for p, g in zip(params, grads, strict=True))
    return (loss, *updated)


def _layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def transformer_block(
    tokens: jax.Array,
    embedding: jax.Array,
    wqkv: jax.Array,
    wo: jax.Array,
    w_up: jax.Array,
    w_down: jax.Array,
    gamma: jax.Array,
    beta: jax.Array,
) -> jax.Array:
    """Embedding, causal two-head attention with softmax, layernorm, GELU MLP, residuals."""
    x = embedding[tokens]
    length, width = x.shape
    heads = 2
    h = _layernorm(x, gamma, beta)
    q, k, v = jnp.split(h @ wqkv, 3, axis=-1)
    q, k, v = (t.reshape(length, heads, width // heads).transpose(1, 0, 2) for t in (q, k, v))
    scores = q @ k.transpose(0, 2, 1) / jnp.sqrt(jnp.float32(width // heads))
    causal = jnp.tril(jnp.ones((length, length), bool))
    scores = jnp.where(causal, scores, -1e9)
    attention = jax.nn.softmax(scores, axis=-1) @ v
    x = x + attention.transpose(1, 0, 2).reshape(length, width) @ wo
    h = _layernorm(x, gamma, beta)
    return x + jax.nn.gelu(h @ w_up) @ w_down


def small_cnn(images: jax.Array, k1: jax.Array, k2: jax.Array, dense: jax.Array) -> jax.Array:
    """conv, batch norm, relu, max pool, conv, average pool, dense (NHWC)."""
    dims = ("NHWC", "HWIO", "NHWC")
    x = lax.conv_general_dilated(images, k1, (1, 1), "SAME", dimension_numbers=dims)
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.var(x, axis=(0, 1, 2))
    x = jax.nn.relu((x - mean) * lax.rsqrt(var + 1e-5))
    x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    x = lax.conv_general_dilated(x, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=dims)
    x = jnp.mean(x, axis=(1, 2))
    return x @ dense


def embedding_lookup(table: jax.Array, ids: jax.Array) -> jax.Array:
    return jnp.take(table, ids, axis=0) * 2.0


def scatter_add(values: jax.Array, segments: jax.Array) -> jax.Array:
    return jnp.zeros((16, values.shape[1]), values.dtype).at[segments].add(values)


def argsort_topk(x: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    values, indices = lax.top_k(x, 4)
    return jnp.argsort(x, axis=-1).astype(jnp.int32), values, indices


def cumsum(x: jax.Array) -> jax.Array:
    return jnp.cumsum(x, axis=-1)


def scan_rnn(xs: jax.Array, h0: jax.Array, w: jax.Array, u: jax.Array) -> tuple[jax.Array, ...]:
    """A tanh RNN cell over the time steps of `xs` with `lax.scan`."""

    def cell(h: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        new = jnp.tanh(h @ w + x @ u)
        return new, new

    last, all_states = lax.scan(cell, h0, xs)
    return last, all_states


def fori_loop(x: jax.Array) -> jax.Array:
    """Ten steps of a contraction, so that XLA's own sine error does not grow step by step."""
    return lax.fori_loop(
        0, 10, lambda i, v: v * 0.5 + jnp.sin(v) * 0.25 + i.astype(v.dtype) * 0.01, x
    )


def _conv_same(x: jax.Array, k: jax.Array) -> jax.Array:
    return lax.conv_general_dilated(
        x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def _resnet_loss(kernels: tuple[jax.Array, jax.Array], x: jax.Array) -> jax.Array:
    k1, k2 = kernels
    y = jax.nn.relu(_conv_same(jax.nn.relu(_conv_same(x, k1)), k2) + x)
    return jnp.mean(y * y)


def resnet_step(x: jax.Array, k1: jax.Array, k2: jax.Array) -> tuple[jax.Array, ...]:
    """One SGD step of a residual block: both convolution gradients (cuDNN backward calls)."""
    loss, (g1, g2) = jax.value_and_grad(_resnet_loss)((k1, k2), x)
    return loss, k1 - 0.1 * g1, k2 - 0.1 * g2


def cholesky_solve(m: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    """A symmetric positive definite solve: cuSOLVER's potrf, then two triangular solves."""
    a = m @ m.T + m.shape[0] * jnp.eye(m.shape[0], dtype=m.dtype)
    factor = jax.scipy.linalg.cho_factor(a, lower=True)
    return jax.scipy.linalg.cho_solve(factor, b), jnp.tril(factor[0])


def fft_filter(x: jax.Array) -> jax.Array:
    """A low-pass filter: RFFT, keep the first 8 bins (scaled by a complex gain), IRFFT."""
    spectrum = jnp.fft.rfft(x, axis=-1)
    keep = jnp.arange(spectrum.shape[-1]) < 8
    return jnp.fft.irfft(jnp.where(keep, spectrum * (0.5 - 0.25j), 0), n=x.shape[-1], axis=-1)


def max_pool_grad(images: jax.Array) -> jax.Array:
    """The gradient of a 3x3, stride-2 max pool (NHWC): XLA:GPU rewrites its
    select-and-scatter into an argmax reduce-window over (value, index) pairs and a
    scatter. Rounded inputs make ties, which the argmax breaks as XLA does."""

    def pooled(x: jax.Array) -> jax.Array:
        window = lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
        return (window * window).sum()

    return jax.grad(pooled)(jnp.round(images * 4.0))


def lstm(
    xs: jax.Array, h0: jax.Array, c0: jax.Array, w: jax.Array, u: jax.Array, b: jax.Array
) -> tuple[jax.Array, ...]:
    """An LSTM over the time steps of `xs` with `lax.scan` (input, forget, cell, output gates)."""

    def cell(
        carry: tuple[jax.Array, jax.Array], x: jax.Array
    ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
        h, c = carry
        i, f, g, o = jnp.split(x @ u + h @ w + b, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    (h, c), states = lax.scan(cell, (h0, c0), xs)
    return h, c, states


def dropout(x: jax.Array, seed: jax.Array) -> jax.Array:
    """Inverted dropout (keep 3/4) with a threefry key made from a traced seed."""
    keep = jax.random.bernoulli(jax.random.PRNGKey(seed[0]), 0.75, x.shape)
    return jnp.where(keep, x / 0.75, 0.0)


def mixture_of_experts(
    x: jax.Array, gate: jax.Array, w_in: jax.Array, w_out: jax.Array
) -> jax.Array:
    """Top-2 routing over 4 GELU experts: softmax gate, top_k, per-expert matmuls, a
    weighted gather of the chosen experts' outputs."""
    probabilities = jax.nn.softmax(x @ gate, axis=-1)
    weights, chosen = lax.top_k(probabilities, 2)
    hidden = jax.nn.gelu(jnp.einsum("td,edh->teh", x, w_in))
    outputs = jnp.einsum("teh,ehd->ted", hidden, w_out)
    picked = jnp.take_along_axis(outputs, chosen[:, :, None], axis=1)
    return (picked * weights[..., None]).sum(axis=1)


def _bf16(shape: tuple[int, ...], low: float = -1.0, high: float = 1.0) -> Arg:
    return Arg(shape, "bfloat16", low, high)


_MLP_SHAPES = ((64, 128), (128,), (128, 16), (16,), (32, 64), (32, 16))

PROGRAMS: tuple[ZooProgram, ...] = (
    ZooProgram("mlp_step_f32", mlp_step, tuple(Arg(s) for s in _MLP_SHAPES)),
    ZooProgram("mlp_step_bf16", mlp_step, tuple(_bf16(s) for s in _MLP_SHAPES)),
    ZooProgram(
        "transformer_block",
        transformer_block,
        (
            Arg((16,), "int32", 0, 99),
            Arg((100, 64)),
            Arg((64, 192), low=-0.2, high=0.2),
            Arg((64, 64), low=-0.2, high=0.2),
            Arg((64, 128), low=-0.2, high=0.2),
            Arg((128, 64), low=-0.2, high=0.2),
            Arg((64,), low=0.5, high=1.5),
            Arg((64,)),
        ),
    ),
    ZooProgram(
        "small_cnn",
        small_cnn,
        (Arg((4, 16, 16, 3)), Arg((3, 3, 3, 8)), Arg((3, 3, 8, 16)), Arg((16, 10))),
    ),
    ZooProgram(
        "embedding_lookup", embedding_lookup, (Arg((1000, 32)), Arg((64,), "int32", 0, 999))
    ),
    ZooProgram("scatter_add", scatter_add, (Arg((48, 8)), Arg((48,), "int32", 0, 15))),
    ZooProgram("argsort_topk", argsort_topk, (Arg((8, 128), low=-100, high=100),)),
    ZooProgram("cumsum", cumsum, (Arg((8, 256)),)),
    ZooProgram(
        "scan_rnn",
        scan_rnn,
        (
            Arg((8, 4, 16)),
            Arg((4, 32)),
            Arg((32, 32), low=-0.3, high=0.3),
            Arg((16, 32), low=-0.3, high=0.3),
        ),
    ),
    ZooProgram("fori_loop", fori_loop, (Arg((8, 64)),)),
    ZooProgram(
        "resnet_step",
        resnet_step,
        (Arg((2, 8, 8, 8)), Arg((3, 3, 8, 8), low=-0.3, high=0.3), Arg((3, 3, 8, 8), -0.3, 0.3)),
    ),
    ZooProgram("cholesky_solve", cholesky_solve, (Arg((16, 16)), Arg((16, 4)))),
    ZooProgram("fft_filter", fft_filter, (Arg((4, 64)),)),
    ZooProgram("max_pool_grad", max_pool_grad, (Arg((2, 9, 9, 4)),)),
    ZooProgram(
        "lstm",
        lstm,
        (
            Arg((8, 4, 16)),
            Arg((4, 32)),
            Arg((4, 32)),
            Arg((32, 128), low=-0.3, high=0.3),
            Arg((16, 128), low=-0.3, high=0.3),
            Arg((128,), low=-0.1, high=0.1),
        ),
    ),
    ZooProgram("dropout", dropout, (Arg((64, 128)), Arg((1,), "int32", 0, 1000))),
    ZooProgram(
        "mixture_of_experts",
        mixture_of_experts,
        (
            Arg((16, 32)),
            Arg((32, 4)),
            Arg((4, 32, 64), low=-0.3, high=0.3),
            Arg((4, 64, 32), low=-0.3, high=0.3),
        ),
    ),
)
