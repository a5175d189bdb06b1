"""Passes for xla-emit, published under the `xla_emit.passes` entry point (pyproject.toml)."""
