"""Where Zodiac pieces may land and where their lines stop: the geometry both move generation and
move resolution need (capture permissions, housing in trees, leaps, slides, chains, virus hops).
"""

from __future__ import annotations

from typing import NamedTuple

from engines.zodiac.core import (
    ANIMALS,
    CLIMBERS,
    DIAG,
    DIRS,
    LARGE,
    PREDATORS,
    Piece,
    State,
    adjacent,
    file,
    rank,
    shift,
    sq_name,
)


class Action(NamedTuple):
    """One legal action. ``arg`` depends on ``kind``: a facing, an entangled square, a rhino path."""

    text: str
    kind: str
    pid: int
    frm: int
    to: int
    arg: object = None


def can_capture(mover: Piece, frm: int, target: Piece, to: int) -> bool:
    """May ``mover`` standing on ``frm`` capture ``target`` on ``to`` (3.3b, 3.6f, 3.8b, 3.9e, 3.10e)?"""
    if target.side == mover.side or mover.kind == "Virus":
        return False
    kind = mover.kind
    if kind in ("Crane", "Penguin") and target.kind in LARGE:
        return False
    if kind == "Goat" and target.kind in PREDATORS:
        return False
    if kind == "Octopus" and file(frm) != file(to) and rank(frm) != rank(to):
        return False
    return not (target.kind == "Rhino" and kind not in ("Bear", "Wolf") and rank(frm) != rank(to))


def crushes(mover: Piece, floor: Piece | None) -> bool:
    """Whether ``mover`` ending on the fainted goat ``floor`` captures it (3.6d, 3.12c): the rhino's trample takes a
    friend's too (3.10f), a tree only an enemy's (3.1a)."""
    return floor is not None and (mover.kind == "Rhino" or (mover.kind == "Tree" and floor.side != mover.side))


def landing(st: State, mover: Piece, frm: int, to: int, *, capture: bool = True,
            enter_trees: bool = False) -> str | None:
    """How ``mover`` would end on ``to``: empty, floor, crush, house, capture, capture_housed, consume or None.

    ``enter_trees``: an empty enemy tree is entered rather than captured (goat traverse, lilypad, leaps).
    """
    c = st.cells.get(to)
    if c is None:
        return "empty"
    if mover.kind == "Tree" and c.floor is not None and not crushes(mover, c.floor):
        return None  # a tree ending on its own fainted goat would crush it: blocked
    if c.tree is not None:
        tree, housed = c.tree, c.piece
        if tree.side == mover.side:
            return "house" if housed is None and mover.kind in CLIMBERS else None
        if housed is None:
            if enter_trees and mover.kind in CLIMBERS:
                return "house"
            return "capture" if capture and can_capture(mover, frm, tree, to) else None
        if housed.side == mover.side or not capture or mover.kind not in CLIMBERS:
            return None
        return "capture_housed" if can_capture(mover, frm, housed, to) else None
    if c.piece is not None:
        p = c.piece
        if p.side == mover.side:
            if mover.kind == "Monkey" and p.kind == "Fungi" and capture:
                return "consume"
            return None
        if not capture:
            return None
        return "capture" if can_capture(mover, frm, p, to) else None
    # Only a fainted goat lies here: it counts as empty, but trees and rhinos crush it (3.6d, 3.12c).
    if mover.kind in ("Tree", "Rhino"):
        return "crush" if c.floor is not None and c.floor.side != mover.side else None
    if mover.kind == "Goat" and mover.fainted:
        return None
    return "floor"


def friendly_blocked(st: State, mover: Piece, to: int) -> bool:
    """A square the frog or snake cannot end on because of its own piece (3.4b, 3.11b)."""
    top = st.top(to)
    if top is None or top.side != mover.side:
        return False
    c = st.cells[to]
    return not (top.kind == "Tree" and c.piece is None and mover.kind in CLIMBERS)


def mover_name(kind: str, frm: int, to: int) -> str:
    return f"{kind} {sq_name(frm)}-{sq_name(to)}"


def can_act(p: Piece) -> bool:
    """Poisoned and entangled pieces cannot move (3.4e, 3.8c)."""
    return p.poison == 0 and p.entangled_by is None


