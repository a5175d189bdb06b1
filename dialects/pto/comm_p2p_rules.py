"""PTOAS main's C++ verifiers of its point-to-point communication ops, table-built here
(`lib/PTO/IR/PTO.cpp`):

- `comm.tput` / `comm.tget` move between two global views of one element type and one
  shape signature (a dynamic dimension only in a partition view, static ones
  positive) through a `vec` staging tile (and an optional pong of its type);
- `comm.tput_async` / `comm.tget_async` and `tprefetch_async` move a static, flat,
  contiguous, logically 1-D global view (every dimension but the last is 1);
- `comm.tnotify` / `comm.twait` / `comm.ttest` signal through a static i32 view and
  an i32 value.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.comm_collectives import verify_staging_tile
from xla_emit.dialects.pto.types import DYNAMIC, PartitionTensorViewType, TensorViewType

Rule = Callable[[Operation], None]


def _dims(kind: Attribute) -> tuple[int, ...]:
    return tuple(kind.dims)  # type: ignore[attr-defined]


def _element(kind: Attribute) -> Attribute | None:
    return getattr(kind, "element_type", None)


def _global(value: SSAValue, name: str, allow_dynamic: bool) -> None:
    """PTOAS's verifyCommGlobalLike."""
    kind = value.type
    if not isinstance(kind, TensorViewType | PartitionTensorViewType):
        raise VerifyException(f"expects {name} to be a tensor_view or partition_view")
    if not _dims(kind):
        raise VerifyException(f"expects {name} to have rank >= 1")
    for dim in _dims(kind):
        if dim == DYNAMIC:
            if not allow_dynamic:
                raise VerifyException(f"does not support dynamic dimensions on {name}")
            if not isinstance(kind, PartitionTensorViewType):
                raise VerifyException(
                    f"allows dynamic dimensions on {name} only for partition_tensor_view"
                )
        elif dim <= 0:
            raise VerifyException(f"expects every static dimension of {name} to be positive")


def _transfer(op: Operation) -> None:
    """comm.tput / comm.tget: dst, src, ping[, pong]."""
    dst, src, ping = op.operands[0], op.operands[1], op.operands[2]
    pong = op.operands[3] if len(op.operands) > 3 else None
    _global(dst, "dst", allow_dynamic=True)
    _global(src, "src", allow_dynamic=True)
    verify_staging_tile(ping, "ping")
    if pong is not None:
        verify_staging_tile(pong, "pong")
        if ping.type != pong.type:
            raise VerifyException("expects ping and pong to have identical types")
    if _element(dst.type) != _element(src.type):
        raise VerifyException("expects src and dst to have the same element type")
    if _dims(dst.type) != _dims(src.type):
        raise VerifyException("expects src and dst to have the same static/dynamic shape signature")
    if _element(ping.type) != _element(src.type):
        raise VerifyException("expects staging tile element type to match src/dst")


def _flat_1d(value: SSAValue, name: str) -> None:
    """PTOAS's verifyAsyncFlatContiguous1DGMViewLike."""
    kind = value.type
    if not isinstance(kind, TensorViewType | PartitionTensorViewType):
        raise VerifyException(f"expects {name} to be a tensor_view or partition_view")
    dims = _dims(kind)
    if not dims:
        raise VerifyException(f"expects {name} to have rank >= 1")
    if DYNAMIC in dims:
        raise VerifyException(f"expects {name} to have a static shape")
    if any(dim != 1 for dim in dims[:-1]):
        raise VerifyException(f"expects {name} to be a static flat contiguous logical 1D GM view")


def _async_transfer(op: Operation) -> None:
    dst, src = op.operands[0], op.operands[1]
    if _element(dst.type) is None or _element(src.type) is None:
        raise VerifyException("expects src and dst to have element types")
    if _element(dst.type) != _element(src.type):
        raise VerifyException("expects src and dst to have the same element type")
    _flat_1d(dst, "dst")
    _flat_1d(src, "src")
    if _dims(dst.type) != _dims(src.type):
        raise VerifyException("expects src and dst to have the same static shape")


def _prefetch(op: Operation) -> None:
    _flat_1d(op.operands[0], "src")


def _is_i32(kind: Attribute, signless: bool) -> bool:
    if not isinstance(kind, IntegerType) or kind.width.data != 32:
        return False
    return not signless or kind.signedness.data == Signedness.SIGNLESS


def _signal(value_name: str) -> Rule:
    def rule(op: Operation) -> None:
        signal, value = op.operands[0], op.operands[1]
        _global(signal, "signal", allow_dynamic=False)
        element = _element(signal.type)
        if element is None or not _is_i32(element, signless=True):
            raise VerifyException("expects signal element type to be i32")
        if not _is_i32(value.type, signless=False):
            raise VerifyException(f"expects {value_name} to be i32")

    return rule


COMM_P2P_RULES: dict[str, Rule] = {
    "comm.tput": _transfer,
    "comm.tget": _transfer,
    "comm.tput_async": _async_transfer,
    "comm.tget_async": _async_transfer,
    "tprefetch_async": _prefetch,
    "comm.tnotify": _signal("value"),
    "comm.twait": _signal("cmp_value"),
    "comm.ttest": _signal("cmp_value"),
}
