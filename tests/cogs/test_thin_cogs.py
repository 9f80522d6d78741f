"""Cogs stay thin: they parse the interaction and call the host, never the database or the renderers.

Read from the source (AST), so a cog that reaches around the host fails here before any review.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

COGS = sorted((Path(__file__).parents[2] / "cogs").glob("*.py"))
FORBIDDEN_MODULES = {"render", "data", "aiosqlite", "asyncpg", "sqlite3", "PIL"}
FORBIDDEN_ATTRIBUTES = {"db", "store", "board_posts", "reader", "conn", "jobs", "queue", "renderer"}
"""The host's database handles (its store, the outbox's and the AI's job queues) and its renderer: a cog that
reads one of these is going around the host."""


def imported_modules(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def violations(source: str) -> list[str]:
    tree = ast.parse(source)
    bad = [f"imports {name}" for name in imported_modules(tree) if name.split(".")[0] in FORBIDDEN_MODULES]
    bad += [f"line {node.lineno}: touches .{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES]
    return bad


def test_the_check_catches_what_the_review_found() -> None:
    """The checker itself: each way around the host is seen (else the test below proves nothing)."""
    source = ("from render.leaderboard import render_leaderboard\nimport data.store\nimport aiosqlite\n"
              "async def f(self):\n    await seasons.start_season(self.bot.host.db, 1)\n")
    assert violations(source) == ["imports render.leaderboard", "imports data.store", "imports aiosqlite",
                                  "line 5: touches .db"]
    around = "async def run(self, job):\n    await self.bot.host.outbox.jobs.done(job.id, 0)\n" \
             "    png = self.bot.host.renderer(obs)\n"
    assert sorted(violations(around)) == ["line 2: touches .jobs", "line 3: touches .renderer"]
    assert violations("from host.results import GameRow\nx = self.bot.host.standings\n") == []


def test_there_are_cogs_to_check() -> None:
    assert {"ratings.py", "_game.py", "_delivery.py"} <= {path.name for path in COGS}


@pytest.mark.parametrize("path", COGS, ids=lambda path: path.name)
def test_no_cog_imports_storage_or_renderers_or_touches_the_database(path: Path) -> None:
    assert violations(path.read_text()) == []
