"""What a run holds at once, worked out by hand from the module (bytes: f32 = 4 a element)."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.limits import check_total_memory, held_at_once
from xla_emit.hlo.parser import parse_hlo_module

# ENTRY: p (400 B), the call's result (400 B); the tuple and its element only view them.
# While the call runs, %body holds %e and %t (800 B) and, while its fusion runs, the
# fusion's %m and %n (800 B) as well: 1600 B. The reducer's scalars count 4 B each.
NESTED = """HloModule nested

%fused (x: f32[100]) -> f32[100] {
  %x = f32[100] parameter(0)
  %m = f32[100] multiply(%x, %x)
  ROOT %n = f32[100] negate(%m)
}

%body (a: f32[100]) -> f32[100] {
  %a = f32[100] parameter(0)
  %e = f32[100] exponential(%a)
  ROOT %t = f32[100] fusion(%e), kind=kLoop, calls=%fused
}

ENTRY %main (p: f32[100]) -> f32[100] {
  %p = f32[100] parameter(0)
  %c = f32[100] call(%p), to_apply=%body
  %tuple = (f32[100]) tuple(%c)
  ROOT %g = f32[100] get-tuple-element(%tuple), index=0
}
"""


def test_nested_computations_add_up_while_they_run() -> None:
    contributors = held_at_once(parse_hlo_module(NESTED))
    assert [(c.what, c.size) for c in contributors] == [
        ("'p' (parameter f32[100])", 400),
        ("'c' (call f32[100])", 400),
        ("what 'c' (call) holds while it runs", 1600),
    ]


def test_the_budget_is_checked_on_the_total() -> None:
    module = parse_hlo_module(NESTED, "nested.hlo")
    check_total_memory(module, 2400)
    with pytest.raises(UserError) as error:
        check_total_memory(module, 2399)
    # Just over the budget: both in bytes, which three digits of KiB would print alike.
    assert error.value.location is not None and error.value.location.line == 17
    assert error.value.message == (
        "a run holds 2400 B at once, over the memory budget of 2399 B (--max-memory): "
        "what 'c' (call) holds while it runs 1.56 KiB, 'p' (parameter f32[100]) 400 B, "
        "'c' (call f32[100]) 400 B"
    )
