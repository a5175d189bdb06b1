"""The Triton corpus's programs: models XLA:GPU sends through its Triton route by default.

With XLA's default options, softmax, layernorm and their gradients become
`__triton` fusions (block-level normalization kernels) and most dots
`__triton_gemm` fusions. Each program is a JAX function and its argument specs;
`tools/triton_corpus.py` compiles it for an H100 and records XLA:CPU's outputs.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax
from make_corpus import InputSpec, Program, bf16, f32, s32

BF16 = jnp.bfloat16


def softmax(x: jax.Array) -> jax.Array:
    return jax.nn.softmax(x, axis=-1)


def layernorm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


def layernorm_backward(
    x: jax.Array, gamma: jax.Array, beta: jax.Array, cotangent: jax.Array
) -> tuple[jax.Array, ...]:
    """The gradients of `sum(layernorm(x) * cotangent)` with respect to x, gamma and beta."""

    def weighted(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
        return jnp.sum((layernorm(x, gamma, beta) * cotangent).astype(jnp.float32))

    return jax.grad(weighted, argnums=(0, 1, 2))(x, gamma, beta)


def cross_entropy_grad(logits: jax.Array, labels: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Mean cross-entropy of integer labels, and its gradient with respect to the logits."""

    def loss(logits: jax.Array) -> jax.Array:
        log_probs = jax.nn.log_softmax(logits, axis=-1)
        picked = jnp.take_along_axis(log_probs, labels[:, None], axis=-1)
        return -jnp.mean(picked)

    return jax.value_and_grad(loss)(logits)


def attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    """Causal multi-head attention, heads leading: [heads, length, width]."""
    length, width = q.shape[1], q.shape[2]
    scores = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(jnp.float32(width)).astype(q.dtype)
    causal = jnp.tril(jnp.ones((length, length), bool))
    scores = jnp.where(causal, scores, jnp.asarray(-1e9, q.dtype))
    return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(scores, axis=-1), v)


def top_p_sample(
    logits: jax.Array, uniform: jax.Array, temperature: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """One nucleus-sampling step (p = 0.9): the sampled token per row and its probability.

    The random draw is an argument, so that the step is deterministic: the token is
    the first in descending-probability order whose cumulative kept mass exceeds
    `uniform` times the kept total.
    """
    probs = jax.nn.softmax(logits / temperature, axis=-1)
    order = jnp.argsort(-probs, axis=-1)
    sorted_probs = jnp.take_along_axis(probs, order, axis=-1)
    cumulative = jnp.cumsum(sorted_probs, axis=-1)
    kept = jnp.where(cumulative - sorted_probs < 0.9, sorted_probs, 0.0)
    kept_cumulative = jnp.cumsum(kept, axis=-1)
    threshold = uniform[:, None] * kept_cumulative[:, -1:]
    position = jnp.sum((kept_cumulative < threshold).astype(jnp.int32), axis=-1)
    position = jnp.minimum(position, logits.shape[-1] - 1)
    token = jnp.take_along_axis(order, position[:, None], axis=-1)[:, 0]
    return token.astype(jnp.int32), jnp.take_along_axis(probs, token[:, None], axis=-1)[:, 0]


def kv_cache_decode(
    x: jax.Array,
    k_cache: jax.Array,
    v_cache: jax.Array,
    position: jax.Array,
    wqkv: jax.Array,
    wo: jax.Array,
) -> tuple[jax.Array, jax.Array, jax.Array]:
    """One decode step: project the new token, write its key and value at `position`,
    attend over the cache up to it, project back. Caches are [batch, length, heads, width]."""
    batch, length, heads, width = k_cache.shape
    qkv = (x @ wqkv).reshape(batch, 3, heads, width)
    q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]
    zero = jnp.int32(0)
    k_cache = lax.dynamic_update_slice(k_cache, k[:, None], (zero, position, zero, zero))
    v_cache = lax.dynamic_update_slice(v_cache, v[:, None], (zero, position, zero, zero))
    scores = jnp.einsum("bhd,bshd->bhs", q, k_cache) / jnp.sqrt(jnp.float32(width))
    valid = jnp.arange(length)[None, None, :] <= position
    scores = jnp.where(valid, scores, -1e30)
    mixed = jnp.einsum("bhs,bshd->bhd", jax.nn.softmax(scores, axis=-1), v_cache)
    return mixed.reshape(batch, heads * width) @ wo, k_cache, v_cache


