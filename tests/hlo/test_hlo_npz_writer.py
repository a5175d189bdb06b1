"""The npz writer gives, member for member, the `.npy` bytes numpy's own writer gives."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo.npz import to_storable, write_npz

ARRAYS = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4),
    "pred": np.array(True),
    "empty": np.zeros((0, 3), np.int8),
    "bf16": np.arange(6).astype(ml_dtypes.bfloat16).reshape(2, 3),
    "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
    "strided": np.arange(10, dtype=np.complex64)[::3],
    "big_endian": np.array([1, -2], dtype=">i4"),
    "u64": np.array([[2**64 - 1]], dtype=np.uint64),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_each_member_is_what_numpy_writes(tmp_path: Path, name: str) -> None:
    path = tmp_path / "out.npz"
    write_npz(str(path), {name: ARRAYS[name]})
    expected = io.BytesIO()
    np.lib.format.write_array(expected, to_storable(ARRAYS[name]), allow_pickle=False)
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == [f"{name}.npy"]
        assert archive.read(f"{name}.npy") == expected.getvalue()
    stored = np.load(path)[name]
    np.testing.assert_array_equal(stored, to_storable(ARRAYS[name]))
