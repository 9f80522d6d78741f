"""Tournaments through the host: every format played to the end over a real database (SQLite and PostgreSQL),
with the job worker.

Games are decided by scripted resignations and agreed draws (``decide``), so every result is known and
the standings can be checked; a second Host over the same database stands in for a restart.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import engines
from data import tournaments as repo
from data.db import Database
from host.app import Host
from host.play import bots
from host.results import HostError
from host.tournaments import image as tournament_image
from host.tournaments.jobs import Post, TournamentWorker
from host.tournaments.plan import Picture
from host.tournaments.service import Actor, no_image
from host.tournaments.texts import fit_table, split_lines
from render.events import render_bracket
from tests.conftest import FakeClock, text_renderer

ADMIN = Actor(1, manage_guild=True)
GUILD, CHANNEL = 10, 20
Decide = Callable[[int, tuple[int, ...]], "str | int"]
"""(game id, seats' users) -> the user who loses (resigns) in a 2-player game, or ``"draw"``."""


class Run:
    """A host, its tournaments and a worker whose posts are kept."""

    def __init__(self, db: Database, clock: FakeClock) -> None:
        self.host = Host(db, games=engines.GAMES, renderer=text_renderer, now=clock)
        self.t = self.host.tournaments
        self.t.image = no_image  # the picture has a test of its own
        self.posts: list[Post] = []
        self.worker = TournamentWorker(self.t, self.deliver)

    async def deliver(self, post: Post) -> int | None:
        self.posts.append(post)
        return 1000 + len(self.posts) if post.what == "standings" and post.edit is None else None


@pytest.fixture
def run(db: Database, clock: FakeClock) -> Run:
    return Run(db, clock)


async def new_event(run: Run, fmt: str, users: list[int], *, rounds: int | None = None, game: str = "zrtz",
                    table_size: int = 2, rated: bool = False, match_games: int = 1, third_place: bool = False) -> int:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game=game, format=fmt, rounds=rounds,
                               rated=rated, max_players=max(2, len(users)), table_size=table_size,
                               match_games=match_games, third_place=third_place)
    for user in users:
        await run.t.join(event.id, user)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    return event.id


async def live_games(run: Run, event_id: int) -> list[tuple[int, tuple[int, ...]]]:
    snap = await run.t.load(event_id)
    return [(p.game_id, p.seats) for p in snap.pairings if p.game_id is not None and p.points is None]


async def play(run: Run, event_id: int, decide: Decide, limit: int | None = None) -> int:
    """Decide the games in progress (at most ``limit``), then let the jobs run; returns how many were decided."""
    games = (await live_games(run, event_id))[:limit]
    for game_id, seats in games:
        verdict = decide(game_id, seats)
        if verdict == "draw":
            await run.host.turns.offer_draw(game_id, seats[0])
            await run.host.turns.offer_draw(game_id, seats[1])
        elif len(seats) == 2:
            await run.host.turns.resign(game_id, int(verdict))
        else:  # a table: players resign from the last-placed up; the one left wins
            order = sorted(seats, key=lambda u: -u)
            for user in order[:-1]:
                await run.host.turns.resign(game_id, user)
    await run.worker.drain()
    return len(games)


def lower_id_wins(game_id: int, seats: tuple[int, ...]) -> str | int:
    return max(seats)


async def play_out(run: Run, event_id: int, decide: Decide = lower_id_wins) -> None:
    for _ in range(40):
        if (await run.t.load(event_id)).event.status == "finished":
            return
        assert await play(run, event_id, decide), "the event stalled with no game to play"
    raise AssertionError("the event did not finish")


def no_double_work(snap: repo.Snapshot) -> None:
    """Each (round, board, match game) once, each game linked once, each entrant at most once a round."""
    keys = Counter((p.round, p.board, p.match_game) for p in snap.pairings)
    assert max(keys.values()) == 1
    games = [p.game_id for p in snap.pairings if p.game_id is not None]
    assert len(games) == len(set(games))
    for round_ in {p.round for p in snap.pairings}:
        seen = Counter(u for p in snap.pairings if p.round == round_ and p.match_game == 1 for u in p.seats)
        assert max(seen.values()) == 1


async def test_swiss_of_five_plays_three_rounds_with_one_bye_each_and_ranks_by_points(run: Run) -> None:
    users = [101, 102, 103, 104, 105]
    event_id = await new_event(run, "swiss", users, rounds=3)
    assert len(await live_games(run, event_id)) == 2
    await play_out(run, event_id)
    snap = await run.t.load(event_id)
    no_double_work(snap)
    assert snap.event.status == "finished" and snap.event.current_round == 3
    byes = [p.seats[0] for p in snap.pairings if p.bye]
    assert len(byes) == 3 and len(set(byes)) == 3
    view = await run.t.standings(event_id)
    assert view.table.columns == ("Bh", "SB")
    points = {r.entrant: r.points for r in view.table.rows}
    assert sum(points.values()) == 3 * 3  # two games and a bye worth a win each round
    assert view.table.rows[0].entrant == 101 and points[101] == 3  # the lowest id wins every game
    assert "Buchholz (Bh)" in view.text and "final standings" in view.text
    whats = [p.what for p in run.posts]
    assert whats.count("pairings") == 3 and whats.count("podium") == 1
    podium = next(p for p in run.posts if p.what == "podium")
    assert "🥇 <@101>" in podium.text
    # Nothing delivers board posts here, so the last round's final boards are still owed: the podium
    # names them, and the cog sends them before the podium.
    last = [p.game_id for p in snap.pairings if p.round == 3 and p.game_id is not None]
    assert {f"post:{g}" for g in last} <= {k.rsplit(":", 1)[0] for k in podium.thread_keys}


async def test_round_robin_of_four_is_the_berger_table_and_draws_split_points(run: Run) -> None:
    users = [201, 202, 203, 204]
    event_id = await new_event(run, "round_robin", users)
    await play_out(run, event_id, lambda g, seats: "draw" if set(seats) == {201, 202} else max(seats))
    snap = await run.t.load(event_id)
    no_double_work(snap)
    pairs = {frozenset(p.seats) for p in snap.pairings if not p.bye}
    assert len(pairs) == 6 and snap.event.rounds == 3
    rows = (await run.t.standings(event_id)).table
    assert rows.columns == ("H2H", "SB")
    # 201 and 202 drew and beat the rest: equal on points, head-to-head and SB, so they share first place
    assert sorted((r.rank, r.entrant, r.points) for r in rows.rows) == [
        (1, 201, 2.5), (1, 202, 2.5), (3, 203, 1.0), (4, 204, 0.0)]
    # The podium comes after the last board: its post names the last round's board posts still owed.
    podium = next(p for p in run.posts if p.what == "podium")
    last = [p.game_id for p in snap.pairings if p.round == 3 and p.game_id is not None]
    assert last and {f"post:{g}" for g in last} <= {k.rsplit(":", 1)[0] for k in podium.thread_keys}


