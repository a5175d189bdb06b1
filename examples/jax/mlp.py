"""A two-layer MLP with a softmax head: the quick start of `xla-emit-jax`."""

import jax
import jax.numpy as jnp


def mlp(x, w1, w2):
    hidden = jax.nn.relu(x @ w1 / jnp.sqrt(x.shape[-1]))
    return jax.nn.softmax(hidden @ w2 / jnp.sqrt(w1.shape[-1]), axis=-1)
