"""The tile executor: Triton programs, run many program ids at once.

A Triton program computes one tile of its outputs for one program id (pid).
Here every SSA value is a numpy array whose leading axis is the pid (all pids
of a chunk at once) and whose other axes are the tile's, so one numpy op runs
one IR op for every program. `tiles` reads and writes the tiles of a buffer at
each pid's offsets, with masks for the tiles that run past the end of a
dimension; `reduce_order` adds up a tile in the order Triton's reduce lowering
does (within a thread, across the lanes of a warp, across warps), so f32 sums
are rounded as on the GPU; `dot` multiplies tiles as the tensor cores do. Scalar
and elementwise arithmetic on tiles is the project's one scalar semantics
(`interpreter.scalar_arith`, `interpreter.math`): a tile is a whole value to them.
The handlers of each dialect's ops on tiles are in `xtile_ops` (with `scf.for`
and `xla.apply_indexing`), `stablehlo_ops` and `triton_ops`; `executor` runs
them, every stage of `xla-triton-pipeline` and XLA's own kernels alike, each block from
a plan made once (`plan`), keeping the values that do not depend on the buffers between
launches.
"""
