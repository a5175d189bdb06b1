"""GELU the way a numpy user writes it: one ml_dtypes bf16 op per HLO op, npz in and out.

    python benchmarks/numpy_gelu_script.py IN.npz OUT.npz

The baseline of `whole_process.py`: it reads `arg0` (bf16 as uint16 bits),
rounds to bf16 after every op as XLA does (tanh in f64, rounded through f32,
as the reference evaluator does) and writes `out0` the same way.
"""

import sys

import ml_dtypes
import numpy as np

BF16 = ml_dtypes.bfloat16

x = np.load(sys.argv[1])["arg0"].view(BF16)
half, one, c2, c3 = (BF16(v) for v in (0.5, 1.0, 0.79785, 0.044708))
cube = (x * x) * x
inner = (x + cube * c3) * c2
tanh = np.tanh(inner.astype(np.float64)).astype(np.float32).astype(BF16)
y = x * ((tanh + one) * half)
np.savez(sys.argv[2], out0=y.view(np.uint16))
