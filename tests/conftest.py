"""Session-wide settings for the whole suite."""

import os
import tempfile

# The tools keep compiled dataclass methods in a cache folder (`xla_emit.startup`);
# the suite's runs, in process and in subprocesses, use one of their own.
os.environ.setdefault("XLA_EMIT_CACHE_DIR", tempfile.mkdtemp(prefix="xla-emit-cache-"))
