"""Passes of the Triton route: XLA's `xtile`/`stablehlo` to Triton pipeline, one module per pass."""
