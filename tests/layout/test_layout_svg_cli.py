"""`xla-emit-layout`: text, JSON, errors and the SVG picture (parsed back as XML)."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from xla_emit.tools.layout import main

SVG = "{http://www.w3.org/2000/svg}"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_text_report_of_the_seed_example(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "F32[3,5]{1,0:T(2,2)}", "--index", "2,3")
    assert status == 0
    assert out.splitlines() == [
        "shape: f32[3,5]{1,0:T(2,2)}",
        "tiled shape: [2,3,2,2]",
        "elements: 15",
        "padded elements: 24 (9 padding)",
        "bytes: 96",
        "offset of (2,3): 17",
    ]


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "bf16[16,256]", "--tpu-default", "--json", "--index", "3,200")
    assert status == 0
    assert json.loads(out) == {
        "shape": "bf16[16,256]{1,0:T(8,128)(2,1)}",
        "padded_elements": 4096,
        "bytes": 8192,
        "offset": 1024 + (128 + 72) * 2 + 1,
    }


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["f32[3,5]{1,0:T(2,x)}"],
            [
                "<shape>:1:18: error: expected a tile size or '*', but got 'x'",
                "f32[3,5]{1,0:T(2,x)}",
                " " * 17 + "^",
            ],
        ),
        (
            ["f32[3,5]", "--index", "3,1"],
            ["<index>:1:1: error: index 3 in dimension 0 is out of bounds [0, 3)", "3,1", "^"],
        ),
        (
            ["f32[3,5]", "--index", "1"],
            ["<index>:1:1: error: expected 2 indices for f32[3,5], but got 1", "1", "^"],
        ),
        (
            ["f32[3,5]{1,0}", "--tpu-default"],
            [
                "<shape>:1:9: error: --tpu-default needs a shape without a layout, but got {1,0}",
                "f32[3,5]{1,0}",
                " " * 8 + "^",
            ],
        ),
    ],
)
def test_user_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: list[str]
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 1
    assert out == ""
    assert err.splitlines() == expected


def test_huge_picture_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = _run(capsys, "f32[512,512]", "--svg", str(tmp_path / "x.svg"))
    assert status == 1
    assert "error: cannot draw f32[512,512]: 262144 padded elements" in err


def _cells(root: ET.Element, cls: str) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == cls]


def test_svg_of_figure_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "fig1.svg"
    status, _, _ = _run(capsys, "f32[3,5]{1,0:T(2,2)}", "--svg", str(out_file))
    assert status == 0
    root = ET.parse(out_file).getroot()  # well-formed XML or this raises
    assert root.tag == f"{SVG}svg"
    # Hand-worked offsets of the seed's figure 1.
    expected = {"0,0": 0, "0,1": 1, "1,0": 2, "1,1": 3, "0,2": 4, "2,3": 17, "2,4": 20, "1,4": 10}
    elements = {
        r.get("data-index"): int(r.get("data-offset", "-1")) for r in _cells(root, "element")
    }
    assert len(elements) == 15
    for index, offset in expected.items():
        assert elements[index] == offset
    # Padding: a 4x6 padded extent minus 15 elements; in memory, 9 padding slots.
    assert sorted(int(r.get("data-offset", "-1")) for r in _cells(root, "padding")) == [
        9,
        11,
        14,
        15,
        18,
        19,
        21,
        22,
        23,
    ]
    assert len(_cells(root, "memory-padding")) == 9
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "17" in texts and "2,3" in texts


def test_svg_of_figure_2_outlines_the_2x1_tiles(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "fig2.svg"
    assert _run(capsys, "f32[4,8]{1,0:T(2,4)(2,1)}", "--svg", str(out_file))[0] == 0
    root = ET.parse(out_file).getroot()
    elements = {
        r.get("data-index"): int(r.get("data-offset", "-1")) for r in _cells(root, "element")
    }
    assert [elements[f"{i},1"] for i in range(4)] == [2, 3, 18, 19]
    # Red outlines enclose the 2x1 tiles: cell edges between rows 0|1 are inside a tile,
    # edges between rows 1|2 and between columns are tile boundaries.
    segments = {
        tuple(float(line.get(k, "nan")) for k in ("x1", "y1", "x2", "y2"))
        for line in root.iter(f"{SVG}line")
        if line.get("class") == "subtile"
    }
    cell, left, top = 34.0, 24.0, 24.0

    def horizontal(row: int, column: int) -> tuple[float, ...]:
        y = top + row * cell
        return (left + column * cell, y, left + (column + 1) * cell, y)

    def vertical(row: int, column: int) -> tuple[float, ...]:
        x = left + column * cell
        return (x, top + row * cell, x, top + (row + 1) * cell)

    for column in range(8):
        assert horizontal(1, column) not in segments
        assert horizontal(3, column) not in segments
        assert horizontal(2, column) in segments
        assert horizontal(4, column) in segments
    assert all(vertical(row, column) in segments for row in range(4) for column in range(9))
    assert len(segments) == 3 * 8 + 9 * 4  # horizontal at rows 0, 2, 4; every vertical edge
