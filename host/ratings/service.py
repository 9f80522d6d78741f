"""Ratings with openskill's Plackett-Luce model: one per player per game, per board, updated at game end.

Boards: the global all-time board, and for a game played in a guild that guild's all-time board and
its current season's board. ``record_result`` is a host ``FinishHook``: it runs inside the
version-checked transaction that records the end of the game, so a game is rated exactly once or,
if anything fails, not at all (and the game stays unfinished).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce, PlackettLuceRating

from data import ratings as stored
from data.db import Database, Tx
from data.ratings import Rating, RatingChange, RatingStore
from data.store import GameRow
from engines.base import CHANCE, META_MOVES, Game, Outcome
from host.play import bots
from host.ratings.seasons import current_season

GLOBAL = "global"
ALL_TIME = 0
PROVISIONAL_GAMES = 10
MIN_GAMES = stored.COUNTED_FROM
"""Games before a player appears on a board (its size and places are counted from this many, in data/)."""
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
MODELS = {False: PlackettLuce(beta=BASE_BETA), True: PlackettLuce(beta=DICE_BETA)}

SCALE = 40
"""Display points per unit of mu, for Elo's spacing: a 200-point gap predicts 78% wins (Elo: 76%)."""
CENTRE = 20
"""mu - 3 sigma of an average, settled player (mu 25, sigma ~1.7): shown as 1500."""


def model_for(game: Game | type[Game]) -> PlackettLuce:
    """Dice games (``has_chance``) get the noisier model."""
    return MODELS[game.has_chance]


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
        return "a practice game against the easy AI" if row.settings.get("practice") else "the game was unrated"
    users = [row.user_at(seat) for seat in range(row.players)]
    if any(user is None for user in users):
        return "a seat had no player"
    if any(users.count(u) > 1 for u in users if not bots.is_ai(u)):
        return "a player held several seats"  # an AI level may hold several seats: see ``split_ai``
    if game.outcome() is None:
        return "the game is not over"
    moves = Counter(seat for seat, text in game.history if seat != CHANCE and text not in META_MOVES)
    if any(moves[seat] < MIN_MOVES for seat in range(row.players)):
        return f"a player made fewer than {MIN_MOVES} moves"
    return None


def split_ai(users: Sequence[int | None], teams: Sequence[int]) -> set[int]:
    """AI levels that hold seats on more than one side (two ``easy`` seats in a free-for-all).

    The rule, the same in every game: the people are rated, and each such AI seat plays as its level's
    rating; only that level's own rating is left as it was, since it cannot be rated against itself.
    An AI level holding the seats of one team (the AI partnership in Ziggurat partners) is one player."""
    return {u for u in users if u is not None and bots.is_ai(u)
            and len({teams[s] for s, v in enumerate(users) if v == u}) > 1}


def rating_note(row: GameRow, cls: type[Game]) -> str:
    """Whether the game will count, said the same way at its challenge and on its first board."""
    if isinstance(row.settings.get("origin"), dict):
        return ""  # played on from another game: its own line says it is never rated
    if not row.settings.get("rated", True):
        if row.settings.get("practice"):
            return ("Unrated: a practice game against the easy AI, so `hint` works"
                    " (`rated: True` makes such a game count).")
        seated = [s.user_id for s in row.seats if s.user_id is not None]
        if len(set(seated)) < len(seated):
            return "Unrated (you cannot rate a game against yourself)."
        return "Unrated."
    users = [s.user_id for s in sorted(row.seats, key=lambda s: s.seat)]
    split = split_ai(users, cls.new(row.players, row.options).teams())
    text = f"Rated: it counts for the leaderboards if every seat makes at least {MIN_MOVES} moves."
    if split:
        names = ", ".join(bots.name(u) for u in sorted(split))
        text += f" {names} plays several sides, so only its own rating stays as it is."
    return text


