"""The host's shape (issue #23): one composition root, services that never receive it, no call back up.

Checked on the source with ``ast``, and each check proves itself on a planted violation.
"""

from __future__ import annotations

import ast
from pathlib import Path

from data.db import Database
from host import app
from host.app import Host
from host.ladder import service as ladder
from host.ratings import service as ratings

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ["play.session", "correspondence.timing", "play.match_rules", "play.boards", "play.turns", "play.lobby",
            "play.matches", "correspondence.service", "correspondence.scheduler", "ladder.service",
            "tournaments.service", "tournaments.jobs", "records.replay", "records.exchange", "ai_players.turns",
            "ai_players.reviews", "app"]
"""The host's services from the bottom up, as module paths under ``host``: each may import only those before it
(helpers outside the list, ``host/play/captions.py`` and the like, are free to use). ``app`` is the root."""


def host_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) for every ``host.x`` a module imports, at any depth (``TYPE_CHECKING`` included)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
        if isinstance(node, ast.ImportFrom) and (module == "host" or module.startswith("host.")):
            package = module.removeprefix("host").removeprefix(".")  # ``from host.play import turns``: play.turns
            for alias in node.names:
                name = f"{package}.{alias.name}" if package else alias.name
                found.append((node.lineno, name if name in SERVICES or not package else package))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.removeprefix("host.")) for alias in node.names
                      if alias.name.startswith("host.")]
    return sorted(found)


def upward_imports(name: str, text: str) -> list[str]:
    """``module:line imports above`` for each import of a service at or above ``name`` in ``SERVICES``."""
    rank = SERVICES.index(name)
    return [f"{name}:{line} imports {module}" for line, module in host_imports(ast.parse(text))
            if module in SERVICES and SERVICES.index(module) >= rank and module != name]


def pass_throughs(text: str, cls: str = "Host") -> list[str]:
    """Methods of ``cls`` whose whole body (after a docstring) returns one call on an attribute: ``return
    await self.x.y(...)``: the service locator's smell the issue counts."""
    found: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.ClassDef) and node.name == cls):
            continue
        for method in node.body:
            if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or method.name == "__init__":
                continue
            body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            value = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return | ast.Expr) else None
            value = value.value if isinstance(value, ast.Await) else value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                found.append(method.name)
    return found


def test_every_service_imports_only_services_below_it() -> None:
    found = [v for name in SERVICES
             for v in upward_imports(name, (ROOT / "host" / f"{name.replace('.', '/')}.py").read_text())]
    assert found == []


def test_no_host_module_but_the_root_imports_the_root() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted((ROOT / "host").rglob("*.py"))
             if path.name != "app.py"
             for line, module in host_imports(ast.parse(path.read_text())) if module == "app"]
    assert found == []


def test_the_root_passes_no_call_on() -> None:
    assert pass_throughs((ROOT / "host" / "app.py").read_text()) == []


def test_the_checks_catch_what_they_forbid() -> None:
    planted = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from host.play.turns import Turns\n"
               "import host.app\nfrom host.play import lobby\n")
    assert upward_imports("play.boards", planted) == ["play.boards:3 imports play.turns", "play.boards:4 imports app",
                                                      "play.boards:5 imports play.lobby"]
    assert upward_imports("correspondence.service", planted) == ["correspondence.service:4 imports app"]
    locator = ("class Host:\n    async def play(self, *a):\n        'Plays.'\n"
               "        return await self.turns.play(*a)\n"
               "    def recover(self):\n        return self.lobby.recover() + self.matches.resume_all()\n")
    assert pass_throughs(locator) == ["play"]


async def test_the_bots_root_wires_every_hook_once(db: Database) -> None:
    """What ``ZBot.setup_hook`` used to wire by hand, done by ``app.build``: the ratings, the ladder and the
    tournaments hear a finished game; the AI hears every change and wakes on a shown board; a match hears a
    finished game after its commit."""
    host = app.build(db, display_name=lambda user: f"user {user}")
    try:
        assert host.session.on_finish == [ratings.record_result, ladder.record_finish, host.tournaments.game_finished]
        assert host.session.on_change == [host.ai.enqueue]
        assert host.turns.on_shown == [host.worker.wake]  # the one job runner: the AI's reply is due
        assert host.ai.wake is host.worker.wakeup
        assert set(host.worker.handlers) >= {"ladder_result", "ladder_sweep", "review"}  # host-side, no sender
        assert host.turns.after_finish == [host.matches.on_finished]
        assert host.boards.display_name is not None and host.boards.display_name(7) == "user 7"
    finally:
        host.ai.close()
    plain = Host(db)  # tests build their own hooks: nothing of the bot's is wired
    assert plain.session.on_finish == [plain.tournaments.game_finished] and plain.session.on_change == []
