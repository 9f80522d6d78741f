"""Game reviews through the host on both databases: who may ask, one stored review per game, the job's pool calls
leaving room for AI turns, and the marks in the replay's captions. The searches run in a thread pool at the
scaled work of tests/ai/test_review.py."""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any, cast

import pytest

import engines
from ai import levels
from ai import review as reviewing
from data.db import Database
from data.jobs import JobQueue
from data.reviews import Reviews
from data.store import GameRow
from engines import CHANCE
from host.ai_players import turns as ai_turns
from host.ai_players import worker as ai_worker
from host.ai_players.reviews import BACKOFF, GIVE_UP, KIND, GameReviews, ReviewPost, start_ply
from host.ai_players.turns import Done
from host.app import Host
from host.play import bots
from host.records.replay import StepOf
from host.results import HostError
from tests.conftest import FakeClock, text_renderer

A, B, STRANGER = 2001, 2002, 2003
HARD = bots.user_of("hard")
PNG = b"\x89PNG"


@pytest.fixture(autouse=True)
def small_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.WORK, "hard", levels.Work(iterations=12, solve=3, solve_nodes=200, prior_visits=-1,
                                                         alphabeta=60, tactical=1, tactical_nodes=300))
    monkeypatch.setattr(levels, "ROLLOUT_DEPTH", {name: 3 for name in engines.GAMES})


@pytest.fixture
async def host(db: Database, clock: FakeClock) -> AsyncIterator[Host]:
    """The bot's wiring with a thread pool for the AI (one search at a time, as with ``AI_WORKERS=1``)."""
    with ThreadPoolExecutor(1) as pool:
        built = Host(db, renderer=text_renderer, now=clock, ai=True, ai_pool=pool)
        yield built
        built.ai.close()


async def zaic(host: Host, guild_id: int | None = 1, moves: int = 8, finish: bool = True) -> int:
    """A Zaic game of A and B with ``moves`` random moves, resigned by A when ``finish``."""
    lobby = await host.lobby.challenge(game="zaic", creator=A, opponents=[B], guild_id=guild_id,
                                       channel_id=5 if guild_id else None)
    lobby = await host.lobby.accept(lobby.row.id, B)
    game_id = lobby.row.id
    rng = random.Random(game_id)
    for _ in range(moves):
        row, game = await host.session.engine_copy(game_id)
        if game.outcome() is not None:
            break
        seat = sorted(game.to_move() - {CHANCE})[0]
        await host.turns.play(game_id, row.user_at(seat), rng.choice(game.legal_moves(seat)))
    if finish and (await host.session.row(game_id)).status == "active":
        await host.turns.resign(game_id, A)
    return game_id


def posts_into(host: Host) -> list[ReviewPost]:
    posted: list[ReviewPost] = []

    async def deliver(post: ReviewPost) -> None:
        posted.append(post)

    host.reviews.deliver = deliver
    return posted


async def test_only_a_finished_game_and_a_stranger_only_for_a_game_played_in_a_server(host: Host) -> None:
    live = await zaic(host, finish=False)
    with pytest.raises(HostError, match="is not finished"):
        await host.reviews.request(live, A)
    private = await zaic(host, guild_id=None)
    with pytest.raises(HostError, match="only its players can review it"):
        await host.reviews.request(private, STRANGER)
    assert "being prepared" in (await host.reviews.request(private, B)).text
    public = await zaic(host)
    with pytest.raises(HostError, match="belongs to another server"):
        await host.reviews.request(public, STRANGER, guild_id=2)  # as its replay is refused there
    assert "being prepared" in (await host.reviews.request(public, B, guild_id=2)).text  # a player may, anywhere
    answer = await host.reviews.request(public, STRANGER, guild_id=1)
    assert answer.post is None and "being prepared" in answer.text
    with pytest.raises(HostError, match="use /zaic review"):
        await host.reviews.request(public, A, game="zrtz")
    queued = await JobQueue(host.db).pending(kind=KIND)
    assert sorted(j.game_id for j in queued) == [private, public]  # the refused requests enqueued nothing