async def test_knockout_replays_a_draw_with_sides_swapped_and_the_seed_decides_after_two(run: Run) -> None:
    users = [301, 302, 303, 304, 305, 306]
    event_id = await new_event(run, "knockout", users)
    snap = await run.t.load(event_id)
    assert snap.event.rounds == 3
    assert sum(1 for p in snap.pairings if p.bye) == 2  # six players: the top two seeds go through
    first = next(p for p in snap.pairings if not p.bye)
    always_draw = {frozenset(first.seats)}

    def decide(game_id: int, seats: tuple[int, ...]) -> str | int:
        return "draw" if frozenset(seats) in always_draw else max(seats)

    await play(run, event_id, decide)
    snap = await run.t.load(event_id)
    replay = [p for p in snap.pairings if p.board == first.board and p.round == 1]
    assert [p.match_game for p in replay] == [1, 2] and replay[1].seats == first.seats[::-1]
    await play_out(run, event_id, decide)
    snap = await run.t.load(event_id)
    no_double_work(snap)
    seeds = {e.user_id: e.seed for e in snap.entrants}
    high = min(first.seats, key=lambda u: seeds[u])
    assert high in {u for p in snap.pairings if p.round == 2 for u in p.seats}  # two draws: the seed went on
    table = (await run.t.standings(event_id)).table
    assert table.rows[0].rank == 1 and table.rows[0].note == "winner"
    assert [r.rank for r in table.rows] == [1, 2, 3, 3, 5, 5]


async def test_a_knockout_of_three_game_matches_with_a_tie_break_game_and_a_third_place_match(run: Run) -> None:
    # Issue 26: matches of three games, the sides alternating; a match stops once decided; level after three
    # games, a tie-break game; the semi-finals' losers play for third place in the final round.
    users = [401, 402, 403, 404, 405, 406, 407, 408]
    event_id = await new_event(run, "knockout", users, match_games=3, third_place=True, rated=True)
    snap = await run.t.load(event_id)
    assert "matches of 3 games and a tie-break game" in run.t.signup_text(snap)
    assert "a third-place match" in run.t.signup_text(snap)
    level = frozenset({401, 408})  # the first match: draws all the way, then seed 1 wins the tie-break game
    played: dict[frozenset[int], int] = {}

    def decide(game_id: int, seats: tuple[int, ...]) -> str | int:
        pair = frozenset(seats)
        played[pair] = played.get(pair, 0) + 1
        if pair == level:
            return "draw" if played[pair] <= 3 else 408
        return max(seats)  # the lower id wins every game

    await play_out(run, event_id, decide)
    snap = await run.t.load(event_id)
    no_double_work(snap)
    board = [p for p in snap.pairings if p.round == 1 and frozenset(p.seats) == level]
    assert [p.match_game for p in board] == [1, 2, 3, 4]
    assert [p.seats for p in board] == [(401, 408), (408, 401), (401, 408), (408, 401)]  # the sides alternate
    other = [p for p in snap.pairings if p.round == 1 and frozenset(p.seats) == {404, 405}]
    assert [p.match_game for p in other] == [1, 2]  # 2-0 with one game to play: decided
    final = [p for p in snap.pairings if p.round == 3]
    assert {frozenset(p.seats) for p in final} == {frozenset({401, 402}), frozenset({403, 404})}
    assert [p.board for p in final if 403 in p.seats] == [2, 2]
    table = (await run.t.standings(event_id)).table
    assert [(r.entrant, r.rank) for r in table.rows][:4] == [(401, 1), (402, 2), (403, 3), (404, 4)]
    assert [r.rank for r in table.rows][4:] == [5, 5, 5, 5]
    assert table.rows[2].note == "third place" and "tie-break game" in table.explanations[0]
    text = run.t.pairings_text(snap, 3, lambda _: None)
    assert "Board 2 (third place), game 1" in text
    first_round = run.t.pairings_text(snap, 1, lambda _: None)
    assert "tie-break game" in first_round and "game 3" in first_round
    podium = next(p for p in run.posts if p.what == "podium")
    assert "🥉 <@403>" in podium.text and "404" not in podium.text
    drawn = tournament_image.bracket(snap, {u: f"Player {u}" for u in users}, "Event #1", "final")
    assert drawn is not None and drawn.third_place is not None  # drawn under the final
    third = drawn.third_place
    assert third.top and third.bottom and (third.top.name, third.bottom.name) == ("Player 403", "Player 404")
    assert third.top.won and not third.bottom.won and (third.top.score, third.bottom.score) == ("2", "0")
    if keep := os.environ.get("EVENT_IMAGES"):
        (Path(keep) / "bracket_third_place.png").write_bytes(render_bracket(drawn))


async def test_knockout_match_rules_are_refused_for_other_formats(run: Run) -> None:
    with pytest.raises(HostError, match="for a knockout"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss", rounds=3,
                           match_games=3)
    with pytest.raises(HostError, match="1, 2 or 3"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout",
                           match_games=4)


async def test_forbidden_pairings_are_never_paired_and_only_the_organiser_sets_them(run: Run) -> None:
    # Issue 26: pairs that must not meet (family members) are an absolute criterion of the Dutch pairing.
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=1, rated=False, max_players=4)
    for user in (501, 502, 503, 504):
        await run.t.join(event.id, user)
    with pytest.raises(HostError, match="Only the organiser"):
        await run.t.forbid(event.id, Actor(502), 501, 502)
    assert "never be paired" in await run.t.forbid(event.id, ADMIN, 502, 501)
    await run.t.forbid(event.id, ADMIN, 501, 503)
    await run.t.forbid(event.id, ADMIN, 502, 504)
    assert "may be paired again" in await run.t.forbid(event.id, ADMIN, 504, 502)  # again: allowed again
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    snap = await run.t.load(event.id)
    assert {frozenset(p.seats) for p in snap.pairings if p.round == 1} == {frozenset({501, 504}),
                                                                           frozenset({502, 503})}
    await play_out(run, event.id)
    snap = await run.t.load(event.id)
    met = {frozenset(p.seats) for p in snap.pairings if not p.bye}
    assert not met & {frozenset({501, 502}), frozenset({501, 503})}
    with pytest.raises(HostError, match="Swiss of 2-player"):
        ko = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout")
        await run.t.forbid(ko.id, ADMIN, 501, 502)


async def test_a_requested_bye_is_half_a_point_and_not_a_pairing_allocated_bye(run: Run) -> None:
    users = [601, 602, 603, 604]
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=3, rated=False, max_players=4)
    for user in users:
        await run.t.join(event.id, user)
    assert "sit out round 2" in await run.t.request_bye(event.id, 602, 2)
    assert "sit out round 1" in await run.t.request_bye(event.id, 603, 1)
    assert "cancelled" in await run.t.request_bye(event.id, 603, 1)  # asking again takes it back
    with pytest.raises(HostError, match="not the last round"):
        await run.t.request_bye(event.id, 602, 3)
    with pytest.raises(HostError, match="not playing"):
        await run.t.request_bye(event.id, 999, 1)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    with pytest.raises(HostError, match="already paired"):
        await run.t.request_bye(event.id, 601, 1)
    await play(run, event.id, lower_id_wins)
    snap = await run.t.load(event.id)
    round2 = [p for p in snap.pairings if p.round == 2]
    byes = {p.seats[0]: p.points for p in round2 if p.bye}
    assert byes[602] == (0.5,) and len(byes) == 2  # 602 asked (½); one of the three left gets the bye (1)
    [(_other, points)] = [(u, pts) for u, pts in byes.items() if u != 602]
    assert points == (1.0,)
    await play_out(run, event.id)
    snap = await run.t.load(event.id)
    assert 602 in {u for p in snap.pairings if p.round == 3 and not p.bye for u in p.seats}  # back in round 3
    table = (await run.t.standings(event.id)).table
    assert {r.entrant for r in table.rows} == set(users)
    _name, text = await run.t.export(event.id, name_of=None)
    assert "0000 - H" in text  # TRF-16's half-point bye


