"""Start-up with a bad database file: one clear line and a non-zero exit within 5 s, via the real ``bot.py``."""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from data import preflight

ROOT = Path(__file__).resolve().parents[1]


def healthy(path: Path, rows: int = 0) -> Path:
    """A database at the current schema (migrations applied by plain sqlite3), with filler rows to damage."""
    conn = sqlite3.connect(path)
    for file in sorted(preflight.MIGRATIONS.glob("[0-9][0-9][0-9]_*.sql")):
        conn.executescript(file.read_text())
    conn.execute(f"PRAGMA user_version = {preflight.latest_migration()}")
    conn.execute("CREATE TABLE filler (x TEXT)")
    conn.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,) for _ in range(rows)])
    conn.commit()
    conn.close()
    return path


def corrupt(folder: Path) -> Path:
    path = folder / "z.sqlite3"
    path.write_bytes(b"this is not a database file at all " * 200)
    return path


def truncated(folder: Path) -> Path:
    path = healthy(folder / "z.sqlite3", rows=400)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def read_only_folder(folder: Path) -> Path:
    inner = folder / "locked"
    inner.mkdir()
    path = healthy(inner / "z.sqlite3")
    inner.chmod(0o555)
    return path


def read_only_file(folder: Path) -> Path:
    path = healthy(folder / "z.sqlite3")
    path.chmod(0o444)
    return path


def newer(folder: Path) -> Path:
    path = healthy(folder / "z.sqlite3")
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    return path


def not_a_file(folder: Path) -> Path:
    path = folder / "z.sqlite3"
    path.mkdir()
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "unreadable (a folder)": (not_a_file, "cannot read"),
    "corrupt": (corrupt, "damaged"),
    "truncated": (truncated, "damaged"),
    "read-only folder": (read_only_folder, "folder"),
    "read-only file": (read_only_file, "read-only"),
    "newer version": (newer, "newer version"),
}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_database_stops_the_bot_in_one_line_within_5_seconds(tmp_path: Path, case: str) -> None:
    make, words = CASES[case]
    path = make(tmp_path)
    before = path.read_bytes() if path.is_file() else b""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": "fake-token",
           "DATABASE_PATH": str(path), "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
           "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway"}
    cpu_before = children_cpu()
    try:  # a hang still fails; the 5 s are the bot's CPU, since wall time on a loaded test machine says nothing
        done = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True,
                              timeout=60, cwd=tmp_path)
    finally:
        path.parent.chmod(0o755)
    took = children_cpu() - cpu_before
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 3, done.stderr
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert took < 5
    assert not path.is_file() or path.read_bytes() == before, "a refused file is left exactly as it was"


def test_a_healthy_or_missing_database_passes(tmp_path: Path) -> None:
    preflight.check(healthy(tmp_path / "ok.sqlite3", rows=10))
    preflight.check(tmp_path / "new" / "fresh.sqlite3")


def test_a_check_over_its_time_budget_falls_back_to_the_cheap_checks(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The page-by-page check grows with the history, so start-up gives it ``CHECK_BUDGET`` seconds; past that
    the header, schema and length are still checked, and a file cut short is still refused."""
    path = healthy(tmp_path / "ok.sqlite3", rows=400)
    with sqlite3.connect(path) as conn:
        assert preflight.structure_problems(conn, path) == ["ok"]
    (tmp_path / "cut").mkdir()
    cut = truncated(tmp_path / "cut")
    with sqlite3.connect(cut) as conn:
        assert "ends before its last page" in preflight.structure_problems(conn, cut)[0]
    monkeypatch.setattr(preflight, "CHECK_BUDGET", 0.0)  # interrupted at once
    preflight.check(path)
    with pytest.raises(preflight.StartupError, match="damaged"):
        preflight.check(cut)
