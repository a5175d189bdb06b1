"""Start-up of the command-line tools: define xDSL's classes in less time.

A tool spends most of its start-up defining classes, not running code:
loading xDSL's dialects with ours defines about 320 dataclasses and 215
operations. Two costs in that are pure repetition, the same work with the same
result in every process, and the tools avoid both:

- **Dataclass methods.** Python's `dataclasses` writes the generated methods
  (`__init__`, `__eq__`, `__hash__`, `__setattr__`, ...) as source text and
  compiles it with `exec`: each method apart up to Python 3.12, about 1,500
  compilations, 0.15 s; from 3.13 on, one text per class. The compiled
  code of a given text never changes, so it is kept on disk, keyed by the
  exact text, as Python keeps a module's bytecode in `__pycache__`; a class
  defined from the cache is the class `exec` would have made from the text.
- **Assembly formats.** xDSL parses every operation's declarative assembly
  format when the operation's class is defined, 0.03 s, although a run from
  HLO parses and prints no MLIR at all. Each format is parsed when its
  operation is first parsed or printed instead. The built-in dialects' formats
  are all parsed by a test, so a broken one still fails there.

The cycle collector, besides, would walk the new classes and functions again
and again while they are made, although they live as long as the process:
`loading_without_collection` keeps it off while a tool loads the compiler and
then freezes what loading made.

Only the tools install this, before they load the compiler, so the Python API
and whatever imports it define their classes as usual. The cache lives in
`$XLA_EMIT_CACHE_DIR`, else `$XDG_CACHE_HOME/xla-emit`, else `~/.cache/xla-emit`,
one file per Python version (an empty `XLA_EMIT_CACHE_DIR` turns the cache
off); a missing, unreadable or foreign file counts as empty, and a folder that
cannot be written is left alone.

This module imports nothing of xla-emit or xDSL at load: it must run first.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import gc
import marshal
import os
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path
from types import CodeType
from typing import Any

# Past this many entries a save keeps only what the saving process used, so
# the file does not grow with every edit of an editable install.
MAX_CACHED_METHODS = 20_000


def cache_folder() -> Path | None:
    """Where the compiled dataclass methods are kept; None if `XLA_EMIT_CACHE_DIR` is empty."""
    folder = os.environ.get("XLA_EMIT_CACHE_DIR")
    if folder is not None:
        return Path(folder) if folder else None
    if folder := os.environ.get("XDG_CACHE_HOME"):
        return Path(folder) / "xla-emit"
    try:
        return Path.home() / ".cache" / "xla-emit"
    except RuntimeError:  # no home directory to be found: run without the cache
        return None


class DataclassCodeCache:
    """The compiled code of dataclasses' generated methods, by source text."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.loaded = read_code_table(path)
        self.used: dict[str, CodeType] = {}
        self.compiled = 0

    def exec(self, source: str, globals: dict[str, Any] | None = None, locals: Any = None) -> None:
        """`exec(source, globals, locals)`, compiling `source` only if it was never seen."""
        code = self.used.get(source) or self.loaded.get(source)
        if code is None:
            # As `exec` compiles it in `dataclasses`: no `__future__` flags of this module.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.used[source] = code
        exec(code, globals, locals)

    def save(self) -> None:
        """Write the table if this process compiled anything; never fails the tool."""
        if self.compiled == 0:
            return
        table = {**self.loaded, **self.used}
        if len(table) > MAX_CACHED_METHODS:
            table = self.used
        with contextlib.suppress(OSError):
            write_code_table(self.path, table)


def read_code_table(path: Path) -> dict[str, CodeType]:
    """The table saved at `path`, or an empty one if it is missing or not a table."""
    try:
        with path.open("rb") as file:
            table = marshal.load(file)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        source: code
        for source, code in table.items()
        if isinstance(source, str) and isinstance(code, CodeType)
    }


def write_code_table(path: Path, table: dict[str, CodeType]) -> None:
    """Replace `path` at once, so a process reading it meanwhile sees a whole table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.name, delete=False) as file:
        temporary = Path(file.name)
        try:
            marshal.dump(table, file)
        except BaseException:
            temporary.unlink()
            raise
    try:
        temporary.replace(path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise


def cache_dataclass_methods(folder: Path) -> DataclassCodeCache:
    """Route `dataclasses`' compilations through a cache saved in `folder` at exit."""
    cache = DataclassCodeCache(folder / f"dataclass-methods.{sys.implementation.cache_tag}.marshal")
    # `dataclasses` calls `exec` by its global name; a module global shadows the builtin.
    dataclasses.exec = cache.exec  # type: ignore[attr-defined]
    atexit.register(cache.save)
    return cache


class FormatOnFirstUse:
    """An operation's assembly format, parsed when the operation is first parsed or printed."""

    def __init__(self, text: str, op_def: Any, parse_format: Any) -> None:
        self.text = text
        self.op_def = op_def
        self.parse_format = parse_format
        self.program: Any = None

    def parsed(self) -> Any:
        if self.program is None:
            self.program = self.parse_format(self.text, self.op_def)
        return self.program

    def parse(self, parser: Any, op_type: type) -> Any:
        return self.parsed().parse(parser, op_type)

    def print(self, printer: Any, op: Any) -> None:
        return self.parsed().print(printer, op)


def defer_assembly_formats() -> None:
    """Make xDSL parse each operation's assembly format at its first use."""
    from xdsl.irdl.declarative_assembly_format import FormatProgram

    parse_format = FormatProgram.from_str

    def deferred(text: str, op_def: Any) -> FormatOnFirstUse:
        return FormatOnFirstUse(text, op_def, parse_format)

    FormatProgram.from_str = staticmethod(deferred)  # type: ignore[method-assign]


@contextlib.contextmanager
def loading_without_collection() -> Generator[None]:
    """Import the compiler with the cycle collector off, then freeze what the imports made.

    Loading defines thousands of classes and functions, which live as long as the
    process and are no garbage: the collector's passes over them while they are
    made cost 20-30 ms of a GELU run. Frozen, later collections skip them.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


_installed = False


def define_classes_quickly() -> None:
    """Install both measures; the tools call this once, before loading the compiler."""
    global _installed
    if _installed:
        return
    _installed = True
    folder = cache_folder()
    if folder is not None:
        cache_dataclass_methods(folder)
    defer_assembly_formats()
