"""How XLA names a kernel after its HLO instruction."""

from __future__ import annotations


def sanitize_function_name(name: str) -> str:
    """XLA's symbol rule: characters outside [A-Za-z0-9_$] become `_`; no leading digit."""
    cleaned = "".join(c if (c.isascii() and c.isalnum()) or c in "_$" else "_" for c in name)
    if not cleaned:
        return "__unnamed"
    return "_" + cleaned if cleaned[0].isdigit() else cleaned
