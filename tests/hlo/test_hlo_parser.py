"""HLO text parser: accepted forms, round trips, and located errors."""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xla_emit.diagnostics import UserError
from xla_emit.hlo import (
    ArrayShape,
    HloModule,
    PrimitiveType,
    TupleShape,
    parse_hlo_module,
    print_module,
)

REPO = Path(__file__).resolve().parents[2]
GELU = REPO / "examples" / "gelu.hlo"
CORPUS = sorted((REPO / "tests" / "corpus").glob("*.hlo"))

XLA_STYLE = """\
HloModule jit_f.3, is_scheduled=true, entry_computation_layout={(f32[8,16]{1,0}, s32[])->(f32[8,16]{1,0}, pred[4]{0})}

%region_0.4 (Arg_0.5: f32[], Arg_1.6: f32[]) -> f32[] {
  %Arg_0.5 = f32[] parameter(0)
  %Arg_1.6 = f32[] parameter(1)
  ROOT %add.7 = f32[] add(f32[] %Arg_0.5, f32[] %Arg_1.6), metadata={op_name="jit(f)/reduce_sum" source_file="x.py" source_line=3}
}

%fused-computation.1 (param_0.2: f32[8,16]) -> (f32[8,16], pred[4]) {
  %param_0.2 = f32[8,16]{1,0:T(8,128)S(1)} parameter(0)
  %neg-inf = f32[] constant(-inf)
  %nan.1 = f32[] constant(nan)
  %c = s32[2,2]{1,0} constant({ {1, -2}, {3, 4} })
  %bf = bf16[] constant(0.1)
  %p = pred[4]{0} constant({true, false, true, true})
  %b = f32[8,16]{1,0} broadcast(f32[] %neg-inf), dimensions={}
  %m = f32[8,16]{1,0} maximum(%param_0.2, %b), sharding={replicated}
  %sl = f32[4,8]{1,0} slice(f32[8,16]{1,0} %m), slice={[0:8:2], [0:8]}
  %pd = f32[6,11]{1,0} pad(f32[4,8]{1,0} %sl, f32[] %nan.1), padding=1_1x0_3
  %cmp = pred[4]{0} compare(pred[4]{0} %p, pred[4]{0} %p), direction=NE, type=UNSIGNED
  ROOT %t = (f32[8,16]{1,0}, /*index=1*/pred[4]{0}) tuple(%m, %cmp), frontend_attributes={_xla_x="1, 2"}
}

ENTRY %main.9 (Arg_0.1: f32[8,16], Arg_1.2: s32[]) -> (f32[8,16], pred[4]) {
  %Arg_0.1 = f32[8,16]{1,0} parameter(0)
  %Arg_1.2 = s32[] parameter(1)
  ROOT %fusion.1 = (f32[8,16]{1,0}, pred[4]{0}) fusion(f32[8,16]{1,0} %Arg_0.1), kind=kLoop, calls=%fused-computation.1, backend_config={"outer":["1","2"]}
}
"""  # noqa: E501 - HLO as XLA dumps it, one instruction per line


def structure(module: HloModule) -> list[object]:
    """Everything the IR says, as plain data (for comparing two parses)."""
    result: list[object] = [module.name]
    for computation in module.computations:
        result.append((computation.name, computation.is_entry, computation.root.name))
        for i in computation.instructions:
            literal = None if i.literal is None else (i.literal.dtype.str, i.literal.tobytes())
            result.append(
                (
                    i.name, i.opcode, str(i.shape), [o.name for o in i.operands], i.dimensions,
                    i.parameter_number, literal, i.comparison_direction, i.comparison_type,
                    i.slice_ranges, i.padding, i.iota_dimension, i.tuple_index,
                    i.dynamic_slice_sizes, i.fusion_kind,
                    [c.name for c in i.called_computations], i.extra_attributes,
                )
            )  # fmt: skip
    return result


def assert_round_trips(text: str) -> None:
    module = parse_hlo_module(text)
    printed = print_module(module)
    again = parse_hlo_module(printed)
    assert structure(again) == structure(module)
    assert print_module(again) == printed


