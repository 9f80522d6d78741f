"""The host over a real database: lobby, turns, illegal moves, dice, draws, restarts and races."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest

from data.db import Database
from engines import CHANCE
from host.app import Host
from host.results import HostError
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim

ALICE, BOB, CAROL = 101, 202, 303


async def started_game(host: Host, players: tuple[int, ...] = (ALICE, BOB)) -> int:
    lobby = await host.lobby.challenge(game="dicenim", creator=players[0], opponents=list(players[1:]), guild_id=1,
                                 channel_id=2)
    for user in players[1:]:
        lobby = await host.lobby.accept(lobby.row.id, user)
    assert lobby.started and lobby.report is not None
    return lobby.row.id


async def observation(host: Host, game_id: int) -> dict:
    return json.loads((await host.boards.board(game_id)).image)


async def test_a_challenge_waits_for_every_named_opponent(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB, CAROL])
    assert not lobby.started and sorted(lobby.waiting_for) == [BOB, CAROL]
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert not lobby.started and lobby.waiting_for == [CAROL]
    with pytest.raises(HostError, match="already accepted"):
        await host.lobby.accept(lobby.row.id, BOB)
    with pytest.raises(HostError, match="not addressed to you"):
        await host.lobby.accept(lobby.row.id, 999)
    lobby = await host.lobby.accept(lobby.row.id, CAROL)
    assert lobby.started and lobby.row.status == "active"
    assert sorted(s.user_id for s in lobby.row.seats) == [ALICE, BOB, CAROL]
    assert lobby.report is not None and "SHA-256" in lobby.report.caption


async def test_open_seats_fill_in_join_order_and_the_game_starts_when_full(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[], open_seats=1)
    assert lobby.open_seats == 1
    with pytest.raises(HostError, match="already in this game"):
        await host.lobby.join(lobby.row.id, ALICE)
    lobby = await host.lobby.join(lobby.row.id, CAROL)
    assert lobby.started
    with pytest.raises(HostError, match="already under way"):
        await host.lobby.join(lobby.row.id, BOB)


async def test_declining_ends_the_challenge(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB])
    with pytest.raises(HostError):
        await host.lobby.decline(lobby.row.id, CAROL)
    lobby = await host.lobby.decline(lobby.row.id, BOB)
    assert lobby.declined_by == BOB and lobby.row.status == "declined"
    with pytest.raises(HostError, match="was declined"):
        await host.lobby.accept(lobby.row.id, BOB)


async def test_bad_options_are_refused_with_a_reason(host: Host) -> None:
    with pytest.raises(HostError, match="stones"):
        await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], options={"stones": 4})
    with pytest.raises(HostError, match="no game called"):
        await host.lobby.challenge(game="chess", creator=ALICE, opponents=[BOB])
    with pytest.raises(HostError, match="2-3 players"):
        await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], open_seats=2)


async def test_moves_check_seat_turn_and_legality_and_change_nothing_when_refused(host: Host) -> None:
    game_id = await started_game(host)
    with pytest.raises(HostError, match="not playing"):
        await host.turns.play(game_id, CAROL, "bid 1")
    before = await host.session.row(game_id)
    with pytest.raises(HostError, match="not a legal move"):
        await host.turns.play(game_id, ALICE, "bid 7")
    after = await host.session.row(game_id)
    assert after.version == before.version
    await host.turns.play(game_id, ALICE, "bid 3")
    with pytest.raises(HostError, match="not your turn"):
        await host.turns.play(game_id, ALICE, "bid 2")
    report = await host.turns.play(game_id, BOB, "bid 1")
    # Both bids are in, so the host rolled the die for the starter at once.
    assert "🎲 roll" in report.caption
    obs = await observation(host, game_id)
    assert obs["cap"] in (1, 2, 3) and obs["to_move"] != [CHANCE]


async def test_a_restart_rebuilds_the_game_from_the_log(db: Database, clock: FakeClock, host: Host) -> None:
    game_id = await started_game(host)
    await host.turns.play(game_id, ALICE, "bid 2")
    await host.turns.play(game_id, BOB, "bid 1")
    before = await observation(host, game_id)
    fresh = Host(db, games=host.games, renderer=text_renderer, now=clock)
    assert await observation(fresh, game_id) == before
    fresh_row = await fresh.session.row(game_id)
    user = fresh_row.user_at(before["turn"])
    assert user is not None
    choices = await fresh.boards.move_choices(game_id, user, "take")
    assert choices and all(value.startswith("take") for _, value in choices)
    await fresh.turns.play(game_id, user, choices[0][1])


async def test_rolls_come_from_the_committed_seed_only(host: Host) -> None:
    game_id = await started_game(host)
    await host.turns.play(game_id, ALICE, "bid 2")
    report = await host.turns.play(game_id, BOB, "bid 1")
    row = await host.session.row(game_id)
    rolls = await host.boards.rolls(game_id)
    assert len(rolls) == 1 and rolls[0] in report.caption
    # Replaying the same seed from scratch draws the same roll.
    from host.play import dice
    twin = DiceNim.new(2)
    twin.play(0, "bid 2")
    twin.play(1, "bid 1")
    assert dice.roll_pending(twin, row.seed) == rolls
    assert dice.commitment(row.seed) == hashlib.sha256(row.seed.encode()).hexdigest()


async def test_two_moves_at_the_same_instant_apply_exactly_one(host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = await started_game(host)
    both_loaded = asyncio.Barrier(2)
    update = host.session.store.update

    async def update_once_both_have_loaded(*args: object, **kwargs: object) -> int:
        """The same instant: each move has read the game before either writes (without this, a fast
        first move may commit before the second reads, and then both bids are simply legal)."""
        await asyncio.wait_for(both_loaded.wait(), 5)
        return await update(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(host.session.store, "update", update_once_both_have_loaded)
    results = await asyncio.gather(host.turns.play(game_id, ALICE, "bid 1"), host.turns.play(game_id, BOB, "bid 2"),
                                   return_exceptions=True)
    errors = [r for r in results if isinstance(r, Exception)]
    assert len(errors) == 1 and isinstance(errors[0], HostError) and "same moment" in str(errors[0])
    obs = await observation(host, game_id)
    assert len(obs["bids"]) == 0  # one bid stands, hidden from the spectator
    assert obs["ply"] == 1


async def test_resigning_ends_a_two_player_game_and_reveals_the_seed(host: Host) -> None:
    game_id = await started_game(host)
    report = await host.turns.resign(game_id, ALICE)
    row = await host.session.row(game_id)
    assert row.status == "finished" and report.outcome is not None
    alice_seat = row.seat_of(ALICE)
    assert alice_seat not in report.outcome.winners and row.seed in report.caption
    with pytest.raises(HostError, match="is over"):
        await host.turns.play(game_id, BOB, "bid 1")


async def test_a_draw_needs_every_remaining_player(host: Host) -> None:
    game_id = await started_game(host, (ALICE, BOB, CAROL))
    said = await host.turns.offer_draw(game_id, ALICE)
    assert isinstance(said, str) and f"<@{BOB}>" in said and f"<@{CAROL}>" in said
    with pytest.raises(HostError, match="already offered"):
        await host.turns.offer_draw(game_id, ALICE)
    await host.turns.offer_draw(game_id, BOB)
    report = await host.turns.offer_draw(game_id, CAROL)
    assert not isinstance(report, str) and report.outcome is not None and report.outcome.is_draw


async def test_a_move_withdraws_draw_offers(host: Host) -> None:
    game_id = await started_game(host)
    await host.turns.offer_draw(game_id, ALICE)
    await host.turns.play(game_id, BOB, "bid 1")
    assert (await host.session.row(game_id)).draw_offers == []
    await host.turns.offer_draw(game_id, BOB)
    assert "declined" in await host.turns.decline_draw(game_id, ALICE)


async def test_abort_only_before_the_first_move(host: Host) -> None:
    game_id = await started_game(host)
    second = await started_game(host)
    await host.turns.play(second, ALICE, "bid 1")
    with pytest.raises(HostError, match="resign instead"):
        await host.turns.abort(second, BOB)
    assert "aborted" in await host.turns.abort(game_id, BOB)
    assert (await host.session.row(game_id)).status == "aborted"


async def test_resolve_finds_the_thread_game_or_the_only_game(host: Host) -> None:
    first = await started_game(host)
    with pytest.raises(HostError, match="no Dice Nim game"):
        await host.boards.resolve("dicenim", CAROL, thread_id=None, guild_id=1)
    assert (await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1)).id == first
    second = await started_game(host)
    with pytest.raises(HostError, match="2 active Dice Nim games"):
        await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1)
    await host.turns.set_thread(second, 555)
    assert (await host.boards.resolve("dicenim", ALICE, thread_id=555, guild_id=1)).id == second


async def test_playing_yourself_is_allowed_but_never_rated(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[ALICE])
    assert lobby.started and lobby.row.settings["rated"] is False
    await host.turns.play(lobby.row.id, ALICE, "bid 1")
    await host.turns.play(lobby.row.id, ALICE, "bid 2")


async def test_finish_hooks_share_the_transaction_that_ends_the_game(db: Database, clock: FakeClock) -> None:
    seen: list[tuple[int, str]] = []

    async def failing_hook(conn, row, game, now) -> None:
        seen.append((row.id, game.outcome().reason))
        raise RuntimeError("rating store down")

    host = Host(db, games={DiceNim.name: DiceNim}, renderer=text_renderer, now=clock, on_finish=[failing_hook])
    game_id = await started_game(host)
    with pytest.raises(RuntimeError):
        await host.turns.resign(game_id, ALICE)
    row = await host.session.row(game_id)
    assert seen and row.status == "active" and await host.store.moves(game_id) == []
    host.session.on_finish.clear()
    await host.turns.resign(game_id, ALICE)
    assert (await host.session.row(game_id)).status == "finished"


async def test_linking_the_thread_never_races_with_an_accept(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB])
    stale = await host.session.row(lobby.row.id)
    await host.turns.set_thread(lobby.row.id, None, 4242)
    assert (await host.session.row(lobby.row.id)).version == stale.version
    started = await host.lobby.accept(lobby.row.id, BOB)
    await host.turns.set_thread(lobby.row.id, 777)
    row = await host.session.row(lobby.row.id)
    assert started.started and row.thread_id == 777 and row.message_id == 4242


async def test_a_button_for_an_older_position_is_refused_exactly(host: Host) -> None:
    game_id = await started_game(host)
    await host.turns.play(game_id, ALICE, "bid 3", expected_ply=0)
    with pytest.raises(HostError, match="earlier position"):
        await host.turns.play(game_id, BOB, "bid 1", expected_ply=0)
    await host.turns.play(game_id, BOB, "bid 1", expected_ply=1)


async def test_recover_starts_a_full_table_that_a_crash_left_waiting(db: Database, clock: FakeClock,
                                                                     host: Host) -> None:
    from data.store import Seat

    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB])
    row = await host.session.row(lobby.row.id)
    await host.store.update(row, now=clock(), seats=[Seat(0, ALICE, True), Seat(1, BOB, True)])  # no start
    assert (await host.session.row(lobby.row.id)).status == "challenge"
    fresh = Host(db, games=host.games, renderer=text_renderer, now=clock)
    assert [r.row.id for r in await fresh.recover()] == [lobby.row.id]
    assert (await fresh.session.row(lobby.row.id)).status == "active"
    assert await fresh.recover() == []


async def test_readers_never_see_a_transaction_that_rolls_back(db: Database, clock: FakeClock) -> None:
    seen: list[str] = []

    async def slow_failing_hook(conn, row, game, now) -> None:
        found = await db.fetchone("SELECT status FROM games WHERE id = ?", (row.id,))
        seen.append(found["status"])
        raise RuntimeError("ratings down")

    host = Host(db, games={DiceNim.name: DiceNim}, renderer=text_renderer, now=clock, on_finish=[slow_failing_hook])
    game_id = await started_game(host)
    with pytest.raises(RuntimeError):
        await host.turns.resign(game_id, ALICE)
    assert seen == ["active"], "a read during the finishing transaction sees only committed data"
