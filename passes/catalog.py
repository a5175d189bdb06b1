"""What `xla-emit-opt --list-passes` and `--help-pass NAME` print.

Every pass of ours is listed with its one-line summary (the first line of the
pass class's docstring) and its options (the dataclass fields: name, type,
default), as mlir-opt's `--help` lists each pass with its `--option=<type>`
lines; then the named pipelines with the passes they stand for, then xDSL's
passes by name (`--help-pass` describes any of them).
"""

from __future__ import annotations

import inspect
import textwrap

from xdsl.passes import ModulePass, get_pass_option_infos
from xla_emit.passes import all_passes
from xla_emit.passes.pipelines import PIPELINES, available_passes, expand_pipelines

_WIDTH = 100


def summary(pass_class: type[ModulePass]) -> str:
    """The first paragraph of the pass class's docstring, on one line."""
    doc = inspect.getdoc(pass_class) or ""
    return " ".join(doc.split("\n\n")[0].split())


def option_lines(pass_class: type[ModulePass]) -> list[str]:
    """One `--name=<type> (default: value)` line per option of the pass."""
    lines: list[str] = []
    for info in get_pass_option_infos(pass_class):
        default = "required" if info.default_value is None else f"default: {info.default_value}"
        # Annotations under `from __future__ import annotations` come back quoted.
        kind = info.expected_type.strip("'\"")
        # MLIR spells options with dashes; the field's own underscore spelling is an alias.
        lines.append(f"--{info.name.replace('_', '-')}=<{kind}> ({default})")
    return lines


def list_passes() -> str:
    """Every pass of ours with its options, the pipelines, and xDSL's pass names."""
    ours = all_passes()
    lines = ["Passes:"]
    for name, load in sorted(ours.items()):
        pass_class = load()
        lines.append(f"  {name}  -  {summary(pass_class)}")
        lines.extend(f"      {option}" for option in option_lines(pass_class))
    lines.append("Pipelines:")
    for name, spec in PIPELINES.items():
        lines.append(f"  {name}")
        lines.extend(_wrapped(spec.replace(",", ", "), "      "))
    others = sorted(set(available_passes()) - set(ours))
    lines.append("xDSL's passes (--help-pass NAME describes one):")
    lines.extend(_wrapped(", ".join(others), "  "))
    return "\n".join(lines) + "\n"


def pass_help(name: str) -> str | None:
    """The full description of one pass or pipeline, or None if nothing has that name."""
    if name in PIPELINES:
        passes = expand_pipelines(name).split(",")
        return f"{name}: a pipeline of {len(passes)} passes\n" + "".join(
            f"  {step}\n" for step in passes
        )
    load = available_passes().get(name)
    if load is None:
        return None
    pass_class = load()
    options = option_lines(pass_class)
    lines = [f"{name}:", textwrap.indent(inspect.getdoc(pass_class) or "", "  "), "Options:"]
    lines.extend(f"  {option}" for option in options or ["(none)"])
    return "\n".join(lines) + "\n"


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, _WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )
