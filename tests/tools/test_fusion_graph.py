"""The fusion graph through a loop, against edges worked out by hand from the HLO.

jax 0.10.2's fori_loop: `while` over (copy(0), copy(x)); its condition's
`loop_compare_fusion` reads the counter, its body's `loop_add_fusion` reads x and the
counter, `loop_add_fusion.1` the counter; the entry returns the state's x. The counter
starts as a constant: nothing of the program's flows into it, so only x draws edges. The
state the body hands back to the next trip draws none (the graph stays acyclic), and the
loop's result is what entered it or what the body made.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import networkx as nx

from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.jax.routes import NATIVE
from xla_emit.tools.fusion_graph import (
    DIFFERS_STROKE,
    EQUAL_STROKE,
    OUTPUTS_NODE,
    UNCOMPARED_STROKE,
    GraphKernel,
    fusion_graph,
    to_svg,
)

FORI = Path(__file__).resolve().parents[1] / "corpus" / "bundles" / "jax-0.10.2" / "fori_loop"
KERNELS = ["loop_compare_fusion", "loop_add_fusion", "loop_add_fusion.1"]
SVG = "{http://www.w3.org/2000/svg}"


def fori_graph() -> nx.DiGraph[str]:
    module = parse_hlo_module((FORI / "gpu.hlo").read_text(), "gpu.hlo")
    verdicts = {"loop_compare_fusion": True, "loop_add_fusion": False, "loop_add_fusion.1": None}
    kernels = [GraphKernel(name, NATIVE, verdicts[name], "v") for name in KERNELS]
    return fusion_graph(module, kernels)


def test_edges_follow_the_loop_state_element_by_element():
    graph = fori_graph()
    assert set(graph.nodes) == {"arg0", *KERNELS, OUTPUTS_NODE}
    assert set(graph.edges) == {
        ("arg0", "loop_add_fusion"),
        ("arg0", OUTPUTS_NODE),
        ("loop_add_fusion", OUTPUTS_NODE),
    }
    assert nx.is_directed_acyclic_graph(graph)


def test_the_svg_draws_every_node_and_edge_in_layers():
    svg = ElementTree.fromstring(to_svg(fori_graph()))
    groups = {
        g.findtext(f"{SVG}text"): g for g in svg.iter(f"{SVG}g") if g.get("class") != "legend"
    }
    assert set(groups) == {"arg0", *KERNELS, OUTPUTS_NODE}
    edges = [line for line in svg.iter(f"{SVG}line") if line.get("class") == "edge"]
    assert len(edges) == 3

    def top(name: str) -> float:
        return float(groups[name].find(f"{SVG}rect").get("y"))  # type: ignore[union-attr,arg-type]

    # Each node sits below everything it reads.
    assert top("arg0") < top("loop_add_fusion") < top(OUTPUTS_NODE)
    strokes = {name: groups[name].find(f"{SVG}rect").get("stroke") for name in KERNELS}  # type: ignore[union-attr]
    assert strokes == {
        "loop_compare_fusion": EQUAL_STROKE,
        "loop_add_fusion": DIFFERS_STROKE,
        "loop_add_fusion.1": UNCOMPARED_STROKE,
    }
