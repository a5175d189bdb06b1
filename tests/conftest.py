"""Session-wide settings for the whole suite."""

import os
import shutil
import tempfile

import pytest

_CACHE_FOLDER = "XLA_EMIT_CACHE_DIR"
# The folder this session made for it, removed at the end.
_made_folder = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    # The tools keep compiled dataclass methods in a cache folder (`xla_emit.startup`);
    # the suite's runs, in process and in subprocesses, use one of their own.
    if _CACHE_FOLDER not in os.environ:
        folder = tempfile.mkdtemp(prefix="xla-emit-cache-")
        os.environ[_CACHE_FOLDER] = folder
        config.stash[_made_folder] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_made_folder, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[_CACHE_FOLDER]