async def record_result(conn: Tx, row: GameRow, game: Game, now: float) -> None:
    """FinishHook: rate the game on every board it counts for. Uses only ``conn`` (we are inside a transaction)."""
    if unrated_reason(row, game) is not None:
        return
    for user in sorted({u for u in (row.user_at(s) for s in range(row.players)) if u is not None}):
        # Before reading a line: a player's two games ending at once would otherwise both rate from the same
        # old line (READ COMMITTED), and the later write would erase the earlier game. Sorted: no deadlock.
        await conn.lock(f"rating:{row.game}:{user}")
    if await stored.is_rated(conn, row.id):
        return  # already rated: never count a game twice
    outcome = game.outcome()
    assert outcome is not None
    boards = [(GLOBAL, ALL_TIME)]
    if row.guild_id is not None:
        boards += [(str(row.guild_id), ALL_TIME), (str(row.guild_id), await current_season(conn, row.guild_id))]
    for scope, season in boards:
        await _rate_board(conn, row, outcome, scope, season, now, model_for(game))


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
                      now: float, model: PlackettLuce) -> None:
    teams = _teams(row, outcome)
    split = split_ai([row.user_at(s) for s in range(row.players)], [t for _, t in sorted(
        (s.seat, s.team) for s in row.seats)])
    before: list[list[PlackettLuceRating]] = []
    for users, _ in teams:
        members = []
        for user in users:
            found = await stored.rating_of(conn, user, row.game, scope, season)
            members.append(model.rating(mu=found[0], sigma=found[1]) if found else model.rating())
        before.append(members)
    ranks = [rank for _, rank in teams]
    after = model.rate(before, ranks=[float(r) for r in ranks])
    changes: list[RatingChange] = []
    for (users, rank), old_team, new_team in zip(teams, before, after, strict=True):
        result = _result(rank, ranks)
        for user, old, new in zip(users, old_team, new_team, strict=True):
            if user in split:
                continue  # it played at its rating on every side it held; it is not rated against itself
            changes.append(RatingChange(row.id, user, row.game, scope, season, rank, result, old.mu, old.sigma,
                                        new.mu, new.sigma, now))
    await stored.add_changes(conn, changes)  # in the one lock order every finishing game shares


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
    """Ranked players first; on a board with room left, provisional players below them (rank ``None``)."""
    me: Standing | None
    """The caller's line when they are not among ``rows`` (rank ``None`` below ``MIN_GAMES`` games)."""
    players: int
    """How many players qualify for the board."""
    bots: list[Standing] = field(default_factory=list)
    """The AI levels' lines, when they are left out of the ranking (``bots_too=False``): shown apart."""


def _standing(rank: int | None, r: Rating) -> Standing:
    return Standing(rank, r.user_id, display_rating(r.mu, r.sigma), r.games, r.wins, r.losses, r.draws)


async def leaderboard(db: Database, game: str, scope: str, season: int = ALL_TIME, user_id: int | None = None,
                      limit: int = TOP, bots_too: bool = True) -> Leaderboard:
    """Top ``limit`` players with at least ``MIN_GAMES`` games on the board, plus the caller's own place.

    ``bots_too=False`` leaves the AI levels out: places are then counted among people only.
    """
    store = RatingStore(db)
    exclude = () if bots_too else tuple(bots.AI_USERS.values())
    top = await store.top(game, scope, season, min_games=MIN_GAMES, limit=limit, exclude=exclude)
    rows = [_standing(place, r) for place, r in enumerate(top, start=1)]
    if len(rows) < limit:  # every ranked player is shown: fill the room with provisional ones, unranked, as "?"
        newer = await store.top(game, scope, season, min_games=1, limit=limit, exclude=exclude)
        rows += [_standing(None, r) for r in newer if r.games < MIN_GAMES][:limit - len(rows)]
    count = await store.count(game, scope, season, min_games=MIN_GAMES, exclude=exclude)
    apart = [] if bots_too else [_standing(None, r) for u in bots.AI_USERS.values()
                                 if (r := await store.get(u, game, scope, season)) is not None]
    me = None
    if user_id is not None and all(s.user_id != user_id for s in rows):
        mine = await store.get(user_id, game, scope, season)
        if mine is not None:
            me = _standing(await store.place(mine, min_games=MIN_GAMES, exclude=exclude), mine)
    return Leaderboard(game, scope, season, rows, me, count, apart)


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
                  points: int = 60, bots_too: bool = False) -> Profile:
    """Everything ``/profile`` shows for one player on one board; games ordered by games played.

    The place and the count are the leaderboard's with the same ``bots_too``: by default people among
    people, so the profile and ``/leaderboard`` never give one player two places.
    """
    store = RatingStore(db)
    exclude = () if bots_too else tuple(bots.AI_USERS.values())
    records = []
    for r in await store.of_user(user_id, scope, season):
        best = await store.best_win(user_id, r.game, scope, season)
        history = await store.history(user_id, r.game, scope, season, points)
        records.append(GameRecord(
            game=r.game, standing=_standing(await store.place(r, min_games=MIN_GAMES, exclude=exclude), r),
            players=await store.count(r.game, scope, season, min_games=MIN_GAMES, exclude=exclude),
            best_win=(best.user_id, display_rating(best.mu_before, best.sigma_before)) if best else None,
            history=[(history[0].at, display_rating(history[0].mu_before, history[0].sigma_before)),
                     *((h.at, display_rating(h.mu, h.sigma)) for h in history)] if history else []))
    latest = await store.latest(user_id, scope, season, recent)
    results = [RecentResult(h.game_id, h.game, h.result, h.place,
                            display_rating(h.mu, h.sigma) - display_rating(h.mu_before, h.sigma_before), h.at)
               for h in latest]
    return Profile(user_id, scope, season, records, results)
