"""AI seats through the host over a real SQLite file: durable turn jobs, exactly-once moves, no clocks, draws.

The searches run in a thread pool here (the bot uses a process pool; one test below proves that path),
so a test can also swap the AI's draw answer.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import ai
import engines
from data.db import Database
from engines import CHANCE
from host.ai_players import turns as ai_turns
from host.ai_players.turns import GRACE, LEASE, AiPlayers, Done
from host.app import Host
from host.play import bots
from host.results import HostError
from host.worker import Worker
from tests.conftest import FakeClock, text_renderer

A, B = 1001, 1002
HARD, MEDIUM, EASY = bots.user_of("hard"), bots.user_of("medium"), bots.user_of("easy")


@pytest.fixture
async def ai_host(db: Database, clock: FakeClock) -> AsyncIterator[Host]:
    """A host with its AI players wired as the bot's are, searching in a thread pool."""
    with ThreadPoolExecutor(1) as pool:
        yield Host(db, renderer=text_renderer, now=clock, ai=True, ai_pool=pool)


@pytest.fixture
def players(ai_host: Host) -> AiPlayers:
    return ai_host.ai


async def run_due(players: AiPlayers, clock: FakeClock) -> list[Done]:
    """Let the grace period pass and do every AI job that falls due on a job runner, until none is left."""
    out: list[Done] = []

    async def deliver(done: Done) -> None:
        out.append(done)

    worker = Worker(players.session.db, clock, name="ai-test")
    players.register(worker, deliver)
    while True:
        clock.advance(GRACE)
        if not await worker.run_due():
            return out


async def ai_moves(db: Database, game_id: int, seat: int) -> int:
    """Committed moves of the seat, read as any other process would read them."""
    row = await db.fetchone("SELECT COUNT(*) FROM moves WHERE game_id = ? AND seat = ?", (game_id, seat))
    assert row is not None
    return int(row[0])


async def human_move(host: Host, game_id: int, user: int, rng: random.Random) -> None:
    row, game = await host.session.engine_copy(game_id)
    seat = next(s for s in row.seats_of(user) if s in game.to_move())
    await host.turns.play(game_id, user, rng.choice(game.legal_moves(seat)))


async def test_an_ai_seat_is_accepted_at_once_and_moves_by_a_job_named_in_the_caption(
        ai_host: Host, players: AiPlayers, clock: FakeClock) -> None:
    host = ai_host
    lobby = await host.lobby.challenge(game="zaic", creator=A, opponents=[HARD])
    assert lobby.started and "🤖 AI (hard)" in lobby.report.caption  # type: ignore[union-attr]
    game_id = lobby.row.id
    row, game = await host.session.engine_copy(game_id)
    ai_seat = row.seats_of(HARD)[0]
    if ai_seat not in game.to_move():
        await human_move(host, game_id, A, random.Random(1))
    pending = await players.queue.pending(kind=ai_turns.TURN, game_id=game_id)
    assert len(pending) == 1 and pending[0].due_at > clock()  # waits for the human's board to be posted
    await players.hurry(game_id)
    assert (await players.queue.pending(kind=ai_turns.TURN, game_id=game_id))[0].due_at == clock()
    done = await run_due(players, clock)
    assert len(done) == 1 and done[0].report is not None
    assert f"{game.seat_name(ai_seat)} (🤖 AI (hard)) played" in done[0].report.caption
    row, game = await host.session.engine_copy(game_id)
    assert game.history[-1][0] == ai_seat and A in done[0].report.to_notify
    assert await players.queue.pending(kind=ai_turns.TURN, game_id=game_id) == []


