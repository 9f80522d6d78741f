"""Matches: best of 3 or 5; the next game starts when one ends, with the sides swapped."""

from __future__ import annotations

import pytest

from host.app import Host
from host.correspondence.clocks import DAY
from host.correspondence.scheduler import Scheduler
from host.play import matches
from host.results import HostError
from tests.conftest import FakeClock

ALICE, BOB, CAROL = 101, 202, 303


async def light_user(host: Host, game_id: int) -> int:
    row = await host.session.row(game_id)
    obs = await host.boards.observation(game_id, None)
    user = row.user_at(obs["light_seat"])
    assert user is not None
    return user


async def test_a_zodiac_match_swaps_sides_without_a_duel_and_stops_when_decided(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    await host.turns.set_thread(first, 999)
    await host.turns.play(first, ALICE, "pick Tree")
    await host.turns.play(first, BOB, "pick Wolf")  # Tree beats Wolf
    await host.turns.play(first, ALICE, "light")
    assert await light_user(host, first) == ALICE

    report = await host.turns.resign(first, BOB)
    score = await matches.score(host.store, await host.session.row(first))
    assert "Match (best of 3)" in report.caption and dict(zip(score.users, score.points, strict=True)) == {
        ALICE: 1.0, BOB: 0.0}
    second = report.next_game
    assert second is not None and second.row.id != first
    obs = await host.boards.observation(second.row.id, None)
    assert obs["phase"] == "king", "later games skip the side duel"
    assert await light_user(host, second.row.id) == BOB, "the sides swap"
    assert second.row.thread_id == 999, "the match goes on in the same thread"
    assert (await host.boards.resolve("zodiac", ALICE, thread_id=999, guild_id=None)).id == second.row.id

    final = await host.turns.resign(second.row.id, BOB)
    assert final.next_game is None and f"<@{ALICE}> wins the match" in final.caption


async def test_without_a_sides_rule_the_seat_order_swaps_and_draws_count_half(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    first_row = await host.session.row(first)
    await host.turns.offer_draw(first, ALICE)
    drawn = await host.turns.offer_draw(first, BOB)
    assert not isinstance(drawn, str) and drawn.next_game is not None
    second = drawn.next_game.row
    assert [s.user_id for s in second.seats] == [s.user_id for s in first_row.seats][::-1]
    assert f"<@{ALICE}> 0.5 – 0.5 <@{BOB}>" in drawn.caption or f"<@{BOB}> 0.5 – 0.5 <@{ALICE}>" in drawn.caption


async def test_match_lengths_are_checked(host: Host) -> None:
    with pytest.raises(HostError, match="1, 3 or 5"):
        await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 2})
    with pytest.raises(HostError, match="two players"):
        await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB, CAROL], settings={"match": 3})


async def test_partners_named_by_the_challenger_stay_partners(host: Host) -> None:
    lobby = await host.lobby.challenge(game="ziggurat", creator=ALICE, opponents=[BOB, CAROL, 404],
                                 options={"mode": "partners"})
    for user in (BOB, CAROL, 404):
        lobby = await host.lobby.accept(lobby.row.id, user)
    row = lobby.row
    assert row.seats[row.seat_of(ALICE)].team == row.seats[row.seat_of(CAROL)].team
    assert row.seats[row.seat_of(BOB)].team == row.seats[row.seat_of(404)].team
    assert row.seats[row.seat_of(ALICE)].team != row.seats[row.seat_of(BOB)].team


async def test_recovery_continues_a_match_and_keeps_its_swapped_seats(host: Host, monkeypatch) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    order = [s.user_id for s in (await host.session.row(first)).seats]
    real_start = host.lobby.start

    async def crash(*args, **kwargs):
        raise RuntimeError("power cut")

    monkeypatch.setattr(host.lobby, "start", crash)
    report = await host.turns.resign(first, ALICE)
    assert report.next_game is None and (await host.session.row(first)).status == "finished"
    monkeypatch.setattr(host.lobby, "start", real_start)
    reports = await host.recover()  # the half-created next game is a full table left in "challenge"
    assert len(reports) == 1
    second = await host.session.row(reports[0].row.id)
    assert second.status == "active" and [s.user_id for s in second.seats] == order[::-1]
    assert await host.recover() == []


