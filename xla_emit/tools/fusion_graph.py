"""The fusion graph of a bundle's optimized module, drawn as SVG for the report.

Nodes: the entry's parameters (`arg0`, ...), every kernel XLA launches (as
`jax.routes.launched_instructions` finds them, loop bodies included) and the
program's outputs. An edge runs from whatever produces a value to each kernel
that reads it, followed through the ops that launch nothing (tuple,
get-tuple-element, bitcast, ...) and into and out of `while`, `call` and
`conditional` computations, element by element of a tuple. A loop's state fed
back from its body into the next trip draws no edge: the graph stays acyclic.

networkx holds the graph and lays it out in layers (`topological_generations`,
`multipartite_layout`); `to_svg` writes the picture itself, so that the report
needs no graphviz: a kernel's fill says XLA's route, its border the verdict of
our kernel against XLA's.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.jax.routes import CUBLAS, CUDNN, DYNAMIC_SLICE, NATIVE, SORT, TRITON, TRITON_GEMM

INPUT = "input"
OUTPUT = "output"
KERNEL = "kernel"
OUTPUTS_NODE = "outputs"

# Fill by XLA's route (`jax.routes`); anything else is OTHER_FILL.
ROUTE_FILLS = {
    NATIVE: "#9ecae1",
    TRITON: "#fdae6b",
    TRITON_GEMM: "#fdd0a2",
    CUBLAS: "#bcbddc",
    CUDNN: "#dadaeb",
    SORT: "#a1d99b",
    DYNAMIC_SLICE: "#fff7bc",
}
OTHER_FILL = "#e0e0e0"
PORT_FILL = "#ffffff"
# Border by verdict: our kernel's outputs against XLA's kernel's.
EQUAL_STROKE = "#1a9850"
DIFFERS_STROKE = "#d73027"
UNCOMPARED_STROKE = "#737373"

# A value's producers: a set of node names, or a tuple of those per tuple element.
Producers = frozenset[str] | tuple["Producers", ...]


@dataclass(frozen=True)
class GraphKernel:
    """What the picture says of one kernel: XLA's route and the verdict of our kernel
    against XLA's (`equal` None: not compared)."""

    name: str
    route: str
    equal: bool | None
    verdict: str = ""


def fusion_graph(module: HloModule, kernels: Sequence[GraphKernel]) -> nx.DiGraph[str]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    by_name = {kernel.name: kernel for kernel in kernels}
    entry = module.entry
    for parameter in entry.parameters:
        graph.add_node(f"arg{parameter.parameter_number}", kind=INPUT)
    for kernel in kernels:
        graph.add_node(
            kernel.name, kind=KERNEL, route=kernel.route, equal=kernel.equal, verdict=kernel.verdict
        )
    arguments: list[Producers] = [
        frozenset({f"arg{parameter.parameter_number}"}) for parameter in entry.parameters
    ]
    result = _walk(entry, arguments, graph, by_name)
    graph.add_node(OUTPUTS_NODE, kind=OUTPUT)
    for producer in _flat(result):
        graph.add_edge(producer, OUTPUTS_NODE)
    return graph


def _walk(
    computation: HloComputation,
    arguments: Sequence[Producers],
    graph: nx.DiGraph[str],
    kernels: Mapping[str, GraphKernel],
) -> Producers:
    """The producers of `computation`'s root, adding an edge into each kernel it launches."""
    values: dict[HloInstruction, Producers] = {}
    for instruction in computation.instructions:
        operands = [values[operand] for operand in instruction.operands]
        values[instruction] = _producers(instruction, operands, arguments, graph, kernels)
    return values[computation.root]


def _producers(
    instruction: HloInstruction,
    operands: list[Producers],
    arguments: Sequence[Producers],
    graph: nx.DiGraph[str],
    kernels: Mapping[str, GraphKernel],
) -> Producers:
    opcode = instruction.opcode
    if opcode == "parameter":
        number = instruction.parameter_number or 0
        return arguments[number] if number < len(arguments) else frozenset()
    if instruction.name in kernels:
        for producer in _flat(tuple(operands)):
            graph.add_edge(producer, instruction.name)
        return frozenset({instruction.name})
    if opcode == "tuple":
        return tuple(operands)
    if opcode == "get-tuple-element" and isinstance(operands[0], tuple):
        return operands[0][instruction.tuple_index or 0]
    if opcode == "while":
        condition, body = instruction.called_computations
        _walk(condition, operands, graph, kernels)
        return _merge(operands[0], _walk(body, operands, graph, kernels))
    if opcode == "call":
        return _walk(instruction.called_computations[0], operands, graph, kernels)
    if opcode == "conditional":
        branches = [
            _walk(branch, [operand], graph, kernels)
            for branch, operand in zip(instruction.called_computations, operands[1:], strict=False)
        ]
        return frozenset().union(*(_flat(branch) for branch in branches))
    return frozenset(_flat(tuple(operands)))


def _flat(value: Producers) -> frozenset[str]:
    if isinstance(value, frozenset):
        return value
    return frozenset().union(*(_flat(element) for element in value))


def _merge(first: Producers, second: Producers) -> Producers:
    """Element by element where both are tuples of one length (a loop's state and its
    body's result), else everything of both."""
    if isinstance(first, tuple) and isinstance(second, tuple) and len(first) == len(second):
        return tuple(_merge(a, b) for a, b in zip(first, second, strict=True))
    return _flat(first) | _flat(second)


