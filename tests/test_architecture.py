"""The project rule "never reach into another module's private names", checked on the source with ``ast``.

A module may use its own private names on any object (``twin._cache`` on a clone of ``self``), so an access
``x._name`` is allowed when ``x`` is ``self``/``cls`` or when ``_name`` is defined in the same module (as a
function, class, variable or ``self._name`` attribute). Everything else is reported, with file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engines", "ai", "host", "cogs", "render", "data")

# Each entry names a private name of code we do not own, and why using it is right.
ALLOWED = {
    ("zbot.py", "os._exit"),  # the documented way to exit at once, leaving a stuck worker thread behind
}


def sources() -> list[Path]:
    """Every module the rule covers."""
    files = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    return [*files, ROOT / "bot.py", ROOT / "zbot.py"]


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(tree: ast.AST) -> set[str]:
    """Private names this module defines itself: functions, classes, assignments, ``self._x = ...``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if private(name)}


def violations(path: Path, text: str) -> list[str]:
    """``file:line: expression`` for each access to another module's private name."""
    tree = ast.parse(text)
    rel = path.relative_to(ROOT).as_posix() if path.is_absolute() else path.as_posix()
    own = own_names(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            receiver = node.value
            if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
                continue
            if node.attr in own or (rel, ast.unparse(node)) in ALLOWED:
                continue
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"from {node.module} import {alias.name}")
                      for alias in node.names if private(alias.name)]
    return [f"{rel}:{line}: {what}" for line, what in sorted(found)]


def test_the_rule_covers_every_package() -> None:
    files = sources()
    for package in PACKAGES:
        assert any(path.is_relative_to(ROOT / package) for path in files), package
    assert len(files) > 50


def test_no_module_uses_another_modules_private_names() -> None:
    found = [line for path in sources() for line in violations(path, path.read_text(encoding="utf-8"))]
    assert found == [], "private names used from another module:\n" + "\n".join(found)


def test_the_check_catches_what_the_rule_forbids() -> None:
    text = ("class Cog:\n"
            "    def go(self, host):\n"
            "        self._mine()\n"
            "        self.bot._host.run()\n"
            "        host._engine(1)\n"
            "        return host.__class__, host._mine\n"
            "    def _mine(self): ...\n"
            "from host.service import _helper\n")
    found = violations(Path("cogs/example.py"), text)
    assert found == ["cogs/example.py:4: self.bot._host", "cogs/example.py:5: host._engine",
                     "cogs/example.py:8: from host.service import _helper"]


def test_the_allow_list_is_still_needed() -> None:
    """An entry nobody uses any more is removed, so the list never grows stale."""
    used = set()
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        used |= {(rel, ast.unparse(node)) for node in ast.walk(tree)
                 if isinstance(node, ast.Attribute) and (rel, ast.unparse(node)) in ALLOWED}
    assert used == ALLOWED
