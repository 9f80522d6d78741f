"""``ai/`` imports only the engines and the standard library (issue 12): no discord, PIL, database or host code."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import ai

ALLOWED = {"ai", "engines", "__future__"}


def imported(module: Path) -> list[str]:
    """Every module name an ``import`` or ``from ... import`` in the file names (relative imports as '.')."""
    names: list[str] = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.append("." if node.level else node.module or ".")
    return names


def test_ai_imports_only_the_engines_and_the_standard_library() -> None:
    package = Path(ai.__file__).parent
    modules = sorted(package.rglob("*.py"))
    assert len(modules) >= 7
    for module in modules:
        for name in imported(module):
            root = name.split(".")[0]
            assert root in ALLOWED or root in sys.stdlib_module_names, f"{module.name} imports {name}"


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The walk finds imports anywhere in a file, in both forms, also inside functions."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\ndef f():\n    from discord import ui\n    import PIL.Image\n")
    roots = [n.split(".")[0] for n in imported(bad)]
    assert roots == ["os", "discord", "PIL"]
    assert [r for r in roots if r not in ALLOWED and r not in sys.stdlib_module_names] == ["discord", "PIL"]
