"""Standings and tie-breaks: points, then an ordered list of tie-breaks the organiser chooses (FIDE C.07):
Buchholz, Buchholz cut-1, median Buchholz, Sonneborn-Berger, number of wins, direct encounter, head-to-head.

Points: a win 1, a draw ½, a loss 0 (timeouts and resignations are losses); 3-4 player tables score by
placing (``model.placing_points``). A Swiss bye is worth a win. Forfeits (a withdrawn or removed
player's unplayed games) are losses to them and wins to their opponents.

Unplayed rounds follow FIDE's rule of 2009 (Congress 2009, Swiss Pairings Programs Committee, item 7
"Handling of unplayed games", quoted in the Vega manual 2016, Appendix I; kept in the FIDE Handbook
C.07 tie-break regulations until 2023), in Swiss only:

- a player's own bye, forfeit or absence counts as a game against a *virtual opponent* who starts the
  round with the player's score, takes the opposite result, and draws every later round:
  ``Svon = S_before + (W - result) + W/2 · (rounds - round)`` (W = a win's points);
- when a player's score counts towards someone else's tie-break, each of their unplayed rounds counts as
  a draw (so an opponent who later withdraws does not sink your Buchholz).

In a round robin every scheduled game is counted as played, forfeits included (FIDE practice for
all-play-all), and the round-robin bye (odd counts) counts for nothing.

With 3-4 player tables a round's contribution is the mean over the player's table-mates, so a
4-table round weighs the same as a 2-player game; "beat" means "finished above".
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from host.tournaments.pairing.model import Bye, EntrantId, Game, Result, total_points, win_points

SWISS = "swiss"
ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class Tiebreak:
    code: str
    name: str
    explanation: str


BUCHHOLZ = Tiebreak(
    "Bh", "Buchholz",
    "Buchholz (Bh): the sum of your opponents' scores, so a harder schedule ranks higher. An opponent's "
    "unplayed games count as draws; your own bye or forfeit counts as a game against a virtual opponent "
    "who then draws every round.",
)
SONNEBORN_BERGER = Tiebreak(
    "SB", "Sonneborn-Berger",
    "Sonneborn-Berger (SB): the scores of the opponents you beat plus half the scores of those you drew, "
    "so wins against strong players count most.",
)
HEAD_TO_HEAD = Tiebreak(
    "H2H", "head-to-head",
    "Head-to-head (H2H): points scored in the games between the players tied on points.",
)
BUCHHOLZ_CUT1 = Tiebreak(
    "BhC1", "Buchholz cut-1",
    "Buchholz cut-1 (BhC1): Buchholz without its lowest contribution (one bad opponent does not count).",
)
MEDIAN_BUCHHOLZ = Tiebreak(
    "BhM", "median Buchholz",
    "Median Buchholz (BhM): Buchholz without its highest and its lowest contribution.",
)
WINS = Tiebreak(
    "W", "number of wins",
    "Wins (W): games won over the board; byes and forfeit wins do not count.",
)
WINS_TABLES = Tiebreak(
    "W", "number of wins",
    "Wins (W): tables won (finished above everyone else at the table) over the board; byes and forfeits do "
    "not count.",
)
DIRECT_ENCOUNTER = Tiebreak(
    "DE", "direct encounter",
    "Direct encounter (DE): among players still tied on points and the tie-breaks before it, the points "
    "scored in their games against each other, used only when every one of them has met every other.",
)
POINTS_TEXT = "Points: win 1, draw ½, loss 0; timeouts and resignations are losses; a withdrawn player forfeits."
TABLE_POINTS_TEXT = "Points by placing at each table: {places}; a smaller table spreads the same range."
SWISS_BYE_TEXT = "A bye (odd number of players) is worth a win."
SHARED_TEXT = "Players equal on points and every tie-break share the place."
UNPLAYED_SWISS_TEXT = (
    "Unplayed games (FIDE's 2009 rule): your own bye, forfeit or absence counts as a game against a virtual "
    "opponent who starts that round level with you, takes the opposite result and then draws every round; in "
    "your opponents' scores their unplayed games count as draws; a double forfeit is a loss for both.")
UNPLAYED_ROUND_ROBIN_TEXT = (
    "Unplayed games (all-play-all rule): a forfeit counts as a played game with its result; a double forfeit "
    "counts for nobody; the round-robin bye counts for nothing.")

TIEBREAKS: dict[str, tuple[Tiebreak, ...]] = {
    SWISS: (BUCHHOLZ, SONNEBORN_BERGER),
    ROUND_ROBIN: (HEAD_TO_HEAD, SONNEBORN_BERGER),
}
"""The default order per system (an event created without a ``tiebreaks`` choice)."""
CHOICES: dict[str, Tiebreak] = {t.code: t for t in (BUCHHOLZ, BUCHHOLZ_CUT1, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER,
                                                     WINS, DIRECT_ENCOUNTER, HEAD_TO_HEAD)}
"""Every tie-break an organiser may list, by code."""
ALIASES = {"bh": "Bh", "buchholz": "Bh", "bhc1": "BhC1", "cut1": "BhC1", "buchholz-cut-1": "BhC1",
           "bhm": "BhM", "median": "BhM", "median-buchholz": "BhM", "sb": "SB", "sonneborn-berger": "SB",
           "w": "W", "win": "W", "wins": "W", "de": "DE", "direct-encounter": "DE", "h2h": "H2H",
           "head-to-head": "H2H"}
MAX_TIEBREAKS = 5


def parse_tiebreaks(text: str | None, system: str) -> tuple[str, ...] | None:
    """The organiser's order as codes (``"BhC1, Bh, SB"``); ``None`` (empty text) means the system's default.
    Raises ``ValueError`` with a sentence for the organiser on an unknown or repeated name."""
    if text is None or not text.strip():
        return None
    codes: list[str] = []
    for part in text.replace(";", ",").replace(">", ",").split(","):
        word = part.strip().lower().replace(" ", "-").replace("_", "-")
        if not word:
            continue
        code = ALIASES.get(word)
        if code is None:
            raise ValueError(f"{part.strip()[:30]!r} is not a tie-break; choose from {', '.join(CHOICES)}")
        if code in codes:
            raise ValueError(f"{code} is listed twice")
        codes.append(code)
    if len(codes) > MAX_TIEBREAKS:
        raise ValueError(f"at most {MAX_TIEBREAKS} tie-breaks")
    return tuple(codes) or None


def chosen(system: str, order: Sequence[str] | None = None, table_size: int = 2) -> tuple[Tiebreak, ...]:
    """The tie-breaks in the order the event uses them."""
    if order is None:
        return TIEBREAKS[system]
    return tuple(WINS_TABLES if c == "W" and table_size > 2 else CHOICES[c] for c in order)


@dataclass(frozen=True)
class Standing:
    rank: int
    """Shared by players equal on points and every tie-break."""
    entrant: EntrantId
    points: float
    tiebreaks: tuple[float, ...]
    """In the event's order (``TIEBREAKS[system]`` unless it chose one)."""
    games: int
    """Games played (forfeits and byes not counted)."""
    withdrawn: bool


