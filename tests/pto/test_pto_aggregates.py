"""Structs and local arrays in the PTO executor, on our own kernels: fields written
and read back through nested paths, an array used as a histogram."""

from __future__ import annotations

import numpy as np
import pytest

from tests.pto.kernel_checks import a5_kernel, run_kernel
from xla_emit.diagnostics import UserError

GI = "!pto.ptr<i32, gm>"
GF = "!pto.ptr<f32, gm>"


def run(params: str, body: str, args: list[object]) -> None:
    constants = "".join(f"    %c{n} = arith.constant {n} : index\n" for n in range(3))
    run_kernel(a5_kernel(params, constants + body, " attributes {pto.simt_entry}"), args)


def test_struct_fields_through_nested_paths() -> None:
    """s = {i32, {f32, i16}}: write 7 to s[0] and 2.5 to s[1][0]; s[1][1] stays 0."""
    struct = "!pto.struct<i32, !pto.struct<f32, i16>>"
    ints, floats = np.full(2, -1, np.int32), np.zeros(1, np.float32)
    body = f"""    %s = pto.declare_struct -> {struct}
    %seven = arith.constant 7 : i32
    %half = arith.constant 2.5 : f32
    pto.struct_set %s[0], %seven : {struct}, i32
    pto.struct_set %s[1, 0], %half : {struct}, f32
    %a = pto.struct_get %s[0] : {struct} -> i32
    %b = pto.struct_get %s[1, 0] : {struct} -> f32
    %c = pto.struct_get %s[1, 1] : {struct} -> i16
    %c32 = arith.extsi %c : i16 to i32
    pto.stg %a, %ints[%c0] : {GI}, i32
    pto.stg %c32, %ints[%c1] : {GI}, i32
    pto.stg %b, %floats[%c0] : {GF}, f32"""
    run(f"%ints: {GI}, %floats: {GF}", body, [ints, floats])
    assert ints.tolist() == [7, 0] and floats.tolist() == [2.5]


def test_local_array_counts_values() -> None:
    """A 2x4 array of counters: bin (v // 4, v % 4) counted for each of 12 values."""
    values = np.array([0, 5, 5, 7, 1, 1, 1, 6, 3, 0, 4, 7], np.int32)
    counts = np.zeros(8, np.int32)
    body = f"""    %bins = pto.declare_local_array -> !pto.local_array<2x4xi32>
    %c4 = arith.constant 4 : index
    %c12 = arith.constant 12 : index
    %one = arith.constant 1 : i32
    scf.for %i = %c0 to %c12 step %c1 {{
      %v = pto.ldg %vals[%i] : {GI} -> i32
      %vi = arith.index_cast %v : i32 to index
      %row = arith.divui %vi, %c4 : index
      %col = arith.remui %vi, %c4 : index
      %n = pto.local_array_get %bins[%row, %col] : !pto.local_array<2x4xi32> -> i32
      %m = arith.addi %n, %one : i32
      pto.local_array_set %bins[%row, %col], %m : !pto.local_array<2x4xi32>, i32
    }}
    scf.for %j = %c0 to %c4 step %c1 {{
      %lo = pto.local_array_get %bins[%c0, %j] : !pto.local_array<2x4xi32> -> i32
      %hi = pto.local_array_get %bins[%c1, %j] : !pto.local_array<2x4xi32> -> i32
      %k = arith.addi %j, %c4 : index
      pto.stg %lo, %out[%j] : {GI}, i32
      pto.stg %hi, %out[%k] : {GI}, i32
    }}"""
    run(f"%vals: {GI}, %out: {GI}", body, [values, counts])
    assert counts.tolist() == [values.tolist().count(v) for v in range(8)]


def test_an_index_outside_the_array_is_a_located_error() -> None:
    body = """    %a = pto.declare_local_array -> !pto.local_array<2xi32>
    %x = pto.local_array_get %a[%c2] : !pto.local_array<2xi32> -> i32"""
    with pytest.raises(UserError) as caught:
        run("", body, [])
    assert caught.value.message == (
        "'pto.local_array_get' op index [2] is outside the array's shape [2]"
    )
