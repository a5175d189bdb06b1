"""The Triton route: `__triton*` fusions tiled as XLA's symbolic tiling does, emitted as
block-level programs (one tile per program id)."""
