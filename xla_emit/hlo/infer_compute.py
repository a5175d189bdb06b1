"""Shape inference for dot, convolution, reduce-window and select-and-scatter."""

from __future__ import annotations

from xla_emit.hlo.ir import HloInstruction, WindowDimension
from xla_emit.hlo.shape import ArrayShape, Shape, TupleShape
from xla_emit.hlo.shape_checks import array, ints, operand_count, plain, require


def infer_dot(instruction: HloInstruction) -> Shape:
    operand_count(instruction, 2)
    lhs = array(instruction.operands[0], "lhs")
    rhs = array(instruction.operands[1], "rhs")
    result = array(instruction, "dot")
    dims = instruction.dot_dimensions
    assert dims is not None
    for side, shape, batch, contracting in (
        ("lhs", lhs, dims.lhs_batch, dims.lhs_contracting),
        ("rhs", rhs, dims.rhs_batch, dims.rhs_contracting),
    ):
        both = batch + contracting
        require(
            all(0 <= d < shape.rank for d in both) and len(set(both)) == len(both),
            f"{side} batch and contracting dimensions {{{ints(both)}}} must be distinct "
            f"dimensions of {plain(shape)}",
        )
    require(
        len(dims.lhs_batch) == len(dims.rhs_batch)
        and len(dims.lhs_contracting) == len(dims.rhs_contracting),
        "lhs and rhs need as many batch and as many contracting dimensions",
    )
    for what, left, right in (
        ("batch", dims.lhs_batch, dims.rhs_batch),
        ("contracting", dims.lhs_contracting, dims.rhs_contracting),
    ):
        for l_dim, r_dim in zip(left, right, strict=True):
            require(
                lhs.dimensions[l_dim] == rhs.dimensions[r_dim],
                f"{what} dimension sizes differ: lhs {l_dim} is {lhs.dimensions[l_dim]}, "
                f"rhs {r_dim} is {rhs.dimensions[r_dim]}",
            )
    lhs_used = dims.lhs_batch + dims.lhs_contracting
    rhs_used = dims.rhs_batch + dims.rhs_contracting
    out = (
        [lhs.dimensions[d] for d in dims.lhs_batch]
        + [size for d, size in enumerate(lhs.dimensions) if d not in lhs_used]
        + [size for d, size in enumerate(rhs.dimensions) if d not in rhs_used]
    )
    # The result type may differ from the operands' (bf16 in, f32 out).
    return ArrayShape(result.element_type, tuple(out))