# The picture's geometry, in pixels.
NODE_WIDTH = 180
NODE_HEIGHT = 34
COLUMN = 200
ROW = 74
MARGIN = 20
LEGEND_ROW = 18


def node_fill(attributes: Mapping[str, Any]) -> str:
    if attributes["kind"] != KERNEL:
        return PORT_FILL
    return ROUTE_FILLS.get(str(attributes["route"]), OTHER_FILL)


def node_stroke(attributes: Mapping[str, Any]) -> str:
    equal = attributes.get("equal")
    if equal is None:
        return UNCOMPARED_STROKE
    return EQUAL_STROKE if equal else DIFFERS_STROKE


def layout(graph: nx.DiGraph[str]) -> dict[str, tuple[float, float]]:
    """Pixel centres: one row per layer of the graph (a node below everything it reads)."""
    for layer, nodes in enumerate(nx.topological_generations(graph)):
        for node in nodes:
            graph.nodes[node]["layer"] = layer
    widest = max((len(n) for n in nx.topological_generations(graph)), default=1)
    layers = 1 + max((int(d["layer"]) for _, d in graph.nodes(data=True)), default=0)
    positions = nx.multipartite_layout(graph, subset_key="layer", align="horizontal", scale=1)
    xs = [float(p[0]) for p in positions.values()]
    ys = [float(p[1]) for p in positions.values()]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    width = (widest - 1) * COLUMN
    height = (layers - 1) * ROW
    return {
        str(node): (
            MARGIN + NODE_WIDTH / 2 + (float(x) - min(xs)) / span_x * width,
            # The first layer (the inputs) on top.
            MARGIN + NODE_HEIGHT / 2 + (float(y) - min(ys)) / span_y * height,
        )
        for node, (x, y) in positions.items()
    }


def to_svg(graph: nx.DiGraph[str]) -> str:
    """The graph as a standalone SVG: one `<g class="node ...">` per node, one
    `<line class="edge">` per edge, then the legend."""
    centres = layout(graph)
    right = max((x for x, _ in centres.values()), default=0) + NODE_WIDTH / 2 + MARGIN
    bottom = max((y for _, y in centres.values()), default=0) + NODE_HEIGHT / 2 + MARGIN
    legend = _legend(bottom)
    width = max(right, 560)
    height = bottom + LEGEND_ROW * 3 + MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="11">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>'
        "</defs>",
    ]
    for source, target in graph.edges():
        (x1, y1), (x2, y2) = centres[str(source)], centres[str(target)]
        parts.append(
            f'<line class="edge" x1="{x1:.1f}" y1="{y1 + NODE_HEIGHT / 2:.1f}" x2="{x2:.1f}" '
            f'y2="{y2 - NODE_HEIGHT / 2:.1f}" stroke="#555" marker-end="url(#arrow)"/>'
        )
    for node, attributes in graph.nodes(data=True):
        parts.append(_node(str(node), attributes, centres[str(node)]))
    parts += legend
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _node(name: str, attributes: Mapping[str, Any], centre: tuple[float, float]) -> str:
    x, y = centre[0] - NODE_WIDTH / 2, centre[1] - NODE_HEIGHT / 2
    kind = str(attributes["kind"])
    label = name if len(name) <= 26 else name[:25] + "…"
    title = name
    dash = ""
    if kind == KERNEL:
        equal = attributes.get("equal")
        title = f"{name}: XLA's route {attributes['route']}; ours: {attributes['verdict']}"
        dash = ' stroke-dasharray="4,2"' if equal is None else ""
    rx = 4 if kind == KERNEL else 17
    return (
        f'<g class="node {kind}"><title>{html.escape(title)}</title>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="{rx}" '
        f'fill="{node_fill(attributes)}" stroke="{node_stroke(attributes)}" '
        f'stroke-width="2"{dash}/>'
        f'<text x="{centre[0]:.1f}" y="{centre[1] + 4:.1f}" text-anchor="middle">'
        f"{html.escape(label)}</text></g>"
    )


def _legend(top: float) -> list[str]:
    """Two rows: the fill of each route, then the border of each verdict."""
    parts = ['<g class="legend">']
    x = MARGIN
    for route, fill in [*ROUTE_FILLS.items(), ("other", OTHER_FILL)]:
        parts.append(
            f'<rect x="{x}" y="{top:.0f}" width="12" height="12" fill="{fill}" stroke="#555"/>'
            f'<text x="{x + 16}" y="{top + 10:.0f}">{html.escape(route)}</text>'
        )
        x += 24 + 7 * len(route)
    x = MARGIN
    row = top + LEGEND_ROW
    for verdict, stroke in (
        ("equal to XLA's kernel", EQUAL_STROKE),
        ("differs", DIFFERS_STROKE),
        ("not compared", UNCOMPARED_STROKE),
    ):
        parts.append(
            f'<rect x="{x}" y="{row:.0f}" width="12" height="12" fill="#fff" stroke="{stroke}" '
            f'stroke-width="2"/><text x="{x + 16}" y="{row + 10:.0f}">{verdict}</text>'
        )
        x += 24 + 7 * len(verdict)
    parts.append("</g>")
    return parts
