"""xla-emit: XLA:GPU's fusion emitters, Mosaic TPU's and PTO's dialects on xDSL."""

from xla_emit.package_layout import reach_repository_folders

reach_repository_folders(__path__)