def explanations(system: str, table_size: int = 2, order: Sequence[str] | None = None) -> list[str]:
    """Short lines for ``/tournament standings``: how points are won, what each tie-break means (in the
    event's order), and which rule for unplayed games is used."""
    if table_size == 2:
        lines = [POINTS_TEXT]
    else:
        places = "/".join(f"{p:g}" for p in range(table_size - 1, -1, -1))
        lines = [TABLE_POINTS_TEXT.format(places=places)]
    if system == SWISS:
        lines.append(SWISS_BYE_TEXT)
    breaks = chosen(system, order, table_size)
    lines.append("Tie-breaks in order: " + ", then ".join(t.code for t in breaks) + ".")
    lines += [t.explanation for t in breaks]
    lines.append(UNPLAYED_SWISS_TEXT if system == SWISS else UNPLAYED_ROUND_ROBIN_TEXT)
    lines.append(SHARED_TEXT)
    return lines


@dataclass(frozen=True)
class _Round:
    """One entrant's result in a round: the game (played or forfeited) if any, and the points scored."""

    round: int
    game: Game | None
    points: float


Rows = dict[EntrantId, list[_Round]]


def _rounds_of(results: Sequence[Result], rounds: int, withdrawn: Collection[EntrantId]) -> Rows:
    """Per entrant their results in round order; withdrawn players absent from a round get an unplayed 0."""
    table: Rows = {}
    for result in results:
        if result.round > rounds:
            continue
        if isinstance(result, Bye):
            table.setdefault(result.entrant, []).append(_Round(result.round, None, result.points))
        else:
            for entrant in result.seats:
                table.setdefault(entrant, []).append(_Round(result.round, result, result.points_of(entrant)))
    for entrant in withdrawn:
        rows = table.setdefault(entrant, [])
        present = {row.round for row in rows}
        rows += [_Round(r, None, 0.0) for r in range(1, rounds + 1) if r not in present]
    for rows in table.values():
        rows.sort(key=lambda row: row.round)
    return table


