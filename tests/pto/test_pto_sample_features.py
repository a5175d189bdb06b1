"""What PTOAS's decode samples lean on, on our own kernel: a block of scores whose valid
columns are set at run time (`set_validshape`), padded with -inf (`tfillpad`), a row
softmax on tiles placed at fixed addresses that reuse each other's bytes, a row max read
back through `treshape` as a row, sync ops and sections that change no values, and
`tprint`. Compared with numpy written here."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.ir import parse_mlir, verify_module

SCORES = "!pto.tile_buf<vec, 8x64xf32, valid=?x?>"
PADDED = "!pto.tile_buf<vec, 8x64xf32, pad=3>"
FULL = "!pto.tile_buf<vec, 8x64xf32>"
COLUMN = "!pto.tile_buf<vec, 8x1xf32, valid=8x1>"
ROW = "!pto.tile_buf<vec, 1x8xf32>"
VIEW = "!pto.tensor_view<?x?xf32>"

KERNEL = f"""
func.func @block_softmax(%scores: !pto.ptr<f32>, %exp: !pto.ptr<f32>, %max: !pto.ptr<f32>,
                         %valid: index) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %a0 = arith.constant 0 : i64
  %a2048 = arith.constant 2048 : i64
  %a4096 = arith.constant 4096 : i64
  %scale = arith.constant 0.125 : f32
  pto.section.vector {{
    %b = pto.get_block_idx
    %s_t = pto.make_tensor_view %scores, shape = [%c8, %c64], strides = [%c64, %c1] : {VIEW}
    %s_v = pto.partition_view %s_t, offsets = [%c0, %c0], sizes = [%c8, %c64]
      : {VIEW} -> !pto.partition_tensor_view<8x64xf32>
    %s = pto.alloc_tile addr = %a0 valid_row = %c8 valid_col = %c64 : {SCORES}
    pto.tload ins(%s_v : !pto.partition_tensor_view<8x64xf32>) outs(%s : {SCORES})
    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.set_validshape %s, %c8, %valid : {SCORES}
    %p = pto.alloc_tile addr = %a2048 : {PADDED}
    pto.tfillpad ins(%s : {SCORES}) outs(%p : {PADDED})
    %x = pto.alloc_tile addr = %a2048 : {FULL}
    pto.tmuls ins(%x, %scale : {FULL}, f32) outs(%x : {FULL})
    %m = pto.alloc_tile addr = %a4096 : {COLUMN}
    %tmp = pto.alloc_tile addr = %a0 : {FULL}
    pto.trowmax ins(%x, %tmp : {FULL}, {FULL}) outs(%m : {COLUMN})
    pto.trowexpandsub ins(%x, %m : {FULL}, {COLUMN}) outs(%x : {FULL})
    pto.barrier #pto.pipe<PIPE_ALL>
    pto.texp ins(%x : {FULL}) outs(%x : {FULL})
    %m_row = pto.treshape %m : {COLUMN} -> {ROW}
    pto.tprint ins(%m_row : {ROW})
    %e_t = pto.make_tensor_view %exp, shape = [%c8, %c64], strides = [%c64, %c1] : {VIEW}
    %e_v = pto.partition_view %e_t, offsets = [%c0, %c0], sizes = [%c8, %c64]
      : {VIEW} -> !pto.partition_tensor_view<8x64xf32>
    pto.tstore ins(%x : {FULL}) outs(%e_v : !pto.partition_tensor_view<8x64xf32>)
    %m_t = pto.make_tensor_view %max, shape = [%c1, %c8], strides = [%c8, %c1] : {VIEW}
    %m_v = pto.partition_view %m_t, offsets = [%c0, %c0], sizes = [%c1, %c8]
      : {VIEW} -> !pto.partition_tensor_view<1x8xf32>
    pto.tstore ins(%m_row : {ROW}) outs(%m_v : !pto.partition_tensor_view<1x8xf32>)
  }}
  return
}}"""


@pytest.mark.parametrize("valid", [64, 40])
def test_padded_block_softmax(valid: int, capsys: pytest.CaptureFixture[str]) -> None:
    module, source_map = parse_mlir(KERNEL, "k.mlir")
    verify_module(module, source_map)
    rng = np.random.default_rng(valid)
    scores = rng.uniform(-4, 4, (8, 64)).astype(np.float32)
    exp, row_max = np.zeros(512, np.float32), np.zeros(8, np.float32)
    PTOExecutor(module).run("block_softmax", [scores, exp, row_max, valid])
    scaled = np.full((8, 64), -np.inf)
    scaled[:, :valid] = scores[:, :valid].astype(np.float64) * 0.125
    want_max = scaled.max(axis=1)
    np.testing.assert_allclose(row_max, want_max, rtol=1e-6)
    want = np.exp(scaled - want_max[:, None])
    np.testing.assert_allclose(exp.reshape(8, 64), want, rtol=1e-5, atol=1e-7)
    assert not exp.reshape(8, 64)[:, valid:].any()  # the -inf padding
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and printed[0].startswith("pto.tprint: ")
    np.testing.assert_allclose(ast.literal_eval(printed[0][12:])[0], want_max, rtol=1e-6)