def window_output_dims(
    base: tuple[int, ...], window: tuple[WindowDimension, ...]
) -> tuple[int, ...]:
    """Output sizes of a window swept over `base` (after dilation and padding)."""
    require(
        len(window) == len(base),
        f"the window has {len(window)} dimensions for {len(base)} operand dimensions",
    )
    out: list[int] = []
    for size, w in zip(base, window, strict=True):
        dilated = (size - 1) * w.base_dilation + 1 if size else 0
        padded = dilated + w.pad_low + w.pad_high
        extent = (w.size - 1) * w.window_dilation + 1
        require(padded >= 0, "window padding gives a negative dimension")
        out.append(0 if padded < extent else (padded - extent) // w.stride + 1)
    return tuple(out)


def infer_convolution(instruction: HloInstruction) -> Shape:
    operand_count(instruction, 2)
    lhs = array(instruction.operands[0], "input")
    rhs = array(instruction.operands[1], "kernel")
    result = array(instruction, instruction.opcode)
    dims = instruction.convolution_dimensions
    assert dims is not None
    spatial = len(dims.input_spatial)
    require(
        lhs.rank == rhs.rank == spatial + 2,
        f"dim_labels name {spatial + 2} dimensions but the operands are {plain(lhs)} and "
        f"{plain(rhs)}",
    )
    require(instruction.batch_group_count == 1, "batch_group_count > 1 is not supported")
    groups = instruction.feature_group_count
    features = lhs.dimensions[dims.input_feature]
    kernel_in = rhs.dimensions[dims.kernel_input_feature]
    kernel_out = rhs.dimensions[dims.kernel_output_feature]
    require(
        features == kernel_in * groups and kernel_out % groups == 0,
        f"{features} input features do not match the kernel's {kernel_in} per group times "
        f"feature_group_count={groups} (and {kernel_out} output features must divide by it)",
    )
    window = instruction.window or tuple(
        WindowDimension(rhs.dimensions[d]) for d in dims.kernel_spatial
    )
    for w, d in zip(window, dims.kernel_spatial, strict=False):
        require(
            w.size == rhs.dimensions[d],
            f"window size {w.size} does not match kernel dimension {d} ({rhs.dimensions[d]})",
        )
    spatial_out = window_output_dims(tuple(lhs.dimensions[d] for d in dims.input_spatial), window)
    out = [0] * (spatial + 2)
    out[dims.output_batch] = lhs.dimensions[dims.input_batch]
    out[dims.output_feature] = kernel_out
    for position, size in zip(dims.output_spatial, spatial_out, strict=True):
        out[position] = size
    return ArrayShape(result.element_type, tuple(out))


def _reducer_shapes(instruction: HloInstruction, index: int, scalars: list[ArrayShape]) -> None:
    """The computation `called_computations[index]` maps 2N scalars to N of them."""
    computation = instruction.called_computations[index]
    params = computation.parameters
    require(
        len(params) == 2 * len(scalars)
        and all(s.same_dims_and_type(p.shape) for s, p in zip(scalars * 2, params, strict=True)),
        f"'{computation.name}' must take {2 * len(scalars)} scalars of the operands' types",
    )
    expected: Shape = scalars[0] if len(scalars) == 1 else TupleShape(tuple(scalars))
    require(
        expected.same_dims_and_type(computation.root.shape),
        f"'{computation.name}' returns {plain(computation.root.shape)}, expected {plain(expected)}",
    )


def infer_reduce_window(instruction: HloInstruction) -> Shape:
    count = len(instruction.operands)
    require(count >= 2 and count % 2 == 0, "reduce-window expects N inputs and N init values")
    half = count // 2
    inputs = [array(o, "input") for o in instruction.operands[:half]]
    inits = [array(o, "init value") for o in instruction.operands[half:]]
    for shape, init in zip(inputs, inits, strict=True):
        require(
            shape.dimensions == inputs[0].dimensions,
            "reduce-window inputs must have the same dimensions",
        )
        require(
            init.rank == 0 and init.element_type == shape.element_type,
            f"init value {plain(init)} must be a {shape.element_type.value} scalar",
        )
    require(instruction.window is not None, "reduce-window needs a window")
    assert instruction.window is not None
    _reducer_shapes(instruction, 0, inits)
    out = window_output_dims(inputs[0].dimensions, instruction.window)
    results = [ArrayShape(s.element_type, out) for s in inputs]
    return results[0] if half == 1 else TupleShape(tuple(results))


def infer_select_and_scatter(instruction: HloInstruction) -> Shape:
    operand_count(instruction, 3)
    operand = array(instruction.operands[0], "operand")
    source = array(instruction.operands[1], "source")
    init = array(instruction.operands[2], "init value")
    require(instruction.window is not None, "select-and-scatter needs a window")
    assert instruction.window is not None
    windows = window_output_dims(operand.dimensions, instruction.window)
    require(
        source.dimensions == windows,
        f"the source {plain(source)} must have one element per window {list(windows)}",
    )
    require(
        init.rank == 0 and init.element_type == source.element_type,
        f"init value {plain(init)} must be a {source.element_type.value} scalar",
    )
    require(len(instruction.called_computations) == 2, "needs select and scatter computations")
    select = instruction.called_computations[0]
    scalar = ArrayShape(operand.element_type, ())
    require(
        [p.shape.same_dims_and_type(scalar) for p in select.parameters] == [True, True]
        and isinstance(select.root.shape, ArrayShape)
        and select.root.shape.element_type.value == "pred"
        and select.root.shape.rank == 0,
        f"select '{select.name}' must map two {scalar} to pred[]",
    )
    _reducer_shapes(instruction, 1, [ArrayShape(source.element_type, ())])
    return operand.with_type(source.element_type)
