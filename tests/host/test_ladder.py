"""The ladder service on a real database: joins, challenges as real games, results once, idle players dropped."""

from __future__ import annotations

import pytest

import engines
from data.db import Database
from data.jobs import JobQueue
from host.app import Host
from host.ladder.rules import DAY
from host.ladder.service import KINDS, RESULT, SWEEP, Ladders, record_finish
from host.ratings import service as ratings
from host.results import HostError
from tests.conftest import FakeClock, text_renderer

GUILD, CHANNEL = 500, 600
A, B, C, D, E = 11, 12, 13, 14, 15


@pytest.fixture
def host(db: Database, clock: FakeClock) -> Host:
    return Host(db, games=engines.GAMES, renderer=text_renderer, now=clock,
                on_finish=[ratings.record_result, record_finish])


@pytest.fixture
def ladders(host: Host) -> Ladders:
    return Ladders(host.session, host.lobby, host.now)


async def order(ladders: Ladders) -> list[int]:
    found = await ladders.store.find(GUILD, "zrtz")
    assert found is not None
    return [r.user_id for r in await ladders.store.rungs(found.id)]


async def games_played(ladders: Ladders) -> dict[int, int]:
    found = await ladders.store.find(GUILD, "zrtz")
    assert found is not None
    return {r.user_id: r.games for r in await ladders.store.rungs(found.id)}


async def join_all(ladders: Ladders, *users: int) -> None:
    for user in users:
        await ladders.join(GUILD, "zrtz", user)


async def challenge(host: Host, ladders: Ladders, challenger: int, target: int) -> int:
    """A ladder challenge the target accepts: the game is under way."""
    lobby = await ladders.challenge(GUILD, CHANNEL, "zrtz", challenger, target)
    assert not lobby.started and lobby.waiting_for == [target]
    started = await host.lobby.accept(lobby.row.id, target)
    assert started.started
    return lobby.row.id


async def play_out(host: Host, ladders: Ladders, challenger: int, target: int, loser: int | None) -> int:
    """Challenge, accept and end the game: ``loser`` resigns, or both agree a draw (None)."""
    game_id = await challenge(host, ladders, challenger, target)
    if loser is None:
        await host.turns.offer_draw(game_id, challenger)
        await host.turns.offer_draw(game_id, target)
    else:
        await host.turns.resign(game_id, loser)
    assert (await host.session.row(game_id)).status == "finished"
    return game_id


async def game_count(db: Database) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM games")
    return int(row[0]) if row else 0


async def test_players_join_at_the_bottom_once(ladders: Ladders) -> None:
    await join_all(ladders, A, B, C)
    assert await order(ladders) == [A, B, C]
    with pytest.raises(HostError, match="already on the ZÈRTZ ladder, at #2"):
        await ladders.join(GUILD, "zrtz", B)
    with pytest.raises(HostError, match="no game called"):
        await ladders.join(GUILD, "chess", A)
    picture = await ladders.show(GUILD, "zrtz", C, _names)
    assert picture.image.startswith(b"\x89PNG") and "You are #3; you may challenge #1-#2" in picture.text


async def test_a_win_from_below_takes_the_losers_place(ladders: Ladders, host: Host) -> None:
    await join_all(ladders, A, B, C, D, E)
    game_id = await play_out(host, ladders, E, B, loser=B)
    assert await order(ladders) == [A, B, C, D, E]  # not yet: the result is a job
    jobs = await JobQueue(host.db).pending(kind=RESULT)
    assert [j.game_id for j in jobs] == [game_id]  # enqueued in the transaction that ended the game
    assert await ladders.run_due() == 1
    assert await order(ladders) == [A, E, B, C, D]
    assert (await games_played(ladders)) == {A: 0, E: 1, B: 1, C: 0, D: 0}
    notices = [j for j in await host.outbox.pending() if j.kind == "notice"]
    assert len(notices) == 1 and "climbs from #5 to #2" in notices[0].payload["text"]


async def test_a_loss_or_a_draw_changes_nothing(ladders: Ladders, host: Host) -> None:
    await join_all(ladders, A, B, C, D)
    await play_out(host, ladders, D, B, loser=D)
    await ladders.run_due()
    assert await order(ladders) == [A, B, C, D]
    await play_out(host, ladders, D, C, loser=None)
    await ladders.run_due()
    assert await order(ladders) == [A, B, C, D]
    assert await games_played(ladders) == {A: 0, B: 1, C: 1, D: 2}
    texts = sorted(j.payload["text"] for j in await host.outbox.pending() if j.kind == "notice")
    assert any("a draw changes nothing" in t for t in texts)
    assert any(f"<@{B}> stays at #2" in t for t in texts)


