"""`xla-emit-run` runs a Pallas kernel over its grid and matches Pallas's interpret mode.

The reference outputs (tests/corpus/pallas/*.outputs.npz) were computed by jax's
`interpret=True` run of the same kernels on the same inputs; they share no code with
this project. Attention and layernorm use exp, rsqrt and float sums, which jax's CPU
backend and numpy round in a different order, so they match to a few ulps.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.tools.run import main

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "pallas"
# The kernels as jax 0.10.2 lowers them, and as jax 0.12 does (`jax-0.12/<name>`).
KERNELS = sorted(path.stem for path in CORPUS.glob("*.mlir")) + sorted(
    f"jax-0.12/{path.stem}" for path in (CORPUS / "jax-0.12").glob("*.mlir")
)
TRANSCENDENTAL = {"attention", "layernorm"}
# The module does not carry the arrays' full shapes; where the last blocks hang over the
# array's end, the grid's blocks cover more than the array, and the caller says.
FLAGS = {
    "edge_rows": ("--output-shapes", "20x256"),
    "squeezed_lane_edge": ("--output-shapes", "3x16x200"),
}


def run(name: str, out: Path, *flags: str, inputs: Path | None = None) -> int:
    archive = inputs if inputs is not None else CORPUS / f"{name}.inputs.npz"
    return main([str(CORPUS / f"{name}.mlir"), "--inputs", str(archive), "-o", str(out), *flags])


def loaded(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as archive:
        return {key: archive[key] for key in archive.files}


@pytest.mark.parametrize("name", KERNELS)
def test_every_corpus_kernel_through_the_cli(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out.npz"
    base = name.rsplit("/", 1)[-1]
    assert run(name, out, *FLAGS.get(base, ())) == 0
    got, expected = loaded(out), loaded(CORPUS / f"{name}.outputs.npz")
    assert sorted(got) == sorted(expected)
    for key, reference in expected.items():
        assert got[key].dtype == reference.dtype and got[key].shape == reference.shape
        if base in TRANSCENDENTAL:
            np.testing.assert_allclose(got[key], reference, rtol=2e-6, atol=2e-6)
        else:
            np.testing.assert_array_equal(got[key], reference)


def test_output_shapes_can_be_given(tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    assert run("matmul", out, "--output-shapes", "16x256") == 0
    x, y = loaded(CORPUS / "matmul.inputs.npz").values()
    np.testing.assert_array_equal(loaded(out)["out0"], x @ y)


def test_without_output_shapes_an_edge_block_output_covers_whole_blocks(tmp_path: Path) -> None:
    """edge_rows cuts 20 rows into blocks of 8: by default the output is 3 blocks, 24 rows,
    the first 20 of them Pallas's output."""
    out = tmp_path / "out.npz"
    assert run("edge_rows", out) == 0
    got = loaded(out)["out0"]
    assert got.shape == (24, 256)
    (x,) = corpus_inputs("edge_rows")
    np.testing.assert_array_equal(got[:20], x * 2 + 1)


def write_inputs(path: Path, *arrays: np.ndarray) -> Path:
    np.savez(path, **{f"arg{n}": a for n, a in enumerate(arrays)})
    return path


def corpus_inputs(name: str) -> list[np.ndarray]:
    archive = loaded(CORPUS / f"{name}.inputs.npz")
    return [archive[f"arg{n}"] for n in range(len(archive))]


def error_of(capsys: pytest.CaptureFixture[str], name: str, *flags: str, **kw: Path) -> str:
    assert run(name, Path("/nonexistent/out.npz"), *flags, **kw) == 1
    return capsys.readouterr().err


def test_too_many_inputs_leave_no_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x, y = corpus_inputs("matmul")
    inputs = write_inputs(tmp_path / "in.npz", x, y, x)
    first_line = error_of(capsys, "matmul", inputs=inputs).splitlines()[0]
    assert first_line.endswith(
        "matmul.mlir:2:3: error: @matmul_kernel: takes 0 prefetch arrays, 3 inputs and "
        "outputs, but got 3 operands, which leave no output"
    )


