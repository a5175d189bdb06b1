"""The tile executor: Triton programs, run many program ids at once.

A Triton program computes one tile of its outputs for one program id (pid).
Here every SSA value is a numpy array whose leading axis is the pid (all pids
of a chunk at once) and whose other axes are the tile's, so one numpy op runs
one IR op for every program. `tiles` reads and writes the tiles of a buffer at
each pid's offsets, with masks for the tiles that run past the end of a
dimension; `reduce_order` adds up a tile in the order Triton's reduce lowering
does (within a thread, across the lanes of a warp, across warps), so f32 sums
are rounded as on the GPU. Scalar and elementwise arithmetic on tiles is the
project's one scalar semantics (`interpreter.scalar_arith`, `interpreter.math`):
a tile is a whole value to them.
"""
