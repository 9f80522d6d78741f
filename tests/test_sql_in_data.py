"""The data-layer rule: SQL lives in ``data/`` only. ``host/`` and ``cogs/`` write no SQL, run no statement and
import no database driver, so a second backend (PostgreSQL) needs changes in ``data/`` alone.

Read from the source (AST): string literals (f-string parts too) are searched for SQL statement shapes
(``SELECT ... FROM`` in capitals only, so English like "select a move from the list" passes).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = sorted(path for package in ("host", "cogs") for path in (ROOT / package).rglob("*.py"))
DRIVERS = {"aiosqlite", "asyncpg", "sqlite3", "psycopg", "psycopg2"}
STATEMENT_CALLS = {"execute", "executemany", "executescript", "fetchone", "fetchall", "execute_fetchall"}
SQL = re.compile(
    r"(?-i:\bSELECT\b[\s\S]*\bFROM\b)|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b"
    r"|\bCREATE\s+(TABLE|INDEX)\b|\bjson_extract\s*\(", re.IGNORECASE)


def strings(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string literal, with an f-string's literal parts joined (``f"SELECT {x} FROM t"``)."""
    found = []
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append((node.lineno, "?".join(v.value for v in node.values
                                                if isinstance(v, ast.Constant) and isinstance(v.value, str))))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            found.append((node.lineno, node.value))
    return found


def violations(source: str) -> list[str]:
    tree = ast.parse(source)
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name.split(".")[0] in DRIVERS]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in DRIVERS:
            bad.append(f"line {node.lineno}: imports {node.module}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in STATEMENT_CALLS):
            bad.append(f"line {node.lineno}: runs a statement (.{node.func.attr})")
    bad += [f"line {line}: SQL {text[:60]!r}" for line, text in strings(tree) if SQL.search(text)]
    return sorted(set(bad))


def test_the_check_sees_each_way_sql_can_leak() -> None:
    source = ("import aiosqlite\nfrom asyncpg import Connection\n"
              "async def f(host, conn, n):\n"
              "    await host.db.fetchall('SELECT id FROM games')\n"
              "    await conn.execute(f'UPDATE games SET remind_at = {n} WHERE id = ?')\n"
              "    q = 'insert into seats (game_id) values (?)'\n"
              "    r = \"DELETE FROM jobs\"\n")
    assert violations(source) == [
        "line 1: imports aiosqlite", "line 2: imports asyncpg",
        "line 4: SQL 'SELECT id FROM games'", "line 4: runs a statement (.fetchall)",
        "line 5: SQL 'UPDATE games SET remind_at = ? WHERE id = ?'", "line 5: runs a statement (.execute)",
        "line 6: SQL 'insert into seats (game_id) values (?)'", "line 7: SQL 'DELETE FROM jobs'"]
    assert violations("text = 'Select a move from the list, or update your settings.'\n") == []


def test_there_are_modules_to_check() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in CHECKED}
    assert {"host/service.py", "host/ratings.py", "host/matches.py", "cogs/ratings.py"} <= names


@pytest.mark.parametrize("path", CHECKED, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_sql_outside_data(path: Path) -> None:
    assert violations(path.read_text(encoding="utf-8")) == []
