"""Two bot processes, shard 0 and shard 1 of two, over ONE shared database, against the fake Discord.

Each guild's interactions reach only its shard's process; scheduled work (a reminder) is claimed in the
database, so when the process of shard 1 is SIGKILLed the process of shard 0 sends its guild's reminder,
once; restarted, shard 1's process answers the buttons it posted before it died.

The database is a parameter (``shared_database``): PostgreSQL (a fresh database on the test server, reached
through ``DATABASE_URL``), and one SQLite file in WAL mode, which several processes on one machine share.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from data.db import Database
from tests.e2e.test_crash import HOUR, BotProcess, accept, bot_process, dms_about, start_game
from tests.fakediscord import FakeDiscord
from tests.fakediscord.world import Channel

SHARDS = 2


@pytest.fixture(params=["postgres", "sqlite"])
def shared_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where both processes keep their games: a fresh database on the test PostgreSQL server (the issue's
    set-up), or one SQLite file in WAL mode (several processes on one machine)."""
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else str(tmp_path / "shared.sqlite3")


def guilds_on_both_shards(fake: FakeDiscord) -> tuple[Channel, Channel]:
    """The fake's own guild and a second one on the other shard: ``(shard 0's channel, shard 1's channel)``."""
    home = (fake.guild_id >> 22) % SHARDS
    other = fake.world.add_guild("Second Guild", "lobby", shard=(1 - home, SHARDS))
    return (fake.world.general, other) if home == 0 else (other, fake.world.general)


async def query(database: str, sql: str, params: tuple[object, ...] = ()) -> list[object]:
    db = await Database.open(database)
    try:
        return list(await db.fetchone(sql, params) or [])
    finally:
        await db.close()


async def age(database: str, game_id: int, seconds: float) -> None:
    """Move a game's stored times ``seconds`` into the past: for that game, time has run on (any backend)."""
    db = await Database.open(database)
    try:
        async with db.transaction() as tx:
            row = await tx.fetchone("SELECT clock, deadline, remind_at FROM games WHERE id = ?", (game_id,))
            assert row is not None
            clock = json.loads(row["clock"])
            clock["started"] = {seat: t - seconds for seat, t in clock["started"].items()}
            remind = row["remind_at"] - seconds if row["remind_at"] is not None else None
            await tx.execute("UPDATE games SET clock = ?, deadline = ?, remind_at = ? WHERE id = ?",
                             (json.dumps(clock), row["deadline"] - seconds, remind, game_id))
    finally:
        await db.close()


async def mover_of(database: str, fake: FakeDiscord, game_id: int) -> str:
    """Zaic: light (seat 0) moves on even plies."""
    [plies] = await query(database, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,))
    [user] = await query(database, "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", (game_id, plies % 2))
    return next(u.name for u in fake.world.users.values() if int(u.id) == user)


async def first_move(fake: FakeDiscord, database: str, game_id: int) -> None:
    thread = fake.thread(f"Zaic #{game_id}")
    played = await fake.slash(await mover_of(database, fake, game_id), "zaic move", {"move": "2x2 h8"},
                              channel=thread, wait="response")
    await fake.wait_until(lambda: len(fake.messages(thread)) >= 2 or played.ephemeral, what="the move")
    assert not played.ephemeral, played.content


async def play_to_the_end(fake: FakeDiscord, database: str, where: Channel, a: str, b: str) -> int:
    """A game in ``where``'s guild: challenge, accept, a move, and the next player resigns."""
    game_id, made = await start_game(fake, a, b, where)
    thread = await accept(fake, b, game_id, made)
    assert thread.guild_id == where.guild_id
    await first_move(fake, database, game_id)
    await fake.slash(await mover_of(database, fake, game_id), "zaic resign", channel=thread, wait="response")
    await fake.wait_until(lambda: any("won" in m.content for m in fake.messages(thread)), what="the result")
    [status] = await query(database, "SELECT status FROM games WHERE id = ?", (game_id,))
    assert status == "finished"
    return game_id


def served(process: BotProcess) -> str:
    return next(line for line in process.lines if "ready as" in line)


async def test_two_shard_processes_over_one_database_survive_a_sigkill(fake_discord: FakeDiscord,
                                                                       shared_database: str) -> None:
    fake, database = fake_discord, shared_database
    zero, one = guilds_on_both_shards(fake)
    env = {"SHARD_COUNT": str(SHARDS)}
    async with bot_process(fake, database, {**env, "SHARD_IDS": "0"}) as p0, \
            bot_process(fake, database, {**env, "SHARD_IDS": "1"}) as p1:
        await p0.start()
        await p1.start()
        assert "in 1 server(s) (shard(s) 0 of 2)" in served(p0)
        assert "in 1 server(s) (shard(s) 1 of 2)" in served(p1)
        assert sorted(s.shard for s in fake.gateway.live_sessions() if s.shard) == [(0, 2), (1, 2)]

        await play_to_the_end(fake, database, zero, "alice", "bob")
        await play_to_the_end(fake, database, one, "carol", "dave")

        reminded, made = await start_game(fake, "alice", "carol", one)  # both on shard 1's guild
        await accept(fake, "carol", reminded, made)
        await first_move(fake, database, reminded)
        pending, old_button = await start_game(fake, "bob", "dave", one)
        await p1.kill()
        assert p1.errors() == []

        await age(database, reminded, 19 * HOUR)  # past the reminder (18 h), before the deadline (24 h)
        waiting = await mover_of(database, fake, reminded)
        await fake.wait_until(lambda: dms_about(fake, waiting, reminded), timeout=30,
                              what="the reminder, sent by the process of shard 0")

        await p1.start()
        await accept(fake, "dave", pending, old_button)  # a button shard 1's process posted before it died
        await first_move(fake, database, pending)
        age_by = 25 * HOUR
        await age(database, pending, age_by)  # a fresh timeout: ticks ran in the restarted set of processes
        await fake.wait_until(lambda: any("ran out of time" in m.content
                                          for m in fake.messages(fake.thread(f"Zaic #{pending}"))),
                              timeout=30, what="the timeout")
        assert len(dms_about(fake, waiting, reminded)) == 1, "the reminder is sent once, by one process"
        [sent] = await query(database, "SELECT COUNT(*) FROM reminders WHERE game_id = ?", (reminded,))
        assert sent == 1
        assert p0.errors() == [] and p1.errors() == []