async def test_a_higher_player_winning_stays_above(host: Host, ladders: Ladders) -> None:
    await join_all(ladders, A, B, C)
    await play_out(host, ladders, C, A, loser=C)
    await ladders.run_due()
    assert await order(ladders) == [A, B, C]


@pytest.mark.parametrize(("who", "target", "said"), [
    (E, A, "#1, 4 places above you \\(#5\\); you may challenge up to 3 places above: #2-#4"),
    (B, D, "below you"),
    (C, C, "cannot challenge yourself"),
    (99, A, "You are not on the ZÈRTZ ladder"),
    (A, 99, "is not on the ZÈRTZ ladder"),
])
async def test_challenges_out_of_range_are_refused_and_create_nothing(ladders: Ladders, host: Host, who: int,
                                                                      target: int, said: str) -> None:
    await join_all(ladders, A, B, C, D, E)
    before = await game_count(host.db)
    with pytest.raises(HostError, match=said):
        await ladders.challenge(GUILD, CHANNEL, "zrtz", who, target)
    assert await game_count(host.db) == before


async def test_one_live_ladder_game_per_pair(ladders: Ladders, host: Host) -> None:
    await join_all(ladders, A, B, C)
    lobby = await ladders.challenge(GUILD, CHANNEL, "zrtz", C, B)
    before = await game_count(host.db)
    for who, target in ((C, B), (C, B)):
        with pytest.raises(HostError, match=f"already have a ladder game with <@{B}> \\(#{lobby.row.id}\\)"):
            await ladders.challenge(GUILD, CHANNEL, "zrtz", who, target)
    assert await game_count(host.db) == before
    await ladders.challenge(GUILD, CHANNEL, "zrtz", C, A)  # someone else is fine
    await host.lobby.decline(lobby.row.id, B)  # a declined challenge is no longer in the way
    await ladders.challenge(GUILD, CHANNEL, "zrtz", C, B)


async def test_the_challenge_is_a_normal_game_with_the_ladders_clock(ladders: Ladders, host: Host) -> None:
    await join_all(ladders, A, B)
    game_id = await challenge(host, ladders, B, A)
    row = await host.session.row(game_id)
    assert row.game == "zrtz" and row.settings["clock"] == "3d" and row.settings["rated"] is True
    assert row.deadline is not None and row.guild_id == GUILD and row.channel_id == CHANNEL


async def test_settings_need_manage_server_and_sane_values(ladders: Ladders) -> None:
    await join_all(ladders, A, B, C, D, E)
    with pytest.raises(HostError, match="Manage Server"):
        await ladders.settings(GUILD, "zrtz", False, reach=4)
    for bad, said in (({"reach": 0}, "reach"), ({"inactive_days": 400}, "inactivity"), ({"clock": "5m"}, "days")):
        with pytest.raises(HostError, match=said):
            await ladders.settings(GUILD, "zrtz", True, **bad)  # type: ignore[arg-type]
    assert "reach 3 places" in await ladders.settings(GUILD, "zrtz", False)  # anyone may look
    text = await ladders.settings(GUILD, "zrtz", True, reach=4, clock="7d", rated=False)
    assert "reach 4 places" in text and "7 days per move" in text and "unrated" in text
    lobby = await ladders.challenge(GUILD, CHANNEL, "zrtz", E, A)  # 4 places up is now in reach
    assert lobby.row.settings["clock"] == "7d" and lobby.row.settings["rated"] is False


async def test_looking_at_the_settings_creates_no_ladder_and_a_change_does(ladders: Ladders, host: Host) -> None:
    said = await ladders.settings(GUILD, "zodiac", False)
    assert said.startswith("This server has no **Zodiac Chess ladder** yet: `/ladder join` starts it with "
                           "challenges reach 3 places up") and "3 days per move and are rated" in said
    assert await ladders.store.find(GUILD, "zodiac") is None
    assert [j for j in await JobQueue(host.db).pending() if j.kind in KINDS] == []
    changed = await ladders.settings(GUILD, "zodiac", True, reach=5)
    assert changed.startswith("**Zodiac Chess ladder** settings changed: challenges reach 5 places up")
    ladder = await ladders.store.find(GUILD, "zodiac")
    assert ladder is not None and ladder.reach == 5
    assert [j.kind for j in await JobQueue(host.db).pending() if j.kind in KINDS] == [SWEEP]
    assert (await ladders.settings(GUILD, "zodiac", False)).startswith("**Zodiac Chess ladder** settings now: "
                                                                        "challenges reach 5")
    assert await ladders.store.find(GUILD, "zodiac") == ladder, "looking changes nothing, not even the version"