async def test_the_job_judges_every_ply_stores_once_and_a_second_request_answers_from_the_store(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    posted = posts_into(host)
    game_id = await zaic(host)
    await host.reviews.request(game_id, A)
    await host.reviews.request(game_id, B)  # before the job ran: still one job
    assert len(await JobQueue(host.db).pending(kind=KIND, game_id=game_id)) == 1
    calls: list[int] = []
    real = ai_worker.judge

    def counted(state: dict[str, Any], *args: Any) -> dict[str, Any] | None:
        calls.append(len(state["history"]))
        return real(state, *args)

    monkeypatch.setattr(ai_worker, "judge", counted)
    await host.worker.drain()
    row, game = await host.session.engine_copy(game_id)
    choices = [p for p, (s, t) in enumerate(game.history) if s != CHANCE and t not in reviewing.META]
    assert calls == choices  # one pool call per ply, in order
    stored = await Reviews(host.db).get(game_id)
    assert stored is not None and stored.level == "hard" and stored.data["plies"] == len(game.history)
    whole = [j.to_dict() for j in reviewing.review(lambda: type(game).new(game.num_players, game.options),
                                                   game.history, seed=ai_turns.ai_seed(row.seed, "review"),
                                                   level="hard", start=start_ply(row))]
    assert [{k: j[k] for k in whole[0]} for j in stored.data["judged"]] == whole  # ply by ply = the whole game
    assert all(j["best_label"] and j["played_label"] for j in stored.data["judged"])
    assert len(posted) == 1 and posted[0].chart.image.startswith(PNG)
    caption = posted[0].caption
    assert f"#{game_id} review" in caption and "judged move" in caption
    for item in stored.data["judged"]:
        if item["verdict"] in ("mistake", "blunder"):
            assert f"— better: {item['best_label']}" in caption
    calls.clear()
    again = await host.reviews.request(game_id, STRANGER)
    assert again.post is not None and again.post.caption == caption and again.post.chart.image.startswith(PNG)
    await host.worker.drain()
    assert calls == [] and len(posted) == 1 and await JobQueue(host.db).pending(kind=KIND) == []


async def test_a_review_given_up_can_be_asked_again(host: Host, clock: FakeClock,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    posted = posts_into(host)
    game_id = await zaic(host, moves=4)
    real = ai_worker.judge

    def broken(*args: Any) -> None:
        raise RuntimeError("the pool is broken")

    monkeypatch.setattr(ai_worker, "judge", broken)
    await host.reviews.request(game_id, A)
    for _ in range(GIVE_UP):
        await host.worker.run_due()
        clock.advance(BACKOFF.cap)
    assert [j.game_id for j in await JobQueue(host.db).given_up(kind=KIND)] == [game_id]
    monkeypatch.setattr(ai_worker, "judge", real)
    assert "being prepared" in (await host.reviews.request(game_id, A)).text
    await host.worker.drain()
    assert len(posted) == 1 and await Reviews(host.db).get(game_id) is not None


async def test_an_ai_turn_runs_while_a_review_is_under_way(host: Host, clock: FakeClock,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """One search process: the AI's move is searched between two plies of the review, not after the review."""
    posts_into(host)
    events: list[str] = []
    judging = threading.Event()
    real_judge, real_choose = ai_worker.judge, ai_worker.choose

    def judge(*args: Any) -> dict[str, Any] | None:
        events.append("judge")
        judging.set()
        time.sleep(0.1)  # a ply's search takes a while
        return real_judge(*args)

    def choose(*args: Any) -> str:
        events.append("choose")
        return real_choose(*args)

    monkeypatch.setattr(ai_worker, "judge", judge)
    monkeypatch.setattr(ai_worker, "choose", choose)
    moved: list[Done] = []

    async def deliver(done: Done) -> None:
        moved.append(done)

    host.ai.register(host.worker, deliver)
    reviewed = await zaic(host, moves=12)
    await host.reviews.request(reviewed, A)
    runner = asyncio.ensure_future(host.worker.run())
    try:
        while not judging.is_set():
            await asyncio.sleep(0.01)
        lobby = await host.lobby.challenge(game="zaic", creator=A, opponents=[HARD], guild_id=1)
        row, game = await host.session.engine_copy(lobby.row.id)
        if row.seats_of(HARD)[0] not in game.to_move():
            await host.turns.play(row.id, A, game.legal_moves(row.seats_of(A)[0])[0])
        await host.ai.hurry(row.id)
        for _ in range(3000):
            if await Reviews(host.db).get(reviewed) is not None and moved:
                break
            await asyncio.sleep(0.01)
    finally:
        host.worker.close()
        await runner
    assert moved and await Reviews(host.db).get(reviewed) is not None
    first, last = events.index("judge"), len(events) - 1 - events[::-1].index("judge")
    assert first < events.index("choose") < last, events


async def test_the_replay_caption_shows_the_stored_mark_and_the_better_move(host: Host) -> None:
    game_id = await zaic(host, moves=4)
    _, game = await host.session.engine_copy(game_id)
    seat, played = game.history[2]
    item = {"ply": 2, "seat": seat, "played": played, "best": "x", "value": 0.2, "best_value": 0.9,
            "verdict": "blunder", "played_label": played, "best_label": "the better label"}
    before = await host.records.page("g", game_id, 3)
    assert "??" not in before.caption
    await Reviews(host.db).put(game_id, "hard", {"judged": [item], "plies": len(game.history)}, 0.0)
    page = await host.records.page("g", game_id, 3)  # step 3 shows ply 2
    assert f"`{played}`" in page.caption and "?? blunder — better: the better label" in page.caption
    assert "??" not in (await host.records.page("g", game_id, 2)).caption


async def dice_game(host: Host, name: str) -> int:
    """A finished game of A and B with dice between the moves: Zodiac played until a monkey's jump rolled the
    die and two more moves followed (monkeys preferred), Ziggurat for 40 plies; then A resigns."""
    lobby = await host.lobby.challenge(game=name, creator=A, opponents=[B], guild_id=1, channel_id=5)
    game_id = (await host.lobby.accept(lobby.row.id, B)).row.id
    rng = random.Random(3)
    for _ in range(400):
        row, game = await host.session.engine_copy(game_id)
        rolled = [p for p, (s, _) in enumerate(game.history) if s == CHANCE]
        if row.status != "active" or len(game.history) > (40 if name == "ziggurat" else rolled[0] + 3 if rolled
                                                          else 1000):
            break
        seat = rng.choice(sorted(game.to_move() - {CHANCE}))
        moves = game.legal_moves(seat)
        await host.turns.play(game_id, row.user_at(seat),
                              rng.choice([m for m in moves if m.startswith("Monkey")] or moves))
    if (await host.session.row(game_id)).status == "active":
        await host.turns.resign(game_id, A)
    return game_id


@pytest.mark.parametrize("name", ["zodiac", "ziggurat"])
async def test_the_review_numbers_a_move_as_the_replay_does(host: Host, name: str) -> None:
    """The review's "move N" (Ziggurat: "turn N", and which move of the turn) is what ``/<game> replay move:N``
    shows, with the same mark, though the game's dice (a monkey's roll, every Ziggurat turn's roll) are plies
    the replay counts inside a move."""
    game_id = await dice_game(host, name)
    _, game = await host.session.engine_copy(game_id)
    history = game.history
    rolls = [p for p, (s, _) in enumerate(history) if s == CHANCE]
    movers = [p for p, (s, t) in enumerate(history) if s != CHANCE and t not in reviewing.META]
    if name == "zodiac":  # the first move after the monkey's roll: ply + 1 is one more than its move number
        marked = [next(p for p in movers if p > rolls[0]), movers[-1]]
    else:  # a turn's second action, late in the game: its ply is far beyond its turn's number
        marked = [p for p in movers if history[p - 1][0] == history[p][0]][-2:]
    assert rolls and len(marked) == 2
    items = [{"ply": p, "seat": history[p][0], "played": history[p][1], "best": "x", "value": 0.2, "best_value": 0.45,
              "verdict": "mistake", "played_label": history[p][1], "best_label": f"<{p}>"} for p in marked]
    await Reviews(host.db).put(game_id, "hard", {"judged": items, "plies": len(history)}, 0.0)
    answer = await host.reviews.request(game_id, A)
    assert answer.post is not None
    for p in marked:
        line = next(line for line in answer.post.caption.splitlines() if line.endswith(f"better: <{p}>"))
        found = re.match(r"(move|turn) (\d+)(?: \((\d+)\w\w move of the turn\))? ", line)
        assert found is not None, line
        assert found.group(1) == ("turn" if name == "ziggurat" else "move")
        step = int(found.group(2))
        assert step != p + 1  # the ply's own number is not the replay's
        page = await host.records.page("g", game_id, step)
        plays = [line for line in page.caption.splitlines() if "`" in line and not line.startswith("🎲")]
        within = int(found.group(3) or 1)
        assert plays[within - 1].startswith(f"{game.seat_name(history[p][0])} ") or name == "zodiac"
        assert f"`{history[p][1]}`" in plays[within - 1] and plays[within - 1].endswith(f"? mistake — better: <{p}>")
        assert "(25% drop)" in line


def test_the_caption_never_shows_a_drop_across_a_threshold_its_verdict_did_not_cross() -> None:
    """The verdict is taken on the exact drop: 0.2979 is a mistake and reads 29%, not the blunder's "30%"; a blunder
    whose stored (rounded) values differ by a hair under 0.30 still reads 30%."""
    mistake = reviewing.Judged(ply=0, seat=1, played="2x1 g10 h", best="1x1 i5", value=0.1703, best_value=0.4682,
                               verdict="mistake")
    blunder = reviewing.Judged(ply=1, seat=0, played="a", best="b", value=0.2, best_value=0.49996, verdict="blunder")
    row = cast(GameRow, SimpleNamespace(id=7, players=2))
    caption = GameReviews._caption(row, "Zaic", [mistake, blunder], {}, ["<@1>", "<@2>"], ["Light", "Dark"],
                                   [StepOf(1, 1, 1), StepOf(2, 1, 1)])
    lines = caption.splitlines()
    assert "move 1 Dark: `2x1 g10 h` ? mistake (29% drop) — better: 1x1 i5" in lines
    assert "move 2 Light: `a` ?? blunder (30% drop) — better: b" in lines
