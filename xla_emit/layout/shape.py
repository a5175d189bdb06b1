"""XLA array shapes with layouts: data types, parsing and printing.

The text form is XLA's: `f32[3,5]{1,0:T(2,2)}`. Inside the braces come, in
this fixed order, the `minor_to_major` permutation and, after a colon, the
tiles `T(..)(..)`, the tail padding alignment `L(n)`, the element size in bits
`E(n)` and the memory space `S(n)`. A tile entry `*` combines that dimension
into the next more-minor one; it is kept as `COMBINE_DIMENSION` internally.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COMBINE_DIMENSION = -1
"""Tile entry `*`: merge this dim into the next more-minor dim before tiling (the seed's -1)."""

# XLA primitive types and their storage size in bits. PRED takes a byte.
ELEMENT_BITS: dict[str, int] = {
    "pred": 8,
    "s2": 2,
    "s4": 4,
    "s8": 8,
    "s16": 16,
    "s32": 32,
    "s64": 64,
    "u2": 2,
    "u4": 4,
    "u8": 8,
    "u16": 16,
    "u32": 32,
    "u64": 64,
    "f8e4m3fn": 8,
    "f8e5m2": 8,
    "f8e4m3b11fnuz": 8,
    "f8e4m3fnuz": 8,
    "f8e5m2fnuz": 8,
    "bf16": 16,
    "f16": 16,
    "f32": 32,
    "f64": 64,
    "c64": 64,
    "c128": 128,
}


class LayoutSyntaxError(Exception):
    """A shape or layout string that does not parse, or a layout that does not fit its shape.

    `offset` is the character position in the text the error refers to.
    """

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True)
class Tile:
    """One tiling level: sizes of the most-minor physical dims it tiles (`*` = combine)."""

    dims: tuple[int, ...]

    def __str__(self) -> str:
        return "(" + ",".join("*" if d == COMBINE_DIMENSION else str(d) for d in self.dims) + ")"

    @property
    def has_combined_dims(self) -> bool:
        return COMBINE_DIMENSION in self.dims


@dataclass(frozen=True)
class Layout:
    """An XLA dense layout: dim order, tiles and the few scalar attributes we model."""

    minor_to_major: tuple[int, ...]
    tiles: tuple[Tile, ...] = ()
    tail_padding_alignment_in_elements: int = 1
    element_size_in_bits: int = 0
    memory_space: int = 0

    def __str__(self) -> str:
        text = ",".join(str(d) for d in self.minor_to_major)
        extras = ""
        if self.tiles:
            extras += "T" + "".join(str(t) for t in self.tiles)
        if self.tail_padding_alignment_in_elements != 1:
            extras += f"L({self.tail_padding_alignment_in_elements})"
        if self.element_size_in_bits != 0:
            extras += f"E({self.element_size_in_bits})"
        if self.memory_space != 0:
            extras += f"S({self.memory_space})"
        if extras:
            text += ":" + extras
        return "{" + text + "}"

    @staticmethod
    def default_for_rank(rank: int) -> Layout:
        """XLA's default layout: row-major (`{n-1,...,1,0}`), untiled."""
        return Layout(tuple(range(rank - 1, -1, -1)))


@dataclass(frozen=True)
class Shape:
    """An array shape: XLA element type name, logical dims and an optional layout."""

    element_type: str
    dims: tuple[int, ...]
    layout: Layout | None = None

    def __str__(self) -> str:
        text = f"{self.element_type}[{','.join(str(d) for d in self.dims)}]"
        if self.layout is not None:
            text += str(self.layout)
        return text

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def element_bits(self) -> int:
        """Bits per element in memory: `E(n)` when given, else the type's storage size."""
        if self.layout is not None and self.layout.element_size_in_bits != 0:
            return self.layout.element_size_in_bits
        return ELEMENT_BITS[self.element_type]

    def with_layout(self, layout: Layout) -> Shape:
        return Shape(self.element_type, self.dims, layout)

    def layout_or_default(self) -> Layout:
        return self.layout if self.layout is not None else Layout.default_for_rank(self.rank)


_TOKEN = re.compile(
    r"\s*(?:(?P<int>-?\d+)|(?P<word>[A-Za-z][A-Za-z0-9_]*)|(?P<punct>[\[\]{}(),:*]))"
)


