"""xla-emit: XLA:GPU's fusion emitters, Mosaic TPU's and PTO's dialects on xDSL."""

from xla_emit.former_import_names import alias_former_import_names
from xla_emit.package_layout import reach_repository_folders

reach_repository_folders(__path__)
alias_former_import_names()
