"""Elemental emission of `bitcast`: the operand's bytes read as the result's.

The element type may change (XLA keeps the byte size, not the width):

- equal widths: the operand element at the bitcast's map, `arith.bitcast` to the
  result type (f32 -> s32, bf16 -> s16, u64 -> f64);
- a narrower result (`s8[2,4] bitcast(u32[2])`): the operand element holding it,
  shifted right by its part times the result width and truncated (part 0 is the
  lowest bits: memory order on a little-endian GPU);
- a wider result (`u32[2] bitcast(s8[2,4])`): its parts, zero-extended, shifted
  into place and or-ed together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import SSAValue

from xla_emit.emitters.types import element_type
from xla_emit.hlo.indexing_analysis import bitcast_part_maps
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import PrimitiveType

if TYPE_CHECKING:
    from xla_emit.emitters.elemental import ElementalEmitter


def emit_bitcast(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> list[SSAValue]:
    source = instruction.operands[0].array_shape.element_type
    target = instruction.array_shape.element_type
    if source == target:
        return emitter.emit_index_transform(instruction, indices)
    dims = instruction.array_shape.dimensions
    maps = bitcast_part_maps(instruction)
    operand = instruction.operands[0]
    rank = operand.array_shape.rank
    if len(maps) == 1:
        results = emitter.apply_map(maps[0], indices, dims)
        value = emitter.emit(operand, results[:rank])[0]
        if source.bit_width == target.bit_width:
            return [_reinterpret(emitter, value, target)]
        bits = _as_bits(emitter, value, source)
        part = _index_as(emitter, results[rank], IntegerType(source.bit_width))
        width = _int_constant(emitter, target.bit_width, source.bit_width)
        shift = emitter.insert(arith.MuliOp(part, width)).results[0]
        shifted = emitter.insert(arith.ShRUIOp(bits, shift)).results[0]
        narrow = emitter.insert(arith.TruncIOp(shifted, IntegerType(target.bit_width))).results[0]
        return [_from_bits(emitter, narrow, target)]
    wide = IntegerType(target.bit_width)
    combined: SSAValue | None = None
    for part, part_map in enumerate(maps):
        value = emitter.emit(operand, emitter.apply_map(part_map, indices, dims))[0]
        extended = emitter.insert(arith.ExtUIOp(_as_bits(emitter, value, source), wide)).results[0]
        if part:
            amount = _int_constant(emitter, part * source.bit_width, target.bit_width)
            extended = emitter.insert(arith.ShLIOp(extended, amount)).results[0]
        combined = (
            extended
            if combined is None
            else emitter.insert(arith.OrIOp(combined, extended)).results[0]
        )
    assert combined is not None, "a widening bitcast has at least two parts"
    return [_from_bits(emitter, combined, target)]


def _reinterpret(emitter: ElementalEmitter, value: SSAValue, target: PrimitiveType) -> SSAValue:
    return emitter.insert(arith.BitcastOp(value, element_type(target))).results[0]


def _as_bits(emitter: ElementalEmitter, value: SSAValue, ptype: PrimitiveType) -> SSAValue:
    """The value as a signless integer of its width."""
    if not ptype.is_float:
        return value
    return emitter.insert(arith.BitcastOp(value, IntegerType(ptype.bit_width))).results[0]


def _from_bits(emitter: ElementalEmitter, bits: SSAValue, ptype: PrimitiveType) -> SSAValue:
    return _reinterpret(emitter, bits, ptype) if ptype.is_float else bits


def _index_as(emitter: ElementalEmitter, index: SSAValue, type_: IntegerType) -> SSAValue:
    return emitter.insert(arith.IndexCastOp(index, type_)).results[0]


def _int_constant(emitter: ElementalEmitter, value: int, bits: int) -> SSAValue:
    return emitter.constant(IntegerAttr(value, IntegerType(bits)), "cst")
