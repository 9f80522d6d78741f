"""Swiss pairing for 2-player games: the FIDE Dutch system (``host/tournaments/pairing/dutch.py``, C.04.3).

Withdrawn players are not paired; an odd count gives one player a pairing-allocated bye worth a win (the
lowest score it can go to, never a second one, nor after a forfeit win); no rematch; score brackets with
floats and their history; colours by E.1-E.5. When no pairing keeps "no rematch" and "no second bye",
``NoLegalPairing`` names what the organiser may allow instead (see docs/tournaments.md), except for a lone
player (everyone else sits the round out on a requested bye) who may not have the bye: with nobody to play,
he ``rests`` for half a win, as they do.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from host.tournaments.pairing.dutch import REMATCH, SECOND_BYE, NoLegalPairing, pair_dutch, players_of
from host.tournaments.pairing.model import EntrantId, Game, Result

FIRST = "first"
SECOND = "second"
__all__ = ["FIRST", "REMATCH", "SECOND", "SECOND_BYE", "NoLegalPairing", "SwissRound", "pair_swiss", "side_history"]


@dataclass(frozen=True)
class SwissRound:
    """One round's pairings: boards in order, each ``(first seat, second seat)``, and the bye if any."""

    round: int
    boards: tuple[tuple[EntrantId, EntrantId], ...]
    bye: EntrantId | None
    rematches: int
    """Pairs that meet again (only when the organiser allowed a rematch: 0 otherwise)."""
    rests: tuple[EntrantId, ...] = ()
    """A lone player who may not have the bye (C.2: he had one, or a forfeit win): he sits the round out for
    half a win, not a second bye (docs/tournaments.md)."""


def side_history(results: Sequence[Result]) -> dict[EntrantId, dict[int, str]]:
    """Per entrant, round -> FIRST/SECOND for every played 2-player game (forfeits give no side)."""
    sides: dict[EntrantId, dict[int, str]] = {}
    for result in results:
        if isinstance(result, Game) and not result.forfeit and len(result.seats) == 2:
            first, second = result.seats
            sides.setdefault(first, {})[result.round] = FIRST
            sides.setdefault(second, {})[result.round] = SECOND
    return sides


def pair_swiss(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    round_: int,
    withdrawn: Collection[EntrantId] = (),
    rounds: int | None = None,
    allow: Collection[str] = (),
    forbidden: Collection[tuple[EntrantId, EntrantId]] = (),
) -> SwissRound:
    """Pair round ``round_``; ``entrants`` in initial rank order (seed 1 first). ``rounds``: the event's
    planned rounds (for the last round's topscorers). Raises ``NoLegalPairing`` when no pairing keeps "no
    rematch" and "no second bye" and ``allow`` (the organiser's decision: ``REMATCH``, ``SECOND_BYE``) does
    not cover it. ``forbidden``: pairs that must never meet (an absolute criterion)."""
    active = players_of(entrants, results, round_, withdrawn, rounds)
    if len(active) == 1 and active[0].byes and SECOND_BYE not in allow:
        return SwissRound(round_, (), None, 0, rests=(active[0].id,))
    paired = pair_dutch(entrants, results, round_, withdrawn, rounds, allow=allow, forbidden=forbidden)
    return SwissRound(round_, paired.boards, paired.bye, paired.rematches)