def test_gelu_seed_parses() -> None:
    module = parse_hlo_module(GELU.read_text(), str(GELU))
    assert module.name == "m"
    assert [c.name for c in module.computations] == ["gelu", "main"]
    assert module.entry.name == "main"
    fusion = module.entry.root
    assert fusion.opcode == "fusion" and fusion.fusion_kind == "kLoop"
    assert fusion.called_computations == [module.computation("gelu")]
    gelu = module.computation("gelu")
    assert gelu.root.name == "multiply_0"
    assert gelu.root.shape == ArrayShape(PrimitiveType.BF16, (6, 512, 4096))
    assert len(gelu.instructions) == 18
    # 0.79785 as bf16: 0.79785 lies between 0.79296875 and 0.796875 (step 2**-8), nearer the latter.
    constant_2 = gelu.instruction("constant_2")
    assert constant_2.literal is not None and constant_2.literal.dtype == ml_dtypes.bfloat16
    assert float(constant_2.literal) == 0.796875
    assert [o.name for o in gelu.instruction("cube").operands] == ["square", "param"]


def test_gelu_and_xla_style_round_trip() -> None:
    assert_round_trips(GELU.read_text())
    assert_round_trips(XLA_STYLE)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_round_trips(path: Path) -> None:
    assert_round_trips(path.read_text())


def test_xla_style_details() -> None:
    module = parse_hlo_module(XLA_STYLE)
    assert module.header_attributes.startswith("is_scheduled=true, entry_computation_layout=")
    fused = module.computation("fused-computation.1")
    param = fused.instruction("param_0.2")
    assert isinstance(param.shape, ArrayShape) and param.shape.layout is not None
    assert param.shape.layout.minor_to_major == (1, 0)
    assert param.shape.layout.tiles == "T(8,128)"
    assert param.shape.layout.memory_space == 1
    assert (
        math.isinf(float(fused.instruction("neg-inf").literal))
        and float(fused.instruction("neg-inf").literal) < 0
    )  # type: ignore[arg-type]
    assert math.isnan(float(fused.instruction("nan.1").literal))  # type: ignore[arg-type]
    np.testing.assert_array_equal(
        fused.instruction("c").literal, np.array([[1, -2], [3, 4]], np.int32)
    )
    # 0.1 = 0x3DCCCCCD in f32, which rounds to bf16 0x3DCD.
    bf = fused.instruction("bf").literal
    assert bf is not None and int(bf.view(np.uint16)) == 0x3DCD
    sl = fused.instruction("sl")
    assert [(r.start, r.limit, r.stride) for r in sl.slice_ranges or ()] == [(0, 8, 2), (0, 8, 1)]
    pd = fused.instruction("pd")
    assert [(p.low, p.high, p.interior) for p in pd.padding or ()] == [(1, 1, 0), (0, 3, 0)]
    cmp = fused.instruction("cmp")
    assert (cmp.comparison_direction, cmp.comparison_type) == ("NE", "UNSIGNED")
    assert fused.instruction("m").extra_attributes == [("sharding", "{replicated}")]
    assert fused.root.extra_attributes == [("frontend_attributes", '{_xla_x="1, 2"}')]
    assert isinstance(fused.root.shape, TupleShape) and len(fused.root.shape.elements) == 2
    region = module.computation("region_0.4")
    assert region.root.extra_attributes[0][0] == "metadata"
    entry = module.entry
    assert entry.root.extra_attributes == [("backend_config", '{"outer":["1","2"]}')]


def test_bare_names_and_docs_header() -> None:
    text = (
        "HloModule m:\n\nENTRY e {\n  p.0 = f32[3] parameter(0)\n  ROOT n-1 = f32[3] negate(p.0)\n"
        "}\n"
    )
    module = parse_hlo_module(text)
    assert module.entry.root.name == "n-1"
    assert module.entry.root.operands[0].name == "p.0"


def error_of(text: str) -> UserError:
    with pytest.raises(UserError) as info:
        parse_hlo_module(text, "bad.hlo")
    return info.value


