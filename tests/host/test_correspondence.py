"""Correspondence play over a real database: deadlines, reminders, timeouts, vacation, digest, overview."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

import engines
from data.db import Database
from host.app import Host
from host.correspondence.clocks import DAY, ClockState
from host.correspondence.scheduler import Scheduler
from host.results import HostError
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim

ALICE, BOB, CAROL = 101, 202, 303
HOUR = 3600.0


async def clocked(host: Host, clock: str = "1d", players: tuple[int, ...] = (ALICE, BOB), guild: int = 1) -> int:
    lobby = await host.lobby.challenge(game="dicenim", creator=players[0], opponents=list(players[1:]),
                                 settings={"clock": clock}, guild_id=guild, channel_id=2)
    for user in players[1:]:
        lobby = await host.lobby.accept(lobby.row.id, user)
    assert lobby.started
    await host.turns.set_thread(lobby.row.id, 9000 + lobby.row.id)
    return lobby.row.id


async def bid(host: Host, game_id: int, players: tuple[int, ...] = (ALICE, BOB)) -> None:
    """Everyone bids; the first player bids highest, so it is their turn to take."""
    for i, user in enumerate(players):
        await host.turns.play(game_id, user, "bid 3" if i == 0 else "bid 1")


async def clock_of(host: Host, game_id: int) -> ClockState:
    found = await host.db.fetchone("SELECT clock FROM games WHERE id = ?", (game_id,))
    assert found is not None
    return ClockState.from_json(found["clock"])


def restarted(db: Database, host: Host, clock: FakeClock) -> tuple[Host, Scheduler]:
    fresh = Host(db, games=host.games, renderer=text_renderer, now=clock)
    return fresh, Scheduler(fresh.correspondence)


async def test_the_clock_setting_is_checked_and_unclocked_games_have_no_deadline(host: Host) -> None:
    with pytest.raises(HostError, match="clock must be one of"):
        await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"clock": "4d"})
    plain = await clocked(host, "none")
    assert (await host.session.row(plain)).deadline is None
    await bid(host, plain)
    assert (await host.session.row(plain)).deadline is None
    assert (await host.session.row(await clocked(host, "2d"))).settings["clock"] == "2d"


async def test_deadlines_follow_each_turn(host: Host, clock: FakeClock) -> None:
    start = clock()
    game_id = await clocked(host, "1d")
    assert (await host.session.row(game_id)).deadline == start + DAY  # both bid at once, from the start
    clock.advance(HOUR)
    await host.turns.play(game_id, ALICE, "bid 3")
    assert (await host.session.row(game_id)).deadline == start + DAY  # Bob's turn began at the start
    clock.advance(HOUR)
    await host.turns.play(game_id, BOB, "bid 1")
    row = await host.session.row(game_id)
    assert row.deadline == start + 2 * HOUR + DAY
    assert (await clock_of(host, game_id)).started == {row.seat_of(ALICE): start + 2 * HOUR}


async def test_a_move_after_the_deadline_is_refused(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    await bid(host, game_id)
    clock.advance(DAY)
    with pytest.raises(HostError, match="time has run out"):
        await host.turns.play(game_id, ALICE, "take 1")
    await host.turns.resign(game_id, ALICE)  # resigning late is still allowed
    assert (await host.session.row(game_id)).status == "finished"


async def test_a_reminder_goes_out_once_per_turn_even_across_restarts(db: Database, host: Host,
                                                                       clock: FakeClock) -> None:
    game_id = await clocked(host, "2d")
    await bid(host, game_id)
    scheduler = Scheduler(host.correspondence)
    clock.advance(1.5 * DAY - 1)
    assert not await scheduler.tick()
    clock.advance(1)
    sent = (await scheduler.tick()).reminders
    assert [(r.user_id, r.game_id, r.dm) for r in sent] == [(ALICE, game_id, True)]
    assert "12h 00m left" in sent[0].text and f"/1/{9000 + game_id}" in sent[0].text
    assert not (await scheduler.tick()).reminders
    fresh, fresh_scheduler = restarted(db, host, clock)
    clock.advance(HOUR)
    assert not (await fresh_scheduler.tick()).reminders
    # A new turn earns a new reminder.
    await fresh.turns.play(game_id, ALICE, "take 1")
    clock.advance(1.5 * DAY)
    again = (await fresh_scheduler.tick()).reminders
    assert [r.user_id for r in again] == [BOB]


async def test_an_owed_reminder_is_news_only_while_its_turn_lasts(host: Host, clock: FakeClock) -> None:
    """The job runner asks before a retried send: the reminder is dropped once the turn was played or the game
    ended; in a simultaneous phase the opponent's move does not end this player's turn."""
    game_id = await clocked(host, "1d")
    clock.advance(0.75 * DAY)  # both still have to bid
    sent = {r.user_id: r.key for r in (await Scheduler(host.correspondence).tick()).reminders}
    assert set(sent) == {ALICE, BOB}
    assert sent[ALICE] is not None and sent[BOB] is not None
    await host.turns.play(game_id, BOB, "bid 1")
    assert await host.correspondence.owes_reminder(sent[ALICE]), "Bob's bid leaves Alice's turn as it was"
    assert not await host.correspondence.owes_reminder(sent[BOB]), "Bob has bid"
    await host.turns.play(game_id, ALICE, "bid 3")  # Alice bid highest: she moves again, on a new turn
    assert not await host.correspondence.owes_reminder(sent[ALICE])
    clock.advance(0.75 * DAY)
    [again] = (await Scheduler(host.correspondence).tick()).reminders
    assert again.key is not None and await host.correspondence.owes_reminder(again.key)
    await host.turns.resign(game_id, BOB)
    assert not await host.correspondence.owes_reminder(again.key), "the game is over"


async def test_thread_only_players_are_reminded_in_the_thread(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    await bid(host, game_id)
    assert "thread only" in await host.correspondence.set_notify(ALICE, "thread")
    clock.advance(0.75 * DAY)
    sent = (await Scheduler(host.correspondence).tick()).reminders
    assert [(r.user_id, r.dm, r.thread_id) for r in sent] == [(ALICE, False, 9000 + game_id)]
    with pytest.raises(HostError, match="Choose one of"):
        await host.correspondence.set_notify(ALICE, "carrier pigeon")


async def test_a_timeout_loses_a_two_player_game(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    await bid(host, game_id)
    with pytest.raises(HostError, match="still has 1d 0h"):
        await host.correspondence.timeout(game_id, (await host.session.row(game_id)).seat_of(ALICE) or 0)
    clock.advance(DAY)
    tick = await Scheduler(host.correspondence).tick()
    assert len(tick.timeouts) == 1 and not tick.reminders
    report = tick.timeouts[0]
    row = await host.session.row(game_id)
    alice = row.seat_of(ALICE)
    bob = row.seat_of(BOB)
    assert f"<@{ALICE}>) ran out of time (1 day per move)" in report.caption
    assert report.outcome is not None and report.outcome.winners == {bob}
    assert row.status == "finished" and row.deadline is None and alice is not None
    assert report.outcome.ranks[alice] == 2
    assert (await host.correspondence.due(clock() + 10 * DAY)).timeouts == []


async def test_a_timeout_skips_a_seat_of_a_three_player_game(host: Host, clock: FakeClock) -> None:
    players = (ALICE, BOB, CAROL)
    game_id = await clocked(host, "1d", players)
    await bid(host, game_id, players)
    scheduler = Scheduler(host.correspondence)
    clock.advance(DAY)
    first = (await scheduler.tick()).timeouts
    assert len(first) == 1 and first[0].outcome is None and "skipped from now on" in first[0].caption
    row = await host.session.row(game_id)
    assert row.status == "active" and row.deadline == clock() + DAY  # the next player's turn starts now
    nxt = next(iter((await clock_of(host, game_id)).started))
    clock.advance(DAY)
    second = (await scheduler.tick()).timeouts
    assert len(second) == 1 and second[0].outcome is not None
    ranks = second[0].outcome.ranks
    winner = ({0, 1, 2} - {row.seat_of(ALICE), nxt}).pop()
    assert ranks[winner] == 1 and ranks[nxt] == 2 and ranks[row.seat_of(ALICE) or 0] == 3


async def test_the_first_tick_after_downtime_catches_up_without_a_late_reminder(db: Database, host: Host,
                                                                                clock: FakeClock) -> None:
    game_id = await clocked(host, "2d")
    await bid(host, game_id)
    clock.advance(5 * DAY)  # the bot was down through the reminder and the deadline
    _, scheduler = restarted(db, host, clock)
    tick = await scheduler.tick()
    assert [r.row.id for r in tick.timeouts] == [game_id] and tick.reminders == []
    assert not await scheduler.tick()


async def test_a_game_nobody_moved_in_is_aborted_not_lost(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    clock.advance(DAY)
    tick = await Scheduler(host.correspondence).tick()
    assert tick.timeouts == [] and [n.game_id for n in tick.aborted] == [game_id]
    assert "aborted: nobody moved" in tick.aborted[0].text and tick.aborted[0].thread_id == 9000 + game_id
    row = await host.session.row(game_id)
    assert row.status == "aborted" and row.result is None
    assert not await Scheduler(host.correspondence).tick()
    # One bid is a move: then the player who did not bid loses.
    other = await clocked(host, "1d")
    await host.turns.play(other, ALICE, "bid 1")
    clock.advance(DAY)
    [report] = (await Scheduler(host.correspondence).tick()).timeouts
    assert report.outcome is not None and report.outcome.winners == {(await host.session.row(other)).seat_of(ALICE)}


async def test_live_clocks_charge_thinking_time(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "5m")
    clock.advance(60)
    await host.turns.play(game_id, ALICE, "bid 3")
    clock.advance(30)
    await host.turns.play(game_id, BOB, "bid 1")
    row = await host.session.row(game_id)
    state = await clock_of(host, game_id)
    assert state.remaining == {row.seat_of(ALICE): 240, row.seat_of(BOB): 210}
    assert row.deadline == clock() + 240
    assert (await host.correspondence.games_overview(ALICE, 1))[0].time_left == 240
    clock.advance(240)
    [report] = (await Scheduler(host.correspondence).tick()).timeouts
    assert "ran out of time (5 min live clock)" in report.caption


async def test_vacation_pauses_per_move_clocks_within_the_yearly_allowance(host: Host, clock: FakeClock) -> None:
    daily = await clocked(host, "1d")
    live = await clocked(host, "30m")
    await bid(host, daily)
    await bid(host, live)
    deadline = (await host.session.row(daily)).deadline
    live_deadline = (await host.session.row(live)).deadline
    assert deadline is not None
    clock.advance(12 * HOUR)
    said = await host.correspondence.vacation(ALICE, 3)
    assert "3 of 14 vacation days used" in said
    assert (await host.session.row(daily)).deadline == deadline + 3 * DAY
    assert (await host.session.row(live)).deadline == live_deadline
    scheduler = Scheduler(host.correspondence)
    clock.advance(DAY)
    assert [r.row.id for r in (await scheduler.tick()).timeouts] == [live]
    # The vacation continues where the first one ends, and the allowance is counted per year.
    assert "13 of 14" in await host.correspondence.vacation(ALICE, 10)
    with pytest.raises(HostError, match="1 vacation day"):
        await host.correspondence.vacation(ALICE, 2)
    assert (await host.session.row(daily)).deadline == deadline + 13 * DAY
    clock.advance(12 * DAY)
    assert not (await scheduler.tick()).timeouts
    clock.advance(0.5 * DAY)
    assert [r.row.id for r in (await scheduler.tick()).timeouts] == [daily]


async def test_two_vacation_requests_at_once_take_the_allowance_once(host: Host, clock: FakeClock) -> None:
    """A double submit of ``/vacation days:14``: the allowance is checked and taken in one transaction, locked
    per user, so the second request waits for the first, sees its 14 days and is refused."""
    game_id = await clocked(host, "1d")
    await bid(host, game_id)
    deadline = (await host.session.row(game_id)).deadline
    assert deadline is not None
    answers = await asyncio.gather(host.correspondence.vacation(ALICE, 14), host.correspondence.vacation(ALICE, 14),
                                   return_exceptions=True)
    granted = [a for a in answers if isinstance(a, str)]
    refused = [a for a in answers if isinstance(a, HostError)]
    assert len(granted) == 1 and "14 of 14 vacation days used" in granted[0]
    assert len(refused) == 1 and "0 vacation day(s) left" in str(refused[0])
    rows = await host.db.fetchall("SELECT days FROM vacations WHERE user_id = ?", (ALICE,))
    assert [int(r["days"]) for r in rows] == [14]
    assert (await host.session.row(game_id)).deadline == deadline + 14 * DAY


async def test_a_vacation_continuing_into_january_counts_for_the_new_year(db: Database) -> None:
    """The allowance is counted by the day a vacation starts: one continuing from a running vacation into the next
    year is the next year's, whatever day it was asked for."""
    clock = FakeClock(datetime(2026, 12, 28, 12, tzinfo=UTC).timestamp())
    host = Host(db, games={**engines.GAMES, DiceNim.name: DiceNim}, renderer=text_renderer, now=clock)
    assert "7 of 14 vacation days used in 2026" in await host.correspondence.vacation(ALICE, 7)  # to Jan 4
    assert "7 of 14 vacation days used in 2027" in await host.correspondence.vacation(ALICE, 7)  # from Jan 4
    clock.value = datetime(2027, 1, 10, tzinfo=UTC).timestamp()
    with pytest.raises(HostError, match=r"7 vacation day\(s\) left in 2027"):
        await host.correspondence.vacation(ALICE, 14)
    rows = await db.fetchall("SELECT year, starts, days FROM vacations WHERE user_id = ? ORDER BY starts", (ALICE,))
    assert [(r["year"], datetime.fromtimestamp(r["starts"], UTC).year, r["days"]) for r in rows] == [
        (2026, 2026, 7), (2027, 2027, 7)]


