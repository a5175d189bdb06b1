"""Argument specs as HLO writes shapes: `f32[8,128]`, `bf16[128,64]`, `s32[]`.

A spec names an element type of the front end (`hlo.shape.PrimitiveType`) and
the dimensions; no layout, since the compiler chooses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.shape import PrimitiveType

_SPEC = re.compile(r"^\s*([a-z][a-z0-9]*)\[([0-9,\s]*)\]\s*$")


@dataclass(frozen=True)
class ArgSpec:
    """One argument of the function: element type and dimensions."""

    element_type: PrimitiveType
    shape: tuple[int, ...]

    @property
    def dtype(self) -> np.dtype[np.generic]:
        return self.element_type.dtype

    def __str__(self) -> str:
        return f"{self.element_type.value}[{','.join(str(d) for d in self.shape)}]"


def parse_spec(text: str) -> ArgSpec:
    """`f32[8,128]` as an `ArgSpec` (`UserError` naming what is wrong)."""
    match = _SPEC.match(text)
    if match is None:
        raise UserError(
            f"argument spec '{text}' is not an element type and dimensions, like f32[8,128]"
        )
    name, dimensions = match.groups()
    try:
        element_type = PrimitiveType(name)
    except ValueError:
        known = ", ".join(t.value for t in PrimitiveType)
        raise UserError(
            f"argument spec '{text}': unknown element type '{name}' (one of {known})"
        ) from None
    sizes = [part.strip() for part in dimensions.split(",")] if dimensions.strip() else []
    if any(not size for size in sizes):
        raise UserError(f"argument spec '{text}': an empty dimension")
    return ArgSpec(element_type, tuple(int(size) for size in sizes))


def spec_of_array(array: np.ndarray) -> ArgSpec:
    """The spec of a concrete array (its dtype must be one the front end knows)."""
    try:
        element_type = PrimitiveType.from_dtype(array.dtype)
    except ValueError as error:
        raise UserError(str(error)) from None
    return ArgSpec(element_type, tuple(int(d) for d in array.shape))
