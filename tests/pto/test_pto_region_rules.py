"""PTOAS main's verifiers of `pto.section.simt`, `pto.fusion_region` and `pto.yield`
(`lib/PTO/IR/PTO.cpp`), over small kernels of our own: each accepted, then rejected
with PTOAS's message once one thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import located_error, verify_kernel

SECTION = """module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(){attrs} {{
    pto.section.simt <<<{dims}>>> {{
{inner}    }}
    return
  }}
}}
"""
REGION = """func.func @k(%x: i32, %y: index) {{
  %r = pto.fusion_region {{
{body}  }} : i32
  return
}}
"""


def test_a_simt_section_verifies() -> None:
    verify_kernel(SECTION.format(attrs="", dims="32, 2, 1", inner=""))


@pytest.mark.parametrize(
    ("attrs", "dims", "inner", "message"),
    [
        ("", "32, -1, 1", "", "requires non-negative i32 launch dimensions"),
        (
            " attributes {pto.simt_entry}",
            "32, 2, 1",
            "",
            "must not appear inside a function marked with 'pto.simt_entry'",
        ),
        (
            "",
            "32, 2, 1",
            "      pto.section.simt <<<4, 1, 1>>> {\n      }\n",
            "nested pto.section.simt is not allowed",
        ),
    ],
)
def test_simt_section_rules(attrs: str, dims: str, inner: str, message: str) -> None:
    assert located_error(SECTION.format(attrs=attrs, dims=dims, inner=inner)) == (3, message)


def test_a_fusion_region_verifies() -> None:
    verify_kernel(REGION.format(body="    pto.yield(%x) : (i32) -> ()\n"))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("    %c = arith.constant 0 : i32\n", "expects body to terminate with pto.yield"),
        ("    pto.yield() : () -> ()\n", "expects pto.yield to return 1 values, got 0"),
        (
            "    pto.yield(%y) : (index) -> ()\n",
            "expects yielded value #0 to have type 'i32', got 'index'",
        ),
    ],
)
def test_fusion_region_rules(body: str, message: str) -> None:
    assert located_error(REGION.format(body=body)) == (2, message)


def test_a_fusion_region_body_takes_no_arguments() -> None:
    text = REGION.format(body="  ^bb0(%a: i32):\n    pto.yield(%a) : (i32) -> ()\n")
    assert located_error(text) == (2, "expects body block to have no arguments, got 1")


def test_yield_only_ends_a_fusion_region() -> None:
    text = "func.func @k(%x: i32) {\n  pto.yield(%x) : (i32) -> ()\n  return\n}\n"
    assert located_error(text) == (2, "expects parent op to be pto.fusion_region")
