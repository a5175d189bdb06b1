"""Multi-output loop fusions whose outputs differ in shape but not in element count
(`bf16[2,3,4]` beside its transpose with a bitcast layout and its flattening; `u32[1,2]`
beside `u32[2]`): one loop over the first output, each output written at the same
element in memory.

Oracle: numpy's negate, transpose and reshape, and the reference evaluator for exp
(an approximation XLA computes its own way).
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np

from xla_emit import api
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.hlo import parse_hlo_module

HLO = Path(__file__).parent / "hlo"


def test_outputs_of_three_shapes_from_one_loop() -> None:
    text = (HLO / "multi_output_transposed_and_flat.hlo").read_text()
    module = parse_hlo_module(text)
    (fusion,) = [i for i in module.entry.instructions if i.opcode == "fusion"]
    assert analyze_fusion(fusion.called_computations[0]).kind is EmitterKind.LOOP
    x = np.random.default_rng(9).standard_normal((2, 3, 4)).astype(ml_dtypes.bfloat16)
    reference = api.run_reference(text, [x])
    exp, transposed, flat = api.run_hlo(text, [x])
    np.testing.assert_array_equal(exp.astype(np.float32), reference[0].astype(np.float32))
    np.testing.assert_array_equal(transposed, np.transpose(-x, (0, 2, 1)))
    np.testing.assert_array_equal(flat, exp.reshape(24))


def test_keep_dims_output_beside_the_flat_one() -> None:
    text = (HLO / "multi_output_keep_dims.hlo").read_text()
    x = np.array([7, 0xFFFFFFFF], np.uint32)
    for outputs in (api.run_reference(text, [x]), api.run_hlo(text, [x])):
        kept, flat = outputs
        np.testing.assert_array_equal(kept, (x + x).reshape(1, 2))
        np.testing.assert_array_equal(flat, x + x)
