"""Buffers behind tensor and memref values, with the memory safety checks.

Tensors are buffers with reference semantics, the way XLA's tensor lowering
treats them: `tensor.insert` stores into the buffer in place and yields a new
*version* of the same buffer. The aliasing rule that makes this safe: a
tensor value may be read or updated only while it is the newest version of
its buffer. IR in destination-passing style (every emitter's output) obeys
it; IR that reads an older version after an in-place update would silently
compute garbage on the GPU too, so the interpreter reports it instead.
Buffers that must not change are copied on the first write: entry inputs get
one new global copy, and tensors the kernel creates (`tensor.empty`,
constants, `from_elements`) are private to each lane, as allocas are, so their
first lane-varying write gives every lane its own copy.

Replication says how many copies a chunk of lanes sees: one (`GLOBAL`), one
per block (`BLOCK`, shared memory) or one per lane (`LANE`, private tensors).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, auto

import numpy as np

from xla_emit.interpreter.lanes import LaneSet


class Replication(Enum):
    """How many copies of a buffer the lanes of one chunk see."""

    GLOBAL = auto()
    BLOCK = auto()
    LANE = auto()


class BufferKind(Enum):
    """Where a buffer comes from; it decides copy-on-write and which checks apply."""

    INPUT = auto()
    OUTPUT = auto()
    SHARED = auto()
    PRIVATE = auto()


@dataclass(frozen=True)
class CheckOptions:
    """Which safety checks run; each costs time, `fast()` keeps only the cheap ones
    (bounds and undefined integer arithmetic)."""

    bounds: bool = True
    races: bool = True
    shared_reads: bool = True
    uninitialized: bool = True
    # Integer division by zero, signed division overflow, shifts by >= the bit width.
    undefined_arith: bool = True

    @staticmethod
    def fast() -> CheckOptions:
        return CheckOptions(bounds=True, races=False, shared_reads=False, uninitialized=False)

    @staticmethod
    def none() -> CheckOptions:
        return CheckOptions(
            bounds=False,
            races=False,
            shared_reads=False,
            uninitialized=False,
            undefined_arith=False,
        )

    @property
    def tracks_writes(self) -> bool:
        return self.races or self.shared_reads or self.uninitialized


class Buffer:
    """A flat numpy array holding `copies` copies of a tensor of `shape`.

    A view (`memref.subview`) shares its root's storage through its own
    offset and strides.
    """

    def __init__(
        self,
        data: np.ndarray,
        shape: tuple[int, ...],
        kind: BufferKind,
        name: str,
        replication: Replication = Replication.GLOBAL,
        readonly: bool = False,
    ):
        self._data = data
        self.shape = shape
        self.numel = int(np.prod(shape, dtype=np.int64))
        self.strides = _row_major_strides(shape)
        self.offset = 0
        self.root: Buffer | None = None
        self.kind = kind
        self.name = name
        # What memory messages call the buffer (`%e (tensor.empty tensor<4xf32>)`).
        self.label = name
        self.replication = replication
        self.readonly = readonly
        # Per element: the global lane that wrote it last (-1: never) and in which
        # barrier interval. Allocated only when a check needs them.
        self.writer: np.ndarray | None = None
        self.write_epoch: np.ndarray | None = None

    @property
    def data(self) -> np.ndarray:
        return self._data if self.root is None else self.root.data

    @data.setter
    def data(self, value: np.ndarray) -> None:
        if self.root is None:
            self._data = value
        else:
            self.root.data = value

    @property
    def copy_size(self) -> int:
        """Distance in `data` between two copies (the root's element count)."""
        return self.numel if self.root is None else self.root.copy_size

    def view(
        self, offsets: tuple[int, ...], shape: tuple[int, ...], steps: tuple[int, ...], name: str
    ) -> Buffer:
        """A strided window of this buffer sharing its storage."""
        # The view reads its root's storage, whatever array that is by then: holding the
        # current one itself would keep it alive after the root replaces it.
        view = Buffer(_NO_STORAGE, shape, self.kind, name, self.replication, self.readonly)
        view.root = self if self.root is None else self.root
        view.label = view.root.label
        view.offset = self.offset + sum(o * s for o, s in zip(offsets, self.strides, strict=True))
        view.strides = tuple(
            step * stride for step, stride in zip(steps, self.strides, strict=True)
        )
        view.writer, view.write_epoch = self.writer, self.write_epoch
        return view

    @property
    def tracked(self) -> bool:
        return self.writer is not None

    def start_tracking(self, initialized: bool) -> None:
        """Record writers from now on.

        `initialized` buffers start as written by nobody in particular.
        """
        # int32 halves the memory of tracking; grids stay below 2**31 lanes.
        self.writer = np.full(self.data.shape[0], -2 if initialized else -1, dtype=np.int32)
        self.write_epoch = np.full(self.data.shape[0], -1, dtype=np.int32)

    def slots(self, lanes: LaneSet) -> np.ndarray | int:
        """Offset of each lane's copy in `data`."""
        if self.replication is Replication.GLOBAL:
            return 0
        if self.replication is Replication.BLOCK:
            return lanes.block_slot * self.copy_size
        return np.arange(lanes.count, dtype=np.int64) * self.copy_size

    def make_private_per_lane(self, lanes: LaneSet, keep: Callable[[np.ndarray], object]) -> None:
        """Give every lane its own copy (the first lane-varying write to a private tensor);
        `keep` is called on the new storage (the memory meter's reservation)."""
        if self.replication is Replication.LANE:
            return
        self.data = np.tile(self.data[: self.copy_size], lanes.count)
        keep(self.data)
        self.replication = Replication.LANE
        self.readonly = False

    def unravel(self, offset: int) -> tuple[int, ...]:
        """The tensor index of a flat offset into `data` (copy number dropped)."""
        root = self if self.root is None else self.root
        linear = offset % root.numel if root.numel else 0
        return tuple(int(i) for i in np.unravel_index(linear, root.shape)) if root.shape else ()

    def as_array(self) -> np.ndarray:
        """The (first copy of the) contents, shaped."""
        if self.root is None:
            return self.data[: self.numel].reshape(self.shape)
        byte_strides = tuple(stride * self.data.itemsize for stride in self.strides)
        window = np.lib.stride_tricks.as_strided(self.data[self.offset :], self.shape, byte_strides)
        return np.array(window)


_NO_STORAGE = np.zeros(0)


def _row_major_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides: list[int] = []
    running = 1
    for extent in reversed(shape):
        strides.append(running)
        running *= extent
    return tuple(reversed(strides))


@dataclass(frozen=True)
class TensorValue:
    """An SSA tensor (or memref) value: a version of a buffer."""

    buffer: Buffer
    version: int
