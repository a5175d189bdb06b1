"""MLIR's locations: the range form xDSL 0.74 lacks, where a location points, how it prints.

MLIR attaches a location to every op and block argument: `loc(unknown)`,
`loc("k.py":12:8)`, a range `loc("k.py":12:8 to :30)` or `loc("k.py":12:8 to
14:2)`, a name `loc("name")` / `loc("name"(child))`, a call site
`loc(callsite(callee at caller))` and a fusion `loc(fused<meta>[a, b])`.
JAX and Pallas write all of them, mostly through aliases (`#loc7 = loc(...)`)
defined after the module. `source_position` finds the file position a
location names (for a Pallas kernel: the line of its Python), and
`LocationAliases` numbers aliases as MLIR's printer does for
`--mlir-print-debuginfo`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import cast

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    LocationConstraint,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BuiltinAttribute, Operation, ParametrizedAttribute
from xdsl.irdl import VerificationContext, irdl_attr_definition, param_def
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.printer import Printer


@irdl_attr_definition
class FileLineColRange(ParametrizedAttribute, BuiltinAttribute):
    """`"file":L:C to :EC` or `"file":L:C to EL:EC`, as MLIR's FileLineColRange.

    A point `"file":L:C` stays xDSL's `FileLineColLoc`; readers of a position
    go through `source_position`, which takes a range at its start.
    """

    name = "builtin.file_line_col_range"

    filename: StringAttr = param_def()
    line: IntAttr = param_def()
    column: IntAttr = param_def()
    end_line: IntAttr = param_def()
    end_column: IntAttr = param_def()

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_string_literal(self.filename.data)
            printer.print_string(f":{self.line.data}:{self.column.data}")
            if self.end_line.data == self.line.data:
                if self.end_column.data != self.column.data:
                    printer.print_string(f" to :{self.end_column.data}")
                return
            printer.print_string(f" to {self.end_line.data}:{self.end_column.data}")


def _accept_ranges(verify: Callable[..., None]) -> Callable[..., None]:
    def verify_location(
        self: LocationConstraint, attr: Attribute, constraint_context: VerificationContext
    ) -> None:
        if not isinstance(attr, FileLineColRange):
            verify(self, attr, constraint_context)

    return verify_location


# xDSL's call-site, name and fused locations check that what they nest is one
# of its location classes; a range is a location too.
LocationConstraint.verify = _accept_ranges(LocationConstraint.verify)


def _locate_inserted_ops(
    handle: Callable[[PatternRewriter, Operation], None],
) -> Callable[[PatternRewriter, Operation], None]:
    def handle_operation_insertion(self: PatternRewriter, op: Operation) -> None:
        matched = self._current_operation  # pyright: ignore[reportPrivateUsage]
        if matched is not None and op is not matched:
            for inner in op.walk():
                if isinstance(inner.location, UnknownLoc):
                    inner.location = matched.location
        handle(self, op)

    return handle_operation_insertion


# A rewrite pattern builds ops with no location; MLIR's patterns give what they
# build the location of the op they rewrite, so that an error after a pass still
# points at the source line the rewritten op came from.
PatternRewriter.handle_operation_insertion = _locate_inserted_ops(  # pyright: ignore[reportAttributeAccessIssue]
    PatternRewriter.handle_operation_insertion
)


def fuse_locations(
    locations: Sequence[Attribute], metadata: Attribute | None = None
) -> LocationAttr:
    """MLIR's `FusedLoc::get`: unknown parts dropped, fusions with the same metadata
    flattened, repeats kept once; one part without metadata is that part."""
    metadata = NoneAttr() if metadata is None else metadata
    parts: list[Attribute] = []
    for location in locations:
        if isinstance(location, FusedLoc) and location.metadata == metadata:
            nested = list(location.locations)  # pyright: ignore[reportArgumentType]
        else:
            nested = [location]
        for part in nested:
            if not isinstance(part, UnknownLoc) and part not in parts:
                parts.append(part)
    if not parts:
        return UnknownLoc()
    if len(parts) == 1 and isinstance(metadata, NoneAttr):
        return as_location(parts[0])
    return FusedLoc(tuple(parts), metadata)


def file_location(
    file: str, line: int, column: int, end_line: int | None = None, end_column: int | None = None
) -> LocationAttr:
    """A point, or a range when an end is given (an end line alone keeps the column)."""
    if end_line is None and end_column is None:
        return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(column))
    return as_location(
        FileLineColRange(
            StringAttr(file),
            IntAttr(line),
            IntAttr(column),
            IntAttr(line if end_line is None else end_line),
            IntAttr(column if end_column is None else end_column),
        )
    )


def as_location(attribute: Attribute) -> LocationAttr:
    """`attribute`, typed as an op's location (xDSL's `LocationAttr` union lacks ranges)."""
    assert is_location(attribute), attribute
    return cast(LocationAttr, attribute)


def is_location(attribute: Attribute) -> bool:
    return isinstance(
        attribute,
        UnknownLoc | FileLineColLoc | FileLineColRange | NameLoc | CallSiteLoc | FusedLoc,
    )


def child_locations(location: Attribute) -> tuple[Attribute, ...]:
    """The locations nested in `location`, in the order MLIR prints them."""
    if isinstance(location, NameLoc):
        return () if isinstance(location.location, NoneAttr) else (location.location,)
    if isinstance(location, CallSiteLoc):
        return (location.callee, location.caller)
    if isinstance(location, FusedLoc):
        return tuple(location.locations)  # pyright: ignore[reportArgumentType]
    return ()


def file_positions(location: Attribute) -> Iterator[FileLineColLoc]:
    """Every file position in `location`, the one MLIR would report first.

    A call site reports its callee (where the op is written), a name its child,
    a fusion each of its parts in order.
    """
    if isinstance(location, FileLineColLoc):
        yield location
        return
    if isinstance(location, FileLineColRange):
        yield FileLineColLoc(location.filename, location.line, location.column)
        return
    if isinstance(location, CallSiteLoc):
        yield from file_positions(location.callee)
        yield from file_positions(location.caller)
        return
    for child in child_locations(location):
        yield from file_positions(child)


def source_position(location: Attribute) -> FileLineColLoc | None:
    """The first file position `location` names (a range's start), if any."""
    return next(file_positions(location), None)


def location_text(location: Attribute) -> str:
    """`loc(...)` as MLIR prints a location inline."""
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_attribute(location)
    return out.getvalue()


class LocationAliases:
    """MLIR's `#locN` aliases for every location a module prints with debug info.

    MLIR visits an op's location before its regions, and a block's argument
    locations before its ops; a location is visited before the locations
    nested in it. Aliases are numbered by nesting depth (a location after
    those it contains), then in visiting order. Argument locations print
    inline, and their aliases (never used) are defined before the module; the
    others are deferred to after it.
    """

    def __init__(self, root: Operation):
        self._visited: dict[Attribute, int] = {}
        self._depth: dict[Attribute, int] = {}
        self._deferrable: dict[Attribute, bool] = {}
        self._visit_op(root)
        ordered = sorted(self._visited, key=lambda loc: (self._depth[loc], self._visited[loc]))
        self.names = {loc: "#loc" if i == 0 else f"#loc{i}" for i, loc in enumerate(ordered)}
        self.ordered = ordered

    def before_module(self) -> list[Attribute]:
        return [loc for loc in self.ordered if not self._deferrable[loc]]

    def after_module(self) -> list[Attribute]:
        return [loc for loc in self.ordered if self._deferrable[loc]]

    def _visit_op(self, op: Operation) -> None:
        self._visit(op.location, deferrable=True)
        for region in op.regions:
            for block in region.blocks:
                for argument in block.args:
                    self._visit(argument.location, deferrable=False)
                for nested in block.ops:
                    self._visit_op(nested)

    def _visit(self, location: Attribute, deferrable: bool) -> int:
        if location in self._visited:
            if not deferrable:
                self._mark_not_deferrable(location)
            return self._depth[location]
        self._visited[location] = len(self._visited)
        self._deferrable[location] = deferrable
        depth = 0
        for child in child_locations(location):
            depth = max(depth, self._visit(child, deferrable) + 1)
        self._depth[location] = depth
        return depth

    def _mark_not_deferrable(self, location: Attribute) -> None:
        self._deferrable[location] = False
        for child in child_locations(location):
            self._mark_not_deferrable(child)


class DebugInfoPrinter(Printer):
    """A printer for `--mlir-print-debuginfo`: op locations through `#locN` aliases.

    Call `print_module_with_aliases`; block argument locations print inline
    as MLIR prints them.
    """

    _aliases: LocationAliases | None = None
    _defining: Attribute | None = None
    _inline: bool = False

    def print_module_with_aliases(self, module: Operation) -> None:
        self._aliases = LocationAliases(module)
        for location in self._aliases.before_module():
            self._print_alias_definition(location)
        self.print_op(module)
        self.print_string("\n")
        for location in self._aliases.after_module():
            self._print_alias_definition(location)

    def _print_alias_definition(self, location: Attribute) -> None:
        assert self._aliases is not None
        self.print_string(f"{self._aliases.names[location]} = ")
        self._defining = location
        self.print_attribute(location)
        self._defining = None
        self.print_string("\n")

    def print_block_argument(self, arg: object, print_type: bool = True) -> None:
        self._inline = True
        try:
            super().print_block_argument(arg, print_type)  # pyright: ignore[reportArgumentType]
        finally:
            self._inline = False

    def print_attribute(self, attribute: Attribute) -> None:
        aliases = self._aliases
        if aliases is None or self._inline or not is_location(attribute):
            return super().print_attribute(attribute)
        if attribute is self._defining:
            self._defining = None
            return super().print_attribute(attribute)
        name = aliases.names.get(attribute)
        if name is None:
            return super().print_attribute(attribute)
        if self.printing_location:
            self.print_string(name)
        else:
            self.print_string(f"loc({name})")
