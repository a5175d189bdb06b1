"""Mosaic's report text: location line and the op in generic form with function-wide numbers."""

from xdsl.dialects import vector
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xla_emit.passes.tpu.tpu_verify_alignment import mosaic_report

from xla_emit.ir import parse_mlir

KERNEL = """
func.func @k(%x: memref<4x256xf32, #tpu.memory_space<vmem>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %col = arith.addi %i, %c1 : index
    %v = vector.load %x[%c0, %col] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  }
  return
}
"""


def test_report_matches_libtpu_format() -> None:
    module, _ = parse_mlir(KERNEL, "k.mlir")
    load = next(op for op in module.walk() if isinstance(op, vector.LoadOp))
    load.location = FileLineColLoc(StringAttr("k.py"), IntAttr(12), IntAttr(7))
    message = "cannot statically prove that index in dimension 1 is a multiple of 128"
    # Values in MLIR's order: %arg0, %arg1 (function), %0 = c0, %1 = c1, the loop's %arg2,
    # %2 = addi, %3 = the load.
    assert mosaic_report(load, message) == (
        "INTERNAL: Mosaic failed to compile TPU kernel: " + message + "\n"
        "\n"
        'at location: loc("k.py":12:7)\n'
        "\n"
        "The MLIR operation involved:\n"
        '  %3 = "vector.load"(%arg0, %0, %2) : '
        "(memref<4x256xf32, #tpu.memory_space<vmem>>, index, index) -> vector<1x32xf32>\n"
    )


def test_report_without_a_location() -> None:
    module, _ = parse_mlir(KERNEL, "k.mlir")
    load = next(op for op in module.walk() if isinstance(op, vector.LoadOp))
    load.location = UnknownLoc()  # as for an op a pass built from nothing
    assert "at location: loc(unknown)\n" in mosaic_report(load, "m")
