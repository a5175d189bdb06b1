"""The inputs shipped beside the TPU and PTO examples are what examples/make_inputs.py writes,
and the examples run on them (the oracle: numpy on the same arrays)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from xla_emit.tools.run import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_maker():
    spec = importlib.util.spec_from_file_location("make_inputs", EXAMPLES / "make_inputs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_inputs_are_what_the_script_writes(tmp_path: Path) -> None:
    (tmp_path / "tpu").mkdir()
    (tmp_path / "pto").mkdir()
    written = load_maker().write_inputs(tmp_path)
    assert written
    for path in written:
        shipped = EXAMPLES / path.relative_to(tmp_path)
        with np.load(path) as fresh, np.load(shipped) as kept:
            assert sorted(fresh) == sorted(kept)
            for name in fresh:
                np.testing.assert_array_equal(fresh[name], kept[name])


def test_tpu_window_example_copies_the_window(tmp_path: Path) -> None:
    inputs = EXAMPLES / "tpu" / "window_inputs.npz"
    out = tmp_path / "out.npz"
    assert (
        main(
            [
                str(EXAMPLES / "tpu" / "fixed_realigned.mlir"),
                "--inputs",
                str(inputs),
                "-o",
                str(out),
            ]
        )
        == 0
    )
    with np.load(inputs) as given, np.load(out) as result:
        column = int(given["arg2"])
        np.testing.assert_array_equal(result["out1"], given["arg0"][:, column : column + 32])
