"""What PTO's tile ops compute, in numpy, over a destination tile's valid region.

The PTO executor (`pto.py`) runs an op by calling `compute(name, dst, tiles,
scalars, attrs)`: `tiles` are the op's tile inputs in operand order (scratch
tiles included, unused), `scalars` its scalar inputs, `attrs` its attributes
as plain values. Semantics follow pto-isa's ISA pages (`docs/isa/<OP>.md`) and
its CPU simulator (`include/pto/cpu/`):

- Elementwise ops write the destination's valid region; the elements outside
  it keep their values. f16/bf16 compute in f32 and round once per op.
- `tcmp`/`tcmps` pack one bit per element, least significant bit first, into
  the mask's integer elements row by row (the mask is zeroed first); `tsel`/
  `tsels` read the mask's valid elements (their low 8 bits) as one bit stream.
- `tpart*` combine where both sources are valid and copy the valid one elsewhere.
- `trem` takes the divisor's sign (a - floor(a / b) * b), `tfmod` the dividend's.
- `tci` writes row 0: start + j (start - j with `descending`).
- `tgather` (index form) reads the source at flat indices of its static
  shape; indices outside it read 0.
- `tsort32` writes 8-byte value-index pairs (f32 value and u32 index; f16
  value, two zero bytes, u32 index), each 32-element block sorted by value,
  largest first, equal values by index; `tmrgsort` merges such lists (ties go
  to the earlier list) and reports how many pairs it took from each list (its
  `executed` counts).
- `thistogram` writes each row's 256 bins as running totals (pto-isa's CPU
  simulator); `tquant`/`tdequant` take one scale (and offset) per row.
- `tgatherb`, `tpack` and `trandom` are in `pto_bit_ops`, the `_fp` forms in
  `pto_fixpipe`.
"""

from __future__ import annotations

from collections.abc import Callable

import ml_dtypes
import numpy as np

from xla_emit.interpreter import pto_bit_ops, pto_fixpipe
from xla_emit.interpreter.pto_semantics_base import (
    COMPARE,
    Array,
    AttrValue,
    Report,
    Scalar,
    SemanticsError,
    TileLike,
    compute_dtype,
    valid,
    write,
    write_report,
)

__all__ = [
    "AttrValue",
    "Report",
    "SemanticsError",
    "compute",
    "compute_dtype",
    "valid",
    "write",
    "write_report",
]


def _remainder(a: Array, b: Array) -> Array:
    return a - np.floor(a / b) * b if np.issubdtype(a.dtype, np.floating) else np.mod(a, b)


def _fmod(a: Array, b: Array) -> Array:
    return np.fmod(a, b)


_Binary = Callable[[Array, Array], Array]

# dst = f(src0, src1), and dst = f(src, scalar) for the `s` variants.
BINARY: dict[str, _Binary] = {
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "shl": np.left_shift,
    "shr": np.right_shift,
    "fmod": _fmod,
    "rem": _remainder,
    "sub": np.subtract,
    "max": np.maximum,
    "min": np.minimum,
    "prelu": lambda a, b: np.where(a > 0, a, a * b),
    "lrelu": lambda a, b: np.where(a > 0, a, a * b),
}
TILE_TILE = {
    f"pto.t{key}": key for key in ("and", "or", "xor", "shl", "shr", "fmod", "rem", "prelu")
}
TILE_SCALAR = {
    f"pto.t{key}s": key
    for key in ("sub", "max", "min", "and", "or", "xor", "shl", "shr", "fmod", "rem")
} | {"pto.tlrelu": "lrelu"}
UNARY: dict[str, Callable[[Array], Array]] = {
    "pto.tneg": np.negative,
    "pto.tnot": np.invert,
    "pto.trecip": lambda x: 1 / x,
}
PARTIAL: dict[str, _Binary] = {
    "pto.tpartadd": np.add,
    "pto.tpartmul": np.multiply,
    "pto.tpartmax": np.maximum,
    "pto.tpartmin": np.minimum,
}
REDUCE: dict[str, Callable[..., Array]] = {
    "min": np.min,
    "prod": np.prod,
    "argmax": np.argmax,
    "argmin": np.argmin,
}
EXPAND: dict[str, _Binary] = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": np.divide,
    "max": np.maximum,
    "min": np.minimum,
    "expdif": lambda a, v: np.exp(a - v),
}


