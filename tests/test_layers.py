"""Every layer rule of the project in one table, checked on the source (``ast``) of every module, and proven.

``LAYERS`` says which parts each part may import. It is checked on every import: at module level, inside
functions, under ``TYPE_CHECKING``, relative ones (``from ..host import x``), and on every dynamic import
(``importlib.import_module``, ``__import__``, ``load_extension``): a call with a constant name is checked
against the table, any other is allowed only by name in ``DYNAMIC``. Beside the table:

* SQL lives in ``data/`` only: no file outside it holds an SQL statement in a string (any statement
  keyword), runs a statement or imports a database driver.
* No type defined in ``data/`` reaches ``cogs/`` (nor ``web/``) through a re-export in ``host/``, except the
  three in ``DATA_TYPES_IN_COGS``, each named with the reason; the check sees a re-export, so a new one fails.

The checks prove themselves: ``test_the_check_fails_on_a_planted_*`` build a tree in a temporary folder
with one forbidden thing of each kind and expect each to be found.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LAYERS: dict[str, set[str]] = {
    "engines": set(),
    "ai": {"engines"},
    "render": {"engines"},
    "data": {"engines"},
    "host": {"data", "engines", "ai", "render"},
    "cogs": {"host", "engines"},
    "web": {"host", "engines"},
    "bot.py": {"cogs", "host", "data", "web"},
}
"""Which parts each part may import (its own part always). ``bot.py`` is the composition root (the part is
``bot.py``, which only starts it, and ``zbot.py``, the bot itself): it opens the
database (``data.db.Database``, the start-up ``data.preflight`` checks, ``data.postgres`` when configured),
builds the host, loads the cogs and starts the board pages (``web``) when configured; it writes no SQL (the
scan below covers it) and draws nothing, so it needs neither ``render`` nor ``ai`` (the host owns both) nor
``engines``."""

TOP_LEVEL = ("bot", "zbot")
"""The top-level modules of the part ``bot.py``: the file that starts the bot, and the bot."""

TYPE_ONLY: dict[str, set[str]] = {"cogs": {"bot.py"}}
"""Imports allowed under ``if TYPE_CHECKING:`` only: a cog names the bot's class ``ZBot`` in annotations; at
run time that import would be a cycle (bot.py loads the cogs)."""

DYNAMIC: dict[tuple[str, str], str] = {
    ("render/__init__.py", "importlib.import_module(f\"render.{observation['game']}\")"):
        "a game's own renderer, inside render/",
    ("host/offload_child.py", "importlib.import_module(name)"):
        "the offload child preloads the host modules its parent names (host/offload.py PRELOAD)",
    ("zbot.py", "self.load_extension(extension)"):
        "the cogs named in cogs.EXTENSIONS, as discord.py extensions (tests/test_extensions.py checks the list)",
}
"""Dynamic imports whose name is not a constant, allowed one by one (file, call as written): what they load."""

DATA_TYPES_IN_COGS: dict[str, str] = {
    "GameRow": "a game's row, in every Report and Lobby; a host-side read model replaces it with the host split",
    "Busy": "the database's 'busy, try again' refusal, shown to the user like a HostError",
    "Job": "an outbox job handed to the cogs' Discord senders (cogs/dispatch.py); a Worker handler type "
           "replaces it with the one job runner",
}
"""Types defined in data/ that cogs receive through host re-exports (host/results.py, host/outbox.py). The
check tells a re-export from a host type, so the list is exact: a new data type reaching cogs fails, and an
entry no longer used fails too."""

DRIVERS = {"aiosqlite", "asyncpg", "sqlite3", "psycopg", "psycopg2"}
STATEMENT_CALLS = {"execute", "executemany", "executescript", "fetchone", "fetchall", "fetchval", "fetchrow",
                   "execute_fetchall", "copy_records_to_table"}
SQL = re.compile(
    r"(?-i:\bSELECT\b[\s\S]*\bFROM\b)"
    r"|\b(INSERT|REPLACE)\s+(OR\s+\w+\s+)?INTO\b"
    r"|\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b"
    r"|\b(CREATE|DROP|ALTER)\s+((UNIQUE|TEMP|TEMPORARY)\s+)*(TABLE|INDEX|VIEW|TRIGGER|SEQUENCE|SCHEMA|DATABASE)\b"
    r"|\bPRAGMA\s+\w+|\bTRUNCATE\s+(TABLE\s+)?\w+\s*(;|$)|\bVACUUM\b|\bATTACH\s+DATABASE\b"
    r"|\bON\s+CONFLICT\b|(?-i:\bWITH\s+\w+\s+AS\s*\()|(?-i:\b(BEGIN|COMMIT|ROLLBACK|SAVEPOINT)\b\s*(;|$))"
    r"|\bjson_extract\s*\(|\bpg_advisory", re.IGNORECASE)
"""Every statement shape either dialect runs. Words English also uses (select, begin, commit) count only in
capitals and in statement form, so "select a move from the list" passes."""


@dataclass(frozen=True)
class Import:
    line: int
    module: str
    """The module named, relative imports resolved (``host.results``)."""
    type_only: bool


def part_of(rel: str) -> str | None:
    """The part a file (``host/service.py``) or module (``host.service``, ``bot``) belongs to."""
    head = rel.replace("\\", "/").split("/")[0].split(".")[0]
    if head in TOP_LEVEL:
        return "bot.py"
    return head if head in LAYERS else None


def files(root: Path = ROOT) -> list[Path]:
    """Every module the table covers, under ``root``."""
    found = [path for part in LAYERS if part != "bot.py" and (root / part).is_dir()
             for path in sorted((root / part).rglob("*.py"))]
    return [*found, *(root / f"{name}.py" for name in TOP_LEVEL if (root / f"{name}.py").exists())]


def type_checking_nodes(tree: ast.AST) -> set[int]:
    """Ids of every node inside an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) block."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                inside |= {id(n) for n in ast.walk(child)}
    return inside


