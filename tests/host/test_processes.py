"""Several bot processes over one database: every scheduled duty is done by exactly one of them, and what a
dead process held is finished by another once its lease runs out."""

from __future__ import annotations

import asyncio
import importlib
import pkgutil
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import pytest

import cogs
import engines
from data.db import Database
from data.jobs import JobQueue
from data.store import GameRow
from host import outbox
from host.app import Host
from host.correspondence.clocks import DAY
from host.correspondence.scheduler import Scheduler, Tick
from host.play import bots, matches
from host.play.lobby import Seated
from host.results import Report
from host.tournaments.jobs import KINDS as EVENT_KINDS
from host.tournaments.jobs import TournamentWorker
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim
from tests.host.test_correspondence import bid, clocked
from tests.host.test_outbox import outbox_worker

ALICE, BOB, CAROL, DAVE = 101, 202, 303, 404
HOUR = 3600.0
GAMES = {**engines.GAMES, DiceNim.name: DiceNim}


@pytest.fixture
async def two(shared: str, clock: FakeClock) -> AsyncIterator[tuple[Host, Host]]:
    """Two hosts with their own connections to one database, as two processes have."""
    first, second = await Database.open(shared), await Database.open(shared)
    try:
        yield (Host(first, games=GAMES, renderer=text_renderer, now=clock),
               Host(second, games=GAMES, renderer=text_renderer, now=clock))
    finally:
        await first.close()
        await second.close()


async def test_two_schedulers_ticking_at_once_share_out_reminders_timeouts_and_digests(
        two: tuple[Host, Host], clock: FakeClock) -> None:
    a, b = two
    reminded = [await clocked(a, "1d", (ALICE, BOB)), await clocked(b, "1d", (CAROL, DAVE))]
    late = [await clocked(a, "1d", (ALICE, CAROL)), await clocked(b, "1d", (BOB, DAVE))]
    for game_id in reminded:
        await bid(a, game_id, tuple(s.user_id for s in (await a.session.row(game_id)).seats if s.user_id))  # type: ignore[arg-type]
    for game_id in late:
        await bid(b, game_id, tuple(s.user_id for s in (await b.session.row(game_id)).seats if s.user_id))  # type: ignore[arg-type]
    waiting = await clocked(a, "3d", (DAVE, ALICE))
    await bid(a, waiting, (DAVE, ALICE))  # Dave bids highest: his turn, for days, so his digest lists it
    await a.correspondence.set_notify(DAVE, "digest")
    clock.advance(6 * HOUR)
    for game_id in reminded:  # their turn started later: 19 h on, these are due a reminder, not a timeout
        row, game = await b.session.engine_copy(game_id)
        seat = next(iter(game.to_move()))
        await b.turns.play(game_id, row.user_at(seat) or 0, game.legal_moves(seat)[0])
    clock.advance(DAY - 6 * HOUR + HOUR)  # the late games are past their deadline

    def tick(host: Host) -> Coroutine[Any, Any, Tick]:
        return Scheduler(host.correspondence, batch=1).tick()

    ticks = await asyncio.gather(tick(a), tick(b), tick(a), tick(b))
    while any(t.more for t in ticks[-2:]):
        ticks += await asyncio.gather(tick(a), tick(b))
    timeouts = sorted(r.row.id for t in ticks for r in t.timeouts if r.outcome is not None)
    reminders = sorted((r.game_id, r.seat) for t in ticks for r in t.reminders)
    digests = [d.user_id for t in ticks for d in t.digests]
    assert timeouts == sorted(late), "each timeout recorded once"
    assert sorted({g for g, _ in reminders}) == sorted(reminded) and len(set(reminders)) == len(reminders)
    assert digests == [DAVE], "one digest, from one process"
    assert f"#{waiting}" in next(d.text for t in ticks for d in t.digests)
    owed = [j for j in await a.outbox.pending() if j.kind in ("remind", "digest")]
    assert sorted(j.dedupe or "" for j in owed) == sorted([r.key or "" for t in ticks for r in t.reminders]
                                                          + [d.key or "" for t in ticks for d in t.digests])


