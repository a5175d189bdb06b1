"""Options of PTOAS's tools that take one of a fixed set of values, checked before any
input is read, with the messages the tools give (LLVM's `cl::values` for `ptoas`,
the pass's own check for `pto-test-opt`'s pass options).

- `ptoas --bisheng-vf-auto-sync=off|fused|global` (`tools/ptoas/ObjectEmission.cpp`);
- `pto-test-opt -pto-vpto-scheduler=mode=off|analyze|on`
  (`lib/PTO/Transforms/VPTOScheduler/VPTOSchedulerPass.cpp`).

`option_error` gives the message for the first bad option of a command (None if all
are good): a tool option a survey of PTOAS's tests can check without PTOAS.
"""

from __future__ import annotations

from collections.abc import Sequence

PTOAS_ENUM_OPTIONS = {"bisheng-vf-auto-sync": ("off", "fused", "global")}
SCHEDULER_MODES = ("off", "analyze", "on")


def option_error(tool: str, words: Sequence[str]) -> str | None:
    for word in (w.strip("'\"") for w in words):
        flag, _, value = word.lstrip("-").partition("=")
        allowed = PTOAS_ENUM_OPTIONS.get(flag, ()) if tool == "ptoas" else ()
        if allowed and value and value not in allowed:
            return f"for the --{flag} option: Cannot find option named '{value}'!"
        if tool == "pto-test-opt" and flag == "pto-vpto-scheduler":
            options = dict(item.partition("=")[::2] for item in value.split() if item)
            mode = options.get("mode", "off")
            if mode not in SCHEDULER_MODES:
                return f"unknown VPTO scheduler mode '{mode}'"
    return None
