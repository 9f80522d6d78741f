"""A correspondence ladder: a standing order of players, one per server and game.

- Newcomers join at the bottom.
- A player may challenge anyone up to ``reach`` places above them (never below).
- If the lower-placed player wins, they take the loser's place; the loser and everyone between move
  down one. If the higher-placed player wins, or the game is drawn, nothing moves.
- A player with no finished ladder game for ``inactive_days`` days (counted from joining) is dropped;
  everyone below moves up one. They may join again, at the bottom.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from host.tournaments.pairing.model import EntrantId

DAY = 86_400.0


def join(ladder: Sequence[EntrantId], player: EntrantId) -> tuple[EntrantId, ...]:
    if player in ladder:
        raise ValueError("already on the ladder")
    return (*ladder, player)


def leave(ladder: Sequence[EntrantId], player: EntrantId) -> tuple[EntrantId, ...]:
    if player not in ladder:
        raise ValueError("not on the ladder")
    return tuple(p for p in ladder if p != player)


def challengeable(ladder: Sequence[EntrantId], challenger: EntrantId, reach: int) -> tuple[EntrantId, ...]:
    """Whom ``challenger`` may challenge: the ``reach`` players directly above, nearest first."""
    if challenger not in ladder:
        return ()
    place = list(ladder).index(challenger)
    return tuple(reversed(ladder[max(0, place - reach):place]))


def can_challenge(ladder: Sequence[EntrantId], challenger: EntrantId, target: EntrantId, reach: int) -> bool:
    return target in challengeable(ladder, challenger, reach)


def apply_result(ladder: Sequence[EntrantId], winner: EntrantId, loser: EntrantId) -> tuple[EntrantId, ...]:
    """The ladder after a decisive game: a winner from below takes the loser's place."""
    order = list(ladder)
    if winner not in order or loser not in order or winner == loser:
        raise ValueError("both players must be on the ladder")
    if order.index(winner) < order.index(loser):
        return tuple(order)
    order.remove(winner)
    order.insert(order.index(loser), winner)
    return tuple(order)


def drop_inactive(
    ladder: Sequence[EntrantId], last_active: Mapping[EntrantId, float], now: float, inactive_days: float
) -> tuple[tuple[EntrantId, ...], tuple[EntrantId, ...]]:
    """``(ladder kept, players dropped)``: dropped are those idle for more than ``inactive_days``.

    ``last_active`` is each player's last finished ladder game or join time (epoch seconds); a player
    missing from it counts as idle since forever.
    """
    limit = now - inactive_days * DAY
    kept = tuple(p for p in ladder if last_active.get(p, float("-inf")) >= limit)
    dropped = tuple(p for p in ladder if p not in kept)
    return kept, dropped