async def test_the_job_worker_is_woken_by_an_ai_turn_and_not_by_every_move(ai_host: Host) -> None:
    """A move of a game between people enqueues no AI job, so it wakes nobody (a worker pass costs a read a
    lane); a move that makes it an AI's turn wakes the job loop at once."""
    host, rng = ai_host, random.Random(2)
    people = (await host.lobby.challenge(game="zaic", creator=A, opponents=[B])).row.id
    assert (await host.lobby.accept(people, B)).started
    host.worker.wakeup.clear()
    row, game = await host.session.engine_copy(people)
    await human_move(host, people, row.user_at(next(s for s in game.to_move() if s != CHANCE)), rng)
    assert not host.worker.wakeup.is_set()
    against_ai = (await host.lobby.challenge(game="zaic", creator=A, opponents=[HARD])).row.id
    row, game = await host.session.engine_copy(against_ai)
    if row.seats_of(A)[0] not in game.to_move():  # the AI opens: its turn job is already there
        assert await host.ai.queue.pending(kind=ai_turns.TURN, game_id=against_ai)
        return
    host.worker.wakeup.clear()
    await human_move(host, against_ai, A, rng)
    assert host.worker.wakeup.is_set()


async def test_a_crash_mid_search_loses_nothing_and_the_ai_moves_exactly_once(
        ai_host: Host, players: AiPlayers, clock: FakeClock, tmp_path: Path) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zrtz", creator=A, opponents=[MEDIUM])).row.id
    row, game = await host.session.engine_copy(game_id)
    ai_seat = row.seats_of(MEDIUM)[0]
    if ai_seat not in game.to_move():
        await human_move(host, game_id, A, random.Random(2))
    clock.advance(GRACE)
    first = await players.queue.claim(clock(), "dead-process", kinds=ai_turns.KINDS, lease=LEASE)
    assert len(first) == 1  # ... and that process dies while it thinks
    clock.advance(LEASE / 2)
    assert await players.queue.claim(clock(), players.owner, kinds=ai_turns.KINDS) == []  # still leased
    clock.advance(LEASE)
    again = await players.queue.claim(clock(), players.owner, kinds=ai_turns.KINDS)
    assert [j.id for j in again] == [first[0].id] and again[0].attempts == 2
    posted: list[Done] = []

    async def deliver(done: Done) -> None:
        posted.append(done)

    players.deliver = deliver
    await players.handle(again[0])
    await players.handle(again[0])  # a second run of the same job (a crash before ``done``)
    assert await ai_moves(host.db, game_id, ai_seat) == 1
    assert len(posted) == 2 and posted[1].report is not None  # the retry re-posts, never re-moves
    assert posted[0].report is not None and posted[0].report.board == posted[1].report.board


async def test_a_stale_job_does_nothing_when_the_human_resigned_first(
        ai_host: Host, players: AiPlayers, clock: FakeClock, tmp_path: Path) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zaic", creator=A, opponents=[EASY], settings={"rated": False})).row.id
    row, game = await host.session.engine_copy(game_id)
    if row.seats_of(EASY)[0] not in game.to_move():
        await human_move(host, game_id, A, random.Random(3))
    await host.turns.resign(game_id, A)
    assert await run_due(players, clock) == []
    assert await ai_moves(host.db, game_id, row.seats_of(EASY)[0]) == 0
    assert await players.queue.pending(kind=ai_turns.TURN, game_id=game_id) == []


async def test_ai_seats_get_no_deadline_and_people_keep_theirs(
        ai_host: Host, players: AiPlayers, clock: FakeClock) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zaic", creator=A, opponents=[EASY], settings={"clock": "1d"})).row.id
    for _ in range(4):
        row, game = await host.session.engine_copy(game_id)
        deadline = (await host.db.fetchone("SELECT deadline, remind_at FROM games WHERE id = ?", (game_id,)))
        if row.seats_of(EASY)[0] in game.to_move():
            assert deadline["deadline"] is None and deadline["remind_at"] is None
            await run_due(players, clock)
        else:
            assert deadline["deadline"] is not None
            await human_move(host, game_id, A, random.Random(4))