def double_forfeit(game: Game) -> bool:
    """An unplayed game nobody scored in (two absent players still due to meet, 0-0): nobody's game."""
    return game.forfeit and not any(game.points)


def _counts_as_played(row: _Round, swiss: bool) -> bool:
    """Swiss: only games really played; round robin: forfeits too, except a double forfeit (byes never)."""
    return row.game is not None and (not row.game.forfeit if swiss else not double_forfeit(row.game))


def _outcome(game: Game, entrant: EntrantId, other: EntrantId) -> float:
    """1 for finishing above ``other``, ½ level, 0 below; a double forfeit (0-0) is 0 for both, not a draw."""
    if double_forfeit(game):
        return 0.0
    mine, theirs = game.points_of(entrant), game.points_of(other)
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def virtual_opponent(score_before: float, result: float, rounds: int, round_: int, win: float = 1.0) -> float:
    """FIDE's virtual opponent for an unplayed round: opposite result, then a draw every later round."""
    return score_before + (win - result) + win / 2 * (rounds - round_)


def _contributions(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    rounds: int,
    system: str,
    table_size: int,
    withdrawn: Collection[EntrantId],
) -> dict[EntrantId, tuple[list[float], float]]:
    """Per entrant: each round's Buchholz contribution (an opponent's score, or the virtual opponent's), and SB."""
    win = win_points(table_size)
    swiss = system == SWISS
    per = _rounds_of(results, rounds, withdrawn)
    adjusted = {
        e: sum(r.points if _counts_as_played(r, swiss) else win / 2 for r in per.get(e, []))
        for e in entrants
    }
    actual = total_points([r for r in results if r.round <= rounds], entrants)
    opponent_score = adjusted if swiss else actual
    values = {}
    for entrant in entrants:
        parts: list[float] = []
        sonneborn = 0.0
        running = 0.0
        for row in per.get(entrant, []):
            game = row.game
            if game is not None and _counts_as_played(row, swiss):
                mates = [o for o in game.seats if o != entrant]
                parts.append(sum(opponent_score[o] for o in mates) / len(mates))
                sonneborn += sum(opponent_score[o] * _outcome(game, entrant, o) for o in mates) / len(mates)
            elif swiss:
                virtual = virtual_opponent(running, row.points, rounds, row.round, win)
                parts.append(virtual)
                sonneborn += virtual * row.points / win
            running += row.points
        values[entrant] = (parts, sonneborn)
    return values


def buchholz_and_sb(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    rounds: int,
    system: str,
    table_size: int = 2,
    withdrawn: Collection[EntrantId] = (),
) -> dict[EntrantId, tuple[float, float]]:
    """Buchholz and Sonneborn-Berger per entrant over the first ``rounds`` rounds."""
    found = _contributions(entrants, results, rounds, system, table_size, withdrawn)
    return {e: (round(sum(parts), 9), round(sb, 9)) for e, (parts, sb) in found.items()}  # equal sums tie


def cut(parts: Sequence[float], low: int, high: int = 0) -> float:
    """Buchholz without its ``low`` lowest and ``high`` highest contributions (0 when nothing is left)."""
    ordered = sorted(parts)
    kept = ordered[low:len(ordered) - high] if len(ordered) > low + high else []
    return round(sum(kept), 9)


