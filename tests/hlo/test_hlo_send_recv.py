"""`send`/`recv` pairs and tokens mean, on one device, what XLA's one-device run does.

Oracle: numpy by hand. A recv of the channel a send fills with device 0 -> 0 gets the
sent array (so `x + received` is `2x`); with pairs that send nothing to device 0 it gets
zeros (`x + 0`). Both the runtime and the reference evaluator are held to it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xla_emit import api
from xla_emit.diagnostics import UserError
from xla_emit.hlo.shape import PrimitiveType


def module(pairs: str, send_channel: int = 1) -> str:
    attributes = f'frontend_attributes={{_xla_send_recv_source_target_pairs="{pairs}"}}'
    return f"""HloModule sr

ENTRY e {{
  x = f32[4]{{0}} parameter(0)
  tok = token[] after-all()
  r = (f32[4]{{0}}, u32[], token[]) recv(tok), channel_id=1, {attributes}
  s = (f32[4]{{0}}, u32[], token[]) send(x, tok), channel_id={send_channel}, {attributes}
  sd = token[] send-done(s), channel_id={send_channel}
  rd = (f32[4]{{0}}, token[]) recv-done(r), channel_id=1
  y = f32[4]{{0}} get-tuple-element(rd), index=0
  t = token[] get-tuple-element(rd), index=1
  joined = token[] after-all(sd, t)
  sum = f32[4]{{0}} add(x, y)
  ROOT out = (f32[4]{{0}}, token[]) tuple(sum, joined)
}}
"""


X = np.array([1.5, -2.0, 0.25, 8.0], np.float32)


def _both(text: str) -> list[list[np.ndarray]]:
    return [api.run_reference(text, [X]), api.run_hlo(text, [X])]


def test_a_recv_gets_what_the_send_of_its_channel_sends_to_this_device() -> None:
    # The recv comes first in the text: the send's operand is still there to receive.
    for summed, token in _both(module("{{0,0}}")):
        np.testing.assert_array_equal(summed, 2 * X)
        assert token.shape == () and token.dtype == np.bool_


def test_a_recv_nothing_is_sent_to_gets_zeros() -> None:
    for summed, _ in _both(module("{{0,1},{1,0}}")):
        np.testing.assert_array_equal(summed, X)


def test_the_pairs_become_a_tuple_and_tokens() -> None:
    parsed = api.parse_hlo(module("{{0,0}}"))
    opcodes = [i.opcode for i in parsed.entry.instructions]
    assert not {"send", "recv", "send-done", "recv-done"} & set(opcodes)
    assert opcodes.count("after-all") == 4  # tok, sd, rd's token, joined
    tok = parsed.entry.instruction("tok")
    assert tok.array_shape.element_type is PrimitiveType.TOKEN


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (module("{{0,0}}", send_channel=2), "'r': no send on channel 1 in this computation"),
        (
            "HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n"
            "  ROOT d = token[] send-done(x), channel_id=1\n}\n",
            "'d': send-done takes the send it completes",
        ),
        (
            "HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n"
            "  ROOT t = token[] after-all(x)\n}\n",
            "after-all takes tokens",
        ),
    ],
)
def test_bad_pairs_are_located_errors(text: str, message: str) -> None:
    with pytest.raises(UserError, match=message) as raised:
        api.parse_hlo(text)
    assert raised.value.location is not None


def test_check_runs_the_pair(tmp_path: Path) -> None:
    path = tmp_path / "sr.hlo"
    path.write_text(module("{{0,0}}"))
    command = [sys.executable, "-m", "xla_emit.tools.run", str(path), "--check"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
