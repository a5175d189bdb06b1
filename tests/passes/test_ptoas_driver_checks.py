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
