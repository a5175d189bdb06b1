"""`pto` synchronization between pipes: barriers and flags."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xla_emit.dialects.pto.types import EventAttr, PipeAttr


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`pto.barrier #pto.pipe<PIPE_V>`: wait until the pipe drains."""

    name = "pto.barrier"

    pipe = prop_def(PipeAttr)

    def __init__(self, pipe: str) -> None:
        super().__init__(properties={"pipe": PipeAttr(StringAttr(pipe))})

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        return cls(PipeAttr.parse_short(parser).value.data)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.pipe)


class FlagOpBase(IRDLOperation):
    """`pto.OP[<PIPE_SRC>, <PIPE_DST>, <EVENT_IDn>]`."""

    src_pipe = prop_def(PipeAttr)
    dst_pipe = prop_def(PipeAttr)
    event = prop_def(EventAttr)

    def __init__(self, src_pipe: str, dst_pipe: str, event: str) -> None:
        super().__init__(
            properties={
                "src_pipe": PipeAttr(StringAttr(src_pipe)),
                "dst_pipe": PipeAttr(StringAttr(dst_pipe)),
                "event": EventAttr(StringAttr(event)),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> FlagOpBase:
        with parser.in_square_brackets():
            src = PipeAttr.parse_short(parser).value.data
            parser.parse_punctuation(",")
            dst = PipeAttr.parse_short(parser).value.data
            parser.parse_punctuation(",")
            event = EventAttr.parse_short(parser).value.data
        return cls(src, dst, event)

    def print(self, printer: Printer) -> None:
        printer.print_string(
            f"[<{self.src_pipe.value.data}>, <{self.dst_pipe.value.data}>, "
            f"<{self.event.value.data}>]"
        )


@irdl_op_definition
class SetFlagOp(FlagOpBase):
    """Signal `event` from the source pipe to the destination pipe."""

    name = "pto.set_flag"


@irdl_op_definition
class WaitFlagOp(FlagOpBase):
    """Wait in the destination pipe for `event` from the source pipe."""

    name = "pto.wait_flag"
