"""The MLIR front end: the context, parsing with a source map, located verification.

Everything that reads MLIR text (the tools, the pipeline runner, the
interpreters, the Python API) comes through here, so an error is located and
worded the same way whichever tool meets it. This is the bottom IR layer: it
imports no dialect, pass, emitter, interpreter, runtime or tool module.
"""

from xla_emit.ir.context import make_context
from xla_emit.ir.parse import SPLIT_MARKER, SourceMap, parse_mlir, split_chunks
from xla_emit.ir.verify import op_error, verify_module

__all__ = [
    "SPLIT_MARKER",
    "SourceMap",
    "make_context",
    "op_error",
    "parse_mlir",
    "split_chunks",
    "verify_module",
]
