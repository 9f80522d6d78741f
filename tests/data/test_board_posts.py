"""The live board's row and the jobs a shown board settles, on both backends (on PostgreSQL one statement)."""

from __future__ import annotations

from data.boards import BoardPost, BoardPosts
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
