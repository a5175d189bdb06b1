"""Every problem with an `--inputs` archive is a one-line error naming the file and array."""

from __future__ import annotations

import io
import os
import re
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from xla_emit.tools.run import main

MODULE = """HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  p1 = f32[4] parameter(1)
  ROOT a = f32[4] add(p0, p1)
}
"""
KERNEL = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
"""
F32 = np.zeros(4, np.float32)


def save(path: Path, **arrays: np.ndarray) -> None:
    with path.open("wb") as stream:
        np.savez(stream, **arrays)  # pyright: ignore[reportArgumentType]


def pickled(path: Path) -> None:
    save(path, arg0=F32, arg1=np.array([1, "a", None], dtype=object))


def truncated(path: Path) -> None:
    save(path, arg0=F32, arg1=F32)
    path.write_bytes(path.read_bytes()[:100])


def corrupt(path: Path) -> None:
    save(path, arg0=F32, arg1=F32)
    data = bytearray(path.read_bytes())
    # The first member's data starts after its 30-byte header and 8-byte name.
    data[30 + 8 + 70] ^= 0xFF
    path.write_bytes(bytes(data))


def renamed_npy(path: Path) -> None:
    with path.open("wb") as stream:
        np.save(stream, F32)


def _npy(array: np.ndarray) -> bytes:
    stream = io.BytesIO()
    np.save(stream, array)
    return stream.getvalue()


def _zip(path: Path, members: dict[str, bytes], method: int = zipfile.ZIP_STORED) -> None:
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def _patch(path: Path, edits: Callable[[bytearray], None]) -> None:
    data = bytearray(path.read_bytes())
    edits(data)
    path.write_bytes(bytes(data))


def unclosed_header(path: Path) -> None:
    """A .npy header whose dict never closes (numpy's tokenizer meets the end of input)."""
    good = _npy(F32)
    end = good.index(b"}")
    bad = good[:10] + b"{'descr': '<f4', 'shape': (4," + b" " * (end - 39) + good[end + 1 :]
    _zip(path, {"arg0.npy": bad, "arg1.npy": good})


def not_npy_member(path: Path) -> None:
    _zip(path, {"arg0.npy": b"no magic here", "arg1.npy": _npy(F32)})


def _central_directory(data: bytearray) -> int:
    return data.index(b"PK\x01\x02")


def unknown_zip_version(path: Path) -> None:
    _zip(path, {"arg0.npy": _npy(F32), "arg1.npy": _npy(F32)})

    def edit(data: bytearray) -> None:
        at = _central_directory(data) + 6  # version needed to extract
        data[at : at + 2] = struct.pack("<H", 99)

    _patch(path, edit)


def unknown_compression(path: Path) -> None:
    _zip(path, {"arg0.npy": _npy(F32), "arg1.npy": _npy(F32)})

    def edit(data: bytearray) -> None:
        at = _central_directory(data) + 10  # compression method
        data[at : at + 2] = struct.pack("<H", 99)

    _patch(path, edit)


def broken_deflate(path: Path) -> None:
    _zip(path, {"arg0.npy": _npy(F32), "arg1.npy": _npy(F32)}, zipfile.ZIP_DEFLATED)

    def edit(data: bytearray) -> None:
        data[30 + 8] = 0x07  # the first deflate block: final, of the reserved type 3

    _patch(path, edit)


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "unclosed_header": (
        unclosed_header,
        # The reason is Python's tokenizer's own words, which change between versions.
        "error: cannot read 'arg0' from '{path}': damaged (bad .npy header: {reason})",
    ),
    "not_npy_member": (not_npy_member, "error: cannot read 'arg0' from '{path}': not a .npy array"),
    "unknown_zip_version": (
        unknown_zip_version,
        "error: cannot read inputs from '{path}': unsupported zip (zip file version 9.9)",
    ),
    "unknown_compression": (
        unknown_compression,
        "error: cannot read 'arg0' from '{path}': damaged (That compression method is not "
        "supported)",
    ),
    "broken_deflate": (
        broken_deflate,
        "error: cannot read 'arg0' from '{path}': damaged (Error -3 while decompressing data: "
        "invalid block type)",
    ),
    "missing": (
        lambda path: save(path, arg0=F32),
        "error: '{path}' has no array 'arg1' for parameter 'p1' (expected f32[4])",
    ),
    "extra": (
        lambda path: save(path, arg0=F32, arg1=F32, arg2=F32, weights=F32),
        "error: '{path}' has arrays the program does not take: arg2, weights (it takes arg0, arg1)",
    ),
    "dtype": (
        lambda path: save(path, arg0=F32, arg1=F32.astype(np.int32)),
        "error: {path}:arg1 has dtype int32, expected float32",
    ),
    "shape": (
        lambda path: save(path, arg0=F32, arg1=np.zeros(5, np.float32)),
        "error: {path}:arg1 has shape [5], expected [4]",
    ),
    "pickle": (
        pickled,
        "error: cannot read 'arg1' from '{path}': an object array, which only a pickle can "
        "hold (pickles are not loaded: allow_pickle=False)",
    ),
    "truncated": (
        truncated,
        "error: cannot read inputs from '{path}': not an npz archive "
        "(damaged zip: File is not a zip file)",
    ),
    "corrupt": (
        corrupt,
        "error: cannot read 'arg0' from '{path}': damaged (Bad CRC-32 for file 'arg0.npy')",
    ),
    "renamed_npy": (
        renamed_npy,
        "error: cannot read inputs from '{path}': a single .npy array, not an npz archive "
        "of arg0, arg1, ...",
    ),
    "empty": (
        lambda path: path.write_bytes(b""),
        "error: cannot read inputs from '{path}': the file is empty",
    ),
    "text": (
        lambda path: path.write_text("arg0 = 1, 2, 3\n"),
        "error: cannot read inputs from '{path}': not an npz archive (unknown format)",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_archive_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    write, expected = CASES[case]
    module, inputs = tmp_path / "m.hlo", tmp_path / "in.npz"
    module.write_text(MODULE)
    write(inputs)
    assert main([str(module), "--inputs", str(inputs)]) == 1
    pattern = re.escape(expected.format(path=inputs, reason="REASON")).replace("REASON", r"[^\n]+")
    assert re.fullmatch(pattern + "\n", capsys.readouterr().err)


def test_the_corrupted_archive_is_still_a_zip(tmp_path: Path) -> None:
    """The CRC case damages data, not the zip structure the other cases break."""
    path = tmp_path / "in.npz"
    corrupt(path)
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == ["arg0.npy", "arg1.npy"]


def test_unreadable_archive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module, inputs = tmp_path / "m.hlo", tmp_path / "missing" / "in.npz"
    module.write_text(MODULE)
    assert main([str(module), "--inputs", str(inputs)]) == 1
    assert capsys.readouterr().err == (
        f"error: cannot read inputs from '{inputs}': No such file or directory\n"
    )


def test_kernel_inputs_are_checked_per_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel, inputs = tmp_path / "k.mlir", tmp_path / "in.npz"
    kernel.write_text(KERNEL)
    save(inputs, arg0=F32, arg1=F32)
    assert main([str(kernel), "--inputs", str(inputs)]) == 1
    assert capsys.readouterr().err == (
        f"error: '{inputs}' has arrays the program does not take: arg1 (it takes arg0)\n"
    )
    os.remove(inputs)
    save(inputs, arg1=F32)
    assert main([str(kernel), "--inputs", str(inputs)]) == 1
    assert capsys.readouterr().err == (
        f"error: '{inputs}' has no array 'arg0' for a parameter of type tensor<4xf32>\n"
    )


def test_outputs_can_go_to_dev_null() -> None:
    """A device cannot seek: the archive is built in memory, then written (a large one too)."""
    from xla_emit.hlo.npz import write_outputs

    write_outputs(os.devnull, [np.zeros((512, 1024), np.float32), np.ones(3, np.int32)])