def own_count(st: State, side: int) -> int:
    """Pieces a lone wolf 'perceives': all its side's pieces except viruses and fainted goats (3.13b)."""
    return sum(1 for _, p in st.all_pieces() if p.side == side and p.kind != "Virus" and not p.fainted)


def chain_squares(st: State, start: int) -> set[int]:
    """Squares of the 8-connected chain of pieces touching ``start`` (no viruses, fainted goats) (3.6a)."""
    def member(sq: int) -> bool:
        c = st.cells.get(sq)
        if c is None or sq == start:
            return False
        top = c.top()
        return top is not None and top.kind != "Virus"

    seen: set[int] = set()
    todo = [sq for sq in neighbours(start) if member(sq)]
    seen.update(todo)
    while todo:
        sq = todo.pop()
        for nb in neighbours(sq):
            if nb not in seen and member(nb):
                seen.add(nb)
                todo.append(nb)
    return seen


def neighbours(sq: int) -> list[int]:
    out = []
    for df, dr in DIRS:
        nb = shift(sq, df, dr)
        if nb is not None:
            out.append(nb)
    return out


def leap_landings(st: State, p: Piece, frm: int, swings: list[list[int]] | None = None) -> list[tuple[int, int, int]]:
    """Monkey leaps (3.7b): (landing, direction index, pieces leaped) over piece/gap patterns."""
    out = []
    for d, (df, dr) in enumerate(DIRS):
        for k in (1, 2, 3):
            over = shift(frm, (2 * k - 1) * df, (2 * k - 1) * dr)
            land = shift(frm, 2 * k * df, 2 * k * dr)
            if over is None or land is None:
                break
            oc = st.cells.get(over)
            if oc is None or oc.top() is None or oc.virus is not None or oc.top().kind == "Virus":
                break
            lc = st.cells.get(land)
            if lc is None or (lc.tree is None and lc.piece is None):
                out.append((land, d, k))
                continue
            if lc.tree is not None and lc.piece is None:
                if not swings or [lc.tree.pid, d] not in swings:
                    out.append((land, d, k))
            break
    return out


def entangle_targets(st: State, p: Piece, at: int, vacated: int | None = None) -> list[int]:
    """Diagonal enemy animals that are not tiny and not yet entangled (3.8c)."""
    out = []
    for df, dr in DIAG:
        sq = shift(at, df, dr)
        if sq is None or sq == vacated:
            continue
        c = st.cells.get(sq)
        if c is None or c.piece is None:
            continue
        t = c.piece
        if t.side != p.side and t.kind in ANIMALS and t.entangled_by is None:
            out.append(sq)
    return out


def slide_end(st: State, frm: int, facing: int, see_shadows: bool) -> int | None:
    """Where a penguin's slide stops (3.9b-c); ``see_shadows``: shadows stop it (the slider's belief)."""
    df, dr = DIRS[facing]
    sq, last = frm, None
    while True:
        nxt = shift(sq, df, dr)
        if nxt is None:
            return last
        c = st.cells.get(nxt)
        passable = c is None or (c.tree is None and (c.piece is None or (c.piece.kind == "Virus" and c.virus is None)
                                                     or (not see_shadows and c.piece.shadow)))
        if not passable:
            return last
        sq = last = nxt


def rhino_path_ok(st: State, p: Piece, path: list[int]) -> bool:
    """A rhino tramples everything on its path (3.10f) but never a rhino: trampling comes from another rank."""
    for sq in path:
        c = st.cells.get(sq)
        if c is not None and any(q.kind == "Rhino" for q in c.pieces()):
            return False
    return True


def meadowed(fungi: list[int], sq: int) -> bool:
    """Within one square of an enemy fungi (3.5b)."""
    return any(f == sq or adjacent(f, sq) for f in fungi)


def virus_targets(st: State, p: Piece, frm: int) -> list[int]:
    """Animals two squares away in a straight line, or one where the edge stops two (3.14a-b, 3.14h)."""
    out = []
    for df, dr in DIRS:
        to = shift(frm, 2 * df, 2 * dr)
        if to is None:
            to = shift(frm, df, dr)
        if to is None:
            continue
        c = st.cells.get(to)
        if c is None or c.tree is not None or c.piece is None or c.piece.kind not in ANIMALS:
            continue
        if c.virus is not None and c.virus.side == p.side:
            continue
        out.append(to)
    return out
