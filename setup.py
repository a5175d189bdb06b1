"""The package layout: `dialects/` and `passes/` ship inside the package.

The folders stay at the top of the repository; the wheel holds them as
`xla_emit.dialects` and `xla_emit.passes` (no top-level `dialects` or `passes`
to collide with other projects' packages). Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = str(Path(__file__).resolve().parent)
# Repository folders that are subpackages of xla_emit in the installed package.
MAPPED = ("dialects", "passes")


def packages() -> list[str]:
    """Every package of the wheel, each under `xla_emit`."""
    names = find_packages(ROOT, include=["xla_emit", "xla_emit.*"])
    for folder in MAPPED:
        names += [
            f"xla_emit.{name}" for name in find_packages(ROOT, include=[folder, f"{folder}.*"])
        ]
    return names


def package_dir() -> dict[str, str]:
    """The mapped packages' folders (their subpackages follow)."""
    return {f"xla_emit.{folder}": folder for folder in MAPPED}


if __name__ == "__main__":  # as setuptools runs it
    setup(packages=packages(), package_dir=package_dir())