class _Cursor:
    """A tiny tokenizer over the shape text that remembers offsets for errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def peek(self) -> tuple[str, str, int]:
        """(kind, token, offset) of the next token; kind is 'end' at the end of the text."""
        match = _TOKEN.match(self.text, self.pos)
        if match is None:
            rest = len(self.text) - len(self.text[self.pos :].lstrip())
            if self.text[self.pos :].strip() == "":
                return ("end", "", len(self.text))
            return ("bad", self.text[self.pos + rest], self.pos + rest)
        kind = match.lastgroup
        assert kind is not None
        return (kind, match.group(kind), match.start(kind))

    def next(self) -> tuple[str, str, int]:
        token = self.peek()
        if token[0] not in ("end", "bad"):
            match = _TOKEN.match(self.text, self.pos)
            assert match is not None
            self.pos = match.end()
        return token

    def expect(self, punct: str, context: str) -> int:
        kind, token, offset = self.next()
        if kind != "punct" or token != punct:
            shown = "end of input" if kind == "end" else f"'{token}'"
            raise LayoutSyntaxError(f"expected '{punct}' {context}, but got {shown}", offset)
        return offset

    def accept(self, punct: str) -> bool:
        kind, token, _ = self.peek()
        if kind == "punct" and token == punct:
            self.next()
            return True
        return False

    def integer(self, context: str) -> tuple[int, int]:
        kind, token, offset = self.next()
        if kind != "int":
            shown = "end of input" if kind == "end" else f"'{token}'"
            raise LayoutSyntaxError(f"expected an integer {context}, but got {shown}", offset)
        return int(token), offset


def parse_shape(text: str) -> Shape:
    """Parse `f32[3,5]{1,0:T(2,2)}` (type names are case-insensitive, as in XLA's parser)."""
    cursor = _Cursor(text)
    kind, word, offset = cursor.next()
    if kind != "word" or word.lower() not in ELEMENT_BITS:
        known = ", ".join(sorted(ELEMENT_BITS))
        raise LayoutSyntaxError(f"expected an element type ({known}), but got '{word}'", offset)
    element_type = word.lower()
    dims = _parse_dims(cursor)
    layout: Layout | None = None
    if cursor.peek()[1] == "{":
        layout_offset = cursor.peek()[2]
        layout = _parse_layout(cursor)
        _check_layout_fits(layout, len(dims), layout_offset)
    kind, token, offset = cursor.peek()
    if kind != "end":
        raise LayoutSyntaxError(f"unexpected '{token}' after the shape", offset)
    return Shape(element_type, dims, layout)


def _parse_dims(cursor: _Cursor) -> tuple[int, ...]:
    cursor.expect("[", "after the element type")
    dims: list[int] = []
    if cursor.accept("]"):
        return ()
    while True:
        value, offset = cursor.integer("as an array dimension")
        if value < 0:
            raise LayoutSyntaxError(f"array dimensions must be >= 0, but got {value}", offset)
        dims.append(value)
        if cursor.accept("]"):
            return tuple(dims)
        cursor.expect(",", "between array dimensions")


def _parse_layout(cursor: _Cursor) -> Layout:
    cursor.expect("{", "to start the layout")
    minor_to_major: list[int] = []
    if cursor.peek()[0] == "int":
        while True:
            value, _ = cursor.integer("in minor_to_major")
            minor_to_major.append(value)
            if not cursor.accept(","):
                break
    fields: dict[str, int] = {}
    tiles: tuple[Tile, ...] = ()
    if cursor.accept(":"):
        tiles, fields = _parse_layout_attributes(cursor)
    cursor.expect("}", "to end the layout")
    return Layout(
        tuple(minor_to_major),
        tiles,
        tail_padding_alignment_in_elements=fields.get("L", 1),
        element_size_in_bits=fields.get("E", 0),
        memory_space=fields.get("S", 0),
    )


# Attributes after the colon must come in XLA's printing order.
_ATTRIBUTE_ORDER = ("T", "L", "E", "S")


def _parse_layout_attributes(cursor: _Cursor) -> tuple[tuple[Tile, ...], dict[str, int]]:
    tiles: tuple[Tile, ...] = ()
    fields: dict[str, int] = {}
    last_rank = -1
    while cursor.peek()[0] == "word":
        _, letter, offset = cursor.next()
        if letter not in _ATTRIBUTE_ORDER:
            raise LayoutSyntaxError(
                f"unknown layout attribute '{letter}' (supported: T(..), L(n), E(n), S(n))", offset
            )
        rank = _ATTRIBUTE_ORDER.index(letter)
        if rank <= last_rank:
            raise LayoutSyntaxError(
                f"layout attribute '{letter}' out of order; XLA's order is T, L, E, S", offset
            )
        last_rank = rank
        if letter == "T":
            tiles = _parse_tiles(cursor)
            continue
        cursor.expect("(", f"after '{letter}'")
        value, value_offset = cursor.integer(f"in {letter}(...)")
        if value < 0 or (letter == "L" and value == 0):
            raise LayoutSyntaxError(f"invalid value {value} in {letter}(...)", value_offset)
        cursor.expect(")", f"to close {letter}(...)")
        fields[letter] = value
    return tiles, fields


def _parse_tiles(cursor: _Cursor) -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    while cursor.peek()[1] == "(":
        cursor.next()
        dims: list[int] = []
        while True:
            kind, token, offset = cursor.next()
            if kind == "punct" and token == "*":
                dims.append(COMBINE_DIMENSION)
            elif kind == "int":
                if int(token) <= 0:
                    raise LayoutSyntaxError(
                        f"tile sizes must be positive or '*', but got {token}", offset
                    )
                dims.append(int(token))
            else:
                raise LayoutSyntaxError(f"expected a tile size or '*', but got '{token}'", offset)
            if cursor.accept(")"):
                break
            cursor.expect(",", "between tile sizes")
        tiles.append(Tile(tuple(dims)))
    if not tiles:
        raise LayoutSyntaxError("expected '(' to start a tile after 'T'", cursor.peek()[2])
    return tuple(tiles)


def _check_layout_fits(layout: Layout, rank: int, offset: int) -> None:
    if len(layout.minor_to_major) != rank:
        raise LayoutSyntaxError(
            f"Dimensions size is {rank}, but minor to major size is {len(layout.minor_to_major)}.",
            offset,
        )
    if sorted(layout.minor_to_major) != list(range(rank)):
        raise LayoutSyntaxError(
            f"minor_to_major {list(layout.minor_to_major)} is not a permutation of 0..{rank - 1}",
            offset,
        )
    for tile in layout.tiles:
        if tile.dims and tile.dims[-1] == COMBINE_DIMENSION:
            raise LayoutSyntaxError(
                f"tile {tile}: the most-minor entry cannot be '*' (nothing to combine into)", offset
            )