async def test_a_vacation_before_the_turn_begins_delays_the_new_turn(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    await bid(host, game_id)
    away_from = clock()
    await host.correspondence.vacation(BOB, 2)
    clock.advance(HOUR)
    await host.turns.play(game_id, ALICE, "take 1")
    # Bob's day to move only begins counting when his vacation ends.
    assert (await host.session.row(game_id)).deadline == away_from + 2 * DAY + DAY


async def test_the_daily_digest_lists_games_awaiting_the_player(host: Host, clock: FakeClock) -> None:
    mine = await clocked(host, "3d")
    await bid(host, mine)
    theirs = await clocked(host, "none", (BOB, ALICE))
    await bid(host, theirs, (BOB, ALICE))
    await host.correspondence.set_notify(ALICE, "digest")
    scheduler = Scheduler(host.correspondence)
    [digest] = (await scheduler.tick()).digests
    assert digest.user_id == ALICE and "1 game" in digest.text
    assert f"#{mine}, 3d 0h left" in digest.text and f"#{theirs}" not in digest.text
    assert not (await scheduler.tick()).digests
    clock.advance(DAY - 1)
    assert not (await scheduler.tick()).digests
    clock.advance(1)
    assert len((await scheduler.tick()).digests) == 1
    await host.correspondence.set_notify(ALICE, "dm")
    clock.advance(DAY)
    assert not (await scheduler.tick()).digests


async def test_games_overview_puts_the_most_urgent_first(host: Host, clock: FakeClock) -> None:
    slow = await clocked(host, "7d")
    await bid(host, slow)
    unclocked = await clocked(host, "none")
    await bid(host, unclocked)
    waiting = await clocked(host, "1d", (BOB, ALICE))
    await bid(host, waiting, (BOB, ALICE))
    fast = await clocked(host, "1d")
    await bid(host, fast)
    elsewhere = await clocked(host, "1d", guild=7)
    lines = await host.correspondence.games_overview(ALICE, 1)
    assert [g.game_id for g in lines] == [fast, slow, unclocked, waiting]
    assert lines[0].my_turn and lines[0].opponents == [BOB] and lines[0].thread_id == 9000 + fast
    assert not lines[-1].my_turn and lines[-1].to_move == [BOB]
    assert "your turn" in lines[0].text() and "1d 0h left" in lines[0].text()
    assert elsewhere not in [g.game_id for g in lines]
    assert (await host.correspondence.games_overview(BOB, 1))[0].game_id == waiting


async def test_history_lists_finished_games_with_their_result(host: Host, clock: FakeClock) -> None:
    lost = await clocked(host, "none")
    await host.turns.resign(lost, ALICE)
    clock.advance(60)
    won = await clocked(host, "1d")
    await bid(host, won, (BOB, ALICE))
    clock.advance(DAY)
    await Scheduler(host.correspondence).tick()
    await clocked(host, "none")  # still active: not history
    lines = (await host.correspondence.history(ALICE, 1)).lines
    assert [(h.game_id, h.result) for h in lines] == [(won, "won"), (lost, "lost")]
    assert "ran out of time" in lines[0].reason and f"<#{9000 + won}>" in lines[0].text()
    assert lines[1].unrated == "a player made fewer than 2 moves" and "unrated" in lines[1].text()


async def test_a_long_catch_up_runs_in_bounded_batches(host: Host, clock: FakeClock) -> None:
    games = [await clocked(host, "1d") for _ in range(5)]
    for game_id in games:
        await host.turns.play(game_id, ALICE, "bid 1")
    clock.advance(2 * DAY)
    scheduler = Scheduler(host.correspondence, batch=2)
    seen: list[int] = []
    tick = await scheduler.tick()
    while tick.more:
        assert len(tick.timeouts) <= 2
        seen += [r.row.id for r in tick.timeouts]
        tick = await scheduler.tick()
    seen += [r.row.id for r in tick.timeouts]
    assert sorted(seen) == games


async def test_a_stale_stored_deadline_is_repaired_instead_of_found_every_tick(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "1d")
    true_deadline = (await host.session.row(game_id)).deadline
    async with host.db.transaction() as tx:
        await tx.execute("UPDATE games SET deadline = ? WHERE id = ?", (clock() - 1, game_id))
    scheduler = Scheduler(host.correspondence)
    assert not (await scheduler.tick()).timeouts
    assert (await host.session.row(game_id)).deadline == true_deadline
    assert (await host.correspondence.due(clock())).timeouts == []


async def test_two_ticks_at_the_same_instant_send_a_reminder_and_a_digest_once(host: Host, clock: FakeClock) -> None:
    game_id = await clocked(host, "3d")
    await bid(host, game_id)
    await host.correspondence.set_notify(BOB, "digest")
    clock.advance(2.25 * DAY)
    first, second = await asyncio.gather(Scheduler(host.correspondence).tick(), Scheduler(host.correspondence).tick())
    assert len(first.reminders) + len(second.reminders) == 1
    assert len(first.digests) + len(second.digests) == 0  # Bob is not to move: no digest, but taken once
    await host.turns.play(game_id, ALICE, "take 1")
    clock.advance(DAY)
    first, second = await asyncio.gather(Scheduler(host.correspondence).tick(), Scheduler(host.correspondence).tick())
    assert len(first.digests) + len(second.digests) == 1


async def test_a_tick_that_listed_a_digest_another_tick_sent_sends_no_second_one(host: Host, clock: FakeClock) -> None:
    """Two processes' ticks both list Bob's due digest; the first sends it and moves it a day on. The second, reading
    it after that, once took the next day's digest at once (a second message, keyed a day later): 1 in 3 runs of
    the test above on PostgreSQL."""
    game_id = await clocked(host, "3d")
    await bid(host, game_id)
    await host.turns.play(game_id, ALICE, "take 1")
    await host.correspondence.set_notify(BOB, "digest")
    clock.advance(DAY / 4)
    assert await host.correspondence.due_digests(clock()) == [BOB]
    sent = await host.correspondence.digest(BOB, clock())
    assert sent is not None and "your turn in 1 game" in sent.text
    assert await host.correspondence.digest(BOB, clock()) is None, "the late tick finds it not due"
    owed = [j for j in await host.outbox.pending() if j.kind == "digest"]
    assert [j.dedupe for j in owed] == [sent.key]


async def test_a_digest_that_keeps_failing_steps_aside_for_an_hour(host: Host, clock: FakeClock,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Its user stayed due, so ``more`` stayed true and ``run_once`` ticked without end."""
    await host.correspondence.set_notify(BOB, "digest")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a game of the overview no longer replays")

    monkeypatch.setattr(host.correspondence, "games_overview", broken)
    clock.advance(DAY / 4)
    scheduler = Scheduler(host.correspondence, batch=1)
    tick = await scheduler.tick()
    assert tick.digests == [] and not tick.more, "the broken digest no longer counts as due"
    assert await host.correspondence.due_digests(clock()) == []
    assert await host.correspondence.due_digests(clock() + 3601) == [BOB]


async def test_a_timed_out_duel_pick_counts_as_tree(host: Host, clock: FakeClock) -> None:
    """Zodiac rule 1.2e: the rules pick for a player who ran out of time in the side duel."""
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB], settings={"clock": "1d"})
    game_id = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    await host.turns.play(game_id, ALICE, "pick Crane")  # Crane beats Tree
    clock.advance(DAY)
    tick = await Scheduler(host.correspondence).tick()
    assert len(tick.timeouts) == 1
    caption = tick.timeouts[0].caption
    assert "ran out of time" in caption and "make that move for them" in caption and "Tree" not in caption
    row = await host.session.row(game_id)
    obs = await host.boards.observation(game_id, ALICE)
    assert row.status == "active" and obs["duel"]["winner"] == row.seat_of(ALICE)


async def test_two_absent_duellists_do_not_tie_forever(host: Host, clock: FakeClock) -> None:
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB], settings={"clock": "1d"})
    game_id = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    await host.turns.play(game_id, ALICE, "pick Tree")
    await host.turns.play(game_id, BOB, "pick Tree")  # a tie: a new duel round, nobody picks again
    clock.advance(DAY)
    await Scheduler(host.correspondence).tick()
    row = await host.session.row(game_id)
    # Not a stand-in Tree tying again: both ran out at the same moment, a double forfeit (the ruling below).
    assert row.status == "aborted" and row.deadline is None


async def king_choice(host: Host, match: int = 1) -> int:
    """A Zodiac game at its king choice, where both players choose at once and both clocks start together."""
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2,
                                       settings={"clock": "1d", "match": match})
    game_id = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    await host.turns.set_thread(game_id, 9000 + game_id)
    await host.turns.play(game_id, ALICE, "pick Tree")
    await host.turns.play(game_id, BOB, "pick Wolf")  # Tree beats Wolf: Alice chooses a side
    await host.turns.play(game_id, ALICE, "light")
    obs = await host.boards.observation(game_id, None)
    assert obs["phase"] == "king" and len(obs["to_move"]) == 2
    return game_id


async def test_both_players_out_of_time_at_once_is_a_double_forfeit(host: Host, clock: FakeClock) -> None:
    """Neither chose a king: both clocks ran out at the same moment, so seat order must not pick the loser. The
    game is aborted, unrated, as when nobody moved (docs/correspondence.md, Timeouts)."""
    game_id = await king_choice(host)
    clock.advance(DAY + 60)
    tick = await Scheduler(host.correspondence).tick()
    assert tick.timeouts == []
    [notice] = tick.aborted
    row = await host.session.row(game_id)
    first, second = row.user_at(0), row.user_at(1)
    assert notice.text.startswith(f"⏰ Zodiac Chess #{game_id} is aborted: <@{first}> and <@{second}> both ran out of"
                                  " time at the same moment (1 day per move)")
    row = await host.session.row(game_id)
    assert row.status == "aborted" and row.result is None
    assert await host.db.fetchall("SELECT * FROM ratings") == []


async def test_a_double_forfeit_in_game_one_cancels_its_match(host: Host, clock: FakeClock) -> None:
    game_id = await king_choice(host, match=3)
    clock.advance(DAY + 60)
    [notice] = (await Scheduler(host.correspondence).tick()).aborted
    assert notice.text.endswith("The game is unrated. The match (best of 3) is cancelled with it.")
    row = await host.session.row(game_id)
    assert row.status == "aborted" and not row.match_pending and await host.recover() == []


async def test_in_a_simultaneous_phase_the_first_to_run_out_still_loses(host: Host, clock: FakeClock) -> None:
    """Bob's vacation moved his deadline: when Alice's clock ran out he still had time, so she lost on time, even
    if the scheduler only looks after both deadlines passed (the bot was down)."""
    game_id = await king_choice(host)
    await host.correspondence.vacation(BOB, 1)
    clock.advance(3 * DAY)
    assert len((await Scheduler(host.correspondence).tick()).timeouts) == 1
    row = await host.session.row(game_id)
    assert row.status == "finished" and row.result is not None
    assert row.result["ranks"][row.seat_of(BOB)] == 1 and row.result["ranks"][row.seat_of(ALICE)] == 2


async def test_one_broken_game_does_not_hold_up_the_others(host: Host, clock: FakeClock) -> None:
    broken = await clocked(host)
    await bid(host, broken)
    healthy = await clocked(host)
    await bid(host, healthy)
    async with host.db.transaction() as conn:  # a log that no longer replays (say, after a rules fix)
        await conn.execute("INSERT INTO moves (game_id, ply, seat, text, at) VALUES (?, 99, 0, 'take 9', 0)",
                           (broken,))
    host.session.engines.clear()
    clock.advance(DAY)
    tick = await Scheduler(host.correspondence).tick()
    assert [r.row.id for r in tick.timeouts] == [healthy]
    assert (await host.session.row(broken)).status == "active"


async def test_a_game_that_keeps_failing_steps_aside_for_an_hour(host: Host, clock: FakeClock) -> None:
    broken = await clocked(host)
    await bid(host, broken)
    async with host.db.transaction() as conn:
        await conn.execute("INSERT INTO moves (game_id, ply, seat, text, at) VALUES (?, 99, 0, 'take 9', 0)",
                           (broken,))
    host.session.engines.clear()
    clock.advance(DAY)
    scheduler = Scheduler(host.correspondence, batch=1)
    first = await scheduler.tick()
    assert first.timeouts == [] and not first.more, "the broken game no longer counts as due"
    assert (await host.correspondence.due(clock())).timeouts == []
    assert broken in (await host.correspondence.due(clock() + 3601)).timeouts