def _mlp_loss(params: tuple[jax.Array, ...], x: jax.Array, labels: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = params
    hidden = jax.nn.gelu(x @ w1 + b1)
    logits = (hidden @ w2 + b2).astype(jnp.float32)
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(log_probs, labels[:, None], axis=-1))


def mlp_step(
    w1: jax.Array, b1: jax.Array, w2: jax.Array, b2: jax.Array, x: jax.Array, labels: jax.Array
) -> tuple[jax.Array, ...]:
    """Forward, cross-entropy loss, gradients and an SGD update of a two-layer GELU MLP."""
    params = (w1, b1, w2, b2)
    loss, grads = jax.value_and_grad(_mlp_loss)(params, x, labels)
    updated = tuple(p - (0.1 * g).astype(p.dtype) for p, g in zip(params, grads, strict=True))
    return (loss, *updated)


def long_dot(x: jax.Array, w: jax.Array) -> jax.Array:
    """A dot with a long contracting dim and a small output: XLA splits K (split-K)."""
    return x @ w


def _weights(*shape: int, dtype: str = "float32") -> InputSpec:
    return InputSpec(shape, dtype, -0.2, 0.2)


PROGRAMS: tuple[Program, ...] = (
    Program("softmax_f32", softmax, (f32(128, 512),)),
    Program("softmax_bf16", softmax, (bf16(128, 512),)),
    Program("layernorm_f32", layernorm, (f32(64, 256), f32(256), f32(256))),
    Program("layernorm_bf16", layernorm, (bf16(64, 256), bf16(256), bf16(256))),
    Program(
        "layernorm_backward_f32",
        layernorm_backward,
        (f32(64, 256), f32(256), f32(256), f32(64, 256)),
    ),
    Program(
        "layernorm_backward_bf16",
        layernorm_backward,
        (bf16(64, 256), bf16(256), bf16(256), bf16(64, 256)),
    ),
    Program("cross_entropy_grad", cross_entropy_grad, (f32(64, 512), s32(64, low=0, high=511))),
    Program(
        "attention_bf16",
        attention,
        (bf16(4, 128, 64, low=-1, high=1), bf16(4, 128, 64, low=-1, high=1), bf16(4, 128, 64)),
    ),
    Program(
        "top_p_sample",
        top_p_sample,
        (f32(8, 1024), f32(8, low=0.0, high=1.0), f32(low=0.7, high=1.3)),
    ),
    Program(
        "kv_cache_decode",
        kv_cache_decode,
        (
            f32(4, 256, low=-1, high=1),
            f32(4, 128, 4, 64, low=-1, high=1),
            f32(4, 128, 4, 64),
            s32(low=20, high=100),
            _weights(256, 768),
            _weights(256, 256),
        ),
    ),
    Program(
        "split_k_bf16", long_dot, (bf16(16, 8192, low=-1, high=1), bf16(8192, 16, low=-1, high=1))
    ),
    Program(
        "mlp_step_bf16",
        mlp_step,
        (
            _weights(128, 256, dtype="bfloat16"),
            _weights(256, dtype="bfloat16"),
            _weights(256, 64, dtype="bfloat16"),
            _weights(64, dtype="bfloat16"),
            bf16(32, 128, low=-1, high=1),
            s32(32, low=0, high=63),
        ),
    ),
)

# The programs of the raw dumps, by the names the dump folders take.
RAW_DUMP_PROGRAMS = ("softmax_f32", "layernorm_f32", "layernorm_backward_f32")
