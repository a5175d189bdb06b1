"""Passes of XLA's GPU emitter pipeline: from emitted `xla` ops to vectorized, unrolled `scf`."""
