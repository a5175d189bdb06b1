"""The tools' start-up measures (`xla_emit.startup`): same classes, less work.

The oracle for the dataclass cache is Python itself: a class defined from
cached code must behave exactly as one defined with the cache off. The
processes are fresh ones, as a tool's are.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format_parser import FormatParser
from xla_emit.dialects import built_in_dialects

from xla_emit.startup import cache_folder

CACHE_FILE = f"dataclass-methods.{sys.implementation.cache_tag}.marshal"
# What a process loading xDSL's arith compiles with an empty cache, at least: one text per
# generated method up to Python 3.12, one text per class (all its methods) from 3.13 on.
FIRST_RUN_COMPILATIONS = 100 if sys.version_info >= (3, 13) else 500

# A dataclass using every generated method, and what a process reports about it.
PROBE = """
import dataclasses, json, sys
from xla_emit.startup import define_classes_quickly
define_classes_quickly()
import xdsl.dialects.arith

@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: float = 2.5
    tags: list = dataclasses.field(default_factory=list, compare=False)

@dataclasses.dataclass(kw_only=True)
class Named:
    name: str
    size: int = 0

p, q = Point(1), Point(1, 3.0, ["a"])
try:
    p.x = 5
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
cache = getattr(dataclasses, "exec", None)
print(json.dumps({
    "repr": [repr(p), repr(q), repr(Named(name="n"))],
    "order": [p < q, p == Point(1, 2.5, ["x"]), hash(p) == hash(Point(1))],
    "frozen": frozen,
    "annotations": {k: repr(v) for k, v in Point.__init__.__annotations__.items()},
    "compiled": None if cache is None else cache.__self__.compiled,
}))
"""


def probe(cache: str) -> dict[str, Any]:
    environment = {**os.environ, "XLA_EMIT_CACHE_DIR": cache}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def without(report: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != key}


def test_a_second_process_compiles_no_dataclass_method_and_gets_the_same_classes(tmp_path: Path):
    uncached = probe("")
    first = probe(str(tmp_path))
    second = probe(str(tmp_path))

    assert uncached["compiled"] is None  # an empty XLA_EMIT_CACHE_DIR turns the cache off
    assert isinstance(first["compiled"], int) and first["compiled"] > FIRST_RUN_COMPILATIONS
    assert second["compiled"] == 0
    assert without(first, "compiled") == without(uncached, "compiled")
    assert without(second, "compiled") == without(uncached, "compiled")
    # The generated code keeps Python's own annotation semantics (no PEP 563 strings).
    assert second["annotations"] == {
        "x": "<class 'int'>",
        "y": "<class 'float'>",
        "tags": "<class 'list'>",
        "return": "None",
    }


@pytest.mark.parametrize("content", [b"", b"not marshal data", b"\xe3" + b"\x00" * 64])
def test_a_damaged_cache_file_counts_as_empty_and_is_rewritten(tmp_path: Path, content: bytes):
    (tmp_path / CACHE_FILE).write_bytes(content)

    report = probe(str(tmp_path))

    assert isinstance(report["compiled"], int) and report["compiled"] > FIRST_RUN_COMPILATIONS
    assert probe(str(tmp_path))["compiled"] == 0


def test_a_cache_folder_that_cannot_be_made_leaves_the_tool_working(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")

    report = probe(str(blocker / "cache"))

    assert report["repr"][0] == "Point(x=1, y=2.5, tags=[])"
    assert blocker.read_text() == "a file where the cache folder would be"


def test_the_tools_run_with_the_measures_installed(tmp_path: Path):
    environment = {**os.environ, "XLA_EMIT_CACHE_DIR": str(tmp_path)}
    source = (
        "func.func @f(%a: i32) -> i32 {\n"
        "  %0 = arith.addi %a, %a : i32\n"
        "  func.return %0 : i32\n"
        "}\n"
    )
    printed = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.opt", "-"],
        input=source,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    # Deferred formats still parse and print in the custom form; the cache was written.
    assert "%0 = arith.addi %a, %a : i32" in printed
    assert (tmp_path / CACHE_FILE).stat().st_size > 0


def test_every_assembly_format_of_the_built_in_dialects_parses():
    """With formats parsed at first use, a broken one would otherwise surface only in use."""
    checked = 0
    for load in built_in_dialects().values():
        for op in load().operations:
            if not issubclass(op, IRDLOperation):
                continue
            op_def = op.get_irdl_definition()
            if op_def.assembly_format is not None:
                FormatParser(op_def.assembly_format, op_def).parse_format()
                checked += 1
    assert checked > 150


GC_PROBE = """
import gc, json
from xla_emit.startup import loading_without_collection
states, kept = [], []
for enabled in (True, False):
    (gc.enable if enabled else gc.disable)()
    frozen_before = gc.get_freeze_count()
    with loading_without_collection():
        inside = gc.isenabled()
        kept.append([[] for _ in range(1000)])
    states.append([inside, gc.isenabled(), gc.get_freeze_count() - frozen_before >= 1000])
print(json.dumps(states))
"""


def test_loading_turns_the_collector_off_then_freezes_what_it_made_and_restores_it():
    done = subprocess.run(
        [sys.executable, "-c", GC_PROBE], capture_output=True, text=True, check=True
    )

    # Collector on before: off inside, on after. Off before: off inside, off after.
    assert json.loads(done.stdout) == [[False, True, True], [False, False, True]]


def test_the_cache_folder_follows_the_environment_and_is_off_without_a_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    monkeypatch.delenv("XLA_EMIT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "xla-emit"

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_folder() == tmp_path / ".cache" / "xla-emit"

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", no_home)
    assert cache_folder() is None

    monkeypatch.setenv("XLA_EMIT_CACHE_DIR", "")
    assert cache_folder() is None
    monkeypatch.setenv("XLA_EMIT_CACHE_DIR", str(tmp_path / "here"))
    assert cache_folder() == tmp_path / "here"
