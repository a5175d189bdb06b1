# lit configuration: `lit tests/filecheck` runs every .mlir test with the tools on PATH.
import os

import lit.formats

config.name = "my-xla-emit-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ.get("PATH", "")