def _shape(dst: TileLike) -> tuple[int, int]:
    return dst.valid_rows, dst.valid_cols


def _scalar_as(value: Scalar, like: Array) -> Array:
    return np.asarray(value).astype(like.dtype)


def compute(
    name: str,
    dst: TileLike,
    tiles: list[TileLike],
    scalars: list[Scalar],
    attrs: dict[str, AttrValue],
) -> Report:
    """Run op `name` on its tile and scalar inputs, writing `dst`; returns what the op
    reports besides (tmrgsort's executed counts), else None."""
    rows, cols = _shape(dst)
    if name in TILE_TILE:
        a, b = valid(tiles[0], rows, cols), valid(tiles[1], rows, cols)
        write(dst, BINARY[TILE_TILE[name]](a, b))
    elif name in TILE_SCALAR:
        a = valid(tiles[0], rows, cols)
        write(dst, BINARY[TILE_SCALAR[name]](a, _scalar_as(scalars[0], a)))
    elif name in UNARY:
        write(dst, UNARY[name](valid(tiles[0], rows, cols)))
    elif name in PARTIAL:
        _partial(PARTIAL[name], dst, tiles[0], tiles[1])
    elif name in _SPECIAL:
        return _SPECIAL[name](dst, tiles, scalars, attrs)
    elif name.startswith(("pto.trowexpand", "pto.tcolexpand")) and name[14:] in EXPAND:
        _expand(EXPAND[name[14:]], name.startswith("pto.trow"), dst, tiles)
    elif name.startswith(("pto.trow", "pto.tcol")) and name[8:] in REDUCE:
        _reduce(name[8:], name.startswith("pto.trow"), dst, tiles[0])
    else:
        raise SemanticsError("has no semantics in the PTO executor")
    return None


def _partial(f: _Binary, dst: TileLike, src0: TileLike, src1: TileLike) -> None:
    rows, cols = _shape(dst)
    dtype = compute_dtype(dst.data.dtype)
    a, b = np.zeros((rows, cols), dtype), np.zeros((rows, cols), dtype)
    has0, has1 = np.zeros((rows, cols), bool), np.zeros((rows, cols), bool)
    for src, values, has in ((src0, a, has0), (src1, b, has1)):
        r, c = min(src.valid_rows, rows), min(src.valid_cols, cols)
        values[:r, :c] = valid(src, r, c)
        has[:r, :c] = True
    result = np.where(has0 & has1, f(a, b), np.where(has0, a, b))
    covered = has0 | has1
    region = dst.data[:rows, :cols]
    region[covered] = result[covered].astype(dst.data.dtype)


def _reduce(kind: str, rows_axis: bool, dst: TileLike, src: TileLike) -> None:
    values = valid(src, src.valid_rows, src.valid_cols)
    reduced = REDUCE[kind](values, axis=1 if rows_axis else 0)
    if rows_axis:
        dst.data[: src.valid_rows, 0] = reduced.astype(dst.data.dtype)
    else:
        dst.data[0, : src.valid_cols] = reduced.astype(dst.data.dtype)


def _expand(f: _Binary, along_rows: bool, dst: TileLike, tiles: list[TileLike]) -> None:
    """`trowexpandOP`: a[i, j] OP v[i, 0]; `tcolexpandOP`: a[i, j] OP v[0, j]."""
    rows, cols = _shape(dst)
    full, vector = tiles[0], tiles[1]
    broadcast_shape = (rows, 1) if along_rows else (1, cols)
    if (full.valid_rows, full.valid_cols) == broadcast_shape != (rows, cols):
        full, vector = vector, full
    v = valid(vector, *broadcast_shape)
    write(dst, f(valid(full, rows, cols), np.broadcast_to(v, (rows, cols))))


