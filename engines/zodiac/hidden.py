"""Re-drawing what one seat cannot know (the other duel pick, the other king, the real ink square).

``Zodiac.determinize`` calls ``redraw`` on a fresh clone. Every choice here is made from public facts
and the seat's own secrets only, with the same number of draws from the generator, so the copy does
not depend on the real secrets: the AI that searches it cannot cheat even by accident.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.base import RandomSource
from engines.zodiac.core import KINGABLE, SIDE_NAMES, far_rank, rank, sq_name

if TYPE_CHECKING:
    from engines.zodiac.game import Zodiac

DUEL_PICKS = ("Tree", "Crane", "Wolf", "Rhino", "Snake")


def king_candidates(game: Zodiac, other: int) -> list[str]:
    """Kinds that may be ``other``'s king as far as the opponent can tell.

    Before the other side placed all five pieces any kind may still become it; after that it is one
    of the other side's pieces still on the board (a captured king would have ended the game), and
    not one standing on its own far rank (reaching it wins), unless that leaves nothing.
    """
    if game.phase in ("duel", "side", "king") or game.light_seat is None:
        return list(KINGABLE)
    side = game.side_of(other)
    if game.phase == "place" and len(game.placed[side]) < 5:
        return list(KINGABLE)
    present: set[str] = set()
    safe: set[str] = set()
    for sq, p in game.st.all_pieces():
        if p.owner != side or p.kind not in KINGABLE:
            continue
        present.add(p.kind)
        if p.ink or rank(sq) != far_rank(side):
            safe.add(p.kind)
    kinds = safe or present
    return sorted(kinds) if kinds else list(KINGABLE)


def redraw(twin: Zodiac, seat: int) -> list[tuple[str, object]]:
    """Plan of the draws for ``seat``: (what, choices) pairs, in a fixed order, all from public facts."""
    other = 1 - seat
    plan: list[tuple[str, object]] = []
    if twin.phase == "duel" and other in twin.picks:
        plan.append(("pick", DUEL_PICKS))
    if other in twin.king_pick:
        plan.append(("king", king_candidates(twin, other)))
    if twin.light_seat is not None and twin.phase == "play":
        side = twin.side_of(other)
        groups: dict[int, list[int]] = {}
        for sq, p in twin.st.all_pieces():
            if p.owner == side and p.ink:
                groups.setdefault(p.pid, []).append(sq)
        for pid in sorted(groups):
            if len(groups[pid]) > 1:
                plan.append(("ink", (pid, groups[pid])))
    return plan


def apply_draws(twin: Zodiac, seat: int, rng: RandomSource) -> None:
    """Re-draw every hidden element of the other seat in ``twin`` (a clone), rewriting its records to match."""
    other = 1 - seat
    for what, choices in redraw(twin, seat):
        if what == "pick":
            twin.picks[other] = rng.choice(choices)  # type: ignore[arg-type]
            rewrite_last(twin, other, "pick ", f"pick {twin.picks[other]}")
        elif what == "king":
            king = rng.choice(choices)  # type: ignore[arg-type]
            twin.king_pick[other] = king
            rewrite_last(twin, other, "king ", f"king {king}")
            if twin.light_seat is not None and twin.phase in ("place", "play"):
                side = twin.side_of(other)
                twin.st.kings[side] = king
                twin.st.proxy.pop(side, None)  # a borrowed fungi king is not visible: drop it with the old king
        else:
            pid, squares = choices  # type: ignore[misc]
            real = rng.choice(squares)
            for sq in squares:
                cell = twin.st.cells[sq]
                for p in cell.pieces():
                    if p.pid == pid and p.ink:
                        p.shadow = sq != real
            move_ink_record(twin, other, squares, real)


def rewrite_last(twin: Zodiac, seat: int, prefix: str, text: str) -> None:
    """Replace the seat's latest history entry starting with ``prefix`` (its secret choice) by ``text``."""
    for i in range(len(twin.history) - 1, -1, -1):
        s, t = twin.history[i]
        if s == seat and t.startswith(prefix):
            twin.history[i] = (s, text)
            return


def move_ink_record(twin: Zodiac, seat: int, squares: list[int], real: int) -> None:
    """The latest ink move of ``seat`` now names the re-drawn real square, in the history and the last-move note."""
    for i in range(len(twin.history) - 1, -1, -1):
        s, t = twin.history[i]
        if s == seat and " ink " in t:
            twin.history[i] = (s, f"{t.rsplit(' ', 1)[0]} {sq_name(real)}")
            break
    last = twin.last
    mine = twin.light_seat is not None and last is not None and last.get("side") == SIDE_NAMES[twin.side_of(seat)]
    if last is not None and mine and " ink " in str(last.get("text", "")):
        twin.last = {**last, "text": f"{last['text'].rsplit(' ', 1)[0]} {sq_name(real)}", "to": sq_name(real)}
