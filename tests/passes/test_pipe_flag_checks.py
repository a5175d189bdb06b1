"""PTOAS main's pipe pairing and flag allocation (`passes/analysis/pipe_flag_checks.py`)
on modules of ours: every pipe takes 2 flag ids (4 both ways) out of a function's 16,
and a local pipe pairs exactly two inits in two functions."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.pipe_flag_checks import check_pipe_flags
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import parse_mlir, verify_module

CUBE = "attributes {pto.kernel_kind = #pto.kernel_kind<cube>}"
VECTOR = "attributes {pto.kernel_kind = #pto.kernel_kind<vector>}"
RESERVE = (
    '%f{n} = pto.reserve_buffer {{name = "f{n}", size = 4096, '
    "location = #pto.address_space<mat>, auto = true}} -> i32"
)
IMPORT = '%f{n} = pto.import_reserved_buffer {{name = "f{n}", peer_func = @c}} -> i32'
INIT = (
    "%p{n} = pto.initialize_l2l_pipe {{dir_mask = {d}, slot_size = 1024, slot_num = 8}}"
    "(%f{n} : i32) -> !pto.pipe"
)


def _pipes(count: int, direction: int = 1, vector_count: int | None = None) -> ModuleOp:
    def body(line: str, pipes: int) -> str:
        return "\n".join(
            f"    {line.format(n=n)}\n    {INIT.format(n=n, d=direction)}" for n in range(pipes)
        )

    text = f"""module {{
  func.func @c() {CUBE} {{
{body(RESERVE, count)}
    return
  }}
  func.func @v() {VECTOR} {{
{body(IMPORT, count if vector_count is None else vector_count)}
    return
  }}
}}
"""
    module, source_map = parse_mlir(text, "pipes.mlir")
    verify_module(module, source_map)
    return module


def test_eight_one_way_pipes_fill_the_sixteen_flags() -> None:
    check_pipe_flags(_pipes(8))


def test_a_ninth_pipe_has_no_flags_left() -> None:
    with pytest.raises(OpError) as caught:
        check_pipe_flags(_pipes(9))
    assert caught.value.message == (
        "requires all pipe components in a function to fit within 16 hardware flag ids"
    )


def test_a_local_pipe_needs_its_peer() -> None:
    with pytest.raises(OpError) as caught:
        check_pipe_flags(_pipes(2, vector_count=1))
    assert caught.value.message == (
        "requires a complete compatible peer init pair when local_addr comes from "
        "pto.reserve_buffer or pto.import_reserved_buffer"
    )
