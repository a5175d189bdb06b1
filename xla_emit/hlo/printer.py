"""Prints the HLO IR back as HLO text in XLA's own format (which re-parses)."""

from __future__ import annotations

import math

import numpy as np

from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType


def print_module(module: HloModule) -> str:
    header = f"HloModule {module.name}"
    if module.header_attributes:
        header += ", " + module.header_attributes
    parts = [header]
    parts.extend(print_computation(c) for c in module.computations)
    return "\n\n".join(parts) + "\n"


def print_computation(computation: HloComputation) -> str:
    params = ", ".join(f"{p.name}: {p.shape}" for p in computation.parameters)
    entry = "ENTRY " if computation.is_entry else ""
    lines = [f"{entry}%{computation.name} ({params}) -> {computation.root.shape} {{"]
    for instruction in computation.instructions:
        root = "ROOT " if instruction is computation.root else ""
        lines.append(f"  {root}{print_instruction(instruction)}")
    closing = "}"
    if computation.execution_thread is not None:
        closing += f", execution_thread={computation.execution_thread}"
    lines.append(closing)
    return "\n".join(lines)


def print_instruction(instruction: HloInstruction) -> str:
    if instruction.opcode == "constant":
        assert instruction.literal is not None
        inner = format_literal(
            instruction.literal, PrimitiveType.from_dtype(instruction.literal.dtype)
        )
    elif instruction.opcode == "parameter":
        inner = str(instruction.parameter_number)
    else:
        inner = ", ".join(f"{o.shape} %{o.name}" for o in instruction.operands)
    text = f"%{instruction.name} = {instruction.shape} {instruction.opcode}({inner})"
    attributes = _typed_attributes(instruction) + [
        f"{k}={v}" for k, v in instruction.extra_attributes
    ]
    if attributes:
        text += ", " + ", ".join(attributes)
    return text


def _ints(values: tuple[int, ...]) -> str:
    return "{" + ",".join(str(v) for v in values) + "}"


def _typed_attributes(instruction: HloInstruction) -> list[str]:
    result: list[str] = []
    if instruction.fusion_kind is not None:
        result.append(f"kind={instruction.fusion_kind}")
    if instruction.dimensions is not None:
        result.append(f"dimensions={_ints(instruction.dimensions)}")
    if instruction.comparison_direction is not None:
        result.append(f"direction={instruction.comparison_direction}")
    if instruction.comparison_type is not None:
        result.append(f"type={instruction.comparison_type}")
    if instruction.slice_ranges is not None:
        ranges = ", ".join(f"[{r.start}:{r.limit}:{r.stride}]" for r in instruction.slice_ranges)
        result.append(f"slice={{{ranges}}}")
    if instruction.padding is not None:
        dims = [
            f"{p.low}_{p.high}" + (f"_{p.interior}" if p.interior else "")
            for p in instruction.padding
        ]
        result.append(f"padding={'x'.join(dims)}")
    if instruction.iota_dimension is not None:
        result.append(f"iota_dimension={instruction.iota_dimension}")
    if instruction.tuple_index is not None:
        result.append(f"index={instruction.tuple_index}")
    if instruction.dynamic_slice_sizes is not None:
        result.append(f"dynamic_slice_sizes={_ints(instruction.dynamic_slice_sizes)}")
    result.extend(_call_attributes(instruction))
    return result


def _call_attributes(instruction: HloInstruction) -> list[str]:
    """The computations an instruction calls, under the attribute names XLA uses."""
    names = [f"%{c.name}" for c in instruction.called_computations]
    if not names:
        return []
    opcode = instruction.opcode
    keys = _NAMED_CALLS.get(opcode)
    predicate = instruction.operands[0].shape if instruction.operands else None
    if opcode == "conditional" and (
        predicate is None or not _PRED_SCALAR.same_dims_and_type(predicate)
    ):
        keys = None
    if keys is not None and len(keys) == len(names):
        return [f"{key}={name}" for key, name in zip(keys, names, strict=True)]
    if opcode == "conditional":
        return ["branch_computations={" + ", ".join(names) + "}"]
    key = "calls" if opcode == "fusion" else "to_apply"
    return [f"{key}={names[0] if len(names) == 1 else '{' + ', '.join(names) + '}'}"]


_NAMED_CALLS: dict[str, tuple[str, ...]] = {
    "while": ("condition", "body"),
    "conditional": ("true_computation", "false_computation"),
    "select-and-scatter": ("select", "scatter"),
}
_PRED_SCALAR = ArrayShape(PrimitiveType.PRED, ())


def format_literal(array: np.ndarray, element_type: PrimitiveType) -> str:
    values: object = array.tolist()  # nested lists of Python scalars
    return _format_nested(values, element_type)


def _format_nested(values: object, element_type: PrimitiveType) -> str:
    if isinstance(values, list):
        items: list[object] = values
        return "{" + ", ".join(_format_nested(v, element_type) for v in items) + "}"
    if isinstance(values, complex):
        part = element_type.component_type
        return f"({format_scalar(values.real, part)}, {format_scalar(values.imag, part)})"
    assert isinstance(values, (bool, int, float))
    return format_scalar(values, element_type)


def format_scalar(value: bool | float, element_type: PrimitiveType) -> str:
    if element_type is PrimitiveType.PRED:
        return "true" if value else "false"
    if not element_type.is_float:
        return str(int(value))
    as_double = float(value)
    if math.isnan(as_double):
        return "nan"
    if math.isinf(as_double):
        return "inf" if as_double > 0 else "-inf"
    # The shortest text that reads back (via double, then float for 16-bit
    # types, as the parser does) to the same value; else the exact double.
    if element_type is PrimitiveType.F64:
        return repr(as_double)
    short = str(np.float32(as_double))
    back = np.array([float(short)], dtype=np.float64).astype(np.float32).astype(element_type.dtype)
    exact = np.array([as_double], dtype=np.float64).astype(element_type.dtype)
    return short if back[0] == exact[0] else repr(as_double)
