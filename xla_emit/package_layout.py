"""Where `xla_emit.dialects` and `xla_emit.passes` live.

The repository keeps `dialects/` and `passes/` at its top; the wheel holds them inside the
package as `xla_emit.dialects` and `xla_emit.passes` (setup.py), with no top-level
`dialects` or `passes` to collide with other projects. In a checkout the package's path
reaches the repository's folders, so the same names import from the source tree.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from pathlib import Path

# The repository's top-level folders that are subpackages of xla_emit.
SUBPACKAGE_FOLDERS = ("dialects", "passes")


def reach_repository_folders(package_path: MutableSequence[str]) -> None:
    """In a checkout (the folders beside the package, not inside it), look for them there."""
    package = Path(__file__).resolve().parent
    if any((package / name).is_dir() for name in SUBPACKAGE_FOLDERS):
        return  # installed: the wheel holds them inside the package
    root = package.parent
    if all((root / name / "__init__.py").is_file() for name in SUBPACKAGE_FOLDERS):
        package_path.append(str(root))
