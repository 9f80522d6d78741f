"""The tournament core stays pure: no Discord, database, rendering or randomness (issue 17)."""

from __future__ import annotations

import ast
from pathlib import Path

import host.ladder.rules
import host.tournaments.pairing

FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "data", "render", "cogs", "random", "PIL", "time"}


def test_the_pairing_core_and_the_ladder_rules_import_only_the_standard_library_and_the_core() -> None:
    package = Path(host.tournaments.pairing.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 8
    for module in [*modules, Path(host.ladder.rules.__file__)]:
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN, f"{module.name} imports {name}"
                if root == "host":
                    assert name.startswith("host.tournaments.pairing"), f"{module.name} imports {name}"
