# lit configuration for xla-emit's FileCheck tests.
import os
import sys

import lit.formats

config.name = "xla-emit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".hlo", ".pto"]
config.excludes = ["inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

_root = os.path.dirname(os.path.abspath(__file__))
# The tools of the venv lit runs from (`make test PYTHON=...` has one per interpreter),
# else the default .venv's.
_bin = os.path.dirname(sys.executable)
if not os.path.exists(os.path.join(_bin, "xla-emit-opt")):
    _bin = os.path.join(_root, ".venv", "bin")
config.environment["PATH"] = os.pathsep.join([_bin, os.environ.get("PATH", "")])
config.environment["PYTHONPATH"] = _root
config.substitutions.append(("%examples", os.path.join(_root, "examples")))