async def test_building_a_report_never_writes_the_match_goes_on_only_after_the_commit(host: Host) -> None:
    """A report of a finished match game only reads: rebuilding it (a re-post) starts no game."""
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    resigned = await host.turns.resign(first, ALICE)
    assert resigned.next_game is not None
    row, game = await host.session.engine_copy(first)
    statuses = ("challenge", "active", "finished")
    versions = {g.id: g.version for g in await host.store.games_of(ALICE, statuses)}
    assert len(versions) == 2
    again = await host.boards.report(row, game, list(game.history[-1:]))
    assert again.next_game is None and "Match (best of 3)" in again.caption
    assert {g.id: g.version for g in await host.store.games_of(ALICE, statuses)} == versions
    assert await host.turns.settled(again, game) is again and again.next_game is None, "the match went on once"


async def match_at_game_two(host: Host, game: str, clock: str = "none") -> tuple[int, int]:
    """A best of 3 whose game 1 ALICE resigned (BOB leads 1-0): (game 1, game 2), nobody moved in game 2."""
    lobby = await host.lobby.challenge(game=game, creator=ALICE, opponents=[BOB], settings={"match": 3, "clock": clock})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    await host.turns.set_thread(first, 999)
    report = await host.turns.resign(first, ALICE)
    assert report.next_game is not None
    return first, report.next_game.row.id


async def test_a_later_match_game_cannot_be_aborted_and_aborting_game_one_cancels_the_match(host: Host) -> None:
    _, second = await match_at_game_two(host, "dicenim")
    for user in (ALICE, BOB):  # the trailing player as well as the leader
        with pytest.raises(HostError, match=r"Game 2 of a match cannot be aborted.*Resign instead"):
            await host.turns.abort(second, user)
    assert (await host.session.row(second)).status == "active"
    final = await host.turns.resign(second, ALICE)
    assert f"<@{BOB}> wins the match" in final.caption, "the match still ends with a result"

    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    game_one = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    said = await host.turns.abort(game_one, BOB)
    assert "aborted the game before the first move" in said and "match (best of 3) is cancelled" in said
    row = await host.session.row(game_one)
    assert row.status == "aborted" and row.result is None and not row.match_pending
    assert not await host.store.has_later_match_game(game_one, game_one) and await host.recover() == []


async def test_the_clock_aborting_a_later_match_game_is_a_forfeit_and_the_match_goes_on(
        host: Host, clock: FakeClock) -> None:
    _, second = await match_at_game_two(host, "zaic", clock="1d")
    row = await host.session.row(second)
    [mover] = (await host.session.cached_engine(row)).to_move()
    absent = row.user_at(mover)
    clock.advance(DAY)
    tick = await Scheduler(host.correspondence).tick()
    [notice] = tick.aborted
    assert notice.game_id == second and f"counts as a game lost by <@{absent}>" in notice.text
    row = await host.session.row(second)
    assert row.status == "aborted" and not row.match_pending, "unrated like any abort, and the match took its step"
    score = await matches.score(host.store, row)
    expected = {ALICE: 0.0, BOB: 2.0} if absent == ALICE else {ALICE: 1.0, BOB: 1.0}
    assert score.played == 2 and dict(zip(score.users, score.points, strict=True)) == expected
    if absent == ALICE:  # 2-0: decided, and the notice is where the match's result is said
        assert notice.next_game is None and f"<@{BOB}> wins the match" in notice.text
    else:  # 1-1: game 3 starts in the same thread
        assert notice.next_game is not None and notice.next_game.row.thread_id == 999
        assert notice.next_game.row.settings["match_game"] == 3 and "game 3 starts below" in notice.text
    assert await host.recover() == [] and await matches.Matches(host.session, host.lobby, clock).continue_after(
        second) is None, "one next step only"


async def test_a_later_match_game_nobody_turned_up_for_ends_the_match_at_its_score(
        host: Host, clock: FakeClock) -> None:
    first, second = await match_at_game_two(host, "dicenim", clock="1d")  # both bid at once: both must move
    clock.advance(DAY)
    [notice] = (await Scheduler(host.correspondence).tick()).aborted
    assert "neither player scores" in notice.text and "nobody moved in game 2, so the match ends here" in notice.text
    assert f"<@{BOB}> wins the match" in notice.text and notice.next_game is None
    assert not await host.store.has_later_match_game(first, second) and await host.recover() == []
    assert (await matches.score(host.store, await host.session.row(second))).decided
