"""Progress of a long run on stderr, step by step: tqdm's bar, or plain lines without it.

    steps = Progress("xla-emit-jax", total=4, enabled=forced or sys.stderr.isatty())
    steps.step("compile for H100")      # a step starts: the bar names it
    ...
    steps.close()

    for kernel in tracked(kernels, "report", enabled, label=lambda k: k.name): ...

Shown only when enabled (a terminal, or a `--progress` flag): never in pipes and logs
unless asked for. tqdm is optional: where it is not installed each step is one line,
`report [2/7] loop_add_fusion`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class Progress:
    """A run of `total` steps, each announced as it starts."""

    def __init__(self, name: str, total: int, enabled: bool) -> None:
        self.name = name
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.bar: Any = _tqdm_bar(name, total) if enabled else None

    def step(self, what: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            if self.done:
                self.bar.update(1)
            self.bar.set_postfix_str(what)
        else:
            print(f"{self.name} [{self.done + 1}/{self.total}] {what}", file=sys.stderr, flush=True)
        self.done += 1

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.total - self.bar.n)
            self.bar.close()
            self.bar = None


def _tqdm_bar(name: str, total: int) -> Any:
    try:
        from tqdm import tqdm  # pyright: ignore[reportMissingModuleSource]
    except ImportError:
        return None
    # Every step drawn (no rate limit): the steps are few and each takes a while.
    return tqdm(total=total, desc=name, unit="step", file=sys.stderr, mininterval=0, miniters=1)


def tracked(
    items: Sequence[T], name: str, enabled: bool, label: Callable[[T], str] = str
) -> Iterator[T]:
    """`items`, one step of progress each."""
    progress = Progress(name, len(items), enabled)
    try:
        for item in items:
            progress.step(label(item))
            yield item
    finally:
        progress.close()
