"""Targets, element types and on-chip memories of the PTO ISA.

Element types are named as MLIR spells them (`f32`, `bf16`, `i8`, `ui16`, ...).
Capacities are the sizes of each tile location's memory in bytes (UB for `vec`,
L1 for `mat`, L0A/L0B/L0C for `left`/`right`/`acc`, the bias table and the
fixpipe buffer for `scaling`), per target, as pto-isa's memory model gives them.
"""

from __future__ import annotations

from typing import Final, Literal

Target = Literal["a2a3", "a5"]
TARGETS: Final[tuple[Target, ...]] = ("a2a3", "a5")
DEFAULT_TARGET: Final[Target] = "a2a3"

LOCATIONS: Final[tuple[str, ...]] = ("vec", "mat", "left", "right", "acc", "bias", "scaling")

# Buffers start on 32-byte boundaries: the vector unit moves 32-byte blocks.
BLOCK_BYTES: Final = 32

_KB: Final = 1024
CAPACITIES: Final[dict[Target, dict[str, int]]] = {
    "a2a3": {
        "vec": 192 * _KB,
        "mat": 512 * _KB,
        "left": 64 * _KB,
        "right": 64 * _KB,
        "acc": 128 * _KB,
        "bias": 1 * _KB,
        "scaling": 2 * _KB,
    },
    "a5": {
        "vec": 256 * _KB,
        "mat": 512 * _KB,
        "left": 64 * _KB,
        "right": 64 * _KB,
        "acc": 256 * _KB,
        "bias": 4 * _KB,
        "scaling": 4 * _KB,
    },
}

_ELEMENT_BITS: Final[dict[str, int]] = {
    "i1": 8,
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "f64": 64,
    # A5's 8-bit floats (tmatmul.mx, tgemv.mx and their scale tiles).
    "f8E4M3": 8,
    "f8E4M3FN": 8,
    "f8E5M2": 8,
    # PTOAS's own A5 element types (a pair packs two values into one element).
    "!pto.hif8": 8,
    "!pto.f8E8M0": 8,
    "!pto.hif8x2": 16,
    "!pto.f4E1M2x2": 8,
    "!pto.f4E2M1x2": 8,
    "!pto.bf16x2": 32,
}
for _prefix in ("i", "si", "ui"):
    for _bits in (8, 16, 32, 64):
        _ELEMENT_BITS[f"{_prefix}{_bits}"] = _bits

# The element types TTRANS and ConvTile accept (1, 2 and 4-byte integers and
# half/bfloat16/float); MLIR's signless, signed and unsigned spellings all map
# to the C++ int*_t / uint*_t types.
TRANSPOSABLE_TYPES: Final[frozenset[str]] = frozenset(
    {"f32", "f16", "bf16"}
    | {f"{prefix}{bits}" for prefix in ("i", "si", "ui") for bits in (8, 16, 32)}
)


def parse_target(name: str) -> Target:
    """`a2a3` or `a5` (case-insensitive; PTOAS's `a3` means A2A3)."""
    lowered = name.lower()
    if lowered in ("a2a3", "a3", "a2"):
        return "a2a3"
    if lowered == "a5":
        return "a5"
    raise ValueError(f"unknown PTO target '{name}', expected one of a2a3, a5")


def element_bytes(element: str) -> int:
    """Bytes per element of the MLIR element type `element`."""
    bits = _ELEMENT_BITS.get(element)
    if bits is None:
        raise ValueError(f"'{element}' is not a PTO element type")
    return bits // 8


def is_element_type(element: str) -> bool:
    return element in _ELEMENT_BITS


def align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def tile_bytes(rows: int, cols: int, element: str) -> int:
    """Bytes a rows x cols tile occupies, rounded up to a 32-byte block."""
    return align_up(rows * cols * element_bytes(element), BLOCK_BYTES)
