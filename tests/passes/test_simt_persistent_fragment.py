"""PTOAS's persistent SIMT fragment rules (`passes/analysis/simt_persistent_fragment.py`)
on our own small kernels: a fragment PTOAS can keep in registers passes, and the same
kernel with one thing changed fails at the op and with the message of PTOAS's
`SIMTPersistentFragmentAnalysis.cpp`, worked out by hand from its checks."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.ptoas_backend_checks import DriverOptions, check_backend
from xla_emit.passes.analysis.simt_persistent_fragment import check_persistent_fragments
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import op_error, parse_mlir, verify_module

PREFIX = "persistent SIMT fragment"


def kernel(body: str, count: int = 2, element: str = "f32", entry: str = "pto.entry") -> str:
    """`@k` with `%frag`, a persistent alloca of `count` `element`s, then `body`."""
    return f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(%out: !pto.ptr<f32, ub>, %n: i64, %flag: i1) attributes {{{entry}}} {{
    %count = arith.constant {count} : i32
    %frag = llvm.alloca %count x {element} {{pto.persistent}} : (i32) -> !llvm.ptr
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
{body}
    return
  }}
}}
"""


def section(lines: str, threads: int = 32) -> str:
    return f"    pto.section.simt<<<{threads}, 1, 1>>> {{\n{lines}\n    }}"


STORE_0 = "      llvm.store %zero, %frag : f32, !llvm.ptr"
GEP_1 = "      %p1 = llvm.getelementptr %frag[1] : (!llvm.ptr) -> !llvm.ptr, f32"
STORE_1 = GEP_1 + "\n      llvm.store %zero, %p1 : f32, !llvm.ptr"
LOAD_0 = (
    "      %v = llvm.load %frag : !llvm.ptr -> f32\n"
    "      pto.store %v, %out[%c0] : !pto.ptr<f32, ub>, f32"
)
# Stores both elements, then a second launch reads element 0: PTOAS keeps two slots.
VALID = section(STORE_0 + "\n" + STORE_1) + "\n" + section(LOAD_0)