async def test_a_match_goes_on_exactly_once_whichever_process_continues_it(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = two
    lobby = await a.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await a.lobby.accept(lobby.row.id, BOB)).row.id
    real = a.turns.after_finish  # the match's subscription (host/app.py)

    async def died(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died before it started the next game")

    monkeypatch.setattr(a.turns, "after_finish", [died])
    report = await a.turns.resign(first, ALICE)
    assert report.next_game is None
    monkeypatch.setattr(a.turns, "after_finish", real)
    [owed] = [j for j in await b.outbox.pending() if j.kind == matches.NEXT]
    assert owed.game_id == first and owed.dedupe == matches.next_key(first)
    results = await asyncio.gather(b.matches.continue_after(first), a.matches.continue_after(first), a.recover())
    started = [r for r in results[:2] if r is not None] + list(results[2])
    assert len(started) == 1, "another process's dispatcher starts the next game, and only one does"
    follows = await a.db.fetchall("SELECT id FROM games WHERE id > ?", (first,))
    assert [r["id"] for r in follows] == [started[0].row.id]
    assert await b.recover() == [] and await b.matches.continue_after(first) is None, \
        "the owed job, run late, does nothing"


def recovery_runs_first(monkeypatch: pytest.MonkeyPatch, *, starting: Host, recovering: Host) -> list[Report]:
    """Each start ``starting`` makes is preceded by ``recovering``'s start-up recovery (a process starting up at that
    moment); returns the reports the recovery made."""
    real_start = starting.lobby.start
    recovered: list[Report] = []

    async def recovery_first(row: GameRow, **kwargs: Any) -> Seated:
        recovered.extend(await recovering.lobby.recover())
        return await real_start(row, **kwargs)

    monkeypatch.setattr(starting.lobby, "start", recovery_first)
    return recovered


async def test_a_match_game_another_processs_recovery_started_first_is_not_an_error(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """The race CI met: b created the next game, a's recovery saw its full table and started it, b's start was
    stale. b's continuation then reports nothing (a posts the start) instead of a 'try again' error."""
    a, b = two
    lobby = await a.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await a.lobby.accept(lobby.row.id, BOB)).row.id

    async def died(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died before it started the next game")

    monkeypatch.setattr(a.turns, "after_finish", [died])
    await a.turns.resign(first, ALICE)
    recovered = recovery_runs_first(monkeypatch, starting=b, recovering=a)
    assert await b.matches.continue_after(first) is None
    [started] = recovered
    assert started.row.id > first and (await b.session.row(started.row.id)).status == "active"
    follows = await a.db.fetchall("SELECT id FROM games WHERE id > ?", (first,))
    assert [r["id"] for r in follows] == [started.row.id]


async def a_match_owing_its_next_game(a: Host, monkeypatch: pytest.MonkeyPatch) -> int:
    """Game 1 of a best of 3, resigned by a process that died before it created game 2: the match's id."""
    lobby = await a.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await a.lobby.accept(lobby.row.id, BOB)).row.id
    real = a.turns.after_finish

    async def died(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died before it started the next game")

    monkeypatch.setattr(a.turns, "after_finish", [died])
    await a.turns.resign(first, ALICE)
    monkeypatch.setattr(a.turns, "after_finish", real)
    return first


def recovery_lists_then_b_starts(a: Host, b: Host, monkeypatch: pytest.MonkeyPatch) -> list[Report]:
    """The interleaving of the race: when b starts a table it has just made, a's recovery lists the full tables,
    b's start runs, and only then does a read the rows it listed. Returns the list a's recovery reports into."""
    real_list, real_start_once = a.session.store.full_challenges, b.lobby.start_once
    recovered: list[Report] = []

    async def a_lists_then_b_starts(row: GameRow, **kwargs: Any) -> Seated:
        seated: list[Seated] = []

        async def listed() -> list[int]:
            ids = await real_list()
            seated.append(await real_start_once(row, **kwargs))
            return ids

        monkeypatch.setattr(a.session.store, "full_challenges", listed)
        recovered.extend(await a.lobby.recover())
        return seated[0]

    monkeypatch.setattr(b.lobby, "start_once", a_lists_then_b_starts)
    return recovered


async def test_a_game_started_between_a_recoverys_listing_and_its_read_is_started_once(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """The race a loaded full run met (two start reports for a match's game 2): b created game 2, a's recovery
    listed it as a full table, b started it, then a read the row, now active, and started it again; the version
    check held, a's row being read after b's start. Only the write that takes a table out of ``challenge`` starts."""
    a, b = two
    first = await a_match_owing_its_next_game(a, monkeypatch)
    recovered = recovery_lists_then_b_starts(a, b, monkeypatch)
    report = await b.matches.continue_after(first)
    started = [r for r in [report] if r is not None] + recovered
    assert len(started) == 1 and report is not None, "one start report, from b, which started game 2"
    follows = await a.db.fetchall("SELECT id FROM games WHERE id > ?", (first,))
    assert [r["id"] for r in follows] == [report.row.id]
    assert (await a.session.row(report.row.id)).version == report.row.version, "started once: no later write"


async def test_a_match_game_another_processs_recovery_started_before_its_creator_read_it_is_started_once(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """b's transaction that created game 2 committed, a's recovery started the full table at once, then b read the
    row (active) to start it: b answers nothing (a posts the start) instead of starting game 2 a second time."""
    a, b = two
    first = await a_match_owing_its_next_game(a, monkeypatch)
    real_create = b.session.store.create
    recovered: list[Report] = []

    async def created_then_recovered(**kwargs: Any) -> int:
        game_id = await real_create(**kwargs)
        recovered.extend(await a.lobby.recover())
        return game_id

    monkeypatch.setattr(b.session.store, "create", created_then_recovered)
    assert await b.matches.continue_after(first) is None
    [started] = recovered
    row = await b.session.row(started.row.id)
    assert row.status == "active" and row.version == started.row.version, "started once: no later write"


async def test_a_challenge_started_between_a_recoverys_listing_and_its_read_keeps_its_seats(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same race for a plain game: a second start would also draw the seats again from the drawn order (the
    players swapped after they saw the board) and owe its choices again. b starts it; a's recovery leaves it."""
    a, b = two
    recovered = recovery_lists_then_b_starts(a, b, monkeypatch)
    easy = bots.user_of("easy")
    lobby = await b.lobby.challenge(game="dicenim", creator=ALICE, opponents=[easy, easy])  # full: started at once
    monkeypatch.undo()
    assert lobby.report is not None and recovered == []
    row = await a.session.row(lobby.row.id)
    assert row.version == lobby.row.version and row.seats == lobby.report.row.seats


async def test_a_full_table_another_processs_recovery_started_first_answers_started(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """A challenge saved with every seat taken (against the AI) is started right after it is saved; a process
    starting up at that moment starts it first. The challenger hears "started" with no report (that process posts
    the board and thread), not "try again", and the game starts once."""
    a, b = two
    recovered = recovery_runs_first(monkeypatch, starting=b, recovering=a)
    lobby = await b.lobby.challenge(game="dicenim", creator=ALICE, opponents=[bots.user_of("easy")])
    assert lobby.started and lobby.report is None
    [started] = recovered
    assert started.row.id == lobby.row.id and (await b.session.row(lobby.row.id)).status == "active"
    assert await b.lobby.recover() == [], "nothing left to start"


async def test_a_match_game_created_by_a_process_that_then_died_starts_in_the_matchs_thread(
        two: tuple[Host, Host], monkeypatch: pytest.MonkeyPatch) -> None:
    """The next game is created with the match's thread in one transaction: a process dying right after it leaves
    nothing for another process's recovery to start without its thread (a new thread for the match's game 2)."""
    a, b = two
    lobby = await a.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await a.lobby.accept(lobby.row.id, BOB)).row.id
    await a.session.store.set_links(first, 5550, 6660)

    async def died(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process died")

    monkeypatch.setattr(a.turns, "after_finish", [died])
    await a.turns.resign(first, ALICE)
    monkeypatch.setattr(b.session.store, "set_links", died)
    monkeypatch.setattr(b.lobby, "start", died)
    with pytest.raises(RuntimeError):
        await b.matches.continue_after(first)
    [started] = await a.lobby.recover()
    assert started.row.id > first and started.row.thread_id == 5550


async def test_a_dead_processs_lease_runs_out_and_another_process_does_the_job(
        two: tuple[Host, Host], clock: FakeClock) -> None:
    a, b = two
    await a.outbox.jobs.add(kind="post", due_at=clock(), now=clock(), dedupe="post:1:1")
    await a.outbox.jobs.add(kind="post", due_at=clock(), now=clock(), dedupe="post:1:2")
    claimed = await asyncio.gather(a.outbox.claim(clock(), "shards-1:11", limit=1),
                                   b.outbox.claim(clock(), "shards-0:22", limit=1))
    assert sorted(j.dedupe or "" for c in claimed for j in c) == ["post:1:1", "post:1:2"], "one job each"
    [[dead_ones], [mine]] = claimed
    assert await b.outbox.claim(clock(), "shards-0:22") == [], "a held job is nobody else's"
    # the process of shard 1 dies holding its job; the restarted process of shard 0 leaves it alone
    assert await outbox_worker(b, scope="shards-0").free_leases() == 1
    clock.advance(119)
    taken = await b.outbox.claim(clock(), "shards-0:23")
    assert [j.dedupe for j in taken] == [mine.dedupe], "only its own predecessor's job, made due again"
    clock.advance(2)  # shard 1's lease (120 s) ran out
    [late] = await b.outbox.claim(clock(), "shards-0:23")
    assert late.dedupe == dead_ones.dedupe and late.attempts == 2
    await b.outbox.done(late.dedupe, clock())
    assert [j.dedupe for j in await JobQueue(a.db).pending(kind="post")] == [mine.dedupe]


def test_every_owed_kind_has_a_dispatcher() -> None:
    """The dispatcher claims ``outbox.KINDS`` for whichever cog has ``outbox_<kind>``; one without would wait
    forever (a digest or a match's next game owed by a process that died)."""
    handlers = {name.removeprefix("outbox_") for module in pkgutil.iter_modules(cogs.__path__)
                for value in vars(importlib.import_module(f"cogs.{module.name}")).values() if isinstance(value, type)
                for name in vars(value) if name.startswith("outbox_")}
    assert set(outbox.KINDS) <= handlers


async def test_a_restarted_shard_frees_only_its_own_tournament_leases(two: tuple[Host, Host], clock: FakeClock) -> None:
    async def deliver(post: object) -> int | None:
        return None

    a, b = two
    queue = JobQueue(a.db)
    await queue.add(kind=EVENT_KINDS[0], due_at=clock(), now=clock(), payload={"event": 1}, dedupe="event:1:test")
    alive = TournamentWorker(a.tournaments, deliver, scope="shards-1")
    [held] = await queue.claim(clock(), alive.worker.owner, kinds=EVENT_KINDS)
    await TournamentWorker(b.tournaments, deliver, scope="shards-0").recover()  # another shard set starts
    assert await queue.claim(clock(), "someone", kinds=EVENT_KINDS) == [], "a live process's lease is kept"
    await TournamentWorker(b.tournaments, deliver, scope="shards-1").recover()  # shard 1's process restarts
    assert [j.id for j in await queue.claim(clock(), "someone", kinds=EVENT_KINDS)] == [held.id]