def _column_expand(dst: TileLike, tiles: list[TileLike], *_: object) -> None:
    rows, cols = _shape(dst)
    write(dst, np.broadcast_to(valid(tiles[0], 1, cols), (rows, cols)))


def _ternary(sign: int) -> Callable[..., None]:
    def run(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
        rows, cols = _shape(dst)
        a, b = valid(tiles[0], rows, cols), valid(tiles[1], rows, cols)
        # taddc / tsubc: a +- b + c; taddsc / tsubsc: a +- scalar + b.
        middle, last = (
            (_scalar_as(scalars[0], a), b) if scalars else (b, valid(tiles[2], rows, cols))
        )
        write(dst, a + sign * middle + last)

    return run


def _divs(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    rows, cols = _shape(dst)
    a = valid(tiles[0], rows, cols)
    s = _scalar_as(scalars[0], a)
    a, b = (s, a) if attrs.get("scalar_first") else (a, s)
    if np.issubdtype(a.dtype, np.integer) and np.any(np.asarray(b) == 0):
        raise SemanticsError("integer division by zero")
    write(dst, a / b if np.issubdtype(np.result_type(a, b), np.floating) else a // b)


def _expands(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    rows, cols = _shape(dst)
    dst.data[:rows, :cols] = scalars[0]


def _axpy(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    rows, cols = _shape(dst)
    x = valid(tiles[0], rows, cols).astype(np.float64)
    y = valid(dst, rows, cols).astype(np.float64)
    write(dst, scalars[0] * x + y)


def _compare(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """Pack `src0 cmpMode src1` row by row, LSB first, into the mask's elements."""
    src = tiles[0]
    rows, cols = src.valid_rows, src.valid_cols
    a = valid(src, rows, cols)
    b = valid(tiles[1], rows, cols) if len(tiles) > 1 else _scalar_as(scalars[0], a)
    mode = str(attrs.get("cmpMode", "eq"))
    bits = COMPARE[mode](a, b)
    word_bits = dst.data.dtype.itemsize * 8
    words = -(-cols // word_bits)
    padded = np.zeros((rows, words * word_bits), dtype=np.uint64)
    padded[:, :cols] = bits
    weights = np.left_shift(np.uint64(1), np.arange(word_bits, dtype=np.uint64))
    packed = (padded.reshape(rows, words, word_bits) * weights).sum(axis=2)
    dst.data[...] = 0
    if words > dst.data.shape[1] or rows > dst.data.shape[0]:
        raise SemanticsError(f"needs a {rows}x{words} mask, but the mask tile is {dst.data.shape}")
    dst.data[:rows, :words] = packed.astype(dst.data.dtype)


def mask_bits(mask: TileLike, count: int) -> Array:
    """The first `count` bits of the mask's valid elements (low 8 bits each), LSB first."""
    region = mask.data[: mask.valid_rows, : mask.valid_cols].astype(np.int64) & 0xFF
    bits = np.unpackbits(region.astype(np.uint8).reshape(-1), bitorder="little")
    if bits.size < count:
        raise SemanticsError(f"selects {count} elements, but the mask holds {bits.size} bits")
    return bits[:count].astype(bool)


def _select(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    rows, cols = _shape(dst)
    take = mask_bits(tiles[0], rows * cols).reshape(rows, cols)
    a = valid(tiles[1], rows, cols)
    b = valid(tiles[2], rows, cols) if not scalars else _scalar_as(scalars[0], a)
    write(dst, np.where(take, a, b))


def _matmul(dst: TileLike, tiles: list[TileLike], roles: tuple[str, ...]) -> None:
    left, right = tiles[roles.index("left")], tiles[roles.index("right")]
    wide = np.int64 if np.issubdtype(dst.data.dtype, np.integer) else np.float64
    a = left.data[: left.valid_rows, : left.valid_cols].astype(wide)
    b = right.data[: right.valid_rows, : right.valid_cols].astype(wide)
    if a.shape[1] != b.shape[0]:
        raise SemanticsError(f"K mismatch at run time: {a.shape[1]} != {b.shape[0]}")
    result = a @ b
    if "acc" in roles:
        acc = tiles[roles.index("acc")]
        result = result + acc.data[: result.shape[0], : result.shape[1]].astype(wide)
    if "bias" in roles:
        result = result + tiles[roles.index("bias")].data[0:1, : result.shape[1]].astype(wide)
    write(dst, result)


def _matmul_roles(roles: tuple[str, ...]) -> Callable[..., None]:
    return lambda dst, tiles, *_: _matmul(dst, tiles, roles)


def _no_pre_quant(scalars: list[Scalar]) -> None:
    if len(scalars) > 2:
        raise SemanticsError("quantization by a pre-quant scalar is not modelled")


def _extract(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    _no_pre_quant(scalars)
    rows, cols = _shape(dst)
    r, c = int(scalars[0]), int(scalars[1])
    src = tiles[0]
    if r + rows > src.data.shape[0] or c + cols > src.data.shape[1]:
        raise SemanticsError(
            f"extracts {rows}x{cols} at ({r}, {c}) from a "
            f"{src.data.shape[0]}x{src.data.shape[1]} tile"
        )
    write(dst, src.data[r : r + rows, c : c + cols])


def _insert(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    _no_pre_quant(scalars)
    src = tiles[0]
    rows, cols = src.valid_rows, src.valid_cols
    r, c = int(scalars[0]), int(scalars[1])
    if r + rows > dst.data.shape[0] or c + cols > dst.data.shape[1]:
        raise SemanticsError(
            f"inserts {rows}x{cols} at ({r}, {c}) into a "
            f"{dst.data.shape[0]}x{dst.data.shape[1]} tile"
        )
    dst.data[r : r + rows, c : c + cols] = src.data[:rows, :cols].astype(dst.data.dtype)


def _concat(dst: TileLike, tiles: list[TileLike], *_: object) -> None:
    a, b = tiles
    rows = dst.valid_rows
    write(dst, np.concatenate([valid(a, rows, a.valid_cols), valid(b, rows, b.valid_cols)], 1))


def pad_value(pad: int, dtype: np.dtype[np.generic]) -> Scalar:
    """PTO's pad values: 1 zero, 2 the maximum (+inf for floats), 3 the minimum."""
    if pad == 1:
        return 0
    if np.issubdtype(dtype, np.floating) or dtype == np.dtype(ml_dtypes.bfloat16):
        return float("inf") if pad == 2 else float("-inf")
    info = np.iinfo(dtype)
    return int(info.max) if pad == 2 else int(info.min)


def _fill_pad(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """dst = src's valid region; the rest of dst's storage is dst's pad value."""
    src = tiles[0]
    pad = int(attrs.get("dst_pad", 0))
    if pad == 0:
        raise SemanticsError("needs a destination with a pad value (pad = 1, 2 or 3)")
    values = src.data[: src.valid_rows, : src.valid_cols].copy()
    dst.data[...] = pad_value(pad, dst.data.dtype)
    dst.data[: values.shape[0], : values.shape[1]] = values.astype(dst.data.dtype)


def _ci(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    step = -1 if attrs.get("descending") else 1
    cols = dst.valid_cols
    dst.data[0, :cols] = (int(scalars[0]) + step * np.arange(cols)).astype(dst.data.dtype)


def _tri(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """Lower (default): 1 where j <= i + d; upper: 1 where j >= i + d."""
    rows, cols = _shape(dst)
    i, j = np.indices((rows, cols))
    d = int(scalars[0])
    ones = j >= i + d if attrs.get("upper") else j <= i + d
    dst.data[:rows, :cols] = ones.astype(dst.data.dtype)


def _gather(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    if len(tiles) < 2:
        raise SemanticsError("runs the index form only (ins src, indices)")
    src, indices = tiles[0], tiles[1]
    rows, cols = _shape(dst)
    flat = src.data.reshape(-1)
    index = indices.data[:rows, :cols].astype(np.int64)
    inside = (index >= 0) & (index < flat.size)
    values = np.where(inside, flat[np.where(inside, index, 0)], 0)
    dst.data[:rows, :cols] = values.astype(dst.data.dtype)


def _scatter(dst: TileLike, tiles: list[TileLike], *_: object) -> None:
    if len(tiles) < 2:
        raise SemanticsError("runs the index form only (ins src, indices)")
    src, indices = tiles[0], tiles[1]
    rows, cols = src.valid_rows, src.valid_cols
    index = indices.data[:rows, :cols].astype(np.int64).reshape(-1)
    flat = dst.data.reshape(-1)
    if np.any((index < 0) | (index >= flat.size)):
        raise SemanticsError(f"scatters outside the {flat.size}-element destination")
    flat[index] = src.data[:rows, :cols].reshape(-1).astype(dst.data.dtype)


def _set_value(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    """dst's element at linear offset `scalars[0]` of its storage becomes `scalars[1]`."""
    flat = dst.data.reshape(-1)
    offset = int(scalars[0])
    if not 0 <= offset < flat.size:
        raise SemanticsError(f"offset {offset} is outside the {flat.size}-element tile")
    flat[offset] = scalars[1]


def memory_indices(memory: Array, indices: TileLike, rows: int, cols: int) -> tuple[Array, ...]:
    """Where each of the index tile's rows x cols elements points in `memory`: a linear
    element offset into its row-major elements (pto-isa's MGATHER/MSCATTER pages), or,
    for an index tile of one column, the start of row idx[i] (the row-indexed form)."""
    row_indexed = indices.valid_cols == 1 and cols > 1
    index = indices.data[:rows, : 1 if row_indexed else cols].astype(np.int64)
    if row_indexed:
        width = memory.shape[-1] if memory.ndim else 1
        if cols > width:
            raise SemanticsError(f"copies rows of {cols} elements from rows of {width}")
        index = index * width + np.arange(cols)
    if np.any((index < 0) | (index >= memory.size)):
        raise SemanticsError(f"indexes outside the {memory.size}-element memory")
    return np.unravel_index(index, memory.shape)


def gather_from_memory(dst: TileLike, memory: Array, indices: TileLike) -> None:
    """mgather: dst[i, j] = memory[idx[i, j]] over dst's valid region."""
    rows, cols = dst.valid_rows, dst.valid_cols
    where = memory_indices(memory, indices, rows, cols)
    dst.data[:rows, :cols] = memory[where].astype(dst.data.dtype)


def scatter_to_memory(memory: Array, src: TileLike, indices: TileLike) -> None:
    """mscatter: memory[idx[i, j]] = src[i, j] over src's valid region (a later element
    wins where two share an index)."""
    rows, cols = src.valid_rows, src.valid_cols
    where = memory_indices(memory, indices, rows, cols)
    memory[where] = src.data[:rows, :cols].astype(memory.dtype)


MEMORY_MOVES: dict[str, Callable[..., None]] = {
    "pto.mgather": gather_from_memory,
    "pto.mscatter": scatter_to_memory,
}


def _no_effect(*_: object) -> None:
    """A prefetch only warms a cache: the values do not change."""


# -- sorting, histograms, quantization, MX matmul ---------------------------------------


def _pair_dtype(dtype: np.dtype[np.generic]) -> np.dtype[np.generic]:
    """The 8-byte value-index pair tsort32 writes and tmrgsort merges: f32 value and u32
    index, or f16 value, two zero bytes and u32 index."""
    if dtype == np.dtype(np.float32):
        return np.dtype([("value", "<f4"), ("index", "<u4")])
    if dtype == np.dtype(np.float16):
        return np.dtype([("value", "<f2"), ("pad", "<u2"), ("index", "<u4")])
    raise SemanticsError(f"sorts f16 or f32 value-index pairs, not {dtype}")


def _pairs(tile: TileLike, row: int, start: int, count: int) -> Array:
    """`count` pairs of the tile's row `row`, starting at pair `start` (a view)."""
    pair = _pair_dtype(tile.data.dtype)
    storage = tile.data[row].view(pair)
    if start + count > storage.size:
        raise SemanticsError(
            f"needs {start + count} value-index pairs in a row, but the tile's row holds "
            f"{storage.size}"
        )
    return storage[start : start + count]


def _sort32(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """Each row's 32-element blocks, sorted by value (descending, equal values by index),
    as value-index pairs; the tail block needs the `tmp` form."""
    src, idx = tiles[0], tiles[1]
    rows, cols = src.valid_rows, src.valid_cols
    if cols % 32 and len(tiles) < 3:
        raise SemanticsError(f"sorts {cols} columns, not a multiple of 32, without a tmp tile")
    for r in range(rows):
        index_row = min(r, idx.valid_rows - 1)  # a one-row idx tile serves every row
        for start in range(0, cols, 32):
            count = min(32, cols - start)
            values = src.data[r, start : start + count]
            indices = idx.data[index_row, start : start + count].astype(np.uint32)
            order = np.lexsort((indices, -values.astype(np.float64)))
            out = _pairs(dst, r, start, count)
            out[...] = np.zeros(1, out.dtype)
            out["value"], out["index"] = values[order], indices[order]


def _merge(lists: list[Array], limit: int, exhausted: bool) -> tuple[list[Array], list[int]]:
    """Merge value-index pair lists: each step takes the largest head value, the first
    list's on equal values, up to `limit` pairs (or until a list runs out, `exhausted`)."""
    taken = [0] * len(lists)
    out: list[Array] = []
    while len(out) < limit:
        heads = [i for i, pairs in enumerate(lists) if taken[i] < pairs.size]
        if not heads:
            break
        best = heads[0]
        for i in heads[1:]:
            if lists[i][taken[i]]["value"] > lists[best][taken[best]]["value"]:
                best = i
        out.append(lists[best][taken[best]])
        taken[best] += 1
        if exhausted and any(t == pairs.size for t, pairs in zip(taken, lists, strict=True)):
            break
    return out, taken


def _merge_sort(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> Report:
    """tmrgsort. With a block length (elements): each group of 4 blocks of src's row is
    merged in place of the group. Without: the 2-4 source lists (tmp last) merged into
    dst's valid pairs; returns how many pairs it took from each list (4 counts, 0 for
    lists it does not have), which `outs`' second operand receives (pto-isa's CPU
    simulator `include/pto/cpu/TMrgSort.hpp`, its executedNumList)."""
    per_pair = 8 // dst.data.dtype.itemsize
    if scalars:
        src, block = tiles[0], int(scalars[0])
        if block <= 0 or block % per_pair:
            raise SemanticsError(f"block length {block} is not a whole number of pairs")
        group = 4 * block
        for start in range(0, src.valid_cols - group + 1, group):
            lists = [
                _pairs(src, 0, (start + b * block) // per_pair, block // per_pair).copy()
                for b in range(4)
            ]
            merged, _ = _merge(lists, 4 * (block // per_pair), False)
            _pairs(dst, 0, start // per_pair, len(merged))[...] = merged
        return None
    sources = tiles[:-1]
    if not 2 <= len(sources) <= 4:
        raise SemanticsError(f"merges 2 to 4 lists (then tmp), but got {len(sources)}")
    lists = [_pairs(s, 0, 0, s.valid_cols // per_pair).copy() for s in sources]
    merged, taken = _merge(lists, dst.valid_cols // per_pair, bool(attrs.get("exhausted")))
    _pairs(dst, 0, 0, len(merged))[...] = merged
    return taken + [0] * (4 - len(taken))


def _histogram(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """Per row, 256 bins over one byte of each element, written as running totals (bin b
    holds the count of byte values <= b, as pto-isa's CPU simulator writes them). isMSB:
    the top byte; otherwise the next byte down, of the elements whose top byte is the
    row's idx value (a u16 source)."""
    src, idx = tiles[0], tiles[1]
    if dst.data.shape[1] < 256:
        raise SemanticsError(f"needs 256 bins per row, but dst has {dst.data.shape[1]} columns")
    bits = src.data.dtype.itemsize * 8
    values = src.data[: src.valid_rows, : src.valid_cols].astype(np.uint64)
    top = (values >> np.uint64(bits - 8)) & np.uint64(0xFF)
    if attrs.get("isMSB", 1):
        digits, keep = top, np.ones(values.shape, bool)
    elif bits == 16:
        digits = values & np.uint64(0xFF)
        keep = top == idx.data[: src.valid_rows, :1].astype(np.uint64)
    else:
        raise SemanticsError("histograms the low byte of u16 sources only (isMSB = false)")
    for r in range(src.valid_rows):
        counts = np.bincount(digits[r][keep[r]].astype(np.int64), minlength=256)
        dst.data[r, :256] = np.cumsum(counts).astype(dst.data.dtype)


def _row_parameter(tile: TileLike, rows: int, cols: int) -> Array:
    """A per-row parameter tile read at (min(i, valid rows - 1), min(j, valid cols - 1))."""
    i = np.minimum(np.arange(rows), max(tile.valid_rows, 1) - 1)
    j = np.minimum(np.arange(cols), max(tile.valid_cols, 1) - 1)
    return tile.data[np.ix_(i, j)]


def _quant(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """INT8_SYM: int8(clamp(rint(x * s))); INT8_ASYM: uint8(clamp(rint(x * s + zero)));
    s and zero per row (their column 0)."""
    src = tiles[0]
    rows, cols = src.valid_rows, src.valid_cols
    x = src.data[:rows, :cols].astype(np.float32)
    scale = _row_parameter(tiles[1], rows, 1).astype(np.float32)
    if attrs.get("quant_type", "INT8_SYM") == "INT8_SYM":
        low, high, scaled = -128, 127, x * scale
    else:
        zero = _row_parameter(tiles[2], rows, 1).astype(np.float32)
        low, high, scaled = 0, 255, x * scale + zero
    write(dst, np.clip(np.rint(scaled), low, high))


def _dequant(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict) -> None:
    """dst = (src - offset) * scale in dst's type, offset and scale per row."""
    rows, cols = _shape(dst)
    t = dst.data.dtype
    src = tiles[0].data[:rows, :cols].astype(t)
    scale = _row_parameter(tiles[1], rows, cols).astype(t)
    offset = _row_parameter(tiles[2], rows, cols).astype(t)
    write(dst, (src - offset) * scale)


def _mx_scale(tile: TileLike) -> Array:
    """MX scales as numbers: e8m0 bytes (2^(e - 127), 255 is NaN) or a float type."""
    data = tile.data[: tile.valid_rows, : tile.valid_cols]
    if np.issubdtype(data.dtype, np.integer):
        exponent = data.astype(np.int64) & 0xFF
        return np.where(exponent == 255, np.nan, np.ldexp(1.0, exponent - 127))
    return data.astype(np.float64)


def _mx_matmul(dst: TileLike, tiles: list[TileLike], roles: tuple[str, ...]) -> None:
    """dst[i, j] = sum_k a[i, k] b[k, j] a_scale[i, k // 32] b_scale[k // 32, j] (+ acc
    or bias): one scale per 32 values along K."""
    left, right = tiles[roles.index("left")], tiles[roles.index("right")]
    a = left.data[: left.valid_rows, : left.valid_cols].astype(np.float64)
    b = right.data[: right.valid_rows, : right.valid_cols].astype(np.float64)
    if a.shape[1] != b.shape[0]:
        raise SemanticsError(f"K mismatch at run time: {a.shape[1]} != {b.shape[0]}")
    groups = -(-a.shape[1] // 32)
    a_scale = _mx_scale(tiles[roles.index("a_scale")])
    b_scale = _mx_scale(tiles[roles.index("b_scale")])
    if a_scale.shape[1] < groups or b_scale.shape[0] < groups:
        raise SemanticsError(f"needs {groups} scales along K, one per 32 values")
    k_group = np.arange(a.shape[1]) // 32
    result = (a * a_scale[: a.shape[0], k_group]) @ (b * b_scale[k_group, : b.shape[1]])
    if "acc" in roles:
        result = result + tiles[0].data[: result.shape[0], : result.shape[1]].astype(np.float64)
    if "bias" in roles:
        result = result + tiles[-1].data[0:1, : result.shape[1]].astype(np.float64)
    write(dst, result)


def _mx_roles(roles: tuple[str, ...]) -> Callable[..., None]:
    return lambda dst, tiles, *_: _mx_matmul(dst, tiles, roles)


_SPECIAL: dict[str, Callable[..., Report]] = {
    "pto.taddc": _ternary(1),
    "pto.tsubc": _ternary(-1),
    "pto.taddsc": _ternary(1),
    "pto.tsubsc": _ternary(-1),
    "pto.tdivs": _divs,
    "pto.texpands": _expands,
    "pto.taxpy": _axpy,
    "pto.tcmp": _compare,
    "pto.tcmps": _compare,
    "pto.tsel": _select,
    "pto.tsels": _select,
    "pto.tcolexpand": _column_expand,
    "pto.tmatmul.acc": _matmul_roles(("acc", "left", "right")),
    "pto.tmatmul.bias": _matmul_roles(("left", "right", "bias")),
    "pto.tgemv": _matmul_roles(("left", "right")),
    "pto.tgemv.acc": _matmul_roles(("acc", "left", "right")),
    "pto.tgemv.bias": _matmul_roles(("left", "right", "bias")),
    "pto.textract": _extract,
    "pto.tinsert": _insert,
    "pto.tconcat": _concat,
    "pto.tfillpad": _fill_pad,
    "pto.tfillpad_expand": _fill_pad,
    "pto.tfillpad_inplace": _fill_pad,
    "pto.tsetval": _set_value,
    "pto.tprefetch": _no_effect,
    "pto.tci": _ci,
    "pto.ttri": _tri,
    "pto.tgather": _gather,
    "pto.tscatter": _scatter,
    "pto.tsort32": _sort32,
    "pto.tmrgsort": _merge_sort,
    "pto.thistogram": _histogram,
    "pto.tquant": _quant,
    "pto.tdequant": _dequant,
    "pto.tmatmul.mx": _mx_roles(("left", "a_scale", "right", "b_scale")),
    "pto.tmatmul.mx.acc": _mx_roles(("acc", "left", "a_scale", "right", "b_scale")),
    "pto.tmatmul.mx.bias": _mx_roles(("left", "a_scale", "right", "b_scale", "bias")),
    "pto.tgemv.mx": _mx_roles(("left", "a_scale", "right", "b_scale")),
    "pto.tgemv.mx.acc": _mx_roles(("acc", "left", "a_scale", "right", "b_scale")),
    "pto.tgemv.mx.bias": _mx_roles(("left", "a_scale", "right", "b_scale", "bias")),
    **pto_bit_ops.SEMANTICS,
    **pto_fixpipe.SEMANTICS,
}
SUPPORTED: frozenset[str] = frozenset(
    [*TILE_TILE, *TILE_SCALAR, *UNARY, *PARTIAL, *_SPECIAL]
    + [f"pto.trowexpand{k}" for k in EXPAND]
    + [f"pto.tcolexpand{k}" for k in EXPAND]
    + [f"pto.t{axis}{k}" for axis in ("row", "col") for k in REDUCE]
)
