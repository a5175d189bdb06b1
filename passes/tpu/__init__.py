"""Mosaic TPU passes: memref layouts, the alignment proof and the realignment of accesses."""
