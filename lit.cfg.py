# lit configuration for xla-emit's FileCheck tests.
import os

import lit.formats

config.name = "xla-emit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".hlo", ".pto"]
config.excludes = ["inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

_root = os.path.dirname(os.path.abspath(__file__))
_bin = os.path.join(_root, ".venv", "bin")
config.environment["PATH"] = os.pathsep.join([_bin, os.environ.get("PATH", "")])
config.environment["PYTHONPATH"] = _root
config.substitutions.append(("%examples", os.path.join(_root, "examples")))