async def test_late_entries_join_a_running_swiss_until_the_set_round(run: Run) -> None:
    # Issue 26 (lichess allows joining until half the rounds have started): late_entry=2 lets players join
    # until round 2 is paired; the rounds they missed are absences worth 0.
    with pytest.raises(HostError, match="Late entries are for a Swiss"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout",
                           late_entry=1)
    with pytest.raises(HostError, match="1 to 4"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss", rounds=4,
                           late_entry=5)
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=4, rated=False, max_players=8, late_entry=2)
    assert "late entries until round 2" in run.t.signup_text(await run.t.load(event.id))
    for user in (701, 702, 703, 704):
        await run.t.join(event.id, user)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    snap = await run.t.join(event.id, 705)  # during round 1
    late = next(e for e in snap.entrants if e.user_id == 705)
    assert late.seed == 5
    assert [(p.round, p.points) for p in snap.pairings if 705 in p.seats] == [(1, (0.0,))]
    with pytest.raises(HostError, match="already entered"):
        await run.t.join(event.id, 705)
    await play(run, event.id, lower_id_wins)
    snap = await run.t.load(event.id)
    assert snap.event.current_round == 2 and any(705 in p.seats for p in snap.pairings if p.round == 2)
    with pytest.raises(HostError, match="closed when round 2 was paired"):
        await run.t.join(event.id, 706)
    await play_out(run, event.id)
    table = (await run.t.standings(event.id)).table
    assert 705 in {r.entrant for r in table.rows}
    _name, text = await run.t.export(event.id, name_of=None)
    assert "0000 - Z" in text


async def test_tables_of_four_score_by_placing(run: Run) -> None:
    users = [401, 402, 403, 404, 405, 406, 407, 408]
    event_id = await new_event(run, "swiss", users, rounds=2, game="zarathustra", table_size=4)
    games = await live_games(run, event_id)
    assert len(games) == 2 and all(len(seats) == 4 for _, seats in games)
    await play_out(run, event_id)
    snap = await run.t.load(event_id)
    no_double_work(snap)
    for p in snap.pairings:
        assert sorted(p.points or ()) == [0.0, 1.0, 2.0, 3.0]
    table = (await run.t.standings(event_id)).table
    assert table.rows[0].points == 6.0 and "3/2/1/0" in (await run.t.standings(event_id)).text


async def test_withdrawal_resigns_the_game_in_progress_and_forfeits_later_rounds(run: Run) -> None:
    users = [501, 502, 503, 504]
    event_id = await new_event(run, "round_robin", users)
    text = await run.t.withdraw(event_id, 504)
    assert "withdrew" in text
    await run.worker.drain()
    snap = await run.t.load(event_id)
    mine = [p for p in snap.pairings if 504 in p.seats]
    assert mine and all(p.points is not None and not p.forfeit for p in mine)  # resigned: a played loss
    with pytest.raises(HostError, match="already left"):
        await run.t.withdraw(event_id, 504)
    await play_out(run, event_id)
    snap = await run.t.load(event_id)
    later = [p for p in snap.pairings if 504 in p.seats and p.round > 1]
    assert len(later) == 2 and all(p.forfeit and p.game_id is None and p.points is not None for p in later)
    rows = {r.entrant: r for r in (await run.t.standings(event_id)).table.rows}
    assert rows[504].points == 0 and rows[504].withdrawn


async def test_removal_by_the_organiser_and_refusals(run: Run) -> None:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=2, max_players=3)
    with pytest.raises(HostError, match="Manage Server"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=Actor(7), game="zrtz", format="swiss", rounds=2)
    for user in (601, 602):
        await run.t.join(event.id, user)
    with pytest.raises(HostError, match="already entered"):
        await run.t.join(event.id, 601)
    with pytest.raises(HostError, match="Only the organiser"):
        await run.t.start(event.id, Actor(601))
    with pytest.raises(HostError, match="Only the organiser"):
        await run.t.remove(event.id, Actor(601), 602)
    await run.t.add_ai(event.id, ADMIN, "easy")
    with pytest.raises(HostError, match="full"):
        await run.t.join(event.id, 603)
    said = await run.t.remove(event.id, ADMIN, 602)
    assert "taken off" in said
    assert [e.user_id for e in (await run.t.load(event.id)).entrants] == [601, bots.user_of("easy")]
    with pytest.raises(HostError, match="not both"):
        await run.t.remove(event.id, ADMIN, 601, "easy")
    await run.t.remove(event.id, ADMIN, ai_level="easy")
    assert [e.user_id for e in (await run.t.load(event.id)).entrants] == [601]


async def test_role_set_in_settings_may_create(run: Run) -> None:
    with pytest.raises(HostError, match="Manage Server"):
        await run.t.settings(GUILD, Actor(5), 77)
    await run.t.settings(GUILD, ADMIN, 77)
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=Actor(5, roles=(77,)), game="zaic",
                               format="knockout")
    assert event.organiser_id == 5


async def test_everyone_as_organiser_role_is_said_in_words_and_lets_anyone_create(run: Run) -> None:
    said = await run.t.settings(GUILD, ADMIN, GUILD)  # @everyone's role id is the server's id
    assert said == "Everyone in this server may now create events."
    everyone = Actor(6, roles=(GUILD,))  # discord.py lists @everyone among every member's roles
    assert (await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=everyone, game="zaic",
                               format="knockout")).organiser_id == 6
    assert await run.t.settings(GUILD, ADMIN, None) == "Only members with Manage Server may create events now."
    with pytest.raises(HostError, match="Manage Server"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=everyone, game="zaic", format="knockout")


@pytest.mark.parametrize(("fields", "said"), [
    ({"format": "arena"}, "format must be"),
    ({"format": "swiss", "rounds": None}, "rounds"),
    ({"format": "knockout", "table_size": 3, "game": "zarathustra"}, "paired Swiss"),
    ({"format": "swiss", "rounds": 3, "table_size": 3}, "^ZÈRTZ is played by 2 players: table_size 3 is not possible"),
    ({"format": "knockout", "options": "rings=50"}, "rings must be one of"),
    ({"format": "knockout", "options": "nonsense"}, "name=value"),
    ({"format": "knockout", "clock": "5d"}, "clock must be"),
    ({"format": "knockout", "starts": "yesterday"}, "starts:"),
    ({"format": "knockout", "starts": "99999h"}, "^starts: at most 60 days ahead"),
    ({"format": "knockout", "starts": "9" * 5000 + "d"}, "^starts: at most 60 days ahead"),
    ({"format": "knockout", "max_players": 1}, "max_players"),
    ({"format": "knockout", "game": "chess"}, "no game called"),
])
async def test_bad_input_is_refused_and_creates_nothing(run: Run, fields: dict[str, object], said: str) -> None:
    kwargs: dict[str, object] = {"game": "zrtz", **fields}
    with pytest.raises(HostError, match=said):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, **kwargs)  # type: ignore[arg-type]
    assert await repo.of_guild(run.t.db, GUILD, ("open",)) == []


