"""PTOAS main's split rules of the internal pipe data ops (`tpush`, `tpop`, `tfree`,
`talloc` on a `!pto.pipe`; `lib/PTO/IR/PTO.cpp`):

- `split` is 0 (whole tile), 1 or 2 (halves), 3 or 4 (odd halves);
- an odd split is only for a one-way cube-to-vector `initialize_l2g2l_pipe` with a
  local consumer buffer, pushed (or allocated) on the cube side and popped or freed
  on the vector side;
- a `talloc` of a GlobalTensor entry has the shape of the pipe's slots.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import DYNAMIC, TensorViewType

PRODUCERS = ("pto.tpush", "pto.talloc")


def _split(op: Operation) -> int:
    attr = op.attributes.get("split", op.properties.get("split"))
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def _kernel_side(op: Operation) -> str | None:
    """`cube` or `vector`: the section around `op`, else its function's kernel kind."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name in ("pto.section.cube", "pto.section.vector"):
            return parent.name.removeprefix("pto.section.")
        if parent.name == "func.func":
            kind = parent.attributes.get("pto.kernel_kind")
            text = str(kind) if kind is not None else ""
            return "cube" if "cube" in text else "vector" if "vector" in text else None
        parent = parent.parent_op()
    return None


def verify_pipe_split(op: Operation, pipe: SSAValue) -> None:
    split = _split(op)
    if not 0 <= split <= 4:
        raise VerifyException("expects 'split' to be 0, 1, 2, 3, or 4")
    if split not in (3, 4):
        return
    side = "cube" if op.name in PRODUCERS else "vector"
    init = pipe.owner
    one_way = isinstance(init, Operation) and init.name == "pto.initialize_l2g2l_pipe"
    dir_mask = init.attributes.get("dir_mask") if isinstance(init, Operation) else None
    local = getattr(init, "local_addr", None) is not None
    c2v = isinstance(dir_mask, IntegerAttr) and dir_mask.value.data == 1
    if _kernel_side(op) != side or not (one_way and c2v and local):
        raise VerifyException(
            "supports odd split modes (split = 3 or 4) only for a unidirectional C2V "
            "pto.initialize_l2g2l_pipe with a local consumer buffer"
        )


def entry_shape_error(entry: Attribute, init: Operation) -> str | None:
    """A GlobalTensor entry against the l2g2l pipe's slot view."""
    if not isinstance(entry, TensorViewType) or init.name != "pto.initialize_l2g2l_pipe":
        return None
    slot = init.operands[0].type
    if not isinstance(slot, TensorViewType):
        return (
            "expects !pto.tensor_view pipe entry to use pto.initialize_l2g2l_pipe gm_addr with "
            "tensor_view slot type"
        )
    if slot.element_type != entry.element_type:
        return "expects pipe entry element type to match initialize_l2g2l_pipe gm_addr element type"
    if len(slot.dims) != len(entry.dims):
        return "expects pipe entry rank to match initialize_l2g2l_pipe gm_addr rank"
    for index, (have, want) in enumerate(zip(entry.dims, slot.dims, strict=True)):
        if DYNAMIC not in (have, want) and have != want:
            return (
                f"expects pipe entry dimension {index} to match initialize_l2g2l_pipe gm_addr "
                f"dimension {want}"
            )
    return None


def verify_talloc(op: Operation) -> None:
    entry, pipe = op.operands[0], op.operands[1]
    verify_pipe_split(op, pipe)
    init = pipe.owner
    if isinstance(init, Operation):
        error = entry_shape_error(entry.type, init)
        if error:
            raise VerifyException(error)


INTERNAL_PIPE_RULES = {"talloc": verify_talloc}
