"""Online SQLite backups (issue 24, item 8): taken while games are played, restored, every game replayed."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import engines
from data import backup as backups
from data.db import Database
from host.app import Host
from host.results import HostError
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim

GAMES = {**engines.GAMES, DiceNim.name: DiceNim}


async def started(host: Host, a: int, b: int) -> int:
    lobby = await host.lobby.challenge(game="dicenim", creator=a, opponents=[b], guild_id=1, channel_id=2,
                                 options={"stones": 15})
    lobby = await host.lobby.accept(lobby.row.id, b)
    assert lobby.started
    return lobby.row.id


async def play_on(host: Host, game_id: int, moves: int) -> None:
    """Whoever is to move plays their first legal move, ``moves`` times (or until the game ends)."""
    for _ in range(moves):
        row = await host.session.row(game_id)
        if row.status != "active":
            return
        for seat in row.seats:
            assert seat.user_id is not None
            choices = await host.boards.move_choices(game_id, seat.user_id, "")
            if choices:
                try:
                    await host.turns.play(game_id, seat.user_id, choices[0][1])
                except HostError:
                    pass
                break
        await asyncio.sleep(0)


async def test_a_backup_taken_mid_load_restores_and_replays_every_game(tmp_path: Path) -> None:
    path, folder = tmp_path / "live.sqlite3", tmp_path / "backups"
    db = await Database.open(path)
    host = Host(db, games=GAMES, renderer=text_renderer, now=FakeClock())
    try:
        games = [await started(host, 100 + i, 200 + i) for i in range(8)]
        load = asyncio.gather(*(play_on(host, g, 40) for g in games))
        made = []
        while not load.done():  # backups while the moves are being written
            made.append(await asyncio.to_thread(backups.backup, path, folder, 3))
            await asyncio.sleep(0.005)
        await load
        made.append(await asyncio.to_thread(backups.backup, path, folder, 3))
    finally:
        await db.close()
    assert len(made) >= 3 and backups.backups(folder) == made[-3:], "only the newest 3 are kept"
    assert not list(folder.glob(".*partial"))

    middle = made[-3] if len(made) > 3 else made[0]
    restored = tmp_path / "restored.sqlite3"
    assert backups.restore(middle, restored) is None
    with sqlite3.connect(restored) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        ids = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
        counts = dict(conn.execute("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id").fetchall())
    assert ids == games
    db = await Database.open(restored)
    try:
        fresh = Host(db, games=GAMES, renderer=text_renderer, now=FakeClock())
        for game_id in ids:  # every game replays through its rules from the restored moves
            row = await fresh.session.row(game_id)
            game = await fresh.session.cached_engine(row)
            assert len(game.history) == counts.get(game_id, 0)
            await play_on(fresh, game_id, 1)  # and can be played on
    finally:
        await db.close()


def test_restore_refuses_a_file_that_is_not_a_database_and_keeps_the_old_one(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    live = tmp_path / "live.sqlite3"
    with sqlite3.connect(live) as conn:
        conn.execute("CREATE TABLE games (id INTEGER)")
    with pytest.raises(backups.BackupError):
        backups.restore(bad, live)
    assert live.exists()
    made = backups.backup(live, tmp_path / "b")
    assert backups.restore(made, live) == live.with_name("live.sqlite3.before-restore")


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    live = tmp_path / "live.sqlite3"
    with sqlite3.connect(live) as conn:
        conn.execute("CREATE TABLE games (id INTEGER)")
        conn.execute("INSERT INTO games VALUES (7)")
    for _ in range(3):
        assert backups.main([str(tmp_path / "b"), "--database", str(live), "--keep", "2"]) == 0
    kept = backups.backups(tmp_path / "b")
    assert len(kept) == 2
    other = tmp_path / "other.sqlite3"
    assert backups.main(["--restore", str(kept[-1]), "--database", str(other)]) == 0
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT id FROM games").fetchall() == [(7,)]
    assert backups.main(["--restore", str(tmp_path / "missing"), "--database", str(other)]) == 1
    assert "backup failed" in capsys.readouterr().err