async def test_scheduled_start_runs_at_its_time_or_cancels(run: Run, clock: FakeClock) -> None:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout",
                               starts="2h", options="rings=48")
    lonely = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout",
                                starts="2h")
    for user in (701, 702, 703):
        await run.t.join(event.id, user)
    await run.t.join(lonely.id, 704)
    await run.worker.drain()
    assert (await run.t.load(event.id)).event.status == "open"
    clock.advance(2 * 3600)
    await run.worker.drain()
    snap = await run.t.load(event.id)
    assert snap.event.status == "running" and snap.event.current_round == 1
    game = await run.host.session.row(next(p.game_id for p in snap.pairings if p.game_id is not None))
    assert game.options["rings"] == 48 and game.settings["event"] == event.id
    assert (await run.t.load(lonely.id)).event.status == "cancelled"


async def test_a_restart_mid_round_finishes_the_round_without_pairing_twice(shared: str, clock: FakeClock) -> None:
    db = await Database.open(shared)
    first = Run(db, clock)
    users = [801, 802, 803, 804, 805, 806, 807, 808]
    event_id = await new_event(first, "swiss", users, rounds=3)
    await play(first, event_id, lower_id_wins, limit=2)  # half of round 1
    # The last result of round 1 lands, and the process dies before its jobs run.
    game_id, seats = (await live_games(first, event_id))[0]
    await first.host.turns.resign(game_id, max(seats))
    [job] = await first.worker.queue.claim(clock(), first.worker.owner, kinds=("event_result",))
    await first.worker.handle(job)  # recorded, but never marked done: a crash right here
    await db.close()

    db = await Database.open(shared)
    second = Run(db, clock)
    await second.worker.recover()
    await second.worker.drain()
    await play(second, event_id, lower_id_wins)
    snap = await second.t.load(event_id)
    no_double_work(snap)
    assert snap.event.current_round == 2 and sum(1 for p in snap.pairings if p.round == 1) == 4
    await play_out(second, event_id)
    snap = await second.t.load(event_id)
    no_double_work(snap)
    assert snap.event.status == "finished" and len(snap.pairings) == 12
    await db.close()


async def test_ai_entrants_play_their_games_through_ai_jobs(run: Run) -> None:
    run.host.session.on_change.append(run.host.ai.enqueue)  # wired as host/app.py wires the bot's
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="knockout")
    await run.t.join(event.id, 901)
    await run.t.add_ai(event.id, ADMIN, "easy")
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    [(game_id, seats)] = await live_games(run, event.id)
    assert bots.user_of("easy") in seats
    ai_jobs = await run.worker.queue.pending(kind="ai_turn", game_id=game_id)
    row = await run.host.session.row(game_id)
    assert (row.user_at(0) == bots.user_of("easy")) == bool(ai_jobs)


async def test_rated_events_seed_by_rating_then_sign_up(run: Run) -> None:
    async with run.t.db.transaction() as tx:
        for user, mu in ((1002, 30.0), (1003, 35.0)):
            await tx.execute("INSERT INTO ratings (user_id, game, scope, season, mu, sigma) VALUES (?, 'zrtz',"
                             " 'global', 0, ?, 2.0)", (user, mu))
    event_id = await new_event(run, "knockout", [1001, 1002, 1003, 1004], rated=True)
    snap = await run.t.load(event_id)
    assert sorted((e.seed, e.user_id) for e in snap.entrants) == [(1, 1003), (2, 1002), (3, 1001), (4, 1004)]
    assert {p.seats for p in snap.pairings} == {(1003, 1004), (1002, 1001)}  # 1-4 and 2-3, the better seed first


async def test_an_event_game_cannot_be_aborted_and_one_the_clock_aborted_is_lost_by_the_player_to_move(
        run: Run) -> None:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zaic", format="knockout",
                               clock="1d")
    for user in (1101, 1102):
        await run.t.join(event.id, user)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    [(game_id, seats)] = await live_games(run, event.id)
    with pytest.raises(HostError, match="cannot be aborted"):
        await run.host.turns.abort(game_id, seats[0])
    assert await run.host.correspondence.abandon(game_id) is not None  # nobody moved before the deadline
    await run.worker.sweep()
    await run.worker.drain()
    snap = await run.t.load(event.id)
    [pairing] = snap.pairings
    assert pairing.forfeit and pairing.points == (0.0, 1.0) and snap.event.status == "finished"


async def test_two_workers_over_one_database_pair_and_start_everything_once(shared: str, clock: FakeClock) -> None:
    db_a, db_b = await Database.open(shared), await Database.open(shared)
    a, b = Run(db_a, clock), Run(db_b, clock)
    event = await a.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss", rounds=3)
    for user in range(1201, 1211):
        await a.t.join(event.id, user)
    await a.t.start(event.id, ADMIN)

    async def both() -> None:
        for _ in range(5):  # a job refused as busy or stale comes back a little later
            await asyncio.gather(a.worker.drain(), b.worker.drain())
            clock.advance(600)

    await both()
    for _ in range(3):
        for game_id, seats in await live_games(a, event.id):
            await a.host.turns.resign(game_id, max(seats))
        await both()
    snap = await a.t.load(event.id)
    no_double_work(snap)
    assert snap.event.status == "finished" and len(snap.pairings) == 15
    assert len({p.game_id for p in snap.pairings}) == 15
    assert (await db_a.fetchone("SELECT COUNT(*) FROM games"))[0] == 15  # no game created twice, none orphaned
    assert sum(1 for p in a.posts + b.posts if p.what == "pairings") == 3
    await db_a.close()
    await db_b.close()


def test_long_tables_and_pairings_fit_discord_messages() -> None:
    rows = [f"{i}. <@{10**18 + i}>: 2½ pts (Bh 7½ · SB 5¾, 1 game(s) in progress)" for i in range(1, 65)]
    text = fit_table(["**Event #1**, standings:", *rows], ["-# a note " * 20, "-# shared places"])
    assert len(text) <= 2000 and "… and" in text and text.endswith("-# shared places")
    assert fit_table(["head", "1. a"], ["-# n"]) == "head\n1. a\n-# n"
    parts = split_lines("\n".join(rows))
    assert all(len(p) <= 2000 for p in parts) and "\n".join(parts) == "\n".join(rows) and len(parts) == 3


async def test_a_game_created_but_not_started_before_a_crash_keeps_its_pairing_sides(shared: str,
                                                                                    clock: FakeClock) -> None:
    db = await Database.open(shared)
    first = Run(db, clock)
    event = await first.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="round_robin")
    for user in (1301, 1302, 1303, 1304):
        await first.t.join(event.id, user)
    await first.t.start(event.id, ADMIN)
    [pair_job] = await first.worker.queue.claim(clock(), first.worker.owner, kinds=("event_pair",))
    await first.worker.handle(pair_job)
    snap = await first.t.load(event.id)
    pairing = snap.pairings[0]
    game_id = await first.worker.create_game(snap.event, pairing)  # created and linked; the start never came
    assert game_id is not None and (await first.host.session.row(game_id)).status == "challenge"
    await db.close()

    db = await Database.open(shared)
    second = Run(db, clock)
    await second.host.recover()  # the host's own recovery starts full tables: an event game keeps its seats
    row = await second.host.session.row(game_id)
    assert row.status == "active" and tuple(row.user_at(s) for s in range(2)) == pairing.seats
    await second.worker.recover()
    await second.worker.drain()
    snap = await second.t.load(event.id)
    no_double_work(snap)
    assert all(p.game_id is not None for p in snap.pairings if p.round == 1)
    assert (await db.fetchone("SELECT COUNT(*) FROM games"))[0] == 2
    await db.close()


