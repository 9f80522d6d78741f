"""The outbox on a real database (both backends): owed jobs land with the change, once, and only the process's own kinds
are touched at start-up."""

from __future__ import annotations

import pytest

from data.db import Database
from data.jobs import Job
from host import outbox
from host.app import Host
from host.correspondence.scheduler import Scheduler
from host.results import HostError
from host.worker import Worker
from tests.conftest import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def host(db: Database, clock: FakeClock) -> Host:
    """The shared ``db`` (SQLite and PostgreSQL), a clock standing at 1000 and a cap of 3 open challenges."""
    return Host(db, now=clock, renderer=lambda _obs: b"png", max_open_challenges=3)


async def test_a_start_and_each_move_owe_one_job_each_written_with_the_change(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zaic", creator=1, opponents=[2])
    started = await host.lobby.accept(lobby.row.id, 2)
    assert started.report is not None and started.report.owed == outbox.thread_key(lobby.row.id)
    pending = {j.dedupe: j for j in await host.outbox.pending()}
    assert set(pending) == {f"thread:{lobby.row.id}", f"expire:{lobby.row.id}"}
    assert pending[f"thread:{lobby.row.id}"].due_at == 1000.0 + outbox.GRACE
    assert pending[f"expire:{lobby.row.id}"].due_at == 1000.0 + host.lobby.challenge_ttl
    mover = started.report.row.user_at(0)
    assert mover is not None
    report = await host.turns.play(lobby.row.id, mover, "2x2 h8")
    assert report.owed == outbox.post_key(lobby.row.id, 1)
    job = next(j for j in await host.outbox.pending() if j.dedupe == report.owed)
    assert job.payload == {"upto": 1, "count": 1, "prefix": ""}
    again = await host.boards.replay_report(lobby.row.id, 1, 1)  # what the dispatcher would post: the same caption
    assert again.caption == report.caption
    await host.outbox.done(report.owed, 1001.0)
    assert report.owed not in {j.dedupe for j in await host.outbox.pending()}


async def test_every_end_of_a_game_owes_the_closing_of_what_stays_live_of_it(host: Host, clock: FakeClock) -> None:
    """Written with the end, so a process that dies right after it still has the menus and the offer closed (by the
    dispatcher after its restart); the final board's report names it, to run at once after the board. The ends: a
    move that ends the game (a resignation, the same write), an abort, and the clock's abort (nobody moved in time)."""
    ended = []
    for how in ("resign", "abort", "clock"):
        lobby = await host.lobby.challenge(game="zodiac", creator=1, opponents=[2],
                                           settings={"clock": "1d"} if how == "clock" else None)
        await host.lobby.accept(lobby.row.id, 2)
        key = outbox.retire_key(lobby.row.id)
        assert key not in {j.dedupe for j in await host.outbox.pending()}, "a game in play owes no closing"
        if how == "resign":
            report = await host.turns.resign(lobby.row.id, 1)
            assert key in report.follow
        elif how == "abort":
            await host.turns.abort(lobby.row.id, 1)
        else:
            clock.advance(86400)
            await Scheduler(host.correspondence).tick()
            assert (await host.session.row(lobby.row.id)).status == "aborted"
        ended.append(key)
    owed = {j.dedupe: j for j in await host.outbox.pending()}
    assert all(owed[key].kind == "retire" for key in ended)


async def test_a_refused_move_owes_nothing(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zaic", creator=1, opponents=[2])
    await host.lobby.accept(lobby.row.id, 2)
    before = await host.outbox.pending()
    with pytest.raises(HostError):
        await host.turns.play(lobby.row.id, 1, "nonsense")
    assert await host.outbox.pending() == before


async def _nothing(job: Job) -> None:
    """A sender that sends nothing: these tests look at the table, not at Discord."""


def outbox_worker(host: Host, scope: str | None = None) -> Worker:
    """A job runner with every outbox kind registered, as the bot's cogs register them."""
    worker = Worker(host.db, host.now, scope=scope)
    for kind in outbox.KINDS:
        outbox.register(worker, kind, _nothing, host.outbox)
    return worker


async def test_start_up_hastens_owed_jobs_but_not_scheduled_expiries_or_other_kinds(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zaic", creator=1, opponents=[2])
    await host.lobby.accept(lobby.row.id, 2)
    await host.outbox.jobs.add(kind="ai_turn", due_at=1030.0, now=1000.0, dedupe="ai:1")
    assert await outbox_worker(host).free_leases() == 1
    due = {j.dedupe: j.due_at for j in await host.outbox.jobs.pending()}
    assert due[f"thread:{lobby.row.id}"] == 1000.0 and due["ai:1"] == 1030.0
    assert due[f"expire:{lobby.row.id}"] == 1000.0 + host.lobby.challenge_ttl


async def test_open_challenges_are_capped_per_user(host: Host) -> None:
    for opponent in (2, 3, 4):
        await host.lobby.challenge(game="zaic", creator=1, opponents=[opponent])
    with pytest.raises(HostError, match="already have 3 open challenges"):
        await host.lobby.challenge(game="zaic", creator=1, opponents=[5])
    other = await host.lobby.challenge(game="zaic", creator=5, opponents=[1])  # the cap is per user
    expired = await host.lobby.expire(other.row.id)
    assert expired is not None and (await host.session.row(other.row.id)).status == "aborted"
    assert await host.lobby.expire(other.row.id) is None


def test_nonces_are_short_stable_per_key_and_absent_without_a_key() -> None:
    key = outbox.post_key(12345678, 999)
    assert outbox.nonce(key) == outbox.nonce(key) != outbox.nonce(outbox.post_key(12345678, 1000))
    assert len(outbox.nonce(key) or "") == 25
    assert outbox.nonce(None) is None and outbox.nonce("") is None


async def test_recovery_owes_a_thread_to_an_active_game_left_without_one(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zaic", creator=1, opponents=[2], guild_id=5, channel_id=6)
    await host.lobby.accept(lobby.row.id, 2)
    async with host.db.transaction() as conn:  # as a crash before the outbox existed left it: no job at all
        await conn.execute("DELETE FROM jobs")
    await host.recover()
    owed = [j for j in await host.outbox.pending() if j.kind == "thread"]
    assert [(j.game_id, j.due_at) for j in owed] == [(lobby.row.id, 1000.0)]
    await host.turns.set_thread(lobby.row.id, 77)
    await host.outbox.done(owed[0].dedupe, 1000.0)
    await host.recover()  # a game with its thread owes nothing
    assert [j for j in await host.outbox.pending() if j.kind == "thread"] == []


async def test_the_dispatcher_retries_or_finishes_a_claimed_job_through_the_outbox(host: Host) -> None:
    """What cogs/dispatch.py calls instead of reaching into the job queue under the outbox."""
    lobby = await host.lobby.challenge(game="zaic", creator=1, opponents=[2])
    await host.lobby.accept(lobby.row.id, 2)
    key = outbox.thread_key(lobby.row.id)
    [job] = await host.outbox.claim(1000.0, "me", keys=[key])
    await host.outbox.retry(job.id, 1050.0, "Discord said 500")
    assert key not in {j.dedupe for j in await host.outbox.claim(1049.0, "other")}, "due only at 1050"
    [again] = await host.outbox.claim(1050.0, "other", keys=[key])
    await host.outbox.finish(again.id, 1051.0)
    assert key not in {j.dedupe for j in await host.outbox.pending()}
