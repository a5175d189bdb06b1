"""Mosaic's `tpu` ops beyond the memory and compute core: printed form, generic form, verifiers.

Each line of KERNEL is written the way jaxlib 0.10.2's own printer prints the op
(checked by parsing the generic form of this kernel with jaxlib's `tpu` dialect
and printing it there). Every op must print back to the same line, and survive
a trip through the generic form.
"""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.printer import Printer
from xla_emit.dialects.tpu import CATALOG_OPS, TPU

from xla_emit.diagnostics import UserError
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

SIGNATURE = (
    "%v: vector<8x128xf32>, %i: vector<8x128xi32>, %m: vector<8x128xi1>, "
    "%b: vector<16x128xbf16>, %x: memref<16x128xf32, #tpu.memory_space<vmem>>, "
    "%s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, "
    "%d: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32, %c: index"
)

OPS = [
    "%0 = tpu.transpose %v, [1, 0] : vector<8x128xf32> -> vector<128x8xf32>",
    "%1 = tpu.bitcast %b : vector<16x128xbf16> -> vector<8x128xi32>",
    "%2 = tpu.concatenate %v, %v in 0 : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xf32>",
    "%3 = tpu.reshape %v : vector<8x128xf32> -> vector<1024xf32>",
    "%4 = tpu.iteration_bound 0 : i32",
    "%5 = tpu.device_id : i32",
    "%6 = tpu.sem_read %s : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>> -> i32",
    "%7 = tpu.all_reduce %v {dim = 0 : i64, kind = #tpu.reduction_kind<sum>} : "
    "vector<8x128xf32> -> vector<8x128xf32>",
    "%8 = tpu.reduce_index %v {axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>} : "
    "vector<8x128xf32> -> vector<8xi32>",
    "%9 = tpu.gather %v[[0, 0, 1, 1, 2, 2, 3, 3]] in 0 : vector<8x128xf32> -> vector<8x128xf32>",
    "%10 = tpu.dynamic_gather %v[%i] in [0] : vector<8x128xf32>, vector<8x128xi32> -> "
    "vector<8x128xf32>",
    "%11 = tpu.sitofp %i {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : "
    "vector<8x128xi32> -> vector<8x128xf32>",
    "%12 = tpu.truncf %v {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : "
    "vector<8x128xf32> -> vector<8x128xbf16>",
    "%13 = tpu.extf %12 : vector<8x128xbf16> -> vector<8x128xf32>",
    "%14 = tpu.reciprocal %v {approx = true} : vector<8x128xf32> -> vector<8x128xf32>",
    "%15 = tpu.create_subelement_mask 0, 2 : vector<8x128x2xi1>",
    "%16 = tpu.erase_memref_layout %x : memref<16x128xf32, #tpu.memory_space<vmem>> -> "
    "memref<16x128xf32, #tpu.memory_space<vmem>>",
    "%17, %18, %19 = tpu.sort %v, %v masked %m : (vector<8x128xf32>, vector<8x128xf32>, "
    "vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>)",
    "%20 = tpu.broadcast_in_sublanes %v, 0 : vector<8x128xf32> -> vector<8x128xf32>",
    'tpu.trace_value %n, "step" : i32',
    "tpu.delay %n",
    "tpu.barrier barrier_id(%c)",
    'tpu.log "hello" : [%n] : i32',
    "%21 = tpu.unpack_subelements %b, 0 {pack_format = #tpu.pack_format<compressed>} : "
    "vector<16x128xbf16> -> vector<8x128xf32>",
    "%22 = tpu.pack_subelements %v, %v {pack_format = #tpu.pack_format<compressed>, "
    "positions = array<i32: 0, 1>} : vector<8x128xf32>, vector<8x128xf32> -> "
    "vector<16x128xbf16>",
    "%23 = tpu.create_mask[%c, %c] [%c, %c] : vector<8x128xi1>",
    "%24 = tpu.matmul_pop 0 {mxu_index = 1 : i32} : vector<8x128xf32>",
    '"tpu.trace_start"() <{level = 10 : i32, message = "step"}> : () -> ()',
    '"tpu.trace_stop"() : () -> ()',
    "tpu.wait_dma source(%x : memref<16x128xf32, #tpu.memory_space<vmem>>) "
    "target(%x : memref<16x128xf32, #tpu.memory_space<vmem>>) "
    "target_semaphore(%d : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) "
    "{wait_target = true}",
]


def kernel(lines: list[str]) -> str:
    body = "\n".join(f"    {line}" for line in lines)
    return f"func.func @k({SIGNATURE}) {{\n{body}\n    func.return\n  }}"


def parsed(text: str):
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def test_every_op_prints_as_mosaic_prints_it() -> None:
    printed = str(parsed(kernel(OPS)))
    for line in OPS:
        assert f"\n    {line}\n" in printed, line


def test_generic_form_round_trips() -> None:
    module = parsed(kernel(OPS))
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    assert '"tpu.transpose"(' in out.getvalue()
    assert str(parsed(out.getvalue())) == str(module)