async def test_options_are_checked_for_every_table_size_and_filled_per_game(run: Run) -> None:
    with pytest.raises(HostError, match="partners is for 4 players"):
        await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="ziggurat", format="swiss",
                           rounds=1, table_size=4, options="mode=partners")
    users = [1401, 1402, 1403, 1404, 1405, 1406, 1407]
    event_id = await new_event(run, "swiss", users, rounds=1, game="zarathustra", table_size=4)
    assert (await run.t.load(event_id)).event.options == {}
    boards = sorted([(len(seats), (await run.host.session.row(game_id)).options["board"])
                     for game_id, seats in await live_games(run, event_id)])
    assert boards == [(3, 6), (4, 7)]  # each table's board follows its own player count


def test_options_autocomplete_offers_the_games_own_options(run: Run) -> None:
    assert "rings=48" in run.t.option_choices("zrtz", "")
    assert run.t.option_choices("zrtz", "rings=48, bl") == ["rings=48, blitz=false", "rings=48, blitz=true"]
    assert run.t.option_choices("chess", "") == []


async def test_standings_image_pages_with_points_tie_breaks_games_and_notes(run: Run, tmp_path: Path) -> None:
    run.t.image = tournament_image.draw
    users = list(range(1500, 1540))
    event_id = await new_event(run, "swiss", users, rounds=3)
    await play(run, event_id, lower_id_wins, limit=12)
    await run.t.withdraw(event_id, 1539)
    await run.worker.drain()
    view = await run.t.standings(event_id)
    assert len(view.images) == 2 and all(png.startswith(b"\x89PNG") for png in view.images)  # 32 rows a page
    picture = tournament_image.standings_table(Picture("Event #1", "after round 1", view.table,
                                                       {u: f"player {u}" for u in users}, False))
    assert picture.columns == ("Pts", "Bh", "SB")
    playing = {row.name: row.playing for row in picture.rows}
    assert sum(1 for n in playing.values() if n) == 2 * len(await live_games(run, event_id)) > 0
    assert any(row.note == "withdrawn" for row in picture.rows)
    for page, png in enumerate(view.images, 1):
        (tmp_path / f"standings-{page}.png").write_bytes(png)


async def test_a_burst_of_results_updates_the_standings_once(run: Run) -> None:
    event_id = await new_event(run, "swiss", [1601, 1602, 1603, 1604, 1605, 1606], rounds=2)
    before = sum(1 for p in run.posts if p.what == "standings")
    for game_id, seats in await live_games(run, event_id):
        await run.host.turns.resign(game_id, max(seats))  # three results land before the worker runs
    await run.worker.drain()
    shown = [p for p in run.posts if p.what == "standings"][before:]
    assert len(shown) == 1 and shown[0].text.count(": 1 pt (") == 3  # all three results in the one update


async def test_a_round_without_a_legal_pairing_waits_for_the_organisers_decision(run: Run) -> None:
    # Four players, four Swiss rounds: after three everyone has met everyone, so round 4 has no pairing
    # without a rematch. The event stops and asks the organiser (FIDE C.04.3 C.1), who allows a rematch.
    users = [501, 502, 503, 504]
    event_id = await new_event(run, "swiss", users, rounds=4)
    for _ in range(3):
        await play(run, event_id, lower_id_wins)
    snap = await run.t.load(event_id)
    assert snap.event.current_round == 3 and snap.event.status == "running"
    decision = [p for p in run.posts if p.what == "decision"]
    assert len(decision) == 1 and decision[0].ways == ("rematch",) and decision[0].round == 4
    assert "cannot pair round 4 without a rematch" in decision[0].text
    with pytest.raises(HostError, match="Only the organiser"):
        await run.t.decide(event_id, Actor(501), 4, "rematch")
    said = await run.t.decide(event_id, ADMIN, 4, "rematch")
    assert "allowing a rematch" in said
    await run.worker.drain()
    snap = await run.t.load(event_id)
    assert snap.event.current_round == 4 and len([p for p in snap.pairings if p.round == 4]) == 2
    with pytest.raises(HostError, match="no longer waiting"):
        await run.t.decide(event_id, ADMIN, 4, "rematch")
    await play_out(run, event_id)
    assert (await run.t.load(event_id)).event.status == "finished"


async def test_the_organisers_tie_break_order_and_name_carry_to_the_standings(run: Run) -> None:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=2, rated=False, max_players=4, name="  Spring   Swiss ",
                               tiebreaks="cut1, wins, direct encounter")
    assert event.name == "Spring Swiss" and event.tiebreaks == ("BhC1", "W", "DE")
    for user in (501, 502, 503, 504):
        await run.t.join(event.id, user)
    assert "tie-breaks BhC1, W, DE" in run.t.signup_text(await run.t.load(event.id))
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    await play_out(run, event.id, lambda g, seats: max(seats))
    view = await run.t.standings(event.id)
    assert view.table.columns == ("BhC1", "W", "DE")
    assert "Spring Swiss: Zèrtz Swiss" in view.text or "Spring Swiss: " in view.text
    assert "Tie-breaks in order: BhC1, then W, then DE." in view.text
    assert "Unplayed games (FIDE's 2009 rule)" in view.text
    for fmt, breaks, said in (("knockout", "Bh", "no tie-breaks"), ("swiss", "Bh, elo", "not a tie-break")):
        with pytest.raises(HostError, match=said):
            await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format=fmt, rounds=2,
                               tiebreaks=breaks)


def test_event_game_threads_are_named_with_the_event_and_round_within_100_characters() -> None:
    from host.tournaments.texts import thread_name
    assert thread_name("Zaic", 5, {}) == "Zaic #5"
    assert thread_name("Zaic", 5, {"event": 3, "event_round": 2, "event_name": "Spring Swiss"}) == \
        "Spring Swiss R2: Zaic #5"
    assert thread_name("Zaic", 5, {"event": 3, "event_round": 1}) == "Event #3 R1: Zaic #5"
    long = thread_name("Zodiac Chess", 123456789, {"event": 3, "event_round": 12, "event_name": "x" * 120})
    assert len(long) == 100 and long.endswith("… R12: Zodiac Chess #123456789")


async def test_standings_without_an_event_pick_the_running_one_else_the_newest(run: Run) -> None:
    with pytest.raises(HostError, match="No event here yet"):
        await run.t.resolve_shown(GUILD, None)
    first = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="round_robin")
    assert await run.t.resolve_shown(GUILD, None) == first.id  # before the start: the open event's entrants
    for user in (601, 602):
        await run.t.join(first.id, user)
    view = await run.t.standings(first.id)
    assert "<@601>" in view.text
    await run.t.start(first.id, ADMIN)
    second = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="round_robin")
    assert await run.t.resolve_shown(GUILD, None) == first.id  # the only one running, not the newer open one
    third = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="round_robin")
    for user in (601, 602):
        await run.t.join(third.id, user)
    await run.t.start(third.id, ADMIN)
    assert await run.t.resolve_shown(GUILD, None) == third.id  # several running: the newest
    assert second.id != third.id