def imports(rel: str, tree: ast.AST) -> list[Import]:
    """Every static import of the file, anywhere in it, relative ones resolved against ``rel``."""
    guarded = type_checking_nodes(tree)
    package = rel.removesuffix(".py").split("/")[:-1]
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                names = ([".".join([*base, node.module])] if node.module
                         else [".".join([*base, alias.name]) for alias in node.names])
            else:
                names = [node.module or ""]
        found += [Import(node.lineno, name, id(node) in guarded) for name in names]
    return found


def dynamic_calls(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.expr | None]]:
    """Every call that imports by name, with its name argument."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__", "load_extension", "reload_extension", "find_spec"):
                yield node, node.args[0] if node.args else None


def layer_violations(rel: str, text: str) -> list[str]:
    """``file:line: what`` for every import the table forbids, static or dynamic."""
    tree = ast.parse(text)
    own = part_of(rel)
    if own is None:
        return []
    allowed = LAYERS[own] | {own}
    bad = []
    for item in imports(rel, tree):
        target = part_of(item.module)
        if target is None or target in allowed:
            continue
        if item.type_only and target in TYPE_ONLY.get(own, set()):
            continue
        kind = " (under TYPE_CHECKING)" if item.type_only else ""
        bad.append(f"{rel}:{item.line}: {own} imports {item.module}{kind}")
    for call, arg in dynamic_calls(tree):
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            target = part_of(arg.value)
            if target is not None and target not in allowed:
                bad.append(f"{rel}:{call.lineno}: {own} imports {arg.value} dynamically")
        elif (rel, ast.unparse(call)) not in DYNAMIC:
            bad.append(f"{rel}:{call.lineno}: dynamic import not allowed by name: {ast.unparse(call)}")
    return bad


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


def sql_violations(rel: str, text: str) -> list[str]:
    """SQL outside data/: a driver import, a statement run, or an SQL statement in a string."""
    if part_of(rel) == "data":
        return []
    tree = ast.parse(text)
    bad = [f"{rel}:{item.line}: imports {item.module}" for item in imports(rel, tree)
           if item.module.split(".")[0] in DRIVERS]
    bad += [f"{rel}:{node.lineno}: runs a statement (.{node.func.attr})" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in STATEMENT_CALLS]
    bad += [f"{rel}:{line}: SQL {value[:60]!r}" for line, value in strings(tree) if SQL.search(value)]
    return sorted(set(bad))


def data_reexports(root: Path) -> dict[str, dict[str, str]]:
    """For each host module (``host.results``), the names it binds from data/: ``{name: 'data.store.GameRow'}``."""
    found: dict[str, dict[str, str]] = {}
    for path in sorted((root / "host").rglob("*.py")) if (root / "host").is_dir() else []:
        rel = path.relative_to(root).as_posix()
        module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for item in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(item, ast.ImportFrom) and item.level == 0 and part_of(item.module or "") == "data":
                for alias in item.names:
                    found.setdefault(module, {})[alias.asname or alias.name] = f"{item.module}.{alias.name}"
    return found


def data_type_uses(rel: str, text: str, reexports: dict[str, dict[str, str]]) -> list[tuple[int, str]]:
    """Names defined in data/ that a cogs/ or web/ file takes from host: ``from host.m import X`` or ``m.X``."""
    if part_of(rel) not in ("cogs", "web"):
        return []
    tree = ast.parse(text)
    found = []
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in reexports:
            for alias in node.names:
                if alias.name in reexports[node.module]:
                    found.append((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                aliases[bound] = alias.name if alias.asname else bound
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            owner = ast.unparse(node.value)
            head, _, rest = owner.partition(".")
            module = ".".join(filter(None, [aliases.get(head, head), rest]))
            if node.attr in reexports.get(module, {}):
                found.append((node.lineno, node.attr))
    return sorted(set(found))


# --- the rules on this tree ---

def test_the_table_covers_every_part_and_every_module() -> None:
    covered = files()
    parts = {part_of(path.relative_to(ROOT).as_posix()) for path in covered}
    assert parts >= set(LAYERS) - {"web"}  # web/ is in the table before it exists
    assert len(covered) > 120
    for path in ROOT.glob("*.py"):
        assert path.stem in TOP_LEVEL, f"{path.name}: a top-level module the table does not place"


@pytest.mark.parametrize("path", files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_import_keeps_to_the_table(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    assert layer_violations(rel, path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", [p for p in files() if part_of(p.relative_to(ROOT).as_posix()) != "data"],
                         ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_sql_outside_data(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    assert sql_violations(rel, path.read_text(encoding="utf-8")) == []


def test_no_data_type_reaches_cogs_but_the_named_ones() -> None:
    reexports = data_reexports(ROOT)
    used = {name for path in files() for _, name in
            data_type_uses(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"), reexports)}
    assert used == set(DATA_TYPES_IN_COGS)


def test_every_allowed_dynamic_import_is_still_there() -> None:
    seen = set()
    for path in files():
        rel = path.relative_to(ROOT).as_posix()
        seen |= {(rel, ast.unparse(call)) for call, _ in dynamic_calls(ast.parse(path.read_text(encoding="utf-8")))}
    assert set(DYNAMIC) <= seen


def test_type_only_imports_are_type_only_today() -> None:
    """The cogs do name bot.ZBot, under TYPE_CHECKING only (so the exception in TYPE_ONLY is needed)."""
    guarded = [item for path in files(ROOT) if path.relative_to(ROOT).parts[0] == "cogs"
               for item in imports(path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
               if part_of(item.module) == "bot.py"]
    assert guarded and all(item.type_only for item in guarded)


# --- the checks prove themselves: a tree with one forbidden thing of each kind ---

PLANTS = {
    # every rule of the table, broken once, each kind of import once
    "engines/bad.py": "import host.service\n",
    "ai/bad.py": "def f():\n    from render import to_png\n",
    "render/bad.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from host.results import Report\n",
    "render/worse.py": "from ..cogs import general\nfrom .. import data\n",
    "data/bad.py": "import importlib\nmod = importlib.import_module('host.service')\n",
    "data/worse.py": "from host.events import pairing\n",
    "host/bad.py": "def later():\n    import cogs._delivery\n",
    "host/dyn.py": "import importlib\nname = 'cogs'\nmod = importlib.import_module(name)\n",
    "cogs/bad.py": "from data.store import GameRow\nfrom render import leaderboard\nimport ai\n",
    "cogs/runtime.py": "from zbot import ZBot\n",
    "web/bad.py": "__import__('data.db')\n",
    "bot.py": "import render\nfrom ai import choose\n",
}
SQL_PLANTS = {
    "host/sql.py": ("import sqlite3\nasync def f(db, conn):\n    await db.fetchall('SELECT id FROM games')\n"
                    "    await conn.execute('REPLACE INTO seats VALUES (?)')\n    q = 'ALTER TABLE games ADD x'\n"
                    "    r = 'DROP TABLE jobs'\n    s = 'PRAGMA foreign_keys = ON'\n"
                    "    t = f'insert into seats (game_id) values ({q})'\n"),
    "bot.py": "import asyncpg\nQ = \"UPDATE games SET status = 'x' WHERE id = 1\"\n",
    "engines/sql.py": "Q = 'CREATE UNIQUE INDEX i ON t (x)'\nR = 'INSERT OR IGNORE INTO t VALUES (1)'\n",
    "render/sql.py": "Q = 'DELETE FROM games'\nR = 'COMMIT;'\nS = 'x ON CONFLICT (id) DO NOTHING'\n",
    "cogs/sql.py": "T = 'TRUNCATE jobs'\nW = 'WITH t AS (SELECT 1)'\n",
    "data/fine.py": "Q = 'SELECT id FROM games'\nimport aiosqlite\n",
}


def plant(root: Path, tree: dict[str, str]) -> None:
    for rel, text in tree.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_fails_on_a_planted_forbidden_import_of_each_kind(tmp_path: Path) -> None:
    plant(tmp_path, PLANTS)
    found = sorted(line for path in files(tmp_path)
                   for line in layer_violations(path.relative_to(tmp_path).as_posix(), path.read_text()))
    assert found == sorted([
        "engines/bad.py:1: engines imports host.service",
        "ai/bad.py:2: ai imports render",
        "render/bad.py:3: render imports host.results (under TYPE_CHECKING)",
        "render/worse.py:1: render imports cogs",
        "render/worse.py:2: render imports data",
        "data/bad.py:2: data imports host.service dynamically",
        "data/worse.py:1: data imports host.events",
        "host/bad.py:2: host imports cogs._delivery",
        "host/dyn.py:3: dynamic import not allowed by name: importlib.import_module(name)",
        "cogs/bad.py:1: cogs imports data.store",
        "cogs/bad.py:2: cogs imports render",
        "cogs/bad.py:3: cogs imports ai",
        "cogs/runtime.py:1: cogs imports zbot",
        "web/bad.py:1: web imports data.db dynamically",
        "bot.py:1: bot.py imports render",
        "bot.py:2: bot.py imports ai",
    ])
    # and what the table allows passes: a cog naming the bot for annotations, host using data
    assert layer_violations("cogs/ok.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from zbot import ZBot\nfrom host.results import Report\n") == []
    assert layer_violations("host/ok.py", "from data.store import Store\nfrom . import session\n") == []


def test_the_check_fails_on_planted_sql_of_each_kind(tmp_path: Path) -> None:
    plant(tmp_path, SQL_PLANTS)
    found = sorted(line for path in files(tmp_path)
                   for line in sql_violations(path.relative_to(tmp_path).as_posix(), path.read_text()))
    assert found == sorted([
        "host/sql.py:1: imports sqlite3",
        "host/sql.py:3: runs a statement (.fetchall)", "host/sql.py:3: SQL 'SELECT id FROM games'",
        "host/sql.py:4: runs a statement (.execute)", "host/sql.py:4: SQL 'REPLACE INTO seats VALUES (?)'",
        "host/sql.py:5: SQL 'ALTER TABLE games ADD x'", "host/sql.py:6: SQL 'DROP TABLE jobs'",
        "host/sql.py:7: SQL 'PRAGMA foreign_keys = ON'", "host/sql.py:8: SQL 'insert into seats (game_id) values (?)'",
        "bot.py:1: imports asyncpg", "bot.py:2: SQL \"UPDATE games SET status = 'x' WHERE id = 1\"",
        "engines/sql.py:1: SQL 'CREATE UNIQUE INDEX i ON t (x)'",
        "engines/sql.py:2: SQL 'INSERT OR IGNORE INTO t VALUES (1)'",
        "render/sql.py:1: SQL 'DELETE FROM games'", "render/sql.py:2: SQL 'COMMIT;'",
        "render/sql.py:3: SQL 'x ON CONFLICT (id) DO NOTHING'",
        "cogs/sql.py:1: SQL 'TRUNCATE jobs'", "cogs/sql.py:2: SQL 'WITH t AS (SELECT 1)'",
    ])
    english = ("Select a move from the list, or update your settings. Drop a marble, then replace it into "
               "the pool; begin when ready. Alter the table? Commit to it.")
    assert sql_violations("cogs/text.py", f"T = {english!r}\n") == []


def test_the_check_fails_on_a_planted_data_type_in_cogs(tmp_path: Path) -> None:
    plant(tmp_path, {
        "host/results.py": "from data.store import GameRow\nfrom data.db import Busy as Refused\nclass Report: ...\n",
        "host/outbox.py": "from data.jobs import Job\nclass Outbox: ...\n",
        "cogs/a.py": "from host.results import GameRow, Report, Refused\n",
        "cogs/b.py": ("from host import outbox\nimport host.results\n"
                      "def f(j: outbox.Job, r: host.results.Report): ...\n"),
        "cogs/c.py": "import host.outbox as ob\nx: ob.Job\ny: ob.Outbox\n",
    })
    reexports = data_reexports(tmp_path)
    assert reexports == {"host.results": {"GameRow": "data.store.GameRow", "Refused": "data.db.Busy"},
                         "host.outbox": {"Job": "data.jobs.Job"}}
    found = {path.name: data_type_uses(path.relative_to(tmp_path).as_posix(), path.read_text(), reexports)
             for path in sorted((tmp_path / "cogs").glob("*.py"))}
    assert found == {"a.py": [(1, "GameRow"), (1, "Refused")], "b.py": [(3, "Job")], "c.py": [(2, "Job")]}
