"""Kernel text and checks the PTO tests share: parse, verify and run a kernel `@k`,
wrap statements in a module for a target, check a verifier rule on a valid and a changed
body, and find where and why a kernel fails to verify."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from xdsl.dialects.builtin import ModuleOp

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.ir import parse_mlir, verify_module

# Golden unary lane functions, from Python's math, by the op's stem (vmi `exp`, vreg `vexp`).
UNARY_GOLDENS: dict[str, Callable[[float], float]] = {
    "neg": lambda a: -a,
    "abs": abs,
    "exp": math.exp,
    "ln": math.log,
    "sqrt": math.sqrt,
    "relu": lambda a: max(a, 0.0),
}

# The UB offsets of a kernel's three 64-lane windows, as its first statements.
OFFSETS = """  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
"""


def verify_kernel(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def run_kernel(text: str, args: list[object]) -> None:
    """Parse and verify `text`, then run its `@k` on `args` in the PTO executor."""
    PTOExecutor(verify_kernel(text)).run("k", args)


def target_kernel(target: str, params: str, body: str, attributes: str = "") -> str:
    """`@k(params)` in a module for `target`: `body` (lines indented by four) before its
    return, so the body's first line is the text's third."""
    return f"""module attributes {{pto.target_arch = "{target}"}} {{
  func.func @k({params}){attributes} {{
{body}
    return
  }}
}}"""


def a5_kernel(params: str, body: str, attributes: str = "") -> str:
    """`@k(params)` in an a5 module: `body` (lines indented by four) before its return."""
    return target_kernel("a5", params, body, attributes)


def verify_body(arguments: dict[str, str], body: str) -> None:
    """Verify `body` in `@k` with one argument per entry of `arguments` (name: type); a
    body of one line is indented here, one of several lines comes indented."""
    params = ", ".join(f"%{name}: {type_}" for name, type_ in arguments.items())
    lines = body if "\n" in body else f"  {body}"
    verify_kernel(f"func.func @k({params}) {{\n{lines}\n  return\n}}\n")


def check_rule(verify: Callable[[str], None], valid: str, invalid: str, message: str) -> UserError:
    """`valid` verifies and `invalid` fails with `message`; the error, for more checks."""
    verify(valid)
    with pytest.raises(UserError) as caught:
        verify(invalid)
    assert message in caught.value.message
    return caught.value


def located_error(text: str) -> tuple[int, str]:
    """Where verifying `text` fails: the line, and the message after `'<op name>' op `."""
    with pytest.raises(UserError) as caught:
        verify_kernel(text)
    assert caught.value.location is not None
    return caught.value.location.line, caught.value.message.split("' op ", 1)[1]


def error_on_line(text: str, line: int) -> str:
    """The message of the error verifying `text` raises, which must stand on `line`."""
    found, message = located_error(text)
    assert found == line
    return message
