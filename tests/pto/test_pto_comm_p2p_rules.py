"""PTOAS main's verifiers of point-to-point communication (`dialects/pto/comm_p2p_rules.py`)
over kernels of our own: each accepted, then rejected with PTOAS's message once one
thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import error_on_line, verify_kernel

STAGE = "!pto.tile_buf<vec, 1x256xi8>"


def _put(dst: str, src: str, op: str = "comm.tput") -> str:
    return f"""func.func @k(%d: {dst}, %s: {src}, %b: {STAGE}) {{
  pto.{op}(%d, %s, buf(%b) : {dst}, {src}, {STAGE})
  return
}}
"""


def _async(view: str) -> str:
    session = "!pto.async_session"
    return f"""func.func @k(%d: {view}, %s: {view}, %x: {session}) {{
  %e = pto.comm.tput_async(%d, %s, %x : {view}, {view}, {session}) -> !pto.async_event
  return
}}
"""


def _notify(signal: str) -> str:
    return f"""func.func @k(%s: {signal}, %v: i32) {{
  pto.comm.tnotify(%s, %v : {signal}, i32) {{notifyOp = #pto<notify_op set>}}
  return
}}
"""


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 2."""
    return error_on_line(text, 2)


PART = "!pto.partition_tensor_view<{}xi8>"
VIEW = "!pto.tensor_view<{}xi8>"


def test_transfers_thatverify_kernel() -> None:
    verify_kernel(_put(PART.format("?x256"), PART.format("?x256")))
    verify_kernel(_put(VIEW.format("4x256"), PART.format("4x256"), op="comm.tget"))
    verify_kernel(_async(PART.format("1x1x512")))
    verify_kernel(_notify("!pto.partition_tensor_view<1xi32>"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _put(PART.format("?x256"), PART.format("?x128")),
            "expects src and dst to have the same static/dynamic shape signature",
        ),
        (
            _put(VIEW.format("?x256"), VIEW.format("?x256"), op="comm.tget"),
            "allows dynamic dimensions on dst only for partition_tensor_view",
        ),
        (
            # `0x256` is a zero dimension (not the hexadecimal 0x256).
            _put(PART.format("0x256"), PART.format("0x256")),
            "expects every static dimension of dst to be positive",
        ),
        (_async(PART.format("?")), "expects dst to have a static shape"),
        (
            _async(PART.format("4x32")),
            "expects dst to be a static flat contiguous logical 1D GM view",
        ),
        (
            _notify("!pto.partition_tensor_view<?xi32>"),
            "does not support dynamic dimensions on signal",
        ),
        (_notify("!pto.partition_tensor_view<4xf32>"), "expects signal element type to be i32"),
    ],
)
def test_transfer_rules(text: str, message: str) -> None:
    assert _error(text) == message


def test_an_async_prefetch_reads_a_flat_view() -> None:
    context = "!pto.prefetch_async_context"
    text = """func.func @k(%s: {view}, %c: {context}) {{
  %e = pto.tprefetch_async(%s, %c : {view}, {context}) -> !pto.async_event
  return
}}
"""
    verify_kernel(text.format(view="!pto.partition_tensor_view<1x128xf32>", context=context))
    assert _error(text.format(view="!pto.partition_tensor_view<2x64xf32>", context=context)) == (
        "expects src to be a static flat contiguous logical 1D GM view"
    )