async def test_a_knockout_draws_its_bracket_and_a_round_robin_its_crosstable_with_the_standings(
        run: Run, tmp_path: Path) -> None:
    import io
    import os

    from PIL import Image

    from host.tournaments.image import bracket, crosstable
    from render.events import render_bracket, render_crosstable
    keep = Path(os.environ.get("EVENT_IMAGES", tmp_path))
    ko = await new_event(run, "knockout", [701, 702, 703, 704, 705, 706])
    await play(run, ko, lambda g, seats: "draw" if set(seats) == {703, 706} else max(seats))
    snap = await run.t.load(ko)
    names = {u: f"Player {u} with a long name" for u in range(700, 710)}
    shown = bracket(snap, names, "Event #1: Spring Knockout", "after round 1")
    assert shown is not None and [r.label for r in shown.rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    first = shown.rounds[0].matches
    assert sum(1 for m in first if m.note == "bye") == 2 and all(m.top is not None for m in first)
    decided = [m for m in first if m.note == "" and m.top and m.bottom]
    assert decided and all((m.top.won or m.bottom.won) for m in decided if m.top and m.bottom)
    await play_out(run, ko, lambda g, seats: max(seats))
    snap = await run.t.load(ko)
    final = bracket(snap, names, "Event #1: Spring Knockout", "final")
    assert final is not None and final.rounds[-1].matches[0].top is not None
    (keep / "bracket.png").write_bytes(render_bracket(final))

    rr = await new_event(run, "round_robin", [801, 802, 803, 804, 805])
    await play_out(run, rr, lambda g, seats: "draw" if set(seats) == {801, 802} else max(seats))
    snap = await run.t.load(rr)
    view = await run.t.standings(rr)
    cross = crosstable(snap, view.table, names, "Event #2: Club round robin", "final standings")
    assert cross is not None and len(cross.rows) == 5
    top = cross.rows[0]
    assert top.cells[0] == "" and sorted(c for c in top.cells if c) in (["1", "1", "1", "½"], ["0", "1", "1", "½"])
    for i, row in enumerate(cross.rows):  # the table is symmetric: a win one way is a loss the other
        for j, cell in enumerate(row.cells):
            if cell and i != j:
                assert {cell, cross.rows[j].cells[i]} in ({"1", "0"}, {"½"})
    png = render_crosstable(cross)
    (keep / "crosstable.png").write_bytes(png)
    assert Image.open(io.BytesIO(png)).size[0] == 720
    # A knockout has no crosstable, a round robin no bracket; the standings post carries the extra image.
    assert crosstable(await run.t.load(ko), (await run.t.standings(ko)).table, names, "", "") is None
    assert bracket(snap, names, "", "") is None
    run.t.image = tournament_image.draw
    assert len((await run.t.standings(rr)).images) == 2 and len((await run.t.standings(ko)).images) == 2


async def test_a_finished_swiss_exported_as_trf16_reads_back_with_the_same_games_and_scores(run: Run) -> None:
    """Written by host/tournaments/trf.py, read by caissify-pairings' TRF-16 parser (independent code), then re-checked:
    every player's score is the sum of their blocks, every game appears from both sides with opposite
    colours and results, and the byes and the withdrawn player's absences are where the event had them."""
    from caissify_pairings.trf import TRFParser
    users = [901, 902, 903, 904, 905, 906, 907]
    event_id = await new_event(run, "swiss", users, rounds=3)
    await play(run, event_id, lambda g, seats: "draw" if 903 in seats else max(seats))
    await run.t.withdraw(event_id, 907)
    await run.worker.drain()
    await play_out(run, event_id, lambda g, seats: max(seats))
    filename, text = await run.t.export(event_id)
    assert filename == f"event-{event_id}.trf"
    parsed = TRFParser(text).parse()
    assert parsed["tournament"]["name"].startswith(f"Event #{event_id}")
    players = {p["starting_number"]: p for p in parsed["players"]}
    assert len(players) == 7
    value = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "Z": 0.0}
    opposite = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
    for number, player in players.items():
        assert sum(value[r["result"]] for r in player["results"].values()) == player["score"]
        for round_, r in player["results"].items():
            if r["opponent"] is not None:
                theirs = players[r["opponent"]]["results"][round_]
                assert theirs["opponent"] == number and {r["color"], theirs["color"]} == {"w", "b"}
                assert opposite[r["result"]] == theirs["result"]
    snap = await run.t.load(event_id)
    seed = {u: i for i, u in enumerate([e.user_id for e in sorted(snap.entrants, key=lambda e: e.seed or 0)], 1)}
    table = {row.entrant: row.points for row in (await run.t.standings(event_id)).table.rows}
    assert {seed[u]: pts for u, pts in table.items()} == {n: p["score"] for n, p in players.items()}
    byes = [(seed[p.seats[0]], p.round) for p in snap.pairings if p.bye]
    assert byes and all(players[n]["results"][r]["result"] == "U" for n, r in byes)
    absent = players[seed[907]]["results"]
    assert absent[3]["result"] == "Z" and absent[3]["opponent"] is None
    with pytest.raises(HostError, match="3-4 player tables"):
        tables = await new_event(run, "swiss", [911, 912, 913], rounds=1, game="ziggurat", table_size=3)
        await run.t.export(tables)


async def test_a_knockouts_trf_points_are_the_sum_of_the_results_its_line_lists(run: Run) -> None:
    """TRF-16's points field is the player's score, the sum of the results the line lists, in a knockout as in a
    Swiss: a bye (U) and a forfeit win (+) count 1, a draw (=) a half. It was the standings' "Won" (games won
    over the board), which counts none of those, so a checker reading the file found other scores."""
    from caissify_pairings.trf import TRFParser
    users = [1201, 1202, 1203, 1204, 1205, 1206]
    event_id = await new_event(run, "knockout", users)
    snap = await run.t.load(event_id)
    byes = [p.seats[0] for p in snap.pairings if p.bye]
    assert len(byes) == 2
    await run.t.withdraw(event_id, byes[0])  # a bye, then gone: the next opponent wins by forfeit
    await run.worker.drain()
    drawn: set[int] = set()

    def decide(game_id: int, seats: tuple[int, ...]) -> str | int:
        if not drawn:  # the first game is drawn (and replayed)
            drawn.add(game_id)
            return "draw"
        return max(seats)

    await play_out(run, event_id, decide)
    _name, text = await run.t.export(event_id)
    parsed = TRFParser(text).parse()
    value = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0}
    codes = Counter(r["result"] for p in parsed["players"] for r in p["results"].values())
    assert codes["U"] == 2 and codes["="] == 2 and codes["+"] == 1, codes
    for player in parsed["players"]:
        assert sum(value[r["result"]] for r in player["results"].values()) == player["score"], player
    # A round robin's points (as a Swiss's) are its standings' points, and still the sum of its lines.
    rr = await new_event(run, "round_robin", [1211, 1212, 1213, 1214, 1215])
    await play_out(run, rr, lambda g, seats: "draw" if 1211 in seats else max(seats))
    players = TRFParser((await run.t.export(rr))[1]).parse()["players"]
    table = sorted(row.points for row in (await run.t.standings(rr)).table.rows)
    assert sorted(p["score"] for p in players) == table and 2.0 in table
    assert all(sum(value[r["result"]] for r in p["results"].values()) == p["score"] for p in players)


@pytest.mark.parametrize("players", [6, 9, 10, 11])
async def test_the_exported_trf_of_a_swiss_passes_caissifys_pairings_checker(run: Run, players: int) -> None:
    """Issue 26: the TRF-16 export of a whole Swiss played through the host, fed to caissify-pairings' Free
    Pairings Checker (FIDE C.04.A: it rebuilds every round from the file and re-pairs it with its own Dutch
    engine). Results follow a fixed pattern with draws, so the brackets mix."""
    from caissify_pairings.fpc import check_trf
    users = [1000 + i for i in range(players)]
    event_id = await new_event(run, "swiss", users, rounds=5, rated=True)

    def decide(game_id: int, seats: tuple[int, ...]) -> str | int:
        return "draw" if game_id % 3 == 0 else max(seats) if game_id % 2 else min(seats)

    await play_out(run, event_id, decide)
    _name, text = await run.t.export(event_id)
    report = check_trf(text)
    mismatched = [(r["round"], r["discrepancies"]) for r in report["rounds"] if not r["match"]]
    assert report["summary"]["rounds_checked"] == 5
    assert mismatched == []