def test_the_dialect_has_mosaics_ops() -> None:
    names = {op.name for op in TPU.operations}
    assert len(names) >= 88
    for name in (
        "tpu.region",
        "tpu.trace",
        "tpu.yield",
        "tpu.iteration_bound",
        "tpu.bitcast",
        "tpu.transpose",
        "tpu.sem_read",
        "tpu.enqueue_indirect_dma",
        "tpu.prng_random_bits",
    ):
        assert name in names
    assert len(CATALOG_OPS) == len({op.name for op in CATALOG_OPS})


def region_kernel(body: str, results: str = "() -> ()") -> str:
    return f"""func.func @k(%n: i32) {{
  "tpu.region"() ({{
{body}
  }}) : {results}
  func.return
}}"""


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "%0 = tpu.transpose %v, [0, 0] : vector<8x128xf32> -> vector<8x8xf32>",
            "Expected a permutation of [0, 2), but got [0, 0]",
        ),
        (
            "%0 = tpu.transpose %v, [1, 0] : vector<8x128xf32> -> vector<8x128xf32>",
            "Expected the result shape [128, 8], but got [8, 128]",
        ),
        (
            "%0 = tpu.bitcast %b : vector<16x128xbf16> -> vector<16x128xi32>",
            "Expected input and output shapes to match up to the second-minor dim scaled by the "
            "bitwidth ratio, got vector<16x128xbf16> and vector<16x128xi32>",
        ),
        (
            "%0 = tpu.concatenate %v, %b in 0 : vector<8x128xf32>, vector<16x128xbf16> -> "
            "vector<24x128xf32>",
            "Not all operands have the same element type",
        ),
        (
            "%0 = tpu.concatenate %v, %v in 2 : vector<8x128xf32>, vector<8x128xf32> -> "
            "vector<16x128xf32>",
            "Invalid dimension: 2, expected it in [0, 2)",
        ),
        (
            "%0 = tpu.reshape %v : vector<8x128xf32> -> vector<1000xf32>",
            "Number of elements must be the same: 1024 vs 1000",
        ),
        (
            "%0 = tpu.reduce_index %v {axis = 2 : i32, kind = #tpu.reduction_kind<arg_max>} : "
            "vector<8x128xf32> -> vector<8xi32>",
            "Invalid axis: 2, expected it in [0, 2)",
        ),
        ("%0 = tpu.device_id : i64", "'tpu.device_id' op result must be i32, got i64"),
        ("%0 = tpu.iteration_bound -1 : i32", "Expected a non-negative dimension, but got -1"),
        (
            "%0 = tpu.sitofp %i {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : "
            "vector<8x128xi32> -> vector<8xf32>",
            "'tpu.sitofp' op requires the same shape for all operands and results",
        ),
        ('"tpu.trace_start"() <{level = 10 : i32, message = 3 : i32}> : () -> ()', "message"),
    ],
)
def test_verifiers(line: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        parsed(kernel([line]))
    assert message in str(caught.value)


def test_an_unknown_enum_value_names_the_choices() -> None:
    with pytest.raises(UserError) as caught:
        parsed(
            kernel(
                [
                    "%0 = tpu.all_reduce %v {dim = 0 : i64, kind = #tpu.reduction_kind<avg>} :"
                    " vector<8x128xf32> -> vector<8x128xf32>"
                ]
            )
        )
    assert (
        "Expected tpu.reduction_kind in {sum, max, min, arg_max, arg_min, find_first_set, maxf, "
        "minf, maxsi, minsi, maxui, minui}, but got 'avg'" in str(caught.value)
    )


def test_region_results_must_match_its_yield() -> None:
    with pytest.raises(UserError) as caught:
        parsed(region_kernel("    tpu.yield %n : i32"))
    assert "'tpu.region' op yields (i32) but returns ()" in str(caught.value)


def test_region_must_end_in_yield() -> None:
    with pytest.raises(UserError) as caught:
        parsed(region_kernel('    "tpu.trace_stop"() : () -> ()'))
    assert "'tpu.region' op expects its block to end in 'tpu.yield'" in str(caught.value)


def test_semaphore_reads_need_a_rank_zero_semaphore() -> None:
    with pytest.raises(UserError) as caught:
        parsed(
            "func.func @k(%s: memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {\n"
            "  %0 = tpu.sem_read %s : memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>"
            " -> i32\n  func.return\n}"
        )
    assert "Semaphore reference must be rank 0" in str(caught.value)


def test_float8_exmy_type() -> None:
    text = "func.func @k(%a: vector<8x128x!tpu.float8_exmy<f8E4M3FN>>) {\n  func.return\n}"
    assert "vector<8x128x!tpu.float8_exmy<f8E4M3FN>>" in str(parsed(text))
    with pytest.raises(UserError) as caught:
        parsed("func.func @k(%a: vector<8x!tpu.float8_exmy<f32>>) {\n  func.return\n}")
    assert "Expected an EXMY float type of at most 8 bits, but got f32" in str(caught.value)
