"""Rewards for the search: exact from a finished game, estimated from a position by per-game knowledge.

A reward is one number in [0, 1] per seat (1: beats every opposing team, 0.5: level). Positions are
judged from public attributes of the engines only; the search only ever evaluates a determinized copy,
so what the evaluation reads there (a Zodiac king, say) is a guess, not a secret.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engines import Game, Outcome

Scorer = Callable[[Game], list[float] | None]


def pairwise(game: Game, beats: Callable[[int, int], float]) -> list[float]:
    """Each seat's mean of ``beats(seat, opponent)`` over the opposing seats (0.5 with no opponent)."""
    teams = game.teams()  # once, not per seat: the priors evaluate tens of thousands of positions a move
    seats = range(game.num_players)
    out = []
    for s in seats:
        opp = [o for o in seats if teams[o] != teams[s]]
        out.append(sum([beats(s, o) for o in opp]) / len(opp) if opp else 0.5)
    return out


def from_outcome(game: Game, outcome: Outcome) -> list[float]:
    """Share of opposing seats each seat finished above (a tie counts half)."""
    ranks = outcome.ranks
    return pairwise(game, lambda s, o: 1.0 if ranks[o] > ranks[s] else 0.5 if ranks[o] == ranks[s] else 0.0)


def from_scores(game: Game, scores: list[float], scale: float) -> list[float]:
    """Pairwise logistic comparison of heuristic scores against every opposing seat."""
    def beats(s: int, o: int) -> float:
        x = max(-30.0, min(30.0, (scores[s] - scores[o]) / scale))
        return 1.0 / (1.0 + math.exp(-x))

    return pairwise(game, beats)


def zarathustra_scores(game: Game) -> list[float] | None:
    return [float(x) for x in game.scores()]  # type: ignore[attr-defined]


def zaic_scores(game: Game) -> list[float] | None:
    out = []
    for sizes in game.group_sizes():  # type: ignore[attr-defined]
        out.append((sizes[0] if sizes else 0) + 0.3 * (sizes[1] if len(sizes) > 1 else 0))
    return out


def zrtz_scores(game: Game) -> list[float] | None:
    """Progress to the nearest winning set, in marbles: the best colour counts most, 'each' and the rest a little."""
    goal, each = game.goal, game.each  # type: ignore[attr-defined]
    out = []
    for caught in game.captured:  # type: ignore[attr-defined]
        fractions = [c / g for c, g in zip(caught, goal, strict=True)]
        out.append(4 * max(max(fractions), min(caught) / each) + sum(fractions))
    return out


ZODIAC_VALUE = {"Virus": 2.0, "Bear": 2.5, "Rhino": 2.5, "Wolf": 2.5, "Monkey": 2.0, "Octopus": 2.0,
                "Snake": 2.0, "Crane": 2.0, "Tree": 1.5, "Goat": 1.5, "Penguin": 1.5, "Frog": 1.0, "Fungi": 1.0}


def zodiac_scores(game: Game) -> list[float] | None:
    """Material, and the king's march to the far rank (it wins there), from the determinized copy."""
    if getattr(game, "phase", "") != "play":
        return None
    st = game.st  # type: ignore[attr-defined]
    side_score = [0.0, 0.0]
    for sq, p in st.all_pieces():
        if p.shadow:
            continue
        side_score[p.owner] += ZODIAC_VALUE.get(p.kind, 1.5)
        if st.kings[p.owner] == p.kind:
            steps = sq // 5 if p.owner == 0 else 7 - sq // 5
            side_score[p.owner] += 0.25 * steps
    return [side_score[game.side_of(seat)] for seat in range(2)]  # type: ignore[attr-defined]


def ziggurat_scores(game: Game) -> list[float] | None:
    """Squares travelled by each seat's colours (the round-limit tiebreak); partners add their partner's."""
    owner = game.owner  # type: ignore[attr-defined]
    progress = {c: float(game.progress(c)) for c in game.colours}  # type: ignore[attr-defined]
    out = [0.0] * game.num_players
    partners = game.options.get("mode") == "partners"
    for c, seat in owner.items():
        value = progress[c] + (progress.get((c + 2) % 4, 0.0) if partners else 0.0)
        out[seat] = max(out[seat], value)
    return out


SCORERS: dict[str, tuple[Scorer, float]] = {
    "zarathustra": (zarathustra_scores, 2.0),
    "zaic": (zaic_scores, 2.0),
    "zrtz": (zrtz_scores, 0.6),
    "zodiac": (zodiac_scores, 1.5),
    "ziggurat": (ziggurat_scores, 12.0),
}


def zarathustra_exposed(game: Game) -> list[int]:
    """Blanks on each seat's tiles that turn a blank edge to an empty square: any later sword placed there kills them.

    Why: all 17 tiles of every seat are played, so the blanks placed are fixed and a game is decided by the blanks
    lost; in 11 replayed 4-player games (hard vs medium) 68% of the tiles placed with a blank facing an empty square
    were destroyed later (81% of the 2- and 3-blank ones placed in the first half), 17% of the others (docs/ai.md).
    """
    cells = game.cells  # type: ignore[attr-defined]
    neighbours = game.geo.neighbours  # type: ignore[attr-defined]
    out = [0] * game.num_players
    for square, cell in enumerate(cells):
        if cell is None:
            continue
        edges = cell[1]
        for d, other in neighbours[square]:
            if edges[d] == "." and cells[other] is None:
                out[cell[0]] += edges.count(".")
                break
    return out


def discounted(scores: Sequence[float], exposed: Sequence[int], exposure: float) -> list[float]:
    """Each seat's score with ``exposure`` taken off for each of its exposed blanks (``zarathustra_exposed``)."""
    return [s - exposure * e for s, e in zip(scores, exposed, strict=True)]


def zarathustra_at_risk(game: Game, exposure: float) -> list[float]:
    """Zarathustra's scores with ``exposure`` of each exposed blank (``zarathustra_exposed``) taken off."""
    return discounted(game.scores(), zarathustra_exposed(game), exposure)  # type: ignore[attr-defined]


def evaluate_exposed(game: Game, exposure: float) -> list[float]:
    """``evaluate`` with exposed Zarathustra blanks discounted (``levels.LEVEL_EXPOSURE``); elsewhere ``evaluate``."""
    if not exposure or game.name != "zarathustra":
        return evaluate(game)
    outcome = game.outcome()
    if outcome is not None:
        return from_outcome(game, outcome)
    return from_scores(game, zarathustra_at_risk(game, exposure), SCORERS["zarathustra"][1])


def evaluate(game: Game) -> list[float]:
    """Rewards of a position: exact when the game is over, else the game's heuristic (level without one)."""
    outcome = game.outcome()
    if outcome is not None:
        return from_outcome(game, outcome)
    entry = SCORERS.get(game.name)
    scores = entry[0](game) if entry else None
    if scores is None or entry is None:
        return [0.5] * game.num_players
    return from_scores(game, scores, entry[1])
