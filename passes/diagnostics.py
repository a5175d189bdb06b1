"""Errors that a pass attaches to an operation.

A pass that finds a problem in the user's program (an alignment it cannot
prove, a memory plan that does not fit) raises `OpError`. The tools map the op
to the place it was parsed from and print `FILE:LINE:COL: error: ...`, the
source line, a caret and the notes, then exit 1.
"""

from dataclasses import dataclass, field

from xdsl.ir import Operation


@dataclass
class OpError(Exception):
    """`message` about `op`, with optional explanatory `notes`."""

    op: Operation
    message: str
    notes: list[str] = field(default_factory=list[str])

    def __post_init__(self) -> None:
        super().__init__(self.message)
