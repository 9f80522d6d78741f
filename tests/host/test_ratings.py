"""Ratings on a real database: directions after 2-4 player and team games, ties, boards, seasons, the rules."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest

import engines
from data import ratings as stored_ratings
from data.db import Database, StaleVersion
from data.ratings import Rating
from data.store import GameRow, GameStore, Seat
from engines.base import CHANCE, Game, Outcome
from host.app import Host
from host.ratings import seasons
from host.ratings import service as ratings
from host.ratings.service import ALL_TIME, GLOBAL, record_result
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim

GUILD = 77
SCOPE = str(GUILD)
A, B, C, D = 1, 2, 3, 4


class Scripted(Game):
    """A game whose result a test writes down: each seat plays ``moves`` moves, then ``ranks`` stand."""

    name = "scripted"
    title = "Scripted"
    players = range(2, 5)

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.ranks: tuple[int, ...] | None = None
        self.team_of: tuple[int, ...] = tuple(range(players))

    def teams(self) -> tuple[int, ...]:
        return self.team_of

    def _to_move(self) -> frozenset[int]:
        return frozenset(range(self.num_players))

    def _legal_moves(self, seat: int) -> list[str]:
        return ["m"]

    def _play(self, seat: int, text: str) -> str:
        return "m"

    def _outcome(self) -> Outcome | None:
        return Outcome.from_ranks(self.ranks, "scripted") if self.ranks else None

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {}


def scripted(ranks: tuple[int, ...], moves: int = 2, teams: tuple[int, ...] | None = None) -> Scripted:
    game = Scripted(len(ranks), {})
    game.team_of = teams or tuple(range(len(ranks)))
    game.history = [(CHANCE, "roll")] + [(seat, "m") for _ in range(moves) for seat in range(len(ranks))]
    game.ranks = ranks
    return game


async def finish(db: Database, users: tuple[int, ...], ranks: tuple[int, ...], *, game: str = "zrtz",
                 teams: tuple[int, ...] | None = None, moves: int = 2, rated: bool = True, guild: int | None = GUILD,
                 now: float = 1000.0, history: list[tuple[int, str]] | None = None,
                 then: Callable[[], Awaitable[None]] | None = None) -> GameRow:
    """Store a game and record its end with the hook inside the version-checked update, as the host does;
    ``then`` runs after the rating, before the transaction commits."""
    store = GameStore(db)
    team_of = teams or tuple(range(len(users)))
    game_id = await store.create(guild_id=guild, channel_id=5, game=game, players=len(users), options={},
                                 settings={"rated": rated}, seed="s", creator_id=users[0], now=now,
                                 seats=[Seat(i, u, True, team_of[i]) for i, u in enumerate(users)])
    row = await store.get(game_id)
    assert row is not None
    engine = scripted(ranks, moves, teams)
    engine.has_chance = engines.get(game).has_chance  # it stands in for ``game``, dice or not
    if history is not None:
        engine.history = history

    async def hook(conn: Any) -> None:
        await record_result(conn, row, engine, now)
        if then is not None:
            await then()

    await store.update(row, now=now, status="finished", also=hook)
    return row


async def rating(db: Database, user: int, game: str = "zrtz", scope: str = SCOPE, season: int = ALL_TIME) -> Any:
    return await db.fetchone("SELECT * FROM ratings WHERE user_id = ? AND game = ? AND scope = ? AND season = ?",
                             (user, game, scope, season))


async def count_ratings(db: Database) -> int:
    return (await db.fetchone("SELECT COUNT(*) FROM ratings"))[0]


async def test_a_two_player_win_moves_both_ratings_on_every_board(db: Database) -> None:
    await finish(db, (A, B), (1, 2))
    for scope, season in ((SCOPE, ALL_TIME), (SCOPE, 1), (GLOBAL, ALL_TIME)):
        winner, loser = await rating(db, A, scope=scope, season=season), await rating(db, B, scope=scope,
                                                                                     season=season)
        assert winner["mu"] > 25 > loser["mu"]
        assert (winner["games"], winner["wins"], winner["losses"]) == (1, 1, 0)
        assert (loser["games"], loser["wins"], loser["losses"]) == (1, 0, 1)
    assert await count_ratings(db) == 6


async def test_free_for_all_orders_ratings_by_place(db: Database) -> None:
    await finish(db, (A, B, C), (1, 2, 3))
    three = [(await rating(db, u))["mu"] for u in (A, B, C)]
    assert three[0] > 25 > three[2] and three[0] > three[1] > three[2]
    await finish(db, (A, B, C, D), (4, 3, 2, 1), game="zaic")
    four = [(await rating(db, u, "zaic"))["mu"] for u in (A, B, C, D)]
    assert four[3] > four[2] > four[1] > four[0] and four[3] > 25 > four[0]
    assert (await rating(db, B, "zaic"))["losses"] == 1 and (await rating(db, D, "zaic"))["wins"] == 1


async def test_team_games_move_partners_together(db: Database) -> None:
    await finish(db, (A, B, C, D), (1, 2, 1, 2), game="ziggurat", teams=(0, 1, 0, 1))
    a, b, c, d = [await rating(db, u, "ziggurat") for u in (A, B, C, D)]
    assert a["mu"] == pytest.approx(c["mu"]) and a["mu"] > 25
    assert b["mu"] == pytest.approx(d["mu"]) and b["mu"] < 25
    assert a["wins"] == c["wins"] == 1 and b["losses"] == d["losses"] == 1


async def test_ties_are_draws_and_equal_players_stay_level(db: Database) -> None:
    await finish(db, (A, B), (1, 1))
    a, b = await rating(db, A), await rating(db, B)
    assert a["mu"] == pytest.approx(25) and b["mu"] == pytest.approx(25)
    assert a["sigma"] < 25 / 3 and (a["draws"], a["wins"], a["losses"]) == (1, 0, 0)
    await finish(db, (A, B, C, D), (1, 1, 3, 4), game="zaic")
    a, b, d = [await rating(db, u, "zaic") for u in (A, B, D)]
    assert a["mu"] == pytest.approx(b["mu"]) and a["mu"] > 25 > d["mu"]
    assert a["draws"] == 1 and d["losses"] == 1


async def test_dice_games_move_ratings_less(db: Database) -> None:
    await finish(db, (A, B), (1, 2), game="zrtz")
    await finish(db, (A, B), (1, 2), game="zodiac")
    assert ratings.model_for(engines.get("zodiac")).beta == 2 * ratings.model_for(engines.get("zrtz")).beta
    assert 25 < (await rating(db, A, "zodiac"))["mu"] < (await rating(db, A, "zrtz"))["mu"]


async def test_provisional_until_ten_games_and_the_displayed_scale(db: Database) -> None:
    assert ratings.display_rating(25, 5 / 3) == 1500
    assert ratings.display_rating(25, 25 / 3) == 700
    for i in range(9):
        await finish(db, (A, B), (1, 2), now=1000.0 + i)
    board = await ratings.leaderboard(db, "zrtz", SCOPE)
    assert [s.user_id for s in board.rows] == [A, B]
    assert all(s.provisional and s.shown.endswith("?") for s in board.rows)
    await finish(db, (A, B), (1, 2), now=2000.0)
    board = await ratings.leaderboard(db, "zrtz", SCOPE)
    assert not board.rows[0].provisional and board.rows[0].shown == str(board.rows[0].rating)
    assert board.rows[0].rating > board.rows[1].rating and board.rows[0].win_rate == 1.0


async def test_never_rated_games_leave_no_trace(db: Database) -> None:
    await finish(db, (A, B), (1, 2), rated=False)
    await finish(db, (A, A), (1, 2))
    await finish(db, (A, B), (1, 2), moves=1)
    resigned_early = [(0, "m"), (1, "m"), (0, "m"), (1, "resign")]
    await finish(db, (A, B), (1, 2), history=resigned_early)
    assert await count_ratings(db) == 0
    assert (await db.fetchone("SELECT COUNT(*) FROM rating_history"))[0] == 0
    row = await finish(db, (A, B), (1, 2), history=[(0, "m"), (1, "m"), (0, "m"), (1, "m"), (1, "resign")])
    assert await count_ratings(db) == 6 and row.status == "finished"


def test_unrated_reasons_say_why() -> None:
    row = GameRow(1, GUILD, None, None, None, "zrtz", 2, {}, {"rated": True}, "finished", 1, "s", A, 0, 0, None,
                  None, [], [Seat(0, A, True, 0), Seat(1, B, True, 1)])
    assert ratings.unrated_reason(row, scripted((1, 2))) is None
    assert "fewer than 2 moves" in (ratings.unrated_reason(row, scripted((1, 2), moves=1)) or "")
    row.seats[1].user_id = A
    assert "several seats" in (ratings.unrated_reason(row, scripted((1, 2))) or "")
    row.settings["rated"] = False
    assert "unrated" in (ratings.unrated_reason(row, scripted((1, 2))) or "")


async def test_a_game_is_never_counted_twice(db: Database) -> None:
    row = await finish(db, (A, B), (1, 2))
    engine = scripted((1, 2))
    async with db.transaction() as conn:  # a second run of the hook for the same game changes nothing
        await record_result(conn, row, engine, 5000.0)
    assert (await rating(db, A))["games"] == 1
    stale = await GameStore(db).get(row.id)
    assert stale is not None
    stale.version -= 1  # someone else wrote first: the whole transaction, hook included, rolls back
    async with db.transaction() as tx:
        await tx.execute("DELETE FROM rating_history")

    async def hook(conn: Any) -> None:
        await record_result(conn, stale, engine, 6000.0)

    with pytest.raises(StaleVersion):
        await GameStore(db).update(stale, now=6000.0, status="finished", also=hook)
    assert (await rating(db, A))["games"] == 1


async def test_one_players_two_games_ending_at_once_both_count(pg_url: str) -> None:
    """A's two games end in overlapping transactions: the second rates from the first's result, not from the line
    both read before either committed. PostgreSQL only: SQLite never runs two writers at once."""
    db = await Database.open(pg_url)
    try:
        await finish(db, (A, D), (1, 2))  # A has a line already: the second game would overwrite its update
        first_rated, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            first_rated.set()
            await release.wait()

        first = asyncio.create_task(finish(db, (A, B), (1, 2), now=2000.0, then=hold))
        second: asyncio.Task[GameRow] | None = None
        try:
            await asyncio.wait_for(first_rated.wait(), 10)
            second = asyncio.create_task(finish(db, (C, A), (1, 2), now=3000.0))
            for _ in range(400):  # until the second transaction waits for the first's lock
                waiting = await db.fetchone("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                            " AND datname = current_database()")
                if waiting[0] or second.done():
                    break
                await asyncio.sleep(0.025)
        finally:  # never leave the first transaction open: closing the database would wait for it
            release.set()
            await asyncio.wait_for(asyncio.gather(first, *([second] if second else [])), 10)
        for scope, season in ((GLOBAL, ALL_TIME), (SCOPE, ALL_TIME)):  # each board chains A's three results
            history = await db.fetchall("SELECT mu_before, sigma_before, mu, sigma FROM rating_history"
                                        " WHERE user_id = ? AND scope = ? AND season = ? ORDER BY at",
                                        (A, scope, season))
            assert len(history) == 3
            for before, after in itertools.pairwise(history):
                assert (after["mu_before"], after["sigma_before"]) == (before["mu"], before["sigma"]), scope
            line = await rating(db, A, scope=scope)
            assert (line["games"], line["mu"], line["sigma"]) == (3, history[-1]["mu"], history[-1]["sigma"])
    finally:
        await db.close()


async def test_the_host_rates_a_finished_game_in_its_end_transaction(db: Database, clock: FakeClock) -> None:
    host = Host(db, games={DiceNim.name: DiceNim}, renderer=text_renderer, now=clock,
                on_finish=[record_result])
    lobby = await host.lobby.challenge(game="dicenim", creator=A, opponents=[B], options={"stones": 15}, guild_id=GUILD)
    game_id = (await host.lobby.accept(lobby.row.id, B)).row.id
    await host.turns.play(game_id, A, "bid 1")
    await host.turns.play(game_id, B, "bid 2")
    while (await host.session.row(game_id)).status == "active":
        to_move = (await host.boards.observation(game_id, None))["to_move"]
        row = await host.session.row(game_id)
        await host.turns.play(game_id, row.user_at(to_move[0]) or 0, "take 1")
    result = (await host.session.row(game_id)).result
    assert result is not None
    winner = A if (await host.session.row(game_id)).user_at(result["winners"][0]) == A else B
    assert (await rating(db, winner, "dicenim"))["wins"] == 1
    assert (await rating(db, A + B - winner, "dicenim", scope=GLOBAL))["losses"] == 1


async def test_seasons_open_fresh_boards_and_all_time_stays(db: Database) -> None:
    await finish(db, (A, B), (1, 2))
    assert await seasons.current_season(db, GUILD) == 1
    assert await seasons.start_season(db, GUILD, A, 1500.0) == 2
    assert await seasons.current_season(db, GUILD) == 2
    assert await seasons.current_season(db, GUILD + 1) == 1
    await finish(db, (B, C), (1, 2))
    assert (await rating(db, B, season=1))["losses"] == 1
    assert await rating(db, C, season=1) is None
    season2 = await rating(db, B, season=2)
    assert (season2["games"], season2["wins"], season2["mu"] > 25) == (1, 1, True)
    assert (await rating(db, B))["games"] == 2
    assert [s.number for s in await seasons.seasons(db, GUILD)] == [1, 2]


def test_only_admins_may_start_a_season() -> None:
    assert not seasons.may_start_season(False) and seasons.may_start_season(True)
    assert not seasons.may_start_season(None)
    assert not seasons.may_start_season(discord.Permissions(send_messages=True, manage_messages=True))
    assert seasons.may_start_season(discord.Permissions(manage_guild=True))
    assert seasons.may_start_season(discord.Permissions(administrator=True))


async def test_the_leaderboard_needs_five_games_and_shows_the_callers_place(db: Database) -> None:
    rows = [Rating(100 + i, "zrtz", SCOPE, 0, 40.0 - i, 2.0, 12, 6, 5, 1) for i in range(25)]
    rows.append(Rating(999, "zrtz", SCOPE, 0, 99.0, 1.0, 4, 4, 0, 0))  # best rating, too few games
    rows.append(Rating(100, "zrtz", GLOBAL, 0, 10.0, 2.0, 12, 0, 12, 0))  # another board does not leak in
    await stored_ratings.put_many(db, rows)
    board = await ratings.leaderboard(db, "zrtz", SCOPE, user_id=123)
    assert [s.rank for s in board.rows] == list(range(1, 21)) and board.players == 25
    assert [s.user_id for s in board.rows] == [100 + i for i in range(20)]
    assert board.rows[0].rating > board.rows[1].rating and board.rows[0].win_rate == 0.5
    assert board.me is not None and (board.me.rank, board.me.user_id) == (24, 123)
    inside = await ratings.leaderboard(db, "zrtz", SCOPE, user_id=105)
    assert inside.me is None
    newcomer = await ratings.leaderboard(db, "zrtz", SCOPE, user_id=999)
    assert newcomer.me is not None and newcomer.me.rank is None and newcomer.me.games == 4
    assert (await ratings.leaderboard(db, "zrtz", SCOPE, user_id=5555)).me is None


async def test_profile_has_rank_record_best_win_recent_results_and_history(db: Database) -> None:
    for i in range(5):
        await finish(db, (B, C), (1, 2), now=100.0 + i)  # Bob climbs by beating Carol
        await finish(db, (A, D), (2, 1), now=110.0 + i)
    await finish(db, (A, C), (1, 2), now=200.0)
    await finish(db, (A, B), (1, 2), now=201.0)
    await finish(db, (A, B), (1, 1), game="zaic", now=202.0)
    mine = await ratings.profile(db, A, SCOPE)
    assert [g.game for g in mine.games] == ["zrtz", "zaic"]
    zrtz = mine.games[0]
    assert (zrtz.standing.wins, zrtz.standing.losses, zrtz.standing.draws, zrtz.standing.games) == (2, 5, 0, 7)
    assert zrtz.standing.rank is not None and zrtz.players == 4
    assert zrtz.best_win is not None and zrtz.best_win[0] == B
    assert len(zrtz.history) == 8 and zrtz.history[-1][1] == zrtz.standing.rating
    assert zrtz.history[0][1] == ratings.display_rating(25, 25 / 3)  # the chart starts from the first rating
    assert zrtz.history[-1][1] > zrtz.history[-3][1]
    assert [r.result for r in mine.recent][:3] == ["draw", "win", "win"] and mine.recent[1].change > 0
    assert mine.games[1].standing.rank is None and mine.games[1].best_win is None
    assert (await ratings.profile(db, A, GLOBAL)).games[0].standing.games == 7