def test_wrong_number_of_output_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    first_line = error_of(capsys, "matmul", "--output-shapes", "16x256,16x256").splitlines()[0]
    assert first_line.endswith(
        "matmul.mlir:2:3: error: @matmul_kernel: takes 0 prefetch arrays, 3 inputs and "
        "outputs, but got 2 operands and 2 outputs"
    )


def test_input_of_the_wrong_rank(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x, y = corpus_inputs("matmul")
    inputs = write_inputs(tmp_path / "in.npz", x.reshape(-1), y)
    assert error_of(capsys, "matmul", inputs=inputs) == (
        "error: operand 0 has shape [4096], but its block [8, 128] has rank 2\n"
    )


def test_input_of_the_wrong_dtype(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x, y = corpus_inputs("matmul")
    inputs = write_inputs(tmp_path / "in.npz", x, y.astype(np.float64))
    assert error_of(capsys, "matmul", inputs=inputs) == (
        "error: operand 1 has dtype float64, but the kernel's ref is "
        "memref<128x128xf32, #tpu.memory_space<vmem>>\n"
    )


def test_whole_array_input_of_the_wrong_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """dma_rows takes its input in pl.ANY: the kernel's ref is the whole array."""
    (x,) = corpus_inputs("dma_rows")
    inputs = write_inputs(tmp_path / "in.npz", x[:8])
    assert error_of(capsys, "dma_rows", inputs=inputs) == (
        "error: operand 0 has shape [8, 128], but the kernel's whole-array ref is "
        "memref<16x128xf32, #tpu.memory_space<any>>\n"
    )


def test_a_block_past_the_end_of_a_short_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x, y = corpus_inputs("matmul")
    inputs = write_inputs(tmp_path / "in.npz", x[:8], y)
    assert error_of(capsys, "matmul", "--output-shapes", "16x256", inputs=inputs) == (
        "error: @transform_0 at program ids (1, 0, 0) selects block [1, 0]: indices 8..15 of "
        "dimension 0 are outside the array of shape [8, 256]\n"
    )


def test_a_grid_kernel_needs_its_arrays(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "matmul.mlir"
    assert main([str(path), "--random-inputs", "1"]) == 1
    assert capsys.readouterr().err == (
        "error: @matmul_kernel is a Pallas kernel: give its operands, full arrays, with "
        "--inputs (the module does not carry their shapes)\n"
    )


def test_output_shapes_must_be_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run("matmul", Path("out.npz"), "--output-shapes", "16xa")
    assert capsys.readouterr().err.splitlines()[-1] == (
        "xla-emit-run: error: argument --output-shapes: '16xa' is not a list of shapes like "
        "20x128,1x128"
    )


BROKEN_KERNEL = """module {
  func.func @kernel(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>,
                    %o: memref<8x128xi32, #tpu.memory_space<vmem>>) attributes {
      dimension_semantics = [#tpu.dimension_semantics<arbitrary>],
      iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64,
      window_params = [{transform_indices = @map, window_bounds = array<i64: 8, 128>},
                       {transform_indices = @map, window_bounds = array<i64: 8, 128>}]} {
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %r = tpu.all_reduce %v {dim = 1 : i64, kind = #tpu.reduction_kind<find_first_set>}
        : vector<8x128xf32> -> vector<8x128xi32>
    vector.store %r, %o[%c0, %c0]
        : memref<8x128xi32, #tpu.memory_space<vmem>>, vector<8x128xi32>
    return
  }
  func.func @map(%i: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }
}
"""


def test_an_op_that_fails_in_the_grid_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel = tmp_path / "k.mlir"
    kernel.write_text(BROKEN_KERNEL)
    inputs = write_inputs(tmp_path / "in.npz", np.zeros((16, 128), np.float32))
    assert main([str(kernel), "--inputs", str(inputs), "--output-shapes", "16x128"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{kernel}:10:5: error: 'tpu.all_reduce' op with kind 'find_first_set' is not "
        "supported by the interpreter"
    )
