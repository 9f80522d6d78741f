"""The tournament core stays pure: no Discord, database, rendering or randomness (issue 17)."""

from __future__ import annotations

import ast
from pathlib import Path

import host.events

FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "data", "render", "cogs", "random", "PIL", "time"}


def test_host_events_imports_only_the_standard_library_and_itself() -> None:
    package = Path(host.events.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 8
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN, f"{module.name} imports {name}"
                if root == "host":
                    assert name.startswith("host.events"), f"{module.name} imports {name}"