async def test_a_swiss_with_a_requested_bye_and_a_withdrawal_passes_caissifys_pairings_checker(run: Run) -> None:
    # The checker passes a requested bye (H) and an absence (Z) through as the arbiter's decisions and
    # re-pairs the others: our pairing must match it with those players left out.
    from caissify_pairings.fpc import check_trf
    users = [1100 + i for i in range(10)]
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zrtz", format="swiss",
                               rounds=5, rated=True, max_players=10)
    for user in users:
        await run.t.join(event.id, user)
    await run.t.request_bye(event.id, 1103, 2)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()

    def decide(game_id: int, seats: tuple[int, ...]) -> str | int:
        return "draw" if game_id % 3 == 0 else max(seats) if game_id % 2 else min(seats)

    for _ in range(3):
        await play(run, event.id, decide)
    await run.t.withdraw(event.id, 1105)
    await run.worker.drain()
    await play_out(run, event.id, decide)
    _name, text = await run.t.export(event.id)
    assert "0000 - H" in text and "0000 - Z" in text
    report = check_trf(text)
    assert [(r["round"], r["discrepancies"]) for r in report["rounds"] if not r["match"]] == []


# ----- withdrawals, forfeits and byes in knockouts and tables (session 15) ------------------------------------


@pytest.mark.parametrize("how", ["withdraw", "remove"])
async def test_a_player_who_leaves_mid_match_loses_the_match_and_the_knockout_goes_on(run: Run, how: str) -> None:
    # A match of three: 1101 wins game 1, then leaves during game 2 (resigned for him: 1-1). No game 3 is owed
    # (it used to be created for a player who had left, and the event waited for it forever): 1104 goes through.
    users = [1101, 1102, 1103, 1104]
    event_id = await new_event(run, "knockout", users, match_games=3)
    game_id, first = next(g for g in await live_games(run, event_id) if 1101 in g[1])
    other = next(u for u in first if u != 1101)
    await run.host.turns.resign(game_id, other)
    await run.worker.drain()
    assert [s[::-1] for _, s in await live_games(run, event_id) if 1101 in s] == [first]  # game 2, sides swapped
    if how == "withdraw":
        await run.t.withdraw(event_id, 1101)
    else:
        await run.t.remove(event_id, ADMIN, player=1101)
    await run.worker.drain()
    snap = await run.t.load(event_id)
    mine = [p for p in snap.pairings if p.round == 1 and 1101 in p.seats]
    assert [(p.match_game, p.points[p.seats.index(1101)])
            for p in mine if p.points is not None] == [(1, 1.0), (2, 0.0)]
    assert len(mine) == 2  # no game 3
    await play_out(run, event_id, lambda game_id, seats: max(seats))
    snap = await run.t.load(event_id)
    no_double_work(snap)
    assert snap.event.status == "finished"
    assert not [p for p in snap.pairings if 1101 in p.seats and p.round > 1]
    final = [p.seats for p in snap.pairings if p.round == 2]
    assert final and all(other in seats for seats in final)
    rows = {r.entrant: r for r in (await run.t.standings(event_id)).table.rows}
    assert rows[1101].note == "out in round 1" and rows[1101].withdrawn


async def test_a_clock_aborted_first_game_of_a_match_is_one_game_lost_not_the_match(run: Run) -> None:
    # docs/tournaments.md: a game the clock aborted is a forfeit lost by the player who had to move. In a match of
    # three that is one game: the match goes on with game 2 (sides swapped), and 1101 can still win it.
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zaic", format="knockout",
                               clock="1d", match_games=3, max_players=4)
    for user in (1101, 1102, 1103, 1104):
        await run.t.join(event.id, user)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    game_id, seats = next(g for g in await live_games(run, event.id) if 1101 in g[1])
    assert seats == (1101, 1104)
    assert await run.host.correspondence.abandon(game_id) is not None  # 1101, to move first, never moved
    await run.worker.sweep()
    await run.worker.drain()
    snap = await run.t.load(event.id)
    board = [p for p in snap.pairings if p.round == 1 and 1101 in p.seats]
    assert board[0].forfeit and board[0].points == (0.0, 1.0)
    assert [(p.match_game, p.seats) for p in board[1:]] == [(2, (1104, 1101))]  # game 2 is owed, sides swapped
    for _ in range(2):  # 1101 wins games 2 and 3; board 2's better seed wins twice
        await play(run, event.id, lambda g, s: 1104 if 1104 in s else max(s))
    snap = await run.t.load(event.id)
    board = [p for p in snap.pairings if p.round == 1 and 1101 in p.seats]
    assert [p.match_game for p in board] == [1, 2, 3]
    assert snap.event.current_round == 2
    assert {u for p in snap.pairings if p.round == 2 for u in p.seats} == {1101, 1102}


async def test_two_withdrawn_players_due_to_meet_send_nobody_on_and_take_no_medal(run: Run) -> None:
    # 605 and 608 win round 1, then both withdraw; they are due to meet in the semi-final. Their match is a 0-0
    # double forfeit that sends nobody on: 607 reaches the final and wins it on a walkover (a bye), rather than
    # beating a withdrawn 608 by forfeit, who used to take 2nd place and a medal.
    users = list(range(601, 609))
    event_id = await new_event(run, "knockout", users)
    snap = await run.t.load(event_id)
    first = sorted((p for p in snap.pairings if p.round == 1), key=lambda p: p.board)
    assert [p.seats for p in first[:2]] == [(605, 604), (608, 603)]
    for p in first[:2]:
        await run.host.turns.resign(p.game_id, p.seats[1])
    await run.worker.drain()
    for user in (605, 608):
        await run.t.withdraw(event_id, user)
    await run.worker.drain()
    await play_out(run, event_id, lambda game_id, seats: seats[1])
    snap = await run.t.load(event_id)
    no_double_work(snap)
    semi = [p for p in snap.pairings if p.round == 2 and 605 in p.seats]
    assert [(p.seats, p.points, p.forfeit) for p in semi] == [((605, 608), (0.0, 0.0), True)]
    final = [p for p in snap.pairings if p.round == 3]
    assert [(p.seats, p.bye) for p in final] == [((607,), True)]
    table = (await run.t.standings(event_id)).table
    rows = {r.entrant: r for r in table.rows}
    assert rows[607].rank == 1 and rows[607].points == 2  # two games won over the board; the walkover is none
    assert rows[608].note == rows[605].note == "out in round 2" and rows[608].rank == rows[606].rank == 3
    podium = next(p for p in run.posts if p.what == "podium").text
    assert "🥇 <@607>" in podium and "🥉 <@606>" in podium and "605" not in podium and "608" not in podium
    picture = tournament_image.standings_table(Picture("t", "s", table, {}, True))
    medals = {row.rank: row.medal for row in picture.rows if row.note.endswith("withdrawn")}
    assert medals == {3: 0}  # the withdrawn semi-finalists' rows show no bronze disc