async def test_idle_players_are_dropped_by_the_daily_job(ladders: Ladders, host: Host, clock: FakeClock) -> None:
    await ladders.settings(GUILD, "zrtz", True, inactive_days=7)
    await join_all(ladders, A, B, C, D, E)
    clock.advance(2 * DAY)
    await challenge(host, ladders, C, B)  # stays in play: playing counts as activity
    clock.advance(2 * DAY)
    await play_out(host, ladders, D, A, loser=D)
    await ladders.run_due()
    clock.advance(4 * DAY)  # day 8: E never played
    assert await ladders.run_due() == 1
    assert await order(ladders) == [A, B, C, D]
    assert await ladders.run_due() == 0  # the next sweep is tomorrow, once
    assert [j.kind for j in await JobQueue(host.db).pending() if j.kind in KINDS] == [SWEEP]
    clock.advance(4 * DAY)  # day 12: A and D idle for 8 days; B and C still playing
    await ladders.run_due()
    assert await order(ladders) == [B, C]
    await ladders.join(GUILD, "zrtz", E)  # a dropped player may come back, at the bottom
    assert await order(ladders) == [B, C, E]


async def test_a_result_job_after_a_crash_does_its_work_once(ladders: Ladders, host: Host, clock: FakeClock) -> None:
    await join_all(ladders, A, B, C)
    game_id = await play_out(host, ladders, C, A, loser=A)
    queue = JobQueue(host.db)
    claimed = await queue.claim(clock(), "dead-worker", kinds=[RESULT])
    assert [j.game_id for j in claimed] == [game_id]
    await ladders.apply_result(game_id, [C])  # the dead worker got this far: its transaction committed
    assert await order(ladders) == [C, A, B]
    restarted = Ladders(host.session, host.lobby, host.now)
    assert await restarted.run_due() == 0  # still leased by the dead worker
    clock.advance(120)
    assert await restarted.run_due() == 1
    assert await order(ladders) == [C, A, B]
    assert await games_played(ladders) == {C: 1, A: 1, B: 0}  # counted once, not twice
    assert await queue.pending(kind=RESULT) == []
    assert len([j for j in await host.outbox.pending() if j.kind == "notice"]) == 1


async def test_a_crash_before_the_result_loses_nothing(ladders: Ladders, host: Host, clock: FakeClock) -> None:
    await join_all(ladders, A, B)
    await play_out(host, ladders, B, A, loser=A)
    await JobQueue(host.db).claim(clock(), "dead-worker", kinds=[RESULT])
    clock.advance(120)
    assert await Ladders(host.session, host.lobby, host.now).run_due() == 1
    assert await order(ladders) == [B, A]


async def test_leaving_makes_a_live_game_void_for_the_ladder(host: Host, ladders: Ladders) -> None:
    await join_all(ladders, A, B, C)
    game_id = await challenge(host, ladders, C, A)
    assert "left the **ZÈRTZ ladder**" in await ladders.leave(GUILD, "zrtz", A)
    with pytest.raises(HostError, match="not on the ZÈRTZ ladder"):
        await ladders.leave(GUILD, "zrtz", A)
    await host.turns.resign(game_id, A)
    await ladders.run_due()
    assert await order(ladders) == [B, C]
    assert await games_played(ladders) == {B: 0, C: 1}


@pytest.mark.parametrize("who", [B, D])
async def test_leaving_and_joining_again_during_a_game_still_voids_it(host: Host, ladders: Ladders, who: int) -> None:
    """The defender (B) or the challenger (D) leaves while the game is in play and joins again at the bottom:
    the game belonged to the membership that ended, so it moves nothing, whoever wins (reviewer R2, L1)."""
    await join_all(ladders, A, B, C, D)
    game_id = await challenge(host, ladders, D, B)
    await ladders.leave(GUILD, "zrtz", who)
    await ladders.join(GUILD, "zrtz", who)
    before = await order(ladders)
    assert before[-1] == who
    await host.turns.resign(game_id, D if who == B else B)  # the player who came back wins
    await ladders.run_due()
    assert await order(ladders) == before
    other = D if who == B else B
    assert await games_played(ladders) == {A: 0, C: 0, who: 0, other: 1}  # it counts for the one who stayed
    notes = [j.payload["text"] for j in await host.outbox.pending() if j.kind == "notice"]
    assert notes == ["🪜 ZÈRTZ ladder: a player left the ladder, so this game does not move it."]


