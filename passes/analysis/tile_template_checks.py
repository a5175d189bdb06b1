"""Which textracts PTOAS's A5 VPTO backend can expand (`lib/TileOps/a5/textract.py`,
`textract_fp.py` at e32488c, selected by `InsertTemplateAttributes`).

With the VPTO backend on A5, every tile op is expanded through a PTODSL template (the
pass runs for `--emit-pto-ir` too; `--enable-tile-op-expand` is a deprecated no-op).
`pto.textract`'s templates move mat to left or right (the cube bridge) and vec to vec
(ND tiles); the fixpipe form (`fp` in scaling) moves acc to mat. Any other pair of
locations has no template, whatever its layouts and element types:
"NoMatchingTemplate: no legal template for op='pto.textract' target='a5'". Within a
pair the templates also constrain layouts and element types, which the op verifier
(`xla_emit/pto/textract_rules.py`) mostly checks already; only the pairs are modeled
here. `check_textract_templates` raises `OpError` at the textract.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xla_emit.dialects.pto.types import TileTypeBase
from xla_emit.passes.diagnostics import OpError

PLAIN_PAIRS = frozenset({("mat", "left"), ("mat", "right"), ("vec", "vec")})
FIXPIPE_PAIRS = frozenset({("acc", "mat")})


def check_textract_templates(module: ModuleOp, arch: str | None) -> None:
    own = module.attributes.get("pto.target_arch")
    target = (arch or (own.data if isinstance(own, StringAttr) else "a3")).lower()
    if target != "a5":
        return
    for op in module.walk():
        if op.name not in ("pto.textract", "pto.textract_fp"):
            continue
        tiles = [value.type for value in op.operands]
        if not all(isinstance(t, TileTypeBase) for t in (tiles[0], tiles[-1])):
            continue  # after view lowering: no tiles left to match
        pair = (tiles[0].loc.data, tiles[-1].loc.data)  # type: ignore[union-attr]
        pairs = FIXPIPE_PAIRS if op.name == "pto.textract_fp" else PLAIN_PAIRS
        if pair not in pairs:
            raise OpError(
                op,
                "NoMatchingTemplate: no legal template for op='pto.textract' target='a5'; "
                f"no template moves {pair[0]} to {pair[1]}",
            )