def module_of(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    return module


def fragment_error(text: str) -> str:
    """'' where the fragment passes, else the located first error."""
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    try:
        check_persistent_fragments(module)
    except OpError as error:
        return op_error(error.op, error.message, source_map).format().splitlines()[0]
    return ""


def test_a_fragment_stored_then_carried_passes() -> None:
    assert fragment_error(kernel(VALID)) == ""


CASES = [
    (  # a helper is no kernel entry
        kernel(VALID, entry="pto.simt_helper"),
        "'llvm.alloca' op persistent SIMT fragment must be defined in a PTO kernel entry",
    ),
    (  # the first launch reads element 0 before it stores it
        kernel(section(LOAD_0 + "\n" + STORE_0)),
        "'llvm.load' op persistent SIMT fragment element offset 0 must be initialized by a "
        "store before its first load in the init section",
    ),
    (  # the carry launch reads element 1, which the init launch never stores
        kernel(section(STORE_0) + "\n" + section(STORE_1)),
        "'llvm.store' op persistent SIMT fragment element offset 1 is not initialized by the "
        "init section and is not part of residentElements",
    ),
    (  # 2 x f32 is 8 bytes: element 2 starts at byte 8
        kernel(section(STORE_0 + "\n" + STORE_1.replace("[1]", "[2]").replace("%p1", "%p2"))),
        "'llvm.store' op persistent SIMT fragment access at byte offset 8 exceeds allocation "
        "size 8",
    ),
    (  # an f16-sized step into f32 elements
        kernel(section(STORE_0 + "\n" + STORE_1.replace("f32\n", "f16\n"))),
        "'llvm.store' op persistent SIMT fragment byte offset 2 must be non-negative and "
        "aligned to element byte size 4",
    ),
    (  # a runtime index cannot name a slot
        kernel(section(STORE_1.replace("[1] : (!llvm.ptr)", "[%n] : (!llvm.ptr, i64)"))),
        "'llvm.getelementptr' op persistent fragment GEP index must be a compile-time "
        "integer constant",
    ),
    (  # the address may not escape
        kernel(
            section(
                STORE_0 + "\n      %a = llvm.ptrtoint %frag : !llvm.ptr to i64\n"
                "      %x = arith.addi %a, %n : i64"
            )
        ),
        "'llvm.ptrtoint' op unsupported use of persistent SIMT fragment pointer by 'llvm.ptrtoint'",
    ),
    (  # an access outside every launch
        kernel(STORE_0.strip()),
        "'llvm.store' op persistent SIMT fragment access must be inside pto.section.simt",
    ),
    (  # under an scf.if the access is not in the launch's own block
        kernel(
            section(STORE_0) + "\n" + section("      scf.if %flag {\n  " + LOAD_0 + "\n      }")
        ),
        "'llvm.load' op persistent SIMT fragment access must be directly inside the single "
        "top-level block of the pto.section.simt body",
    ),
    (  # the carry launch has other threads than the init launch
        kernel(section(STORE_0 + "\n" + STORE_1) + "\n" + section(LOAD_0, threads=64)),
        "'pto.section.simt' op persistent SIMT fragment carry section launch dimensions "
        "(64, 1, 1) must match init section dimensions (32, 1, 1)",
    ),
    (  # two branches each storing: neither launch dominates the other
        kernel(
            "    scf.if %flag {\n"
            + section(STORE_0)
            + "\n    } else {\n"
            + section(STORE_0)
            + "\n    }"
        ),
        "'llvm.alloca' op persistent SIMT fragment requires a unique init section that "
        "dominates every access section",
    ),
    (  # a 3-lane vector access
        kernel(
            section(
                "      %w = arith.constant dense<0.0> : vector<3xf32>\n"
                "      llvm.store %w, %frag : vector<3xf32>, !llvm.ptr"
            ),
            count=4,
        ),
        "'llvm.store' op persistent SIMT fragment currently supports only 2- or 4-lane vector "
        "accesses, got 3 lanes",
    ),
    (  # a volatile vector load cannot be split into lanes
        kernel(
            section(
                STORE_0
                + "\n"
                + STORE_1
                + "\n      %w = llvm.load volatile %frag : !llvm.ptr -> vector<2xf32>"
            )
        ),
        "'llvm.load' op persistent SIMT fragment vector access cannot be volatile or atomic",
    ),
    (  # f64 has no keep/resume slot
        kernel(section("      %d = arith.constant 0.0 : f64"), element="f64"),
        "'llvm.alloca' op persistent SIMT fragment requires an integer scalar element type up "
        "to 64 bits or f16/bf16/f32, got 'f64'",
    ),
]


@pytest.mark.parametrize(("text", "message"), CASES)
def test_fragment_rule(text: str, message: str) -> None:
    error = fragment_error(text)
    assert error.startswith("k.pto:") and f"error: {message}" in error


def unrolled_stores(trips: int, element: str = "f32", zero: str = "%zero") -> str:
    """A launch storing elements 0 .. trips-1 through a fully unrolled loop."""
    return section(
        f"""      %lo = arith.constant 0 : index
      %hi = arith.constant {trips} : index
      %one = arith.constant 1 : index
      scf.for %i = %lo to %hi step %one {{
        %o = arith.index_cast %i : index to i64
        %p = llvm.getelementptr %frag[%o] : (!llvm.ptr, i64) -> !llvm.ptr, {element}
        llvm.store {zero}, %p : {element}, !llvm.ptr
      }} {{pto.unroll = "full"}}"""
    )


def test_an_unrolled_loop_stores_one_element_per_iteration() -> None:
    """PTOAS unrolls `pto.unroll = "full"` loops first: 123 stores fill the 123 slots,
    one more element does not fit."""
    assert fragment_error(kernel(unrolled_stores(123), count=124)) == ""
    error = fragment_error(kernel(unrolled_stores(124), count=124))
    assert (
        f"'llvm.alloca' op {PREFIX} slot allocation in function 'k' exceeds the 123-slot "
        "limit: element offset 123 of type 'f32' needs 1 slot(s), next candidate slot is 123"
    ) in error


def test_wide_elements_take_two_slots_from_an_even_one() -> None:
    """i64 takes slot pairs: 61 of them end at slot 122, the 62nd would need 122..123."""
    stores = unrolled_stores(61, "i64", "%z").replace(
        "      %lo", "      %z = arith.constant 0 : i64\n      %lo"
    )
    assert fragment_error(kernel(stores, count=64, element="i64")) == ""
    error = fragment_error(kernel(stores.replace("61 :", "62 :"), count=64, element="i64"))
    assert "element offset 61 of type 'i64' needs 2 slot(s), next candidate slot is 122" in error


def test_the_rules_run_where_ptoas_emits_vpto() -> None:
    """The VPTO backend's emission pipeline checks fragments; printing PTO IR only, or
    the EmitC backend, does not."""
    bad = module_of(kernel(section(LOAD_0)))
    with pytest.raises(OpError, match="must be initialized by a store"):
        check_backend(bad, DriverOptions.from_words(["--pto-backend=vpto", "--emit-vpto"]))
    check_backend(bad, DriverOptions.from_words(["--pto-backend=vpto", "--emit-pto-ir"]))
    check_backend(bad, DriverOptions.from_words(["--emit-pto-ir"]))


def test_llvm_load_volatile_reads_and_prints_back() -> None:
    text = kernel(section(STORE_0 + "\n      %v = llvm.load volatile %frag : !llvm.ptr -> f32"))
    printed = str(module_of(text))
    assert "llvm.load volatile %frag : !llvm.ptr -> f32" in printed
    assert str(module_of(printed)) == printed
