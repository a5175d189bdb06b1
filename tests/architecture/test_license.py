"""The project is Apache-2.0 (as XLA and xDSL are): the license text at the root, declared
in the package's metadata."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_license_is_apache_2_0_in_full() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.lstrip().startswith("Apache License\n")
    assert "Version 2.0, January 2004" in text
    # The standard text: nine sections of terms, then the appendix on applying it.
    for section in range(1, 10):
        assert f"\n   {section}. " in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert "APPENDIX: How to apply the Apache License to your work." in text


def test_the_package_declares_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
