"""xDSL dialects of xla-emit.

Each dialect lives in its own module (attributes, then ops, then the
`Dialect` object). They are published to the front end under the entry-point
group `xla_emit.dialects` (see `pyproject.toml`), which loads each lazily, so
tools import only what a program uses.
"""
