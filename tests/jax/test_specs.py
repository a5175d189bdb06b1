"""Argument specs in HLO's spelling, and the errors a typo gets."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.jax.specs import parse_spec, spec_of_array


@pytest.mark.parametrize(
    ("text", "dtype", "shape"),
    [
        ("f32[8,128]", np.float32, (8, 128)),
        ("bf16[128, 64]", ml_dtypes.bfloat16, (128, 64)),
        ("s32[]", np.int32, ()),
        ("pred[3]", np.bool_, (3,)),
        ("u8[2,0,5]", np.uint8, (2, 0, 5)),
    ],
)
def test_a_spec_gives_element_type_and_shape(text: str, dtype: type, shape: tuple[int, ...]):
    spec = parse_spec(text)
    assert spec.dtype == np.dtype(dtype) and spec.shape == shape
    assert parse_spec(str(spec)) == spec  # prints back in the same spelling


def test_an_unknown_element_type_is_named_with_the_known_ones():
    with pytest.raises(UserError) as raised:
        parse_spec("f31[8]")
    message = raised.value.format()
    assert message.count("\n") == 0
    assert "unknown element type 'f31'" in message and "bf16" in message


@pytest.mark.parametrize("text", ["f32", "f32[8", "[8]", "f32[8,,2]", "f32[-1]", "f32[a]"])
def test_a_malformed_spec_is_one_line(text: str):
    with pytest.raises(UserError) as raised:
        parse_spec(text)
    assert raised.value.format().startswith("error: argument spec") and "\n" not in str(
        raised.value
    )


def test_an_array_gives_its_own_spec():
    assert str(spec_of_array(np.zeros((2, 3), ml_dtypes.bfloat16))) == "bf16[2,3]"
    assert str(spec_of_array(np.zeros(2, np.complex64))) == "c64[2]"
    with pytest.raises(UserError, match="no HLO element type"):
        spec_of_array(np.zeros(2, "datetime64[s]"))
