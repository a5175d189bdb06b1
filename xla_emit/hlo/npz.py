"""The npz convention of the tools: `arg0, arg1, ...` in, `out0, out1, ...` out.

npz cannot hold bf16, so bf16 arrays travel as their uint16 bit patterns; the
program's parameter types say how to read them back.
"""

from __future__ import annotations

import io
import os
import tokenize
import zipfile
import zlib
from collections.abc import Sequence
from typing import IO

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation
from xla_emit.hlo.shape import ArrayShape, PrimitiveType

# ml_dtypes' floats are of kind V, or f (float8_e5m2): numpy's own floats are these.
_NUMPY_FLOATS = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.longdouble))


def stored_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype npz stores `dtype` as: numpy's own types as they are, ml_dtypes' floats
    (bf16, every float8) as unsigned integers of their width holding their bit patterns."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "fV" or dtype in _NUMPY_FLOATS or dtype.fields is not None:
        return dtype
    return np.dtype(f"uint{8 * dtype.itemsize}")


def as_stored_type(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`array` read as `dtype` when it holds `dtype`'s bit patterns as stored; else unchanged.

    Integers in the IR are signless and held signed: an unsigned array of the same width
    (a uint32 PRNG key for an i32 ref) is read as those bits too."""
    dtype = np.dtype(dtype)
    stored = stored_dtype(dtype)
    if stored != dtype and array.dtype == stored:
        return np.ascontiguousarray(array).view(dtype)
    unsigned_of_width = dtype.kind == "i" and array.dtype.kind == "u"
    if unsigned_of_width and array.dtype.itemsize == dtype.itemsize:
        return np.ascontiguousarray(array).view(dtype)
    return array


def to_storable(array: np.ndarray) -> np.ndarray:
    """The array as npz can store it (bf16 as uint16 bits, float8 as uint8 bits)."""
    array = np.asarray(array, order="C")
    return array.view(stored_dtype(array.dtype))


def from_storable(array: np.ndarray, shape: ArrayShape, what: str) -> np.ndarray:
    """Reads a stored array as `shape`'s element type (uint16 bits for bf16)."""
    if tuple(array.shape) != shape.dimensions:
        raise UserError(f"{what} has shape {list(array.shape)}, expected {list(shape.dimensions)}")
    expected = shape.element_type.dtype
    if shape.element_type is PrimitiveType.BF16 and array.dtype == np.uint16:
        return np.asarray(array, order="C").view(expected)
    if array.dtype != expected:
        stored = "uint16 bits" if shape.element_type is PrimitiveType.BF16 else str(expected)
        raise UserError(f"{what} has dtype {array.dtype}, expected {stored}")
    return array


def load_arrays(path: str, what: str = "inputs") -> dict[str, np.ndarray]:
    """Every array of an npz file by name; the one reader of npz archives.

    `what` names the archive's contents in the error message. Pickles are
    never loaded (they run code), so object arrays are an error.
    """
    archive = _open_archive(path, what)
    arrays: dict[str, np.ndarray] = {}
    with archive:
        for name in archive.files:
            arrays[name] = _load_member(archive, path, name)
    return arrays


def _open_archive(path: str, what: str) -> np.lib.npyio.NpzFile:
    prefix = f"cannot read {what} from '{path}'"
    try:
        archive = np.load(path, allow_pickle=False)
    except EOFError:
        raise UserError(f"{prefix}: the file is empty") from None
    except OSError as error:
        raise UserError(f"{prefix}: {error.strerror or error}") from None
    except (ValueError, zipfile.BadZipFile) as error:
        # numpy reads anything that is neither zip nor .npy as a pickle, which it refuses.
        raise UserError(f"{prefix}: not an npz archive ({_reason(error)})") from None
    except NotImplementedError as error:  # a zip version `zipfile` does not read
        raise UserError(f"{prefix}: unsupported zip ({_one_line(error)})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise UserError(f"{prefix}: a single .npy array, not an npz archive of arg0, arg1, ...")
    return archive


def _reason(error: Exception) -> str:
    if isinstance(error, zipfile.BadZipFile):
        return f"damaged zip: {error}"
    return "unknown format"


# What reading one member can raise besides ValueError: a damaged or truncated zip
# entry, a version or compression method `zipfile` does not know (NotImplementedError), a
# broken deflate stream (zlib.error), and a .npy header that is not a Python literal
# (numpy tokenizes it: tokenize.TokenError, SyntaxError).
_DAMAGED_MEMBER = (
    OSError,
    EOFError,
    zipfile.BadZipFile,
    NotImplementedError,
    zlib.error,
    tokenize.TokenError,
    SyntaxError,
)


def _load_member(archive: np.lib.npyio.NpzFile, path: str, name: str) -> np.ndarray:
    prefix = f"cannot read '{name}' from '{path}'"
    try:
        array = archive[name]
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise UserError(
                f"{prefix}: an object array, which only a pickle "
                "can hold (pickles are not loaded: allow_pickle=False)"
            ) from None
        raise UserError(f"{prefix}: {_one_line(error)}") from None
    except _DAMAGED_MEMBER as error:
        raise UserError(f"{prefix}: damaged ({_one_line(error)})") from None
    if not isinstance(array, np.ndarray):
        # numpy hands back the raw bytes of a member without the .npy magic.
        raise UserError(f"{prefix}: not a .npy array")
    return array


def _one_line(error: Exception) -> str:
    if isinstance(error, tokenize.TokenError):  # its args are (message, position)
        return f"bad .npy header: {error.args[0]}"
    text = str(error) or type(error).__name__
    return " ".join(text.split())


def check_argument_names(path: str, arrays: dict[str, np.ndarray], count: int) -> None:
    """The archive holds no array besides `arg0 ... arg<count-1>`."""
    expected = {f"arg{number}" for number in range(count)}
    extra = sorted(set(arrays) - expected)
    if extra:
        takes = (
            ", ".join(f"arg{n}" for n in range(count)) if count <= 3 else f"arg0 ... arg{count - 1}"
        )
        takes = takes or "no arguments"
        raise UserError(
            f"'{path}' has arrays the program does not take: {', '.join(extra)} (it takes {takes})"
        )


def read_inputs(path: str, computation: HloComputation) -> list[np.ndarray]:
    """Loads `arg0, arg1, ...` from an npz file, typed by the computation's parameters."""
    archive = load_arrays(path)
    arguments: list[np.ndarray] = []
    for number, param in enumerate(computation.parameters):
        key = f"arg{number}"
        if not isinstance(param.shape, ArrayShape):
            raise UserError(f"parameter '{param.name}' is a tuple; only arrays are supported")
        if key not in archive:
            raise UserError(
                f"'{path}' has no array '{key}' for parameter '{param.name}' "
                f"(expected {param.shape.element_type.value}{list(param.shape.dimensions)})"
            )
        arguments.append(from_storable(archive[key], param.shape, f"{path}:{key}"))
    check_argument_names(path, archive, len(computation.parameters))
    return arguments


def write_outputs(path: str, outputs: Sequence[np.ndarray]) -> None:
    write_npz(path, {f"out{i}": o for i, o in enumerate(outputs)})


def write_npz(
    path: str, arrays: dict[str, np.ndarray], compression: int = zipfile.ZIP_STORED
) -> None:
    """An npz archive (what `np.savez` writes; `zipfile.ZIP_LZMA` members numpy reads too).

    Timestamps are fixed, so equal arrays give equal bytes.
    """
    try:
        if os.path.exists(path) and not os.path.isfile(path):
            # A device or a pipe (`-o /dev/null`): zipfile needs to seek, so the
            # archive is built in memory and written in one go.
            buffer = io.BytesIO()
            _write_archive(buffer, arrays, compression)
            with open(path, "wb") as stream:
                stream.write(buffer.getbuffer())
        else:
            _write_archive(path, arrays, compression)
    except OSError as error:
        raise UserError(f"cannot write '{path}': {error.strerror}") from None


def _write_archive(
    target: str | io.BytesIO, arrays: dict[str, np.ndarray], compression: int
) -> None:
    with zipfile.ZipFile(target, "w", compression) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            with archive.open(info, "w", force_zip64=True) as member:
                _write_member(member, to_storable(array))


def _write_member(member: IO[bytes], array: np.ndarray) -> None:
    """The `.npy` bytes `np.lib.format.write_array` gives, numpy's own types written
    straight from the array's memory (`write_array` copies them into a buffer first)."""
    if array.dtype.kind not in "biufc":
        np.lib.format.write_array(member, array, allow_pickle=False)
        return
    header = np.lib.format.header_data_from_array_1_0(array)
    np.lib.format.write_array_header_1_0(member, header)
    member.write(array.reshape(-1).view(np.uint8).data)


def random_inputs(computation: HloComputation, seed: int) -> list[np.ndarray]:
    """Deterministic inputs.

    Floats ~ N(0, 1) (complex: both parts), integers in [-8, 8] (unsigned [0, 8]),
    random preds.
    """
    rng = np.random.default_rng(seed)
    arguments: list[np.ndarray] = []
    for param in computation.parameters:
        shape = param.shape
        if not isinstance(shape, ArrayShape):
            raise UserError(f"parameter '{param.name}' is a tuple; only arrays are supported")
        ptype = shape.element_type
        if ptype.is_float:
            values = rng.standard_normal(shape.dimensions, dtype=np.float32).astype(ptype.dtype)
        elif ptype.is_complex:
            parts = rng.standard_normal((2, *shape.dimensions), dtype=np.float32)
            values = (parts[0] + 1j * parts[1]).astype(ptype.dtype)
        elif ptype is PrimitiveType.PRED:
            values = rng.integers(0, 2, shape.dimensions).astype(bool)
        else:
            low = -8 if ptype.is_signed_int else 0
            values = rng.integers(low, 9, shape.dimensions).astype(ptype.dtype)
        arguments.append(np.asarray(values))
    return arguments
