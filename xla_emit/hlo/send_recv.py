"""`send`/`recv` pairs with their meaning on one device.

    s  = (f32[4], u32[], token[]) send(x, tok), channel_id=1,
           frontend_attributes={_xla_send_recv_source_target_pairs="{{0,0}}"}
    sd = token[] send-done(s), channel_id=1
    r  = (f32[4], u32[], token[]) recv(tok), channel_id=1, frontend_attributes={...}
    rd = (f32[4], token[]) recv-done(r), channel_id=1

A send hands its operand to the devices its source-target pairs name; the recv
of the same channel on the target receives it. On one device (device 0) the
recv gets the send's operand when the pairs send 0 to 0, and zeros when nothing
reaches device 0 (as `collective-permute` does). So the pair becomes: `rd` a
`tuple` of that value and a token, `sd` a token (`after-all()`), and the
`send`/`recv` themselves go. A recv whose channel has no send, or a done whose
operand is not its start, is a located error.
"""

from __future__ import annotations

import re

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.opcodes import SEND_RECV_OPS
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, TupleShape

_PAIR = re.compile(r"\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}")
TOKEN = ArrayShape(PrimitiveType.TOKEN, ())


def synchronize_send_recv(module: HloModule) -> None:
    """Rewrites every send/recv pair of `module` into what it means on one device."""
    for computation in module.computations:
        if any(i.opcode in SEND_RECV_OPS for i in computation.instructions):
            _synchronize(computation)


def _channel(instruction: HloInstruction) -> str:
    return dict(instruction.extra_attributes).get("channel_id", "")


def _delivers_to_device_zero(send: HloInstruction) -> bool:
    """Whether the send's pairs (in its frontend attributes) send device 0 to device 0.
    Without pairs the transfer is within the device (XLA's host-less default)."""
    attributes = dict(send.extra_attributes).get("frontend_attributes", "")
    key = "_xla_send_recv_source_target_pairs"
    if key not in attributes:
        return True
    pairs_text = attributes.split(key, 1)[1]
    return ("0", "0") in _PAIR.findall(pairs_text.split('"', 2)[1] if '"' in pairs_text else "")


def _start_of(done: HloInstruction, start_opcode: str) -> HloInstruction:
    if len(done.operands) != 1 or done.operands[0].opcode != start_opcode:
        raise UserError(
            f"'{done.name}': {done.opcode} takes the {start_opcode} it completes", done.location
        )
    return done.operands[0]


def _received_shape(recv: HloInstruction) -> ArrayShape:
    shape = recv.shape
    if not (isinstance(shape, TupleShape) and shape.elements):
        raise UserError(f"'{recv.name}': recv returns (data, u32[], token[])", recv.location)
    data = shape.elements[0]
    if not isinstance(data, ArrayShape):
        raise UserError(f"'{recv.name}': the received data must be an array", recv.location)
    return data


def _synchronize(computation: HloComputation) -> None:
    sends = {_channel(i): i for i in computation.instructions if i.opcode == "send"}
    replaced: dict[HloInstruction, HloInstruction] = {}
    added: list[HloInstruction] = []
    for instruction in computation.instructions:
        if instruction.opcode == "send-done":
            _start_of(instruction, "send")
            token = HloInstruction(
                instruction.name, "after-all", TOKEN, location=instruction.location
            )
            replaced[instruction] = token
            added.append(token)
        elif instruction.opcode == "recv-done":
            recv = _start_of(instruction, "recv")
            data = _received(recv, sends.get(_channel(recv)), added)
            token = HloInstruction(
                f"{instruction.name}.token", "after-all", TOKEN, location=instruction.location
            )
            pair = HloInstruction(
                instruction.name,
                "tuple",
                TupleShape((data.shape, TOKEN)),
                [data, token],
                location=instruction.location,
            )
            added.extend([token, pair])
            replaced[instruction] = pair
    kept = [i for i in computation.instructions if i.opcode not in SEND_RECV_OPS]
    for instruction in kept:
        instruction.operands = [replaced.get(o, o) for o in instruction.operands]
        if any(o.opcode in SEND_RECV_OPS for o in instruction.operands):
            user = next(o for o in instruction.operands if o.opcode in SEND_RECV_OPS)
            raise UserError(
                f"'{instruction.name}' uses '{user.name}' ({user.opcode}); only its done may",
                instruction.location,
            )
    computation.root = replaced.get(computation.root, computation.root)
    if computation.root.opcode in SEND_RECV_OPS:
        raise UserError(
            f"'{computation.root.name}': a {computation.root.opcode} cannot be the root",
            computation.root.location,
        )
    computation.instructions = _in_dependency_order(kept + added)


def _received(
    recv: HloInstruction, send: HloInstruction | None, added: list[HloInstruction]
) -> HloInstruction:
    """What device 0's recv gets: the send's operand, or zeros when nothing reaches it."""
    shape = _received_shape(recv)
    if send is None:
        raise UserError(
            f"'{recv.name}': no send on channel {_channel(recv) or '(none)'} in this computation",
            recv.location,
        )
    if not send.operands or not shape.same_dims_and_type(send.operands[0].shape):
        raise UserError(
            f"'{recv.name}': receives {shape} but '{send.name}' sends another shape",
            recv.location,
        )
    if _delivers_to_device_zero(send):
        return send.operands[0]
    zeros = HloInstruction(
        f"{recv.name}.zeros",
        "constant",
        shape,
        literal=np.zeros(shape.dimensions, shape.element_type.dtype),
        location=recv.location,
    )
    added.append(zeros)
    return zeros


def _in_dependency_order(instructions: list[HloInstruction]) -> list[HloInstruction]:
    """Every instruction after its operands, otherwise in the given order."""
    placed: set[int] = set()
    ordered: list[HloInstruction] = []
    for first in instructions:
        pending = [(first, False)]
        while pending:
            instruction, expanded = pending.pop()
            if id(instruction) in placed:
                continue
            if expanded:
                placed.add(id(instruction))
                ordered.append(instruction)
                continue
            pending.append((instruction, True))
            pending.extend(
                (o, False) for o in reversed(instruction.operands) if id(o) not in placed
            )
    return ordered
