"""A tile described by plain data, for rules that need no IR (the X-to-ZZ tmov,
MX quantization)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlainTile:
    """Location, element, physical and valid shapes, layouts and bytes per element;
    -1 is a dynamic size."""

    loc: str
    element: str
    shape: tuple[int, int]
    valid: tuple[int, int]
    blayout: str
    slayout: str
    element_bytes: int

    @property
    def elements(self) -> int:
        return self.shape[0] * self.shape[1]

    @property
    def capacity(self) -> int:
        """Bytes the physical shape holds."""
        return self.elements * self.element_bytes

    @property
    def is_nd(self) -> bool:
        return (self.blayout, self.slayout) == ("row_major", "none_box")
