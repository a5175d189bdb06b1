"""Prints a logged disagreement (its minimized program) as a regression-test case.

    .venv/bin/python tools/difftest/as_test.py LOG SEED

The case holds XLA's optimized module (backend configs dropped), the inputs and the
outputs XLA:CPU computed, as Python literals one can check by hand.
"""

from __future__ import annotations

import json
import re
import sys

import numpy as np
from arrays import decode

# Backend configs go, except a fusion's (`__triton` and its tiles decide how it runs).
_BACKEND_CONFIG = re.compile(r", backend_config=\{(?!.*fusion_backend_config).*\}$", re.MULTILINE)


def literal(array: np.ndarray) -> str:
    """`array` as `("type", shape, [values])`; floats as Python floats (exact, round trip)."""
    from arrays import DTYPES

    name = next(n for n, d in DTYPES.items() if d == array.dtype)
    if array.dtype.kind == "c":
        values = [f"complex({_float(v.real)}, {_float(v.imag)})" for v in array.ravel()]
    elif array.dtype.kind in "biu":
        values = [str(int(v)) for v in array.ravel()]
    else:
        values = [_float(float(v)) for v in array.ravel()]
    return f'("{name}", {tuple(array.shape)}, [{", ".join(values)}])'


def _float(value: float) -> str:
    if np.isnan(value):
        return "NAN"
    if np.isinf(value):
        return "INF" if value > 0 else "-INF"
    return repr(float(value))


def main() -> None:
    log, seed = sys.argv[1], int(sys.argv[2])
    with open(log) as file:
        records = [json.loads(line) for line in file]
    for record in records:
        if record.get("seed") != seed or "minimized" not in record:
            continue
        small = record["minimized"]
        hlo = _BACKEND_CONFIG.sub("", small["gpu_hlo"]).strip()
        print(f"# seed {seed}: {record['kind']}: {small['message'][:200]}")
        print(f'HLO = """\n{hlo}\n"""')
        print("INPUTS = [" + ", ".join(literal(decode(x)) for x in small["inputs"]) + "]")
        print("XLA = [" + ", ".join(literal(decode(x)) for x in small["xla_outputs"]) + "]")


if __name__ == "__main__":
    main()