async def test_a_void_game_is_not_in_play_on_the_new_line(host: Host, ladders: Ladders) -> None:
    """B leaves and joins again while D's challenge to B is in play: /ladder show's "Playing" counts the game for
    D, who is still one of its members, and not on B's new line (the rule that voids it, ``members``). Shown as
    a ladder in the same order where D's only game is with a player who left for good."""
    await join_all(ladders, A, B, C, D)
    await challenge(host, ladders, D, B)
    await ladders.leave(GUILD, "zrtz", B)
    await ladders.join(GUILD, "zrtz", B)
    other = GUILD + 1
    for user in (A, C, D, E):
        await ladders.join(other, "zrtz", user)
    lobby = await ladders.challenge(other, CHANNEL, "zrtz", E, D)
    assert (await host.lobby.accept(lobby.row.id, D)).started
    await ladders.leave(other, "zrtz", E)
    await ladders.join(other, "zrtz", B)
    voided = await ladders.show(GUILD, "zrtz", 99, _names)
    expected = await ladders.show(other, "zrtz", 99, _names)
    assert await order(ladders) == [A, C, D, B]
    assert voided.image == expected.image


async def test_a_void_game_in_play_does_not_keep_the_new_member(host: Host, ladders: Ladders,
                                                                clock: FakeClock) -> None:
    """A game in play keeps its players from being dropped as idle, but a void one only its members: B, back on
    the ladder while the game of the membership that ended goes on, is idle from the new join."""
    await ladders.settings(GUILD, "zrtz", True, inactive_days=7)
    await join_all(ladders, A, B, C, D)
    await challenge(host, ladders, D, B)
    await ladders.leave(GUILD, "zrtz", B)
    await ladders.join(GUILD, "zrtz", B)
    clock.advance(8 * DAY)
    await ladders.run_due()
    assert await order(ladders) == [D]


async def test_games_off_the_ladder_leave_it_alone(ladders: Ladders, host: Host) -> None:
    await join_all(ladders, A, B)
    lobby = await host.lobby.challenge(game="zrtz", creator=B, opponents=[A], guild_id=GUILD, channel_id=CHANNEL)
    await host.lobby.accept(lobby.row.id, A)
    await host.turns.resign(lobby.row.id, A)
    assert await JobQueue(host.db).pending(kind=RESULT) == []
    assert await order(ladders) == [A, B]


async def _names(user_id: int) -> str:
    return f"Player {user_id}"


async def test_challenging_is_activity_and_being_challenged_is_not(ladders: Ladders, host: Host,
                                                                   clock: FakeClock) -> None:
    await ladders.settings(GUILD, "zrtz", True, inactive_days=7)
    await join_all(ladders, A, B)
    clock.advance(6 * DAY)
    lobby = await ladders.challenge(GUILD, CHANNEL, "zrtz", B, A)
    await host.lobby.decline(lobby.row.id, A)
    clock.advance(2 * DAY)  # day 8: A idle for 8 days; B challenged on day 6
    await ladders.run_due()
    assert await order(ladders) == [B]


async def test_show_says_where_everyone_stands(host: Host, ladders: Ladders) -> None:
    with pytest.raises(HostError, match="no ZÈRTZ ladder yet"):
        await ladders.leave(GUILD, "zrtz", A)
    empty = await ladders.show(GUILD, "zrtz", A, _names)
    assert "0 players. You are not on it" in empty.text
    await join_all(ladders, A, B)
    await challenge(host, ladders, B, A)
    top = await ladders.show(GUILD, "zrtz", A, _names)
    assert "You are #1: the top." in top.text
    outsider = await ladders.show(GUILD, "zrtz", C, _names)
    assert outsider.image != top.image  # A's line is highlighted only for A


async def test_finished_ladder_jobs_are_purged_after_a_week(ladders: Ladders, host: Host, clock: FakeClock) -> None:
    await join_all(ladders, A, B)
    game_id = await play_out(host, ladders, B, A, loser=A)
    await ladders.run_due()
    assert await ladders.purge(clock()) == 0
    clock.advance(8 * DAY)
    await ladders.run_due()  # today's sweep; its successor stays pending
    assert await ladders.purge(clock()) == 1  # the result job; the sweep just done is kept a week
    assert await order(ladders) == [B, A]
    assert await ladders.apply_result(game_id, [B]) is None  # the game's row still says it was applied
