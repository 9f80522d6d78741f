"""A move is one trip: the report carries its buttons, and ``Host.shown`` is one transaction (issue 23).

After ``Host.play`` the Discord side makes one host call for the board it sent: ``shown`` records the live board,
marks the outbox job that owed the report done and makes an AI seat's reply due, all or nothing.
"""

from __future__ import annotations

import pytest

from data.jobs import JobQueue
from host.app import Host
from host.play import bots
from host.results import HostError, Report
from tests.host.test_service import started_game


async def played(host: Host, game_id: int) -> Report:
    row, game = await host.session.engine_copy(game_id)
    seat = next(s for s in game.to_move() if s >= 0)
    return await host.turns.play(game_id, row.user_at(seat), game.legal_moves(seat)[0])


async def owed_keys(host: Host) -> set[str | None]:
    return {job.dedupe for job in await host.outbox.pending()}


async def test_a_report_carries_the_move_buttons_of_its_position(host: Host) -> None:
    game_id = await started_game(host)
    report = await played(host, game_id)
    assert report.choices and await host.boards.turn_choices(game_id) == (report.ply, report.choices)


async def test_shown_records_the_board_marks_its_job_done_and_hurries_the_ai_at_once(host: Host) -> None:
    game_id = await started_game(host)
    first = await played(host, game_id)
    woken: list[str] = []
    host.turns.on_shown.append(lambda: woken.append("ai"))
    queue = JobQueue(host.db)
    await queue.add(kind=bots.TURN_JOB, due_at=host.now() + 60, now=host.now(), game_id=game_id, payload={},
                    dedupe="ai-test")
    assert first.owed in await owed_keys(host)

    assert await host.turns.shown(first, 5, 100) is None
    assert first.owed not in await owed_keys(host)
    assert [j.due_at for j in await queue.pending(kind=bots.TURN_JOB)] == [host.now()]
    assert woken == ["ai"]
    last = await host.boards.last_board(game_id)
    assert last is not None and (last.message_id, last.ply) == (100, first.ply)

    second = await played(host, game_id)
    old = await host.turns.shown(second, 5, 101)
    assert old is not None and old.message_id == 100, "the board it replaced, to take its buttons off"
    assert await host.turns.shown(second, 5, 101) is None, "an edit in place retires nothing"
    late = await host.turns.shown(first, 5, 102)
    assert late is not None and late.message_id == 102, "a late post of an older ply is not the live board"
    last = await host.boards.last_board(game_id)
    assert last is not None and last.message_id == 101


JOBS_FAIL = {
    "sqlite": ["CREATE TRIGGER jobs_fail BEFORE UPDATE ON jobs BEGIN SELECT RAISE(ABORT, 'the disk went away'); END"],
    "postgres": ["CREATE FUNCTION jobs_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                 " RAISE EXCEPTION 'the disk went away'; END $$",
                 "CREATE TRIGGER jobs_fail BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_fail()"]}
"""A real failure in the database: any change to a job fails, after the live board was written (on PostgreSQL
``shown`` is one statement, so a failure there has to come from the server)."""
JOBS_FIXED = {"sqlite": ["DROP TRIGGER jobs_fail"],
              "postgres": ["DROP TRIGGER jobs_fail ON jobs", "DROP FUNCTION jobs_fail()"]}
"""Taken away after the test: the PostgreSQL server's tables are emptied between tests, not dropped, so a
trigger left behind would fail the next tests' jobs."""


async def test_shown_is_one_transaction(host: Host) -> None:
    game_id = await started_game(host)
    report = await played(host, game_id)
    async with host.db.transaction() as tx:
        for sql in JOBS_FAIL[host.db.dialect]:
            await tx.execute(sql)

    try:
        with pytest.raises(Exception, match="the disk went away"):
            await host.turns.shown(report, 5, 100)
        assert await host.boards.last_board(game_id) is None and report.owed in await owed_keys(host), \
            "nothing of it stayed"
    finally:
        async with host.db.transaction() as tx:
            for sql in JOBS_FIXED[host.db.dialect]:
                await tx.execute(sql)


async def test_a_move_played_on_the_row_its_command_read_is_version_checked_all_the_same(host: Host) -> None:
    """``play(row=...)`` takes the command's own look-up instead of reading the game again; a row someone moved
    past in between is refused by the version check and writes nothing, as a second read would have found."""
    game_id = await started_game(host)
    row = await host.store.get(game_id)
    stale = await host.store.get(game_id)
    assert row is not None and stale is not None
    _, game = await host.session.engine_copy(game_id)
    seat = next(s for s in game.to_move() if s >= 0)
    report = await host.turns.play(game_id, row.user_at(seat), game.legal_moves(seat)[0], row=row)
    assert report.row is row and row.version == stale.version + 1
    moves = await host.store.moves(game_id)
    _, game = await host.session.engine_copy(game_id)
    seat = next(s for s in game.to_move() if s >= 0)
    with pytest.raises(HostError, match="Someone acted on this game"):
        await host.turns.play(game_id, stale.user_at(seat), game.legal_moves(seat)[0], row=stale)
    assert await host.store.moves(game_id) == moves
