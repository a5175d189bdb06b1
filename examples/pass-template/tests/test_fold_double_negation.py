"""The pass keeps what the kernel computes: the interpreter runs it before and after."""

import numpy as np

from xla_emit.interpreter import Executor
from xla_emit.ir import make_context, parse_mlir
from xla_emit.runtime.pipeline import apply_pipeline

KERNEL = """
func.func @main(%a: tensor<8xf32>, %out: tensor<8xf32>) -> tensor<8xf32> {
  %t = gpu.thread_id x {xla.range = [0 : index, 7 : index]}
  %x = tensor.extract %a[%t] : tensor<8xf32>
  %n = arith.negf %x : f32
  %m = arith.negf %n : f32
  %o = tensor.insert %m into %out[%t] : tensor<8xf32>
  return %o : tensor<8xf32>
}
"""


def test_fold_double_negation_keeps_the_results() -> None:
    module, _ = parse_mlir(KERNEL, "kernel.mlir", make_context())
    x = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan, 3e-45], np.float32)
    inputs = [x, np.zeros(8, np.float32)]
    (before,) = Executor(module.clone()).run(inputs)
    apply_pipeline(module, "fold-double-negation")
    assert "arith.negf" not in str(module)
    (after,) = Executor(module).run(inputs)
    assert before.tobytes() == after.tobytes() == x.tobytes()