def wins(entrant: EntrantId, results: Sequence[Result], rounds: int) -> int:
    """Games won over the board: finished above every table-mate in a played game (byes and forfeits not)."""
    return sum(1 for r in results if isinstance(r, Game) and r.round <= rounds and not r.forfeit
               and entrant in r.seats and all(r.points_of(entrant) > r.points_of(o) for o in r.seats if o != entrant))


def direct_encounter(entrant: EntrantId, group: Collection[EntrantId], results: Sequence[Result], rounds: int) -> float:
    """FIDE's direct encounter: points against the rest of ``group`` when every pair in it has met, else 0."""
    others = [o for o in group if o != entrant]
    if not others:
        return 0.0
    met = {frozenset((a, b)) for r in results if isinstance(r, Game) and r.round <= rounds and not double_forfeit(r)
           for a in r.seats for b in r.seats if a != b}
    members = list(group)
    if any(frozenset((a, b)) not in met for i, a in enumerate(members) for b in members[i + 1:]):
        return 0.0
    return head_to_head(entrant, group, results, rounds)


def head_to_head(entrant: EntrantId, tied: Collection[EntrantId], results: Sequence[Result], rounds: int) -> float:
    """Points (1/½/0 per opponent) scored against the other players in ``tied``, forfeits included."""
    total = 0.0
    for result in results:
        if isinstance(result, Game) and result.round <= rounds and entrant in result.seats:
            for other in result.seats:
                if other != entrant and other in tied:
                    total += _outcome(result, entrant, other)
    return total


def standings(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    rounds: int,
    system: str,
    table_size: int = 2,
    withdrawn: Collection[EntrantId] = (),
    order: Sequence[str] | None = None,
) -> list[Standing]:
    """The table, best first; ``entrants`` in initial rank order, which orders players sharing a place.
    ``order``: the event's tie-break codes (``CHOICES``), default ``TIEBREAKS[system]``."""
    if system not in TIEBREAKS:
        raise ValueError(f"no standings for {system!r}")
    codes = [t.code for t in chosen(system, order, table_size)]
    counted = [r for r in results if r.round <= rounds]
    points = total_points(counted, entrants)
    parts = _contributions(entrants, counted, rounds, system, table_size, withdrawn)
    played = {e: sum(1 for r in counted if isinstance(r, Game) and not r.forfeit and e in r.seats) for e in entrants}
    columns: dict[EntrantId, list[float]] = {e: [] for e in entrants}
    for code in codes:  # one column at a time: DE and H2H look at the players still tied before them
        groups: dict[tuple[float, ...], list[EntrantId]] = {}
        for e in entrants:
            groups.setdefault((points[e], *columns[e]), []).append(e)
        for entrant in entrants:
            bh, sb = parts[entrant]
            if code == "Bh":
                value = round(sum(bh), 9)
            elif code == "BhC1":
                value = cut(bh, 1)
            elif code == "BhM":
                value = cut(bh, 1, 1)
            elif code == "SB":
                value = round(sb, 9)
            elif code == "W":
                value = float(wins(entrant, counted, rounds))
            elif code == "DE":
                value = direct_encounter(entrant, groups[(points[entrant], *columns[entrant])], counted, rounds)
            else:  # H2H: the players tied on points, as before any tie-break
                tied = {e for e in entrants if points[e] == points[entrant]}
                value = head_to_head(entrant, tied, counted, rounds)
            columns[entrant].append(value)
    breaks = {e: tuple(columns[e]) for e in entrants}
    initial = {e: i for i, e in enumerate(entrants)}
    ranked = sorted(entrants, key=lambda e: (-points[e], *(-b for b in breaks[e]), initial[e]))
    table: list[Standing] = []
    for position, entrant in enumerate(ranked, start=1):
        previous = table[-1] if table else None
        same = previous is not None and (previous.points, previous.tiebreaks) == (points[entrant], breaks[entrant])
        rank = previous.rank if same and previous is not None else position
        table.append(Standing(rank, entrant, points[entrant], breaks[entrant], played[entrant], entrant in withdrawn))
    return table
