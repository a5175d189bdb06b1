"""Mosaic's indexed memory ops, views, ids and no-op ops in the TPU interpreter.

Expectations are numpy indexing or hand-worked bits written from `tpu_ops.td`,
never the interpreter's code; errors are checked word for word, with their
location.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

VMEM = "#tpu.memory_space<vmem>"
SMEM = "#tpu.memory_space<smem>"
SEM = "memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>"
DMA_SEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
ROWS = np.arange(16 * 128, dtype=np.float32).reshape(16, 128)


def run(signature: str, body: str, *args: object) -> list[np.ndarray]:
    text = f"func.func @f{signature} {{\n{body}\n}}\n"
    module, source_map = parse_mlir(text, "k.mlir")
    return run_tpu_kernel(module, list(args), locate=source_map.location_of)


def shuffled(op: str, offsets: str, mask: str) -> str:
    attrs = f"{{sublane_mask = array<i1: {mask}>, sublane_offsets = array<i32: {offsets}>}}"
    memref = f"memref<16x128xf32, {VMEM}>"
    if op == "load":
        return f"%r = tpu.shuffled_load %m[%c4, %c0] {attrs} : {memref}, vector<8x128xf32>"
    return f"tpu.shuffled_store %m[%c4, %c0], %v {attrs} : {memref}, vector<8x128xf32>"


INDICES = "%c0 = arith.constant 0 : index\n%c4 = arith.constant 4 : index"
SOME_ROWS = "true, true, true, true, true, true, true, false"


def test_shuffled_load_reads_rows_at_their_offsets() -> None:
    got, _ = run(
        f"(%m: memref<16x128xf32, {VMEM}>) -> vector<8x128xf32>",
        f"{INDICES}\n{shuffled('load', '0, 2, 4, 6, 1, 3, 5, 7', SOME_ROWS)}\n"
        "return %r : vector<8x128xf32>",
        ROWS,
    )
    np.testing.assert_array_equal(got[:7], ROWS[[4, 6, 8, 10, 5, 7, 9]])
    assert np.isnan(got[7]).all()  # masked: unspecified


def test_shuffled_store_writes_only_unmasked_rows() -> None:
    value = -ROWS[:8]
    (memory,) = run(
        f"(%m: memref<16x128xf32, {VMEM}>, %v: vector<8x128xf32>)",
        f"{INDICES}\n{shuffled('store', '7, 6, 5, 4, 3, 2, 1, 0', SOME_ROWS)}\nreturn",
        ROWS,
        value,
    )[:1]
    expected = ROWS.copy()
    for sublane, offset in enumerate([7, 6, 5, 4, 3, 2, 1]):
        expected[4 + offset] = value[sublane]
    np.testing.assert_array_equal(memory, expected)  # row 4 (sublane 7) unwritten


def test_shuffled_load_past_the_end_is_a_located_error() -> None:
    with pytest.raises(UserError) as caught:
        run(
            f"(%m: memref<16x128xf32, {VMEM}>) -> vector<8x128xf32>",
            f"{INDICES}\n{shuffled('load', '0, 1, 2, 3, 4, 5, 6, 12', 'true, ' * 7 + 'true')}\n"
            "return %r : vector<8x128xf32>",
            ROWS,
        )
    assert str(caught.value).splitlines()[0] == (
        "k.mlir:4:1: error: 'tpu.shuffled_load' op reads or writes out of bounds: index 16 in "
        "dimension 0 of a memref with shape [16, 128]"
    )


TABLE = np.arange(32, dtype=np.int32) * 10
WHERE = np.array([3, 0, 31, 3, 7, 7, 2, 5, 9, 1, 4, 8, 6, 30, 29, 11], np.int32)


def load_idx(masked: bool) -> str:
    mask = ", %k" if masked else ""
    mask_type = ", vector<16xi1>" if masked else ""
    sizes = "1, 1, 1" if masked else "1, 1, 0"
    return (
        f'%r = "tpu.vector_load_idx"(%m, %i{mask}) <{{operandSegmentSizes = array<i32: {sizes}>}}>'
        f" : (memref<32xi32, {VMEM}>, vector<16xi32>{mask_type}) -> vector<16xi32>"
    )


def test_vector_load_idx_gathers_and_leaves_masked_lanes_unspecified() -> None:
    keep = np.arange(16) % 3 != 0
    got = run(
        f"(%m: memref<32xi32, {VMEM}>, %i: vector<16xi32>, %k: vector<16xi1>) -> vector<16xi32>",
        f"{load_idx(True)}\nreturn %r : vector<16xi32>",
        TABLE,
        np.where(keep, WHERE, 1000).astype(np.int32),  # masked lanes may point anywhere
        keep,
    )[0]
    np.testing.assert_array_equal(got[keep], TABLE[WHERE[keep]])
    assert (got[~keep] == -(2**31)).all()


def test_vector_load_idx_out_of_bounds_names_the_index() -> None:
    with pytest.raises(UserError, match="index 40 in dimension 0 of a memref with shape \\[32\\]"):
        run(
            f"(%m: memref<32xi32, {VMEM}>, %i: vector<16xi32>) -> vector<16xi32>",
            f"{load_idx(False)}\nreturn %r : vector<16xi32>",
            TABLE,
            np.where(np.arange(16) == 5, 40, WHERE).astype(np.int32),
        )


@pytest.mark.parametrize("add", [False, True])
def test_vector_store_idx_highest_lane_wins_or_all_add(add: bool) -> None:
    attrs = ", add = true" if add else ""
    values = np.arange(16, dtype=np.int32) + 100
    (memory,) = run(
        f"(%m: memref<32xi32, {VMEM}>, %i: vector<16xi32>, %v: vector<16xi32>)",
        f'"tpu.vector_store_idx"(%v, %m, %i) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0>'
        f"{attrs}}}> : (vector<16xi32>, memref<32xi32, {VMEM}>, vector<16xi32>) -> ()\nreturn",
        TABLE,
        WHERE,
        values,
    )
    expected = TABLE.copy()
    for lane in range(16):  # lowest lane first
        target = WHERE[lane]
        expected[target] = expected[target] + values[lane] if add else values[lane]
    np.testing.assert_array_equal(memory, expected)
    assert memory[3] == (10 * 3 + 100 + 103 if add else 103)  # lanes 0 and 3 share index 3


def test_memref_bitcast_to_bf16_splits_words_into_row_pairs() -> None:
    words = np.random.default_rng(7).integers(0, 2**32, size=(8, 128), dtype=np.uint64)
    got = run(
        f"(%m: memref<8x128xi32, {VMEM}>) -> vector<16x128xbf16>",
        "%c0 = arith.constant 0 : index\n"
        f"%b = tpu.memref_bitcast %m : memref<8x128xi32, {VMEM}> -> memref<16x128xbf16, {VMEM}>\n"
        f"%r = vector.load %b[%c0, %c0] : memref<16x128xbf16, {VMEM}>, vector<16x128xbf16>\n"
        "return %r : vector<16x128xbf16>",
        words.astype(np.uint32).view(np.int32),
    )[0]
    bits = got.view(np.uint16)
    for row, lane in [(0, 0), (3, 17), (14, 100), (15, 127)]:
        word = int(words[row // 2, lane])
        assert int(bits[row, lane]) == (word >> (16 * (row % 2))) & 0xFFFF


def test_memref_bitcast_to_i32_writes_through_to_the_bf16_rows() -> None:
    halves = np.random.default_rng(8).integers(0, 2**16, size=(16, 128), dtype=np.uint32)
    words = halves[0::2] | (halves[1::2] << 16)  # row 2r low, row 2r + 1 high
    results = run(
        f"(%m: memref<16x128xbf16, {VMEM}>, %w: vector<8x128xi32>) -> vector<8x128xi32>",
        "%c0 = arith.constant 0 : index\n"
        f"%b = tpu.memref_bitcast %m : memref<16x128xbf16, {VMEM}> -> memref<8x128xi32, {VMEM}>\n"
        f"%r = vector.load %b[%c0, %c0] : memref<8x128xi32, {VMEM}>, vector<8x128xi32>\n"
        f"vector.store %w, %b[%c0, %c0] : memref<8x128xi32, {VMEM}>, vector<8x128xi32>\n"
        "return %r : vector<8x128xi32>",
        halves.astype(np.uint16).view(ml_dtypes.bfloat16),
        (words[::-1]).view(np.int32),
    )
    loaded, memory = results
    assert loaded.view(np.uint32).tolist() == words.tolist()
    stored_halves = np.empty_like(halves)
    stored_halves[0::2], stored_halves[1::2] = words[::-1] & 0xFFFF, words[::-1] >> 16
    assert memory.view(np.uint16).tolist() == stored_halves.tolist()


def test_layout_views_scratch_and_ids() -> None:
    memref = f"memref<16x128xf32, {VMEM}>"
    results = run(
        f"(%m: {memref}) -> (vector<16x128xf32>, i32, i32, i32)",
        "%c0 = arith.constant 0 : index\n"
        f"%e = tpu.erase_memref_layout %m : {memref} -> {memref}\n"
        f'%a = "tpu.assume_layout"(%e) : ({memref}) -> {memref}\n'
        f"%r = vector.load %a[%c0, %c0] : {memref}, vector<16x128xf32>\n"
        f"%s = tpu.internal_scratch : memref<8x128xf32, {VMEM}>\n"
        "%d = tpu.device_id : i32\n%k = tpu.core_id : i32\n%u = tpu.subcore_id : i32\n"
        "return %r, %d, %k, %u : vector<16x128xf32>, i32, i32, i32",
        ROWS,
    )
    np.testing.assert_array_equal(results[0], ROWS)
    assert [int(v) for v in results[1:4]] == [0, 0, 0]


def test_semaphores_reads_barriers_and_no_ops() -> None:
    results = run(
        f"(%s: {SEM}) -> (i32, i32)",
        "%c3 = arith.constant 3 : i32\n%c0 = arith.constant 0 : index\n"
        f"tpu.sem_signal %s, %c3 : {SEM}\n%n = tpu.sem_read %s : {SEM} -> i32\n"
        f"%b = tpu.sem_barrier : {SEM}\ntpu.sem_signal %b, %c3 : {SEM}\n"
        f"%again = tpu.sem_barrier : {SEM}\n%c1 = arith.constant 1 : i32\n"
        f"tpu.sem_wait %again, %c1 : {SEM}\n%m = tpu.sem_read %b : {SEM} -> i32\n"
        'tpu.delay %c3\ntpu.trace_value %n, "n" : i32\ntpu.log "n" : [%n] : i32\n'
        'tpu.barrier barrier_id(%c0)\n"tpu.prng_set_seed_32"(%c3) : (i32) -> ()\n'
        "return %n, %m : i32, i32",
        None,
    )
    assert [int(v) for v in results[:2]] == [3, 2]


def fetch_and_add(core: int) -> list[np.ndarray]:
    return run(
        f"(%m: memref<4xi32, {SMEM}>) -> i32",
        f"%i = arith.constant 2 : i32\n%v = arith.constant 5 : i32\n%c = arith.constant {core} : "
        f"i32\n%old = tpu.fetch_and_add_sync %m[%i], %v, %c : memref<4xi32, {SMEM}>, i32 -> i32\n"
        "return %old : i32",
        np.array([1, 2, 3, 4], np.int32),
    )


def test_fetch_and_add_returns_the_old_value() -> None:
    old, memory = fetch_and_add(0)
    assert int(old) == 3
    assert memory.tolist() == [1, 2, 8, 4]


def test_fetch_and_add_on_another_core_is_an_error() -> None:
    with pytest.raises(UserError) as caught:
        fetch_and_add(1)
    assert str(caught.value).splitlines()[0] == (
        "k.mlir:5:1: error: 'tpu.fetch_and_add_sync' op targets core 1, but the interpreter runs "
        "core 0 only"
    )


def wait_dma(enqueue: bool) -> str:
    memref = f"memref<8x128xf32, {VMEM}>"
    start = (
        f"tpu.enqueue_dma source(%a : {memref}) target(%b : {memref}) "
        f"target_semaphore(%d : {DMA_SEM})\n"
        if enqueue
        else ""
    )
    return (
        f"{start}tpu.wait_dma source(%a : {memref}) target(%b : {memref}) "
        f"target_semaphore(%d : {DMA_SEM}) {{wait_target = true}}\nreturn"
    )


def test_wait_dma_waits_for_the_target_semaphore() -> None:
    signature = f"(%a: memref<8x128xf32, {VMEM}>, %b: memref<8x128xf32, {VMEM}>, %d: {DMA_SEM})"
    _, copied = run(signature, wait_dma(True), ROWS[:8], np.zeros((8, 128), np.float32), None)
    np.testing.assert_array_equal(copied, ROWS[:8])
    with pytest.raises(
        UserError, match=r"'tpu.wait_dma' op waits for a DMA that was never started"
    ):
        run(signature, wait_dma(False), ROWS[:8], np.zeros((8, 128), np.float32), None)


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            '%r = "tpu.prng_random_bits"() : () -> vector<8x128xi32>',
            "'tpu.prng_random_bits' op is not supported by the TPU interpreter: the chip's random "
            "bits are not specified",
        ),
        (
            "%x = arith.constant dense<1.0> : vector<8x128xf32>\n"
            "%b = arith.constant dense<0> : vector<8x128xi32>\n"
            "%r = tpu.stochastic_convert %x, %b : vector<8x128xf32>, vector<8x128xi32> -> "
            "vector<8x128xi32>",
            "'tpu.stochastic_convert' op is not supported by the TPU interpreter: the chip's "
            "stochastic rounding is not specified",
        ),
    ],
)
def test_ops_without_a_defined_value_fail_with_the_reason(op: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        run("() -> vector<8x128xi32>", f"{op}\nreturn %r : vector<8x128xi32>")
    line = op.count("\n") + 2
    assert str(caught.value).splitlines()[0] == f"k.mlir:{line}:1: error: {message}"


HBM = "#tpu.memory_space<hbm>"
TABLE_ROWS = np.arange(32 * 8, dtype=np.float32).reshape(32, 8)
PICKS = np.array([5, 0, 31, 5], np.int32)


def indirect(source: str, target: str, extra: str = "", attrs: str = "") -> str:
    return (
        f"tpu.enqueue_indirect_dma source(%s : {source}) target(%t : {target}) "
        f"offsets(%o : vector<4xi32>){extra} semaphore(%d : {DMA_SEM}){attrs}\n"
        f"tpu.wait_indirect_dma semaphore(%d : {DMA_SEM}) src(%s : {source}) dst(%t : {target})\n"
        "return"
    )


def test_indirect_dma_gathers_rows_into_vmem() -> None:
    source, target = f"memref<32x8xf32, {HBM}>", f"memref<4x8xf32, {VMEM}>"
    _, gathered = run(
        f"(%s: {source}, %t: {target}, %o: vector<4xi32>, %d: {DMA_SEM})",
        indirect(source, target),
        TABLE_ROWS,
        np.zeros((4, 8), np.float32),
        PICKS,
        None,
    )
    np.testing.assert_array_equal(gathered, TABLE_ROWS[[5, 0, 31, 5]])


def test_indirect_dma_scatter_adds_and_skips_filtered_offsets() -> None:
    source, target = f"memref<4x8xf32, {VMEM}>", f"memref<32x8xf32, {HBM}>"
    updates = np.ones((4, 8), np.float32) * np.array([1, 10, 100, 1000], np.float32)[:, None]
    _, table = run(
        f"(%s: {source}, %t: {target}, %o: vector<4xi32>, %d: {DMA_SEM}, %f: i32)",
        indirect(source, target, " offset_filter(%f)", " {add = true}"),
        updates,
        TABLE_ROWS,
        PICKS,
        None,
        0,
    )
    expected = TABLE_ROWS.copy()
    expected[5] += 1 + 1000  # offsets 0 and 3 both name row 5
    expected[31] += 100  # offset 1 names row 0, the filter value: skipped
    np.testing.assert_array_equal(table, expected)


def test_indirect_dma_offset_outside_the_table_is_an_error() -> None:
    source, target = f"memref<32x8xf32, {HBM}>", f"memref<4x8xf32, {VMEM}>"
    with pytest.raises(UserError) as caught:
        run(
            f"(%s: {source}, %t: {target}, %o: vector<4xi32>, %d: {DMA_SEM})",
            indirect(source, target),
            TABLE_ROWS,
            np.zeros((4, 8), np.float32),
            np.array([1, 32, 2, 3], np.int32),
            None,
        )
    assert str(caught.value).splitlines()[0] == (
        "k.mlir:2:1: error: 'tpu.enqueue_indirect_dma' op has offset 32 outside 0..31 of the "
        "indexed dimension"
    )
