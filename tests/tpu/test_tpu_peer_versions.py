"""The `tpu` dialect holds every op of jaxlib 0.12's Mosaic and of jaxlib 0.10.2's.

The op names are jaxlib's (the `tpu` ops its Python bindings define); 0.12 has 100 and
dropped two of 0.10.2's 88.
"""

from xla_emit.dialects.tpu import TPU

JAXLIB_0_12 = [
    "all_reduce",
    "annotate",
    "assume_layout",
    "assume_multiple",
    "barrier",
    "bitcast",
    "bitcast_vreg",
    "broadcast_in_sublanes",
    "compress_store_vreg",
    "concatenate",
    "conv",
    "core_id",
    "create_mask",
    "create_subelement_mask",
    "delay",
    "device_id",
    "dynamic_gather",
    "dynamic_rotate",
    "enqueue_dma",
    "enqueue_indirect_dma",
    "erase_memref_layout",
    "expand_load_vreg",
    "extf",
    "fetch_and_add_sync",
    "fptosi",
    "fptoui",
    "gather",
    "internal_scratch",
    "iota",
    "iteration_bound",
    "load",
    "log",
    "log_buffer",
    "logistic",
    "mask_cast",
    "matmul",
    "matmul_acc_lhs",
    "matmul_lhs_fifo",
    "matmul_pop",
    "matmul_pop_fifo",
    "matmul_push_rhs",
    "memref_bitcast",
    "memref_memory_space_is",
    "memref_reshape",
    "memref_slice",
    "memref_squeeze",
    "pack_elementwise",
    "pack_subelements",
    "pack_vmsk",
    "prng_random_bits",
    "prng_set_seed_32",
    "reciprocal",
    "reduce",
    "reduce_index",
    "reduce_precision",
    "region",
    "reinterpret_cast",
    "reshape",
    "roll_vectors",
    "scan",
    "scan_count",
    "sem_alloc",
    "sem_barrier",
    "sem_read",
    "sem_signal",
    "sem_wait",
    "shared_memref_slice",
    "shuffled_load",
    "shuffled_store",
    "sitofp",
    "sort",
    "stochastic_convert",
    "stochastic_convert_elementwise",
    "store",
    "strided_load",
    "strided_store",
    "subcore_id",
    "sublane_shuffle",
    "tile_size",
    "trace",
    "trace_start",
    "trace_stop",
    "trace_value",
    "transpose",
    "truncf",
    "uitofp",
    "unpack_elementwise",
    "unpack_subelements",
    "unroll_vectors",
    "vector_compress_store",
    "vector_expand_load",
    "vector_load",
    "vector_load_idx",
    "vector_store",
    "vector_store_idx",
    "wait_dma",
    "wait_dma2",
    "wait_indirect_dma",
    "weird",
    "yield",
]

NEW_IN_0_12 = [
    "annotate",
    "compress_store_vreg",
    "conv",
    "expand_load_vreg",
    "logistic",
    "matmul_lhs_fifo",
    "matmul_pop_fifo",
    "memref_memory_space_is",
    "reduce",
    "reduce_precision",
    "shared_memref_slice",
    "tile_size",
    "vector_compress_store",
    "vector_expand_load",
]

GONE_IN_0_12 = ["relayout", "repeat"]


def _ours() -> set[str]:
    return {op.name.removeprefix("tpu.") for op in TPU.operations}


def test_every_jaxlib_0_12_op_is_defined() -> None:
    assert len(set(JAXLIB_0_12)) == 100
    assert set(JAXLIB_0_12) - _ours() == set()


def test_every_jaxlib_0_10_2_op_is_still_defined() -> None:
    jaxlib_0_10_2 = (set(JAXLIB_0_12) - set(NEW_IN_0_12)) | set(GONE_IN_0_12)
    assert len(jaxlib_0_10_2) == 88
    assert jaxlib_0_10_2 - _ours() == set()


def test_no_op_beyond_both_versions() -> None:
    assert _ours() - set(JAXLIB_0_12) - set(GONE_IN_0_12) == set()