async def test_a_knockout_counts_games_won_over_the_board_not_forfeits(run: Run) -> None:
    # "Won: games won in the event." 401 wins board 1 and withdraws before the final is paired: 402 wins the final
    # by forfeit, which is no game won.
    event_id = await new_event(run, "knockout", [401, 402, 403, 404])
    (game_id, (high, low)), (_other, rest) = sorted(await live_games(run, event_id))
    await run.host.turns.resign(game_id, low)  # board 1: high wins, then withdraws
    await run.worker.drain()
    await run.t.withdraw(event_id, high)
    await play_out(run, event_id, lambda g, seats: seats[1])  # board 2: its first seat wins
    snap = await run.t.load(event_id)
    [final] = [p for p in snap.pairings if p.round == 2]
    assert final.forfeit and set(final.seats) == {high, rest[0]}
    rows = {r.entrant: r for r in (await run.t.standings(event_id)).table.rows}
    assert (rows[rest[0]].rank, rows[rest[0]].points) == (1, 1.0)  # one game won, and the final by forfeit
    assert (rows[high].rank, rows[high].points, rows[high].withdrawn) == (2, 1.0, True)
    podium = next(p for p in run.posts if p.what == "podium").text
    assert f"🥇 <@{rest[0]}>: 1 won" in podium and str(high) not in podium  # the withdrawn finalist: no silver


async def test_tables_a_requested_bye_does_not_stop_the_pairing_allocated_bye(run: Run) -> None:
    # Five at tables of four: 305 asks to sit out round 1 (1½ points); round 2's bye goes to 304; round 3's to 305,
    # still the lowest player without a pairing-allocated bye (it used to skip him for 303).
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zarathustra", format="swiss",
                               rounds=4, rated=False, max_players=5, table_size=4)
    for user in range(301, 306):
        await run.t.join(event.id, user)
    await run.t.request_bye(event.id, 305, 1)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    for _ in range(2):
        await play(run, event.id, lower_id_wins)
    snap = await run.t.load(event.id)
    byes = [(p.round, p.seats[0], p.points) for p in snap.pairings if p.bye]
    assert byes == [(1, 305, (1.5,)), (2, 304, (3.0,)), (3, 305, (3.0,))]


@pytest.mark.parametrize(("game", "table_size", "users"), [("zrtz", 2, [311, 312, 313]),
                                                         ("zarathustra", 4, [321, 322, 323, 324, 325])])
async def test_a_lone_player_who_had_the_bye_rests_for_half_a_win(run: Run, game: str, table_size: int,
                                                                 users: list[int]) -> None:
    # Everyone but round 1's bye asks to sit round 2 out: the lone player may not have a second pairing-allocated
    # bye, so he rests for half a win as they do (tables gave him a second full win; a Swiss of two-player games
    # stopped on a question to the organiser whose one answer was that bye). Round 3 is played.
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game=game, format="swiss",
                               rounds=3, rated=False, max_players=len(users), table_size=table_size)
    for user in users:
        await run.t.join(event.id, user)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    [lone] = [p.seats[0] for p in (await run.t.load(event.id)).pairings if p.bye]
    for user in users:
        if user != lone:
            await run.t.request_bye(event.id, user, 2)
    await play(run, event.id, lower_id_wins)
    snap = await run.t.load(event.id)
    half = (table_size - 1) / 2
    assert sorted((p.seats, p.points) for p in snap.pairings if p.round == 2) == [((u,), (half,)) for u in users]
    assert not [p for p in run.posts if p.what == "decision"]
    assert any(p.round == 3 and not p.bye for p in snap.pairings)


async def test_tables_players_too_few_for_a_table_of_the_event_play_a_smaller_one(run: Run) -> None:
    # An event of fours (tables of 4 and 3): two players withdraw during round 2, so two are left. They used to get
    # a bye each, every round (everybody "winning"); Zarathustra seats two, so they play each other. The withdrawn
    # players keep their places in the table but take no medal.
    event_id = await new_event(run, "swiss", [701, 702, 703, 704], rounds=4, game="zarathustra", table_size=4)
    await play(run, event_id, lower_id_wins)
    await run.t.withdraw(event_id, 701)
    await run.t.withdraw(event_id, 702)
    await run.worker.drain()
    [(game_id, _seats)] = await live_games(run, event_id)  # round 2, played on by 703 and 704
    await run.host.turns.resign(game_id, 704)
    await run.worker.drain()
    await play_out(run, event_id, lambda game_id, seats: max(seats))
    snap = await run.t.load(event_id)
    no_double_work(snap)
    later = [(p.round, tuple(sorted(p.seats)), p.bye) for p in snap.pairings if p.round > 2]
    assert later == [(3, (703, 704), False), (4, (703, 704), False)]
    assert all(sorted(p.points or ()) == [0.0, 3.0] for p in snap.pairings if p.round > 2)  # first 3, last 0
    table = (await run.t.standings(event_id)).table
    podium = next(p for p in run.posts if p.what == "podium").text
    assert "🥇 <@703>" in podium and "701" not in podium and "702" not in podium
    assert [r.entrant for r in table.rows if r.rank <= 3 and not r.withdrawn] == [703]


async def test_tables_a_requested_bye_leaving_two_players_seats_them_together(run: Run) -> None:
    event = await run.t.create(guild_id=GUILD, channel_id=CHANNEL, actor=ADMIN, game="zarathustra", format="swiss",
                               rounds=3, rated=False, max_players=3, table_size=4)
    for user in (801, 802, 803):
        await run.t.join(event.id, user)
    await run.t.request_bye(event.id, 803, 1)
    await run.t.start(event.id, ADMIN)
    await run.worker.drain()
    snap = await run.t.load(event.id)
    assert sorted((p.seats, p.bye) for p in snap.pairings) == [((801, 802), False), ((803,), True)]
    assert run.t.smallest_table(snap.event) == 2


async def test_a_walkover_to_a_player_who_left_sends_nobody_on_and_the_event_ends(run: Run) -> None:
    # Matches of three. Semi-final 2's winner withdraws while semi-final 1 is still in game 1; then both players of
    # semi-final 1 withdraw, so it sends nobody on. The final is a walkover to the withdrawn winner: worth nothing,
    # nobody is crowned, and the event ends (a withdrawn player used to be able to win the event on a walkover).
    event_id = await new_event(run, "knockout", [1201, 1202, 1203, 1204], match_games=3, third_place=True)
    (_first, semi1), (_second, semi2) = sorted(await live_games(run, event_id))
    winner, loser = semi2
    for _ in range(2):  # semi-final 2: won 2-0
        for game_id, seats in await live_games(run, event_id):
            if loser in seats:
                await run.host.turns.resign(game_id, loser)
        await run.worker.drain()
    await run.t.withdraw(event_id, winner)
    for user in semi1:
        await run.t.withdraw(event_id, user)
    await run.worker.drain()
    snap = await run.t.load(event_id)
    assert snap.event.status == "finished"
    no_double_work(snap)
    final = [p for p in snap.pairings if p.round == 2]
    assert [(p.seats, p.bye, p.points) for p in final] == [((winner,), True, (0.0,))]  # no third place either
    rows = {r.entrant: r for r in (await run.t.standings(event_id)).table.rows}
    assert all(r.rank > 1 for r in rows.values()) and rows[winner].note == "out in round 2"
    podium = next(p for p in run.posts if p.what == "podium").text
    assert "🥇" not in podium and "🥈" not in podium and f"🥉 <@{loser}>" in podium
