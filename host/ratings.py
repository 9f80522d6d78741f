"""Ratings with openskill's Plackett-Luce model: one per player per game, per board, updated at game end.

Boards: the global all-time board, and for a game played in a guild that guild's all-time board and
its current season's board. ``record_result`` is a host ``FinishHook``: it runs inside the
version-checked transaction that records the end of the game, so a game is rated exactly once or,
if anything fails, not at all (and the game stays unfinished).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from data.db import Database, Row, Tx
from data.store import GameRow
from engines.base import CHANCE, META_MOVES, Game, Outcome
from host import bots
from host.seasons import current_season

GLOBAL = "global"
ALL_TIME = 0
PROVISIONAL_GAMES = 10
MIN_GAMES = 5
TOP = 20
MIN_MOVES = 2

BASE_BETA = 25 / 6
DICE_BETA = 25 / 3
"""Performance noise for dice games, twice openskill's default.

Beta is how far one game's performance strays from a player's skill. With dice, much of a result is
luck: between settled players a 200-point gap predicts 78% wins at the default beta (openskill's
``predict_win``) but 66% at double beta, closer to what skill buys in a race game, and an upset by a
weaker player costs the favourite about half as much. Players still separate, only more slowly.
"""
DICE_GAMES = frozenset({"ziggurat", "zodiac"})
MODELS = {False: PlackettLuce(beta=BASE_BETA), True: PlackettLuce(beta=DICE_BETA)}

SCALE = 40
"""Display points per unit of mu, for Elo's spacing: a 200-point gap predicts 78% wins (Elo: 76%)."""
CENTRE = 20
"""mu - 3 sigma of an average, settled player (mu 25, sigma ~1.7): shown as 1500."""


def model_for(game: str) -> PlackettLuce:
    return MODELS[game in DICE_GAMES]


def display_rating(mu: float, sigma: float) -> int:
    """The conservative estimate mu - 3 sigma on a 1500-centred scale: it rises as we grow sure of a player."""
    return round(1500 + SCALE * (mu - 3 * sigma - CENTRE))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def shown(rating: int, games: int) -> str:
    """``1432`` or ``1432?`` while provisional."""
    return f"{rating}?" if is_provisional(games) else str(rating)


def unrated_reason(row: GameRow, game: Game) -> str | None:
    """Why a finished game is not rated, or ``None`` when it is."""
    if not row.settings.get("rated", True):
        return "the game was unrated"
    users = [row.user_at(seat) for seat in range(row.players)]
    if any(user is None for user in users):
        return "a seat had no player"
    teams = game.teams()
    repeated = {u for u in users if users.count(u) > 1}
    one_side = all(len({teams[s] for s, u in enumerate(users) if u == r}) == 1 for r in repeated)
    if repeated and not (one_side and all(bots.is_ai(u) for u in repeated)):
        return "a player held several seats"  # an AI level may hold several seats of one team, as one player
    if game.outcome() is None:
        return "the game is not over"
    moves = Counter(seat for seat, text in game.history if seat != CHANCE and text not in META_MOVES)
    if any(moves[seat] < MIN_MOVES for seat in range(row.players)):
        return f"a player made fewer than {MIN_MOVES} moves"
    return None


