"""The GPUs `xla-emit-jax` compiles for without having them: XLA's GpuTargetConfigProto.

Shipped, in `targets/` (device facts as XLA's own target specs give them):
`h100` (the default: H100 SXM 80GB, sm_90), `h200` (sm_90, HBM3e), `a100`
(A100 SXM4 80GB, sm_80) and `b200` (sm_100). Any other name is read as the
path of a GpuTargetConfigProto in text form.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xla_emit.diagnostics import UserError

TARGETS_FOLDER = Path(__file__).resolve().parent / "targets"
DEFAULT_TARGET = "h100"


def shipped_targets() -> list[str]:
    return sorted(path.stem for path in TARGETS_FOLDER.glob("*.txtpb"))


@dataclass(frozen=True)
class Target:
    """A target by the name the user gave, its file and its GpuTargetConfigProto text."""

    name: str
    text: str
    path: str = ""

    @property
    def description(self) -> str:
        for line in self.text.splitlines():
            key, _, value = line.strip().partition(":")
            if key == "device_description_str":
                return value.strip().strip('"')
        return self.name


def load_target(name_or_path: str) -> Target:
    """A shipped target by name, else the config file at that path (`UserError` if neither)."""
    shipped = TARGETS_FOLDER / f"{name_or_path.lower()}.txtpb"
    path = shipped if shipped.is_file() else Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        known = ", ".join(shipped_targets())
        raise UserError(
            f"target '{name_or_path}' is neither a shipped target ({known}) nor a readable "
            f"GpuTargetConfigProto file: {reason}"
        ) from None
    if "gpu_device_info" not in text:
        raise UserError(
            f"target '{name_or_path}' does not parse as a GpuTargetConfigProto: "
            "it has no gpu_device_info"
        )
    return Target(name_or_path, text, str(path))
