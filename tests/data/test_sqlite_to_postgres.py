"""``python -m data.sqlite_to_postgres``: a SQLite database filled by the host, copied into PostgreSQL, replays
the same.

Games of every kind are played with random legal moves (dice included), some finish rated, challenges and
AI turns leave jobs; a season, a Swiss event two rounds in, a ladder with a challenge played out, a sent
reminder, a vacation, a posted board, a live draw offer and an imported record fill the other tables. ``populate``
must leave no table of the schema empty, so a table added later fails here until it is filled (and so copied for
real). After the copy every table holds the same rows on both sides, every game rebuilds to the same engine
state and the same observation for every seat, and new rows get fresh ids.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import engines
from data.db import Database
from data.reviews import Reviews
from engines import CHANCE
from host.app import Host
from host.ladder.service import Ladders, record_finish
from host.play import bots
from host.ratings import seasons
from host.ratings import service as ratings
from host.tournaments.jobs import Post, TournamentWorker
from host.tournaments.service import Actor, no_image
from tests.conftest import FakeClock, text_renderer
from tests.pg import PgServer

ROOT = Path(__file__).resolve().parents[2]
USERS = [900_000_000_000_000_000 + i for i in range(4)]
"""Discord snowflakes are 64-bit: the copy must keep them exact."""
GUILD = 800_000_000_000_000_001
PLAYED = [("zarathustra", 3, 24), ("zaic", 2, 30), ("zrtz", 2, 30), ("zodiac", 2, 16), ("ziggurat", 4, 30),
          ("zaic", 2, 8), ("zrtz", 2, 10)]
"""(game, players, plies at most) for each game played."""


def make_host(db: Database, clock: FakeClock) -> Host:
    return Host(db, games=dict(engines.GAMES), renderer=text_renderer, now=clock,
                on_finish=[ratings.record_result, record_finish])


async def play_randomly(host: Host, game_id: int, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        row, game = await host.session.engine_copy(game_id)
        if row.status != "active":
            return
        seat = min(game.to_move() - {CHANCE})
        await host.turns.play(game_id, row.user_at(seat), rng.choice(game.legal_moves(seat)))  # type: ignore[arg-type]


async def populate(host: Host, clock: FakeClock) -> list[int]:
    rng = random.Random(13)
    ids = []
    for name, players, plies in PLAYED:
        lobby = await host.lobby.challenge(game=name, creator=USERS[0], opponents=USERS[1:players], guild_id=GUILD,
                                     channel_id=GUILD + 1)
        for user in USERS[1:players]:
            await host.lobby.accept(lobby.row.id, user)
        await play_randomly(host, lobby.row.id, rng, plies)
        ids.append(lobby.row.id)
        clock.advance(61.5)
    await host.turns.resign(ids[5], USERS[1])  # rated results: ratings and their history
    await host.turns.resign(ids[6], USERS[0])
    ids.append((await host.lobby.challenge(game="zaic", creator=USERS[2], opponents=[USERS[3]])).row.id)  # waits: a job
    ids.append((await host.lobby.challenge(game="zrtz", creator=USERS[3], opponents=[bots.user_of("easy")])).row.id)
    await host.correspondence.set_notify(USERS[1], "digest")
    return ids + await populate_the_rest(host, clock, ids[5])


async def populate_the_rest(host: Host, clock: FakeClock, finished: int) -> list[int]:
    """Every other table, through the services that write it; returns the games this created."""
    before = {r["id"] for r in await host.db.fetchall("SELECT id FROM games")}
    await seasons.start_season(host.db, GUILD, USERS[0], clock())  # seasons; later rated games count in it
    rng = random.Random(17)
    for _ in range(5):  # five rated games each: counted on the board, so rating_buckets has rows
        lobby = await host.lobby.challenge(game="zaic", creator=USERS[2], opponents=[USERS[3]], guild_id=GUILD)
        await host.lobby.accept(lobby.row.id, USERS[3])
        await play_randomly(host, lobby.row.id, rng, 2 * ratings.MIN_MOVES)
        if (await host.session.row(lobby.row.id)).status == "active":
            await host.turns.resign(lobby.row.id, USERS[3])
        clock.advance(30)
    await host.turns.set_last_board(finished, GUILD + 1, GUILD + 2, 3)  # board_posts
    await host.turns.live_shown(finished, "draw", GUILD + 1, GUILD + 4)  # live_messages
    await host.correspondence.vacation(USERS[3], 2)  # vacations
    await Reviews(host.db).put(finished, "hard", {"moves": [{"ply": 0, "verdict": "mistake"}]}, clock())  # reviews
    async def namer(user: int) -> str:
        return f"player {user}"

    _, files = await host.record_exchange.export(finished, namer)
    await host.record_exchange.import_record("zaic", files[0][1], USERS[0], GUILD)  # records
    clocked = await host.lobby.challenge(game="zaic", creator=USERS[0], opponents=[USERS[1]], settings={"clock": "1d"},
                                   guild_id=GUILD, channel_id=GUILD + 1)
    await host.lobby.accept(clocked.row.id, USERS[1])
    clock.advance(20 * 3600)  # a quarter of the day is left: a reminder is sent and recorded
    assert await host.correspondence.remind(clocked.row.id, clock())

    organiser = Actor(USERS[0], manage_guild=True)
    await host.tournaments.settings(GUILD, organiser, GUILD + 3)  # event_settings
    host.tournaments.image = no_image
    posts: list[Post] = []

    async def deliver(post: Post) -> int | None:
        posts.append(post)
        return None

    worker = TournamentWorker(host.tournaments, deliver)
    event = await host.tournaments.create(guild_id=GUILD, channel_id=GUILD + 1, actor=organiser, game="zaic",
                                          format="swiss", rounds=2, rated=False, max_players=4)
    for user in USERS:
        await host.tournaments.join(event.id, user)
    await host.tournaments.start(event.id, organiser)
    await worker.drain()
    for pairing in (await host.tournaments.load(event.id)).pairings:  # round 1 ends: round 2 is paired
        assert pairing.game_id is not None
        await host.turns.resign(pairing.game_id, max(pairing.seats))
    await worker.drain()
    snap = await host.tournaments.load(event.id)
    assert snap.event.current_round == 2 and len(snap.pairings) == 4 and posts

    ladders = Ladders(host.session, host.lobby, host.now)
    for user in USERS[:3]:
        await ladders.join(GUILD, "zrtz", user)
    ladder_game = await ladders.challenge(GUILD, GUILD + 1, "zrtz", USERS[2], USERS[0])
    await host.lobby.accept(ladder_game.row.id, USERS[0])
    await host.turns.resign(ladder_game.row.id, USERS[0])
    async with host.db.transaction() as tx:  # no service writes guild_settings yet (migration 001 made it)
        await tx.execute("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)", (GUILD, '{"x": 1}'))
    return sorted({r["id"] for r in await host.db.fetchall("SELECT id FROM games")} - before)


async def table_rows(db: Database, tables: list[str]) -> dict[str, list[str]]:
    """Every row of every table, as sorted JSON objects (column name to value)."""
    found = {}
    for table in tables:
        rows = await db.fetchall(f"SELECT * FROM {table}")
        found[table] = sorted(json.dumps(dict(zip(r.keys(), tuple(r), strict=True)), sort_keys=True) for r in rows)
    return found


async def snapshot(host: Host, game_id: int) -> tuple[Any, ...]:
    row, game = await host.session.engine_copy(game_id)
    seats = range(row.players)
    return (row, game.to_dict(), [game.observation(s) for s in [None, *seats]], await host.boards.rolls(game_id))


async def test_a_copied_database_replays_every_game_the_same_and_keeps_every_row(
        pg_server: PgServer, tmp_path: Path, clock: FakeClock) -> None:
    source = tmp_path / "bot.sqlite3"
    lite = await Database.open(source)
    ids = await populate(make_host(lite, clock), clock)
    tables = [r[0] for r in await lite.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'"
                                                " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    await lite.close()
    async with pg_server.fresh_database(migrated=False) as url:
        done = subprocess.run([sys.executable, "-m", "data.sqlite_to_postgres", str(source), url], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "moves:" in done.stdout and "copied" in done.stdout
        again = subprocess.run([sys.executable, "-m", "data.sqlite_to_postgres", str(source), url], cwd=ROOT,
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 1 and "not empty" in again.stderr  # never copied twice

        lite, pg = await Database.open(source), await Database.open(url)
        try:
            on_pg = {r[0] for r in await pg.fetchall("SELECT table_name FROM information_schema.tables"
                                                     " WHERE table_schema = 'public'")}
            assert on_pg - {"schema_version"} == set(tables), "both schemas have the same tables"
            before, after = await table_rows(lite, tables), await table_rows(pg, tables)
            assert {t: len(r) for t, r in after.items()} == {t: len(r) for t, r in before.items()}
            assert [table for table, rows in before.items() if not rows] == [], "populate fills every table"
            assert after == before
            assert len(before["moves"]) > 100 and before["ratings"] and before["jobs"] and before["rating_history"]
            from_lite, from_pg = make_host(lite, clock), make_host(pg, clock)
            for game_id in ids:
                assert await snapshot(from_pg, game_id) == await snapshot(from_lite, game_id)
            statuses = {(await from_pg.session.row(i)).status for i in ids}
            assert {"active", "finished", "challenge"} <= statuses

            newer = (await from_pg.lobby.challenge(game="zaic", creator=USERS[1], opponents=[USERS[2]])).row.id
            assert newer == max(ids) + 1  # the identity sequence was set past the copied ids
            jobs = await pg.fetchall("SELECT id FROM jobs ORDER BY id")
            assert len({j["id"] for j in jobs}) == len(jobs) == len(before["jobs"]) + 1
        finally:
            await lite.close()
            await pg.close()
