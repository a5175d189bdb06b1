"""MLIR pass logs: the module printed before every pass, as XLA's `--xla_dump_emitter_re` writes.

Each snapshot follows a header

    // -----// IR Dump Before <PassClass>: <pass-arg>{<options>} ('<op>' operation: @<sym>)
        //----- //  (on one line)

The first one is the emitter's output; the rest show what each pass received. A
log may be xz-compressed (`*.xz`, as the corpus keeps them). A snapshot's text is
padded with blank lines so that parse errors name lines of the log itself.
"""

from __future__ import annotations

import lzma
import re
from dataclasses import dataclass
from pathlib import Path

from xla_emit.diagnostics import SourceLocation, UserError

_HEADER = re.compile(
    r"^// -----// IR Dump (?:Before|After) (?P<pass_class>\w+)(?:: (?P<pass_arg>[\w.-]+))?"
    r"(?P<options>\{.*\})? \('(?P<anchor_op>[\w.]+)' operation(?:: @(?P<anchor>[\w.$-]+))?\)"
    r" //----- //$"
)
# XLA's Triton logs print every op's location in MLIR's "pretty" debug-info form,
# which MLIR itself cannot read back: `#loc1 = "multiply.1"` aliases, a bare
# `"multiply.1"` (or `[unknown]`) after an op's type and after each block
# argument's type. They are dropped (blanked in place, so line numbers hold).
_LOCATION_ALIAS = re.compile(r'^#loc\d* = (?:"(?:[^"\\\n]|\\.)*"|\[unknown\])$', re.MULTILINE)
_PRETTY_LOCATION = re.compile(
    r'(?<=[>\w\])}]) (?:"(?:[^"\\\n]|\\.)*"|\[unknown\])(?=$|,\s*%|\):?$|\):)', re.MULTILINE
)
# XLA's kernel pipeline hands tensors over to pointers here; the snapshots before
# it are the ones this project models.
LOWER_TENSORS = "xla-lower-tensors"
# Triton's pipeline leaves Triton IR (TTIR) for TritonGPU IR here.
TRITON_TO_TRITONGPU = "convert-triton-to-tritongpu"


@dataclass(frozen=True)
class Snapshot:
    """The module as one pass received it."""

    index: int
    pass_class: str
    pass_arg: str
    options: str
    anchor: str
    anchor_op: str  # the op the pass ran on: `builtin.module`, `func.func`
    line: int  # 1-based line of the header in the log
    text: str  # padded to keep the log's line numbers

    @property
    def body(self) -> str:
        return self.text.lstrip("\n")


def strip_pretty_locations(text: str) -> str:
    """`text` without the pretty-form locations XLA's Triton logs print (see above)."""
    return _PRETTY_LOCATION.sub("", _LOCATION_ALIAS.sub("", text))


def read_log_text(path: Path) -> str:
    """A log's text, decompressing `*.xz`; an unreadable file is a one-line error."""
    try:
        data = path.read_bytes()
        if path.suffix == ".xz":
            data = lzma.decompress(data)
        return data.decode()
    except (OSError, lzma.LZMAError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: cannot read pass log: {error}") from None


def parse_pass_log(text: str, file: str = "<log>") -> list[Snapshot]:
    """Every snapshot of a log, in order; a text with none is an error."""
    lines = strip_pretty_locations(text).split("\n")
    headers = [(number, _HEADER.match(line)) for number, line in enumerate(lines)]
    found = [(number, match) for number, match in headers if match]
    if not found:
        raise UserError(
            "no '// -----// IR Dump Before ...' header: not a pass log",
            SourceLocation(file, 1, 1, None),
        )
    snapshots: list[Snapshot] = []
    for index, (number, match) in enumerate(found):
        end = found[index + 1][0] if index + 1 < len(found) else len(lines)
        body = "\n".join(lines[number + 1 : end]).rstrip("\n") + "\n"
        snapshots.append(
            Snapshot(
                index=index,
                pass_class=match["pass_class"],
                pass_arg=match["pass_arg"] or match["pass_class"],
                options=match["options"] or "",
                anchor=match["anchor"] or "",
                anchor_op=match["anchor_op"],
                line=number + 1,
                text="\n" * (number + 1) + body,
            )
        )
    return snapshots


def read_pass_log(path: Path) -> list[Snapshot]:
    return parse_pass_log(read_log_text(path), str(path))


def before_pass(snapshots: list[Snapshot], pass_arg: str) -> list[Snapshot]:
    """The snapshots up to (and including) the one the pass `pass_arg` receives."""
    for snapshot in snapshots:
        if snapshot.pass_arg == pass_arg:
            return snapshots[: snapshot.index + 1]
    return list(snapshots)


def before_lower_tensors(snapshots: list[Snapshot]) -> list[Snapshot]:
    """The snapshots up to (and including) the one `xla-lower-tensors` receives."""
    return before_pass(snapshots, LOWER_TENSORS)


def modelled_snapshots(snapshots: list[Snapshot]) -> list[Snapshot]:
    """The snapshots this project models: an emitter log's up to `xla-lower-tensors`, a
    Triton log's up to the TTIR that `convert-triton-to-tritongpu` receives."""
    if any(snapshot.pass_arg == TRITON_TO_TRITONGPU for snapshot in snapshots):
        return before_pass(snapshots, TRITON_TO_TRITONGPU)
    return before_lower_tensors(snapshots)


def find_snapshot(snapshots: list[Snapshot], key: str) -> Snapshot:
    """A snapshot by index (`3`, `-1`) or by pass name (the first before that pass)."""
    try:
        return snapshots[int(key)]
    except ValueError:
        pass
    except IndexError:
        raise UserError(
            f"no snapshot {key}: the log has {len(snapshots)} (0 to {len(snapshots) - 1})"
        ) from None
    for snapshot in snapshots:
        if key in (snapshot.pass_arg, snapshot.pass_class):
            return snapshot
    raise UserError(f"no snapshot before a pass named '{key}'")
