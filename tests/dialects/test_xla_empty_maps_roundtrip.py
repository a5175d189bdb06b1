"""Known-empty indexing maps in IR print text that parses back to the same IR.

`KNOWN EMPTY` (XLA's text for such maps, kept by `str`) names no variables, so an
op using the map would lose its operands' match; attributes print the variables.
"""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.printer import Printer

from xla_emit.indexing import parse_indexing_map
from xla_emit.ir import parse_mlir
from xla_emit.ir.verify import verify_module


def _roundtrip(text: str) -> str:
    module, source_map = parse_mlir(text)
    verify_module(module, source_map)
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


@pytest.mark.parametrize(
    "domain",
    [
        "d0 in [0, -1]",  # an empty bound
        "d0 in [0, 3], d0 in [5, 6]",  # an infeasible constraint on a bare variable
    ],
)
@pytest.mark.parametrize("spelling", ["xla", "xla_gpu"])
def test_empty_domain_prints_text_that_parses_back(domain: str, spelling: str) -> None:
    text = (
        "func.func @f(%i: index) -> index {\n"
        f'  %r = {spelling}.apply_indexing #{spelling}.indexing_map<"(d0) -> (d0 * 2), '
        f'domain: {domain}">(%i)\n'
        "  return %r : index\n}\n"
    )
    once = _roundtrip(text)
    assert "KNOWN EMPTY" not in once
    assert _roundtrip(once) == once


def test_full_text_keeps_variables_of_a_known_empty_map() -> None:
    empty = parse_indexing_map(
        "(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1], d0 in [7, 9]"
    )
    assert empty.is_known_empty
    assert str(empty) == "KNOWN EMPTY"
    again = parse_indexing_map(empty.full_text())
    assert again.is_known_empty and (again.num_dims, again.num_symbols) == (1, 1)
    assert again.results == empty.results
