"""docs/pass-authoring.md's Python snippets carry their imports: every name a snippet uses
as a base class, decorator or annotation is imported in it, and the imports run."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "pass-authoring.md"
SNIPPETS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), re.MULTILINE | re.DOTALL)


def api_names(tree: ast.Module) -> set[str]:
    """Names used as base classes, decorators and annotations."""
    used: set[str] = set()
    roots: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            roots += [*node.bases, *node.decorator_list]
        elif isinstance(node, ast.FunctionDef):
            roots += node.decorator_list
            roots += [a.annotation for a in node.args.args if a.annotation is not None]
    for root in roots:
        used |= {n.id for n in ast.walk(root) if isinstance(n, ast.Name)}
    return used - set(dir(builtins))


def imported_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def test_the_doc_has_snippets() -> None:
    assert len(SNIPPETS) >= 2


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_snippet_imports_what_it_uses(snippet: str) -> None:
    tree = ast.parse(snippet)
    assert api_names(tree) <= imported_names(tree)
    imports = ast.Module([n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)], [])
    exec(compile(imports, str(DOC), "exec"), {})
