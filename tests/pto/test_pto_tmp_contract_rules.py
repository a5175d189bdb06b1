"""PTOAS main's scratch-tile contracts of arg reductions, tsel, tcolsum and tmrgsort
(`xla_emit/pto/tmp_contract_rules.py`) over kernels of our own: each accepted, then
rejected with PTOAS's message once one thing changes. The sizes are worked by hand:
f32 has 64 elements per 256-byte repeat and 8 per 32-byte block."""

from __future__ import annotations

from tests.pto.kernel_checks import error_on_line, target_kernel, verify_kernel
from xla_emit.pto.tmp_contract_rules import arg_tmp_columns


def _kernel(target: str, line: str, **tiles: str) -> str:
    params = ", ".join(f"%{name}: {kind}" for name, kind in tiles.items())
    return target_kernel(target, params, f"    {line}")


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 3."""
    return error_on_line(text, 3)


def test_arg_reduction_tmp_columns() -> None:
    # 255 f32 columns: 4 repeats; ceil(8 / 8) + ceil(4 / 8) = 2 blocks of 8.
    assert arg_tmp_columns(4, 255) == 16
    # 64 f32 columns: 1 repeat; ceil(2 / 8) + ceil(1 / 8) = 2 blocks.
    assert arg_tmp_columns(4, 64) == 16
    # 1024 f16 columns (128 per repeat): 8 repeats; ceil(16 / 16) + ceil(8 / 16) = 2 blocks of 16.
    assert arg_tmp_columns(2, 1024) == 32
    # 4096 f32 columns: 64 repeats; ceil(128 / 8) + ceil(64 / 8) = 24 blocks.
    assert arg_tmp_columns(4, 4096) == 192


def _col_arg(target: str, tmp_cols: int, element: str = "f32") -> str:
    src = f"!pto.tile_buf<vec, 16x256x{element}, valid=15x255>"
    tmp = f"!pto.tile_buf<vec, 1x{tmp_cols}x{element}>"
    dst = "!pto.tile_buf<vec, 1x256xi32, valid=1x255>"
    line = f"pto.tcolargmax ins(%s, %t : {src}, {tmp}) outs(%d : {dst})"
    return _kernel(target, line, s=src, t=tmp, d=dst)


def test_column_arg_reduction_tmp() -> None:
    verify_kernel(_col_arg("a3", 16))
    verify_kernel(_col_arg("a5", 8))  # A5 has no such contract
    assert _error(_col_arg("a3", 8)) == (
        "expects A2/A3 tmp valid_shape[1] to be at least 16 for src valid_shape[1] = 255"
    )


def test_column_arg_reductions_read_1_2_or_4_byte_elements() -> None:
    src = "!pto.tile_buf<vec, 16x32xi64>"
    dst = "!pto.tile_buf<vec, 1x32xui32>"
    line = f"pto.tcolargmax ins(%s, %t : {src}, {src}) outs(%d : {dst})"
    assert _error(_kernel("a3", line, s=src, t=src, d=dst)) == (
        "expects src/tmp element type to be 1, 2, or 4 bytes wide"
    )
    assert _error(_kernel("a5", line, s=src, t=src, d=dst)) == (
        "expects src element type to be 1, 2, or 4 bytes wide"
    )


def _row_arg(valid_cols: int, tmp_cols: int) -> str:
    src = f"!pto.tile_buf<vec, 16x128xf32, valid=13x{valid_cols}>"
    tmp = f"!pto.tile_buf<vec, 16x{tmp_cols}xf32, valid=13x{tmp_cols}>"
    dst = "!pto.tile_buf<vec, 16x1xui32, valid=13x1, blayout=col_major>"
    line = f"pto.trowargmax ins(%s, %t : {src}, {tmp}) outs(%d : {dst})"
    return _kernel("a3", line, s=src, t=tmp, d=dst)


def test_row_arg_reduction_tmp() -> None:
    # 127 columns take two repeats: 16 tmp columns.
    verify_kernel(_row_arg(127, 16))
    assert _error(_row_arg(127, 8)) == (
        "expects A2/A3 tmp valid_shape[1] to be at least 16 for src valid_shape[1] = 127"
    )
    # 60 columns fit one repeat: an ND tmp of two columns does.
    verify_kernel(_row_arg(60, 8).replace("16x8xf32, valid=13x8", "16x8xf32, valid=13x2"))
    assert _error(_row_arg(60, 8).replace("16x8xf32, valid=13x8", "16x8xf32, valid=13x1")) == (
        "expects A2/A3 tmp valid_shape[1] to be at least 2 in the small-col ND path"
    )


def _tsel(tmp: str) -> str:
    mask = "!pto.tile_buf<vec, 1x32xi8, valid=1x16>"
    data = "!pto.tile_buf<vec, 1x16xf16>"
    line = f"pto.tsel ins(%m, %a, %b, %t : {mask}, {data}, {data}, {tmp}) outs(%d : {data})"
    return _kernel("a3", line, m=mask, a=data, b=data, t=tmp, d=data)


def test_tsel_tmp_capacity() -> None:
    verify_kernel(_tsel("!pto.tile_buf<vec, 1x8xi32>"))  # 32 bytes
    assert _error(_tsel("!pto.tile_buf<vec, 1x2xi32>")) == (
        "expects tmp capacity to be at least 16 bytes, but got 8 bytes"
    )
    assert _error(_tsel("!pto.tile_buf<vec, 1x16xi16>")) == (
        "expects A2/A3 tsel tmp element type to be 4 bytes wide"
    )


def test_binary_column_sum_tmp_width() -> None:
    src = "!pto.tile_buf<vec, 16x64xf32>"
    dst = "!pto.tile_buf<vec, 1x64xf32>"

    def kernel(cols: int) -> str:
        tmp = f"!pto.tile_buf<vec, 1x{cols}xf32>"
        line = f"pto.tcolsum ins(%s, %t {{isBinary = true}} : {src}, {tmp}) outs(%d : {dst})"
        return _kernel("a5", line, s=src, t=tmp, d=dst)

    verify_kernel(kernel(64))
    assert _error(kernel(32)) == (
        "expects tmp shape[1] to be at least src valid_shape[1] when isBinary is true; got 32 vs 64"
    )


def test_merge_sort_tmp_width() -> None:
    row = "!pto.tile_buf<vec, 1x256xf32>"

    def kernel(cols: int) -> str:
        tmp = f"!pto.tile_buf<vec, 1x{cols}xf32>"
        line = (
            f"pto.tmrgsort ins(%a, %b, %t {{exhausted = false}} : {row}, {row}, {tmp}) "
            f"outs(%d, %e : {row}, vector<4xi16>)"
        )
        return _kernel("a3", line, a=row, b=row, t=tmp, d=row, e="vector<4xi16>")

    verify_kernel(kernel(256))
    assert _error(kernel(128)) == "format2 expects tmp.cols >= dst.cols"