async def test_the_ai_answers_draw_offers_and_accepts_only_when_its_evaluation_says_so(
        ai_host: Host, players: AiPlayers, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zaic", creator=A, opponents=[EASY], settings={"rated": False})).row.id
    await run_due(players, clock)  # the AI's first move, if it has the first turn
    monkeypatch.setattr(ai, "accepts_draw", lambda game, seat, level, *, seed: False)  # the AI thinks it is better
    text = await host.turns.offer_draw(game_id, A)
    assert "🤖 AI (easy)" in str(text)
    done = await run_due(players, clock)
    assert [d.text for d in done] == ["🤖 AI (easy) declined the draw offer."]
    assert (await host.session.row(game_id)).draw_offers == []

    monkeypatch.setattr(ai, "accepts_draw", lambda game, seat, level, *, seed: True)
    await host.turns.offer_draw(game_id, A)
    done = await run_due(players, clock)
    assert len(done) == 1 and done[0].report is not None and done[0].report.outcome is not None
    assert done[0].report.outcome.is_draw and (await host.session.row(game_id)).status == "finished"


async def test_the_ai_never_offers_a_draw_itself(ai_host: Host, players: AiPlayers) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zaic", creator=A, opponents=[HARD])).row.id
    with pytest.raises(HostError, match="no draw offer"):
        await host.turns.offer_draw(game_id, HARD, accept_only=True)
    assert (await host.session.row(game_id)).draw_offers == []


async def test_ziggurat_partners_against_an_ai_team_plays_rounds_and_each_ai_turn_is_one_job(
        ai_host: Host, players: AiPlayers, clock: FakeClock) -> None:
    host = ai_host
    lobby = await host.lobby.challenge(game="ziggurat", creator=A, opponents=[EASY, B, EASY],
                                 options={"mode": "partners"})
    assert not lobby.started and lobby.waiting_for == [B]  # AI seats are taken at once; people accept
    lobby = await host.lobby.accept(lobby.row.id, B)
    assert lobby.started
    game_id, rng = lobby.row.id, random.Random(5)
    row, game = await host.session.engine_copy(game_id)
    teams = {s.user_id: game.teams()[s.seat] for s in row.seats}
    assert teams[A] == teams[B] != teams[EASY]  # a human partnership against the AI team
    ai_turns_seen = 0
    for _ in range(60):
        row, game = await host.session.engine_copy(game_id)
        if row.status != "active":
            break
        movers = sorted(game.to_move() - {CHANCE})
        user = row.user_at(movers[0])
        if bots.is_ai(user):
            before = len(game.history)
            done = await run_due(players, clock)
            assert done and done[0].report is not None
            ai_turns_seen += 1
            assert len((await host.session.engine_copy(game_id))[1].history) > before
        else:
            await human_move(host, game_id, user or 0, rng)
    assert ai_turns_seen >= 8  # several rounds, with both AI seats taking turns


async def test_zodiac_ai_choices_are_secret_like_a_persons(ai_host: Host, players: AiPlayers, clock: FakeClock) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zodiac", creator=A, opponents=[EASY])).row.id
    rng = random.Random(6)
    captions: list[str] = []
    for _ in range(12):
        row, game = await host.session.engine_copy(game_id)
        if game.phase not in ("duel", "side", "king"):  # type: ignore[attr-defined]
            break
        captions += [d.report.caption for d in await run_due(players, clock) if d.report is not None]
        row, game = await host.session.engine_copy(game_id)
        if A in [row.user_at(s) for s in game.to_move()]:
            await human_move(host, game_id, A, rng)
    row, game = await host.session.engine_copy(game_id)
    ai_seat = row.seats_of(EASY)[0]
    secrets = [t for s, t in game.history if s == ai_seat and game.announce(s, t) != t]
    assert len(secrets) >= 2  # its duel pick and its king
    shown = "\n".join(captions)
    assert "a secret duel pick" in shown and "a secret king choice" in shown
    assert not any(secret in shown for secret in secrets)


async def test_a_rated_game_against_the_ai_rates_both_and_the_leaderboard_can_leave_bots_out(
        db: Database, clock: FakeClock) -> None:
    from data import ratings as stored_ratings
    from host.ratings import service as ratings
    with ThreadPoolExecutor(1) as pool:
        host = Host(db, renderer=text_renderer, now=clock, on_finish=[ratings.record_result], ai=True, ai_pool=pool)
        players = host.ai
        game_id = (await host.lobby.challenge(game="zrtz", creator=A, opponents=[EASY], guild_id=7)).row.id
        rng = random.Random(8)
        while (await host.session.row(game_id)).status == "active":
            row, game = await host.session.engine_copy(game_id)
            if bots.is_ai(row.user_at(min(game.to_move() - {CHANCE}))):
                await run_due(players, clock)
            else:
                await human_move(host, game_id, A, rng)
    for user in (A, EASY):
        found = await db.fetchone("SELECT games FROM ratings WHERE user_id = ? AND scope = 'global'", (user,))
        assert found is not None and found["games"] == 1
    async with db.transaction() as conn:  # enough games to appear on the board
        await conn.execute("UPDATE ratings SET games = 6")
    await stored_ratings.recount(db)  # changed by hand: the board's counts follow
    everyone = await ratings.leaderboard(db, "zrtz", "global")
    people = await ratings.leaderboard(db, "zrtz", "global", bots_too=False)
    assert {s.user_id for s in everyone.rows} == {A, EASY} and everyone.players == 2
    assert [s.user_id for s in people.rows] == [A] and people.players == 1 and people.rows[0].rank == 1


async def test_hints_are_refused_in_rated_games_and_off_turn_and_announced_against_people(
        ai_host: Host, players: AiPlayers, clock: FakeClock) -> None:
    host = ai_host
    challenge = await host.lobby.challenge(game="zaic", creator=A, opponents=[B])
    rated = (await host.lobby.accept(challenge.row.id, B)).row.id
    row, game = await host.session.engine_copy(rated)
    mover = row.user_at(min(game.to_move()))
    with pytest.raises(HostError, match="unrated games only"):
        await players.hint(rated, mover or 0)

    casual = (await host.lobby.challenge(game="zaic", creator=A, opponents=[B], settings={"rated": False})).row.id
    await host.lobby.accept(casual, B)
    row, game = await host.session.engine_copy(casual)
    mover = row.user_at(min(game.to_move())) or 0
    waiting = A + B - mover
    with pytest.raises(HostError, match="not your turn"):
        await players.hint(casual, waiting)
    with pytest.raises(HostError, match="not playing"):
        await players.hint(casual, 999)
    hint = await players.hint(casual, mover)
    assert hint.move in game.legal_moves(min(game.to_move())) and hint.notice == f"💡 <@{mover}> used a hint."
    assert len((await host.session.engine_copy(casual))[1].history) == len(game.history)  # a hint plays nothing
    owed = [j for j in await host.outbox.pending() if j.dedupe == hint.notice_key]
    assert [(j.kind, j.game_id, j.payload["text"]) for j in owed] == [("notice", casual, hint.notice)]
    again = await players.hint(casual, mover)  # asked twice for the same move: the thread is told once
    assert again.notice_key == hint.notice_key
    assert len([j for j in await host.outbox.pending() if j.kind == "notice"]) == 1

    solo = (await host.lobby.challenge(game="zaic", creator=A, opponents=[EASY], settings={"rated": False})).row.id
    await run_due(players, clock)
    assert (await players.hint(solo, A)).notice is None  # nobody else to tell


async def test_the_process_pool_runs_the_real_search_out_of_process(db: Database, clock: FakeClock) -> None:
    players = Host(db, renderer=text_renderer, now=clock, ai=True, ai_workers=1).ai
    try:
        game = engines.get("zrtz").new(2)
        move = await players.think(game, 0, "easy", 42)
        assert move in game.legal_moves(0)
        assert move == ai.choose(game, 0, "easy", seed=42)  # the same answer as in this process
    finally:
        players.close()


async def test_on_a_live_clock_the_ai_never_flags_even_after_a_long_think(ai_host: Host, players: AiPlayers,
                                                                          clock: FakeClock) -> None:
    host = ai_host
    game_id = (await host.lobby.challenge(game="zaic", creator=A, opponents=[EASY], settings={"clock": "5m"})).row.id
    row, game = await host.session.engine_copy(game_id)
    if row.seats_of(EASY)[0] not in game.to_move():
        await human_move(host, game_id, A, random.Random(9))
    clock.advance(600)  # longer than the AI's whole 5 minutes
    assert (await host.correspondence.due(clock())).timeouts == []
    done = await run_due(players, clock)
    assert len(done) == 1 and done[0].report is not None and done[0].report.outcome is None
