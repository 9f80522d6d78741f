"""The live board's row and the jobs a shown board settles, on both backends (on PostgreSQL one statement), and the
live messages of a moment of a game (a draw offer, a secret-choice menu)."""

from __future__ import annotations

from pathlib import Path

from data.boards import BoardPost, BoardPosts, LiveMessage, LiveMessages
from data.db import Database
from data.jobs import JobQueue
from data.store import GameStore, Seat


async def a_game(db: Database) -> int:
    return await GameStore(db).create(guild_id=1, channel_id=2, game="dicenim", players=2, options={}, settings={},
                                      seed="s", creator_id=10, seats=[Seat(0, 10, True), Seat(1, 11, True)], now=1.0)


async def test_shown_replaces_only_an_older_board_settles_its_job_and_hurries_keyed_and_unkeyed_jobs(
        db: Database) -> None:
    game_id, posts, queue = await a_game(db), BoardPosts(db), JobQueue(db)
    await queue.add(kind="post", due_at=60.0, now=1.0, game_id=game_id, dedupe="post:1")
    await queue.add(kind="ai_turn", due_at=60.0, now=1.0, game_id=game_id, dedupe="ai:1")
    await queue.add(kind="ai_turn", due_at=60.0, now=1.0, game_id=game_id)  # no key
    await queue.add(kind="remind", due_at=60.0, now=1.0, game_id=game_id)  # not a kind to hurry

    assert await posts.shown(BoardPost(game_id, 2, 100, 3), done_key="post:1", hurry=("ai_turn",), now=5.0) \
        == (None, 2)
    assert sorted((j.kind, j.due_at) for j in await queue.pending()) == [("ai_turn", 5.0), ("ai_turn", 5.0),
                                                                       ("remind", 60.0)]
    assert await posts.get(game_id) == BoardPost(game_id, 2, 100, 3)

    await queue.add(kind="ai_turn", due_at=60.0, now=1.0, game_id=game_id)  # no key, and no job done this time
    newer = await posts.shown(BoardPost(game_id, 2, 101, 4), done_key=None, hurry=("ai_turn",), now=6.0)
    assert newer == (BoardPost(game_id, 2, 100, 3), 1), "the board it replaced; the unkeyed job hurried"
    late = await posts.shown(BoardPost(game_id, 2, 99, 2), done_key=None, hurry=(), now=7.0)
    assert late == (BoardPost(game_id, 2, 99, 2), 0), "a late, older board is not the live one"
    assert await posts.get(game_id) == BoardPost(game_id, 2, 101, 4)
    assert await posts.shown(BoardPost(game_id, 2, 101, 4), done_key=None, hurry=(), now=8.0) == (None, 0)


async def test_a_live_message_replaces_the_older_one_of_its_purpose_and_is_taken_once(db: Database) -> None:
    game_id, live = await a_game(db), LiveMessages(db)
    menu = LiveMessage(game_id, "choice:10", 7, 100)
    assert await live.put(menu, 1.0) is None
    assert await live.put(menu, 2.0) is None, "the same message again (a repeated send) replaces nothing"
    newer = LiveMessage(game_id, "choice:10", 7, 101)
    assert await live.put(newer, 3.0) == menu, "the older menu, to close"
    offer = LiveMessage(game_id, "draw", 8, 200)
    await live.put(offer, 4.0)
    await live.put(LiveMessage(game_id, "choice:11", 9, 300), 5.0)
    assert await live.take(game_id, ["choice:10"], message_id=100) == [], "an older message is no longer live"
    assert await live.take(game_id, ["draw"]) == [offer]
    assert await live.take(game_id, ["draw"]) == [], "taken once"
    assert await live.take(game_id, []) == []
    assert [m.message_id for m in await live.take(game_id)] == [101, 300]
    assert await live.take(game_id) == []


async def test_taking_when_nothing_is_live_writes_nothing(tmp_path: Path) -> None:
    """Every board post asks for the game's draw offer to close: with none open that must cost no write."""
    db = await Database.open(tmp_path / "live.sqlite3")
    try:
        game_id, live = await a_game(db), LiveMessages(db)
        before = db.stats.transactions  # type: ignore[attr-defined]
        assert await live.take(game_id, ["draw"]) == []
        assert await live.take(game_id) == []
        assert db.stats.transactions == before  # type: ignore[attr-defined]
        await live.put(LiveMessage(game_id, "draw", 8, 200), 1.0)
        assert await live.take(game_id) == [LiveMessage(game_id, "draw", 8, 200)]
    finally:
        await db.close()
