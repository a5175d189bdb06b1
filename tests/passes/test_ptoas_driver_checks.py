"""PTOAS's driver option rules (`passes/analysis/ptoas_driver_checks.py`) on small
modules of ours: the target the driver compiles for (the module's own, else its
children's when they agree, else `--pto-arch`, else A3), the options it refuses off
A5, and the fatobj child whose exported functions share a logical name."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.ptoas_driver_checks import (
    check_driver_flags,
    effective_target,
    option_values,
)
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import parse_mlir, verify_module


def _module(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "driver.mlir")
    verify_module(module, source_map)
    return module


PLAIN = "module {\n  func.func @k() {\n    return\n  }\n}\n"
OWN_A5 = PLAIN.replace("module {", 'module attributes {pto.target_arch = "a5"} {')


def _children(*targets: str) -> ModuleOp:
    parts = "\n".join(
        f'module attributes {{pto.target_arch = "{t}"}} {{\nfunc.func @k{n}() {{ return }}\n}}'
        for n, t in enumerate(targets)
    )
    return _module(f"module {{\n{parts}\n}}\n")


def test_the_effective_target() -> None:
    assert effective_target(_module(PLAIN), None) == "a3"
    assert effective_target(_module(PLAIN), "a5") == "a5"
    assert effective_target(_module(OWN_A5), "a3") == "a5"
    assert effective_target(_children("a5", "a5"), "a3") == "a5"
    assert effective_target(_children("a5", "a3"), "a2") == "a2"


def test_option_values() -> None:
    words = ["--pto-arch", "a5", "--enable-op-fusion=true", "--enable-bufid_sync", "%s"]
    assert option_values(words) == {
        "pto-arch": "a5",
        "enable-op-fusion": "true",
        "enable-bufid_sync": "true",
    }


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("--pto-arch=a3 --enable-bufid_sync", "--enable-bufid_sync requires --pto-arch=a5."),
        ("--enable-op-fusion=true", "--enable-op-fusion=true requires --pto-arch=a5."),
        ("--vpto-scheduler=analyze", "--vpto-scheduler requires --pto-arch=a5."),
        (
            "--pto-arch=a5 --plan-memory-impl=fast",
            "invalid --plan-memory-impl='fast', expected 'legacy' or 'modern'.",
        ),
    ],
)
def test_refused_options(command: str, message: str) -> None:
    with pytest.raises(OpError) as caught:
        check_driver_flags(_module(PLAIN), command.split())
    assert caught.value.message == message


@pytest.mark.parametrize(
    "command",
    [
        "--pto-arch=a5 --enable-bufid_sync",
        "--pto-arch=a5 --enable-op-fusion=true",
        "--enable-op-fusion=false",
        "--plan-memory-impl=modern",
    ],
)
def test_accepted_options(command: str) -> None:
    check_driver_flags(_module(PLAIN), command.split())


def test_the_module_target_wins_over_the_command_line() -> None:
    check_driver_flags(_module(OWN_A5), ["--pto-arch=a3", "--enable-op-fusion=true"])


FATOBJ = """module attributes {{pto.target_arch = "a5"}} {{
  module attributes {{pto.backend = "emitc"}} {{
    func.func public @f_a() attributes {{pto.ptodsl.logical_name = "f"}} {{
      return
    }}
    func.func public @f_b(%x: i32) attributes {{pto.ptodsl.logical_name = "{second}"}} {{
      return
    }}
  }}
  module attributes {{pto.backend = "vpto"}} {{
    func.func @other() {{
      return
    }}
  }}
}}
"""


def test_a_fatobj_child_needs_distinct_logical_names() -> None:
    words = ["--pto-arch=a5", "-o", "out.o"]
    check_driver_flags(_module(FATOBJ.format(second="g")), words)
    with pytest.raises(OpError) as caught:
        check_driver_flags(_module(FATOBJ.format(second="f")), words)
    assert caught.value.message == (
        "mixed-backend child assembly does not yet support ambiguous in-child logical "
        "reference '@f'; found multiple ABI-specialized public func.func definitions"
    )


TASSIGN = """module {
  func.func @k(%t: !pto.tile_buf<vec, 16x16xf32>) {
    %a = arith.constant 0 : i64
    %r = pto.tassign %t, %a : !pto.tile_buf<vec, 16x16xf32> -> !pto.tile_buf<vec, 16x16xf32>
    return
  }
}
"""


def test_automatic_synchronization_modes() -> None:
    check_driver_flags(_module(PLAIN), ["--enable-insert-sync"])
    with pytest.raises(OpError) as caught:
        check_driver_flags(_module(PLAIN), ["--enable-insert-sync", "--enable-graph-sync-solver"])
    assert "are mutually exclusive" in caught.value.message
    with pytest.raises(OpError) as caught:
        check_driver_flags(_module(TASSIGN), ["--pto-level=level3", "--enable-graph-sync-solver"])
    assert caught.value.message == "pto.tassign requires --enable-graph-sync-solver to be disabled."


MULTI = """module {{
  func.func @k() {{
    %a = arith.constant 0 : i64
    %m = pto.alloc_multi_tile {form}: !pto.multi_tile_buf<vec, 16x16xf16, count=2>
    return
  }}
}}
"""


@pytest.mark.parametrize(
    ("form", "level", "message"),
    [
        ("addr = %a ", "level3", None),
        ("", "level2", None),
        (
            "",
            "level3",
            "pto.alloc_multi_tile requires a base 'addr' operand when --pto-level=level3",
        ),
        (
            "addr = %a ",
            "level1",
            "unexpected 'addr' operand on pto.alloc_multi_tile: only supported when "
            "--pto-level=level3",
        ),
        (
            "{pto.multi_buffer_addrs = array<i64: 0, 512>} ",
            "level2",
            "attribute 'pto.multi_buffer_addrs' is reserved for pto-plan-memory",
        ),
    ],
)
def test_multi_buffer_addresses_per_level(form: str, level: str, message: str | None) -> None:
    module = _module(MULTI.format(form=form))
    if message is None:
        check_driver_flags(module, [f"--pto-level={level}"])
        return
    with pytest.raises(OpError) as caught:
        check_driver_flags(module, [f"--pto-level={level}"])
    assert caught.value.message == message


SUBVIEW = """module {{
  func.func @k(%arg: !pto.tile_buf<vec, 16x16xf32>) {{
    %c0 = arith.constant 0 : index
    %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    %t = pto.subview {root}[%c0, %c0] sizes [8, 16]
      : !pto.tile_buf<vec, 16x16xf32> -> !pto.tile_buf<vec, 8x16xf32>
    return
  }}
}}
"""


def test_emitc_lowers_subviews_of_addressed_tiles_only() -> None:
    check_driver_flags(_module(SUBVIEW.format(root="%a")), ["-o", "out.cpp"])
    argument = _module(SUBVIEW.format(root="%arg"))
    with pytest.raises(OpError) as caught:
        check_driver_flags(argument, ["-o", "out.cpp"])
    assert caught.value.message == (
        "failed to legalize operation 'pto.subview' that was explicitly marked illegal"
    )
    # Printing PTO IR stops before the EmitC conversion; VPTO keeps the view.
    check_driver_flags(argument, ["--emit-pto-ir"])
    check_driver_flags(argument, ["--pto-backend=vpto", "-o", "out.o"])