async def record_result(conn: Tx, row: GameRow, game: Game, now: float) -> None:
    """FinishHook: rate the game on every board it counts for. Uses only ``conn`` (we are inside a transaction)."""
    if unrated_reason(row, game) is not None:
        return
    if await conn.fetchone("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (row.id,)) is not None:
        return  # already rated: never count a game twice
    outcome = game.outcome()
    assert outcome is not None
    boards = [(GLOBAL, ALL_TIME)]
    if row.guild_id is not None:
        boards += [(str(row.guild_id), ALL_TIME), (str(row.guild_id), await current_season(conn, row.guild_id))]
    for scope, season in boards:
        await _rate_board(conn, row, outcome, scope, season, now)


def _teams(row: GameRow, outcome: Outcome) -> list[tuple[list[int], int]]:
    """(user ids, rank) per team, teams in order of their first seat; a team's rank is its best seat's."""
    seats = sorted(row.seats, key=lambda s: s.seat)
    order: dict[int, list[int]] = {}
    for seat in seats:
        order.setdefault(seat.team, []).append(seat.seat)
    return [(list(dict.fromkeys(row.user_at(s) or 0 for s in members)), min(outcome.ranks[s] for s in members))
            for members in order.values()]  # an AI level holding two seats of a team is one player


def _result(rank: int, ranks: list[int]) -> str:
    """Alone in first place wins, sharing first with another team draws, anything else loses."""
    if rank != 1:
        return "loss"
    return "draw" if ranks.count(1) > 1 else "win"


async def _rate_board(conn: Tx, row: GameRow, outcome: Outcome, scope: str, season: int,
                      now: float) -> None:
    model = model_for(row.game)
    teams = _teams(row, outcome)
    before: list[list[PlackettLuceRating]] = []
    for users, _ in teams:
        members = []
        for user in users:
            found = await conn.fetchone("SELECT mu, sigma FROM ratings WHERE user_id = ? AND game = ? AND scope = ?"
                                        " AND season = ?", (user, row.game, scope, season))
            members.append(model.rating(mu=found[0], sigma=found[1]) if found else model.rating())
        before.append(members)
    ranks = [rank for _, rank in teams]
    after = model.rate(before, ranks=[float(r) for r in ranks])
    for (users, rank), old_team, new_team in zip(teams, before, after, strict=True):
        result = _result(rank, ranks)
        for user, old, new in zip(users, old_team, new_team, strict=True):
            await conn.execute(
                "INSERT INTO ratings (user_id, game, scope, season, mu, sigma, games, wins, losses, draws)"
                " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (user_id, game, scope, season) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1,"
                " wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses,"
                " draws = ratings.draws + excluded.draws",
                (user, row.game, scope, season, new.mu, new.sigma,
                 int(result == "win"), int(result == "loss"), int(result == "draw")))
            await conn.execute(
                "INSERT INTO rating_history (game_id, user_id, game, scope, season, place, result, mu_before,"
                " sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, user, row.game, scope, season, rank, result, old.mu, old.sigma, new.mu, new.sigma, now))


# ----- reading, for the commands ------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line on a board; ``rank`` is ``None`` while they have too few games to appear."""

    rank: int | None
    user_id: int
    rating: int
    games: int
    wins: int
    losses: int
    draws: int

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)

    @property
    def shown(self) -> str:
        return shown(self.rating, self.games)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Leaderboard:
    game: str
    scope: str
    season: int
    rows: list[Standing]
    me: Standing | None
    """The caller's line when they are not among ``rows`` (rank ``None`` below ``MIN_GAMES`` games)."""
    players: int
    """How many players qualify for the board."""


def _standing(rank: int | None, r: Row) -> Standing:
    return Standing(rank, r["user_id"], display_rating(r["mu"], r["sigma"]), r["games"], r["wins"], r["losses"],
                    r["draws"])


_BOARD = ("SELECT user_id, mu, sigma, games, wins, losses, draws,"
          " ROW_NUMBER() OVER (ORDER BY mu - 3 * sigma DESC, games DESC, user_id) AS place"
          " FROM ratings WHERE game = ? AND scope = ? AND season = ? AND games >= ?")
_NO_BOTS = " AND user_id NOT IN ({})".format(", ".join(str(u) for u in bots.AI_USERS.values()))
"""Leaves the AI levels out of a board (their ids are constants, so inlining them is safe)."""


async def leaderboard(db: Database, game: str, scope: str, season: int = ALL_TIME, user_id: int | None = None,
                      limit: int = TOP, bots_too: bool = True) -> Leaderboard:
    """Top ``limit`` players with at least ``MIN_GAMES`` games on the board, plus the caller's own place.

    ``bots_too=False`` leaves the AI levels out: places are then counted among people only.
    """
    params = (game, scope, season, MIN_GAMES)
    board = _BOARD if bots_too else _BOARD + _NO_BOTS
    found = await db.fetchall(f"SELECT * FROM ({board}) AS board WHERE place <= ? OR user_id = ? ORDER BY place",
                              (*params, limit, user_id if user_id is not None else -1))
    count = await db.fetchone("SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ? AND season = ?"
                              " AND games >= ?" + ("" if bots_too else _NO_BOTS), params)
    rows = [_standing(r["place"], r) for r in found if r["place"] <= limit]
    me = next((_standing(r["place"], r) for r in found if r["user_id"] == user_id and r["place"] > limit), None)
    if user_id is not None and me is None and all(s.user_id != user_id for s in rows):
        mine = await db.fetchone("SELECT user_id, mu, sigma, games, wins, losses, draws FROM ratings WHERE"
                                 " user_id = ? AND game = ? AND scope = ? AND season = ?",
                                 (user_id, game, scope, season))
        me = _standing(None, mine) if mine else None
    return Leaderboard(game, scope, season, rows, me, int(count[0]) if count else 0)


@dataclass(frozen=True)
class GameRecord:
    """A player's standing in one game on one board, for ``/profile``."""

    game: str
    standing: Standing
    players: int
    best_win: tuple[int, int] | None
    """(opponent id, their rating before that game): the highest-rated player they beat."""
    history: list[tuple[float, int]]
    """(time, rating), oldest first, for the chart: the rating before the oldest game shown, then after each."""


@dataclass(frozen=True)
class RecentResult:
    game_id: int
    game: str
    result: str
    place: int
    change: int
    at: float


@dataclass(frozen=True)
class Profile:
    user_id: int
    scope: str
    season: int
    games: list[GameRecord]
    recent: list[RecentResult]


async def profile(db: Database, user_id: int, scope: str, season: int = ALL_TIME, recent: int = 5,
                  points: int = 60) -> Profile:
    """Everything ``/profile`` shows for one player on one board; games ordered by games played."""
    mine = await db.fetchall("SELECT * FROM ratings WHERE user_id = ? AND scope = ? AND season = ?"
                             " ORDER BY games DESC, game", (user_id, scope, season))
    records = []
    for r in mine:
        board = await db.fetchone(f"SELECT place FROM ({_BOARD}) AS board WHERE user_id = ?",
                                  (r["game"], scope, season, MIN_GAMES, user_id))
        total = await db.fetchone("SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ? AND season = ?"
                                  " AND games >= ?", (r["game"], scope, season, MIN_GAMES))
        best = await db.fetchone(
            "SELECT opp.user_id, opp.mu_before, opp.sigma_before FROM rating_history me JOIN rating_history opp"
            " ON opp.game_id = me.game_id AND opp.scope = me.scope AND opp.season = me.season"
            " AND opp.place > me.place WHERE me.user_id = ? AND me.game = ? AND me.scope = ? AND me.season = ?"
            " ORDER BY opp.mu_before - 3 * opp.sigma_before DESC LIMIT 1", (user_id, r["game"], scope, season))
        history = await db.fetchall(
            "SELECT * FROM (SELECT game_id, at, mu_before, sigma_before, mu, sigma FROM rating_history"
            " WHERE user_id = ? AND game = ? AND scope = ? AND season = ? ORDER BY at DESC, game_id DESC LIMIT ?) AS h"
            " ORDER BY at, game_id",
            (user_id, r["game"], scope, season, points))
        records.append(GameRecord(
            game=r["game"], standing=_standing(board["place"] if board else None, r),
            players=int(total[0]) if total else 0,
            best_win=(best["user_id"], display_rating(best["mu_before"], best["sigma_before"])) if best else None,
            history=[(history[0]["at"], display_rating(history[0]["mu_before"], history[0]["sigma_before"])),
                     *((h["at"], display_rating(h["mu"], h["sigma"])) for h in history)] if history else []))
    latest = await db.fetchall(
        "SELECT * FROM rating_history WHERE user_id = ? AND scope = ? AND season = ? ORDER BY at DESC, game_id DESC"
        " LIMIT ?", (user_id, scope, season, recent))
    results = [RecentResult(h["game_id"], h["game"], h["result"], h["place"],
                            display_rating(h["mu"], h["sigma"]) - display_rating(h["mu_before"], h["sigma_before"]),
                            h["at"]) for h in latest]
    return Profile(user_id, scope, season, records, results)