GOOD = "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] add(p, p)\n}\n"


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (GOOD.replace("add(p, p)", "frobnicate(p, p)"), 4, 19, "unsupported HLO op 'frobnicate'"),
        (GOOD.replace("ROOT a = f32[4]", "ROOT a = f32[5]"), 4, 8, "shape mismatch"),
        (GOOD.replace("add(p, p)", "add(p, q)"), 4, 26, "unknown operand name 'q'"),
        (GOOD[:-4], 4, 27, "expected ')' to close the operand list, found end of input"),
        (GOOD[:-2], 5, 1, "expected '}' to close computation 'e', found end of input"),
        (
            GOOD.replace("f32[4] parameter", "f33[4] parameter"),
            3, 7, "unsupported element type 'f33'",
        ),
        (
            GOOD.replace("add(p, p)", "add(f32[8] p, p)"),
            4, 30, "shape mismatch: operand 'p' is written as f32[8]",
        ),
        (GOOD.replace("HloModule m", "HloModul m"), 1, 1, "expected 'HloModule'"),
        (
            "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "  ROOT b = f32[4,2] broadcast(p), dimensions={1}\n}\n",
            4, 8, "operand dimension 0 (4) does not match result dimension 1 (2)",
        ),
        (
            "HloModule m\nENTRY e {\n  ROOT c = f32[2] constant({1, 2, 3})\n}\n",
            3, 28, "literal has 3 elements in dimension 0 but the shape f32[2] needs 2",
        ),
        (
            "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "  ROOT s = f32[4] slice(p), slice={[0:4]}, slice={[0:4]}\n}\n",
            4, 44, "attribute 'slice' is given twice",
        ),
        (
            "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "  ROOT f = f32[4] fusion(p), kind=kLoop, calls=nowhere\n}\n",
            4, 48, "unknown computation 'nowhere'",
        ),
        (
            "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
            "  ROOT f = f32[4] fusion(p), kind=kLoop, calls=e\n}\n",
            4, 8, "fusion 'f' calls 'e', which is already being called: "
            "the call graph has a cycle (e -> e)",
        ),
        (
            "HloModule m\nc {\n  p = f32[4] parameter(0)\n"
            "  ROOT k = f32[4] call(p), to_apply=d\n}\n\n"
            "d {\n  p = f32[4] parameter(0)\n  ROOT k = f32[4] call(p), to_apply=c\n}\n\n"
            "ENTRY e {\n  p = f32[4] parameter(0)\n  ROOT k = f32[4] call(p), to_apply=c\n}\n",
            9, 8, "call 'k' calls 'c', which is already being called: "
            "the call graph has a cycle (c -> d -> c)",
        ),
        (
            "HloModule m\nENTRY e {\n  p = "
            + "(" * 65 + "f32[4]" + ")" * 65
            + " parameter(0)\n}\n",
            3, 71, "tuple shape nested too deeply (more than 64 levels)",
        ),
    ],
)  # fmt: skip
def test_errors_have_locations(text: str, line: int, column: int, message: str) -> None:
    error = error_of(text)
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.column) == (
        "bad.hlo",
        line,
        column,
    )
    assert message in error.message
    assert "\n" not in error.message
    assert error.format().startswith(f"bad.hlo:{line}:{column}: error: ")


_VALID_TEXTS = [GELU.read_text(), XLA_STYLE, GOOD]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(_VALID_TEXTS) - 1),
    mutation=st.sampled_from(["delete", "insert", "truncate", "duplicate"]),
    position=st.floats(0, 1),
    length=st.integers(1, 12),
    insert=st.text(alphabet="{}()[],=%:-_x0123456789abfsuLTROOT \n", min_size=1, max_size=6),
)
def test_mutated_modules_parse_or_fail_with_a_location(
    which: int, mutation: str, position: float, length: int, insert: str
) -> None:
    text = _VALID_TEXTS[which]
    at = int(position * len(text))
    if mutation == "delete":
        mutated = text[:at] + text[at + length :]
    elif mutation == "insert":
        mutated = text[:at] + insert + text[at:]
    elif mutation == "truncate":
        mutated = text[:at]
    else:
        mutated = text[:at] + text[at : at + length] + text[at:]
    try:
        module = parse_hlo_module(mutated, "fuzz.hlo")
    except UserError as error:
        assert error.location is not None, error.message
        assert 1 <= error.location.line <= mutated.count("\n") + 1
        assert "\n" not in error.message
        return
    # Whatever still parses must print back to text that re-parses the same.
    assert structure(parse_hlo_module(print_module(module))) == structure(module)
