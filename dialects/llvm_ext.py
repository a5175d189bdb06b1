"""`LLVM`: xDSL's `llvm` dialect with `#llvm.linkage` printed as MLIR prints it.

XLA marks its kernels' private functions `llvm.linkage = #llvm.linkage<internal>`;
xDSL 0.74 reads that but prints `#llvm.linkage<"internal">`, so a kernel would
not print back as it was read.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# LLVM IR's linkage kinds, as MLIR's LLVM dialect spells them.
LINKAGES = (
    "private", "internal", "available_externally", "linkonce", "weak", "common",
    "appending", "extern_weak", "linkonce_odr", "weak_odr", "external",
)  # fmt: skip


@irdl_attr_definition
class LinkageAttr(ParametrizedAttribute):
    """`#llvm.linkage<internal>`: the linkage, a bare keyword (a quoted one is read too)."""

    name = "llvm.linkage"

    linkage: StringAttr

    def __init__(self, linkage: str | StringAttr) -> None:
        super().__init__(StringAttr(linkage) if isinstance(linkage, str) else linkage)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.linkage.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            quoted = parser.parse_optional_str_literal()
            return [StringAttr(quoted if quoted is not None else parser.parse_identifier())]

    def verify(self) -> None:
        if self.linkage.data not in LINKAGES:
            raise VerifyException(f"unknown linkage '{self.linkage.data}'")


LLVM = Dialect(
    "llvm",
    list(llvm.LLVM.operations),
    [LinkageAttr if a is llvm.LinkageAttr else a for a in llvm.LLVM.attributes],
)
