"""The move builder's clicks for Zodiac Chess: which piece, where to, and the one extra choice a few moves need.

Every play-phase move is piece (``Wolf b1``, target ``b1``) → destination (``c3``, target ``c3``); a move
that does not leave its square picks the piece's own square (a penguin turning, a goat fainting) or the
square it acts on (``Entangle Goat d5``, a rhino's lane partner). A third pick exists only where one
destination holds several moves: the penguin's facing after a slide, capture or turn, and the octopus's
option after moving (just move, entangle, or ink) or after entangling (stay, or move on). Placement is
piece kind → square. The duel pick and the king choice are one ``secret`` pick each: the host sends those
to the player's DM menu, which must never show on the shared board.

Labels are built only from what the mover sees on their own board: the opponent's king is never
consulted, and every ink token is named as one (a shadow and the real octopus read alike). They warn
about what may surprise the mover: trampling one's own pieces, poison, zombies, dice, ink tokens.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from engines.base import CHANCE, Pick
from engines.zodiac.core import (
    ANIMALS,
    DARK,
    DIR_NAMES,
    WIDTH,
    Cell,
    Piece,
    State,
    back_rank,
    far_rank,
    file,
    rank,
    shift,
    sq_name,
)
from engines.zodiac.reach import Action, chain_squares, crushes, landing

if TYPE_CHECKING:
    from engines.zodiac.game import Zodiac

Picks = tuple[Pick, ...]
ARROWS = ("↑", "↗", "→", "↘", "↓", "↙", "←", "↖")
"""Facing arrows as Light's board shows them (N up); Dark's own board is turned, so its arrows turn too."""
MAX_LABEL = 80
SECRET = "secret"
"""The kind of a pick the host must ask in the player's DM (duel pick, king): never on the shared board."""


def fit(label: str) -> str:
    """Labels stay within a menu's 80 characters; a long warning list is cut, never the square."""
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1].rstrip(" ,:") + "…"


def square_pick(kind: str, sq: int, label: str | None = None) -> Pick:
    """A pick of a board square, grouped by row for menus."""
    name = sq_name(sq)
    return Pick(kind, fit(label or name), name, f"Row {rank(sq) + 1}")


def move_picks(game: Zodiac, seat: int) -> list[tuple[str, Picks]]:
    """Every legal move of ``seat`` with its clicks (see the module docstring)."""
    table = game.move_table(seat)
    if game.phase == "duel":
        return [(text, (Pick(SECRET, f"Duel pick: {kind}"),)) for text, kind in table.items()]
    if game.phase == "side":
        labels = {"light": "Light: move first, start on rank 1", "dark": "Dark: move second, start on rank 8"}
        return [(text, (Pick("side", labels[text]),)) for text in table]
    if game.phase == "king":
        return [(text, (Pick(SECRET, f"King: {kind}"),)) for text, kind in table.items()]
    if game.phase == "place":
        king = game.king_pick.get(seat)
        return [(text, (Pick("piece", f"{kind} (your king)" if kind == king else kind, None, "Pieces"),
                        square_pick("square", sq))) for text, (kind, sq) in table.items()]
    if seat == CHANCE:
        return [(text, (Pick("roll", f"Roll {n}"),)) for text, n in table.items()]
    return play_picks(game.st, table)


def play_picks(st: State, table: dict[str, Action]) -> list[tuple[str, Picks]]:
    """Piece → destination, plus a third pick only where one destination holds several moves.

    A piece's pick and each destination's label are worked out once and shared by the moves that use
    them (a penguin's eight facings, an octopus's options), which keeps this about as cheap as the moves.
    """
    side = st.turn
    arrows = ARROWS[4:] + ARROWS[:4] if side == DARK else ARROWS
    inked = any(p.ink for _, p in st.all_pieces())
    pieces: dict[tuple[int, int], tuple[Piece, Cell, Pick]] = {}
    dests: dict[tuple[object, ...], Pick] = {}
    rows: list[tuple[str, Picks, Pick | None, Pick | None, object]] = []
    for text, act in table.items():
        if act.kind == "stop":
            who = (st.chain or {}).get("kind", "piece")
            rows.append((text, (Pick("end", f"Stop: end the {who}'s extra turns"),), None, None, None))
            continue
        found = pieces.get((act.frm, act.pid))
        if found is None:
            cell = st.cells[act.frm]
            p = next(q for q in cell.pieces() if q.pid == act.pid)
            label = fit(f"{p.kind} {sq_name(act.frm)}{piece_note(cell, p)}")
            found = pieces[act.frm, act.pid] = (p, cell, Pick("piece", label, sq_name(act.frm), p.kind))
        p, cell, piece = found
        key = dest_key(act, p)
        dest = dests.get(key)
        if dest is None:
            dest = dests[key] = destination(st, act, p, cell, side, arrows, inked)
        extra, plain = follow_up(st, act, p, cell, side, arrows, inked)
        rows.append((text, (piece, dest), extra, plain, (act.frm, key)))
    # One destination key is one destination pick of one piece (the key holds the piece's id), so moves
    # sharing a key are exactly the moves sharing their first two picks.
    shared = Counter(row[4] for row in rows)
    out = []
    for text, picks, extra, plain, group in rows:
        if extra is None and shared[group] > 1:
            extra = plain  # the plain move shares its destination with variants: it needs its own last pick
        out.append((text, (*picks, extra) if extra is not None else picks))
    return out


def piece_note(cell: Cell, p: Piece) -> str:
    """What tells two pieces on one square apart, and why a piece may have few moves."""
    if p.side != p.owner:
        return " (zombie)"
    if cell.virus is p and cell.piece is not None:
        return f" (on {cell.piece.kind})"
    if cell.tree is not None and cell.tree is not p:
        return " (in the Tree)"
    if p.fainted:
        return " (fainted)"
    if p.poison:
        return " (poisoned)"
    if p.entangled_by is not None:
        return " (entangled)"
    return ""


def first_entangle(act: Action, p: Piece) -> int | None:
    """The square an octopus entangles before anything else (alone, or before it moves)."""
    if act.kind == "entangle":
        return int(act.arg)  # type: ignore[call-overload]
    if p.kind == "Octopus" and act.kind == "move" and isinstance(act.arg, int) and act.arg < 0:
        return -1 - act.arg
    return None


def dest_key(act: Action, p: Piece) -> tuple[object, ...]:
    """Moves with equal keys share one destination pick (and so one label)."""
    if act.kind in ("faint", "wake", "rotate"):
        return act.pid, act.kind
    if act.kind == "lane":
        return act.pid, act.kind, act.to
    first = first_entangle(act, p)
    if first is not None:
        return act.pid, "entangle", first
    return act.pid, "square", act.to


def destination(st: State, act: Action, p: Piece, cell: Cell, side: int, arrows: tuple[str, ...],
                inked: bool) -> Pick:
    """The second pick: where the piece goes, or the square it acts on when it stays."""
    frm, to, kind = act.frm, act.to, act.kind
    if kind == "faint":
        cured = [word for word, on in (("poison", p.poison), ("entanglement", p.entangled_by is not None),
                                       ("virus", cell.virus is not None)) if on]
        return square_pick("to", frm, "Faint here" + (f": clears its {', '.join(cured)}" if cured else ""))
    if kind == "wake":
        return square_pick("to", frm, f"Get up, stay on {sq_name(frm)}")
    if kind == "rotate":
        return square_pick("to", frm, "Turn without moving")
    if kind == "lane":
        other = st.top(to)
        return square_pick("to", to, f"Swap places with {other.kind if other else 'the piece on'} {sq_name(to)}")
    first = first_entangle(act, p)
    if first is not None:
        return entangle_pick(st, "to", first)
    return square_pick("to", to, with_notes(sq_name(to), arrival(st, act, p, cell, side, inked, arrows)))


def follow_up(st: State, act: Action, p: Piece, cell: Cell, side: int, arrows: tuple[str, ...],
              inked: bool) -> tuple[Pick | None, Pick | None]:
    """(the third pick, or None; the third pick a plain move takes when others share its destination)."""
    frm, to, kind = act.frm, act.to, act.kind
    if kind == "rotate" or (p.kind == "Penguin" and kind in ("slide", "move")
                            and not (kind == "slide" and p.side != p.owner)):
        return facing(act, p, arrows), None  # a zombie penguin's slide already chose its way
    if kind == "entangle":
        return None, square_pick("to", frm, f"Stay on {sq_name(frm)}")
    if p.kind != "Octopus":
        return None, None
    if first_entangle(act, p) is not None:
        notes = arrival(st, act, p, cell, side, inked, arrows)
        return square_pick("to", to, "Then move to " + with_notes(sq_name(to), notes)), None
    if kind == "ink":
        others = [sq_name(s) for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
                  if (s := shift(frm, dx, dy)) is not None and s != to and s not in st.cells]
        shown = f"shadows on {', '.join(others)}" if others else "no room for shadows"
        return Pick("action", fit(f"Ink: move in secret, {shown}")), None
    if isinstance(act.arg, int):
        return entangle_pick(st, "action", act.arg, "Then entangle"), None
    return None, Pick("action", "Just move (no entangle)")


def entangle_pick(st: State, kind: str, sq: int, verb: str = "Entangle") -> Pick:
    c = st.cells.get(sq)
    victim = c.piece if c is not None else None
    return square_pick(kind, sq, f"{verb} {victim.kind if victim else 'the piece on'} {sq_name(sq)}")


def facing(act: Action, p: Piece, arrows: tuple[str, ...]) -> Pick:
    """The penguin's facing after its move, with the arrow as the mover's own board shows it."""
    f = int(act.arg) if isinstance(act.arg, int) else p.facing
    if f == p.facing and act.kind != "rotate":
        return Pick("facing", f"Keep facing {arrows[f]} {DIR_NAMES[f]}")
    return Pick("facing", f"Face {arrows[f]} {DIR_NAMES[f]}")


def with_notes(name: str, notes: list[str]) -> str:
    return f"{name}: {', '.join(notes)}" if notes else name


def arrival(st: State, act: Action, p: Piece, cell: Cell, side: int, inked: bool,
            arrows: tuple[str, ...] = ARROWS) -> list[str]:
    """What happens on arriving, in the mover's words; ``⚠`` marks what goes against the mover."""
    frm, to, kind = act.frm, act.to, act.kind
    notes: list[str] = []
    if kind in ("rhino", "charge"):
        if kind == "charge":
            notes.append("charge")
        notes += trample(st, act.arg, side)  # type: ignore[arg-type]
    elif kind == "leap":
        notes += leap(st, p, frm, to)
    elif kind == "slide":
        if p.side != p.owner:
            f = int(act.arg)  # type: ignore[call-overload]
            notes.append(f"turn {arrows[f]} {DIR_NAMES[f]} and slide")
        else:
            notes.append("slide")
        c = st.cells.get(to)
        if c is not None and c.piece is not None and c.piece.kind == "Virus":
            notes.append("takes the Virus")
    elif kind == "virus":
        notes += infect(st, p, cell, to, side)
    else:
        label = {"lilypad": "lilypad", "traverse": "traverse", "transcend": "transcendence", "strike": "strike"}
        if kind in label:
            notes.append(label[kind])
        notes += landing_notes(st, p, cell, frm, to, kind, side)
        if kind == "traverse" and inked and any(q.ink for sq in chain_squares(st, frm)
                                                for q in st.cells[sq].pieces()):
            notes.append("⚠ an ink token may stop it")
    if p.kind == "Goat" and cell.tree is not None and cell.tree is not p and kind in ("move", "traverse") \
            and to not in st.cells:
        notes.append("lands fainted")
    if racing(st, p, cell, side) and rank(to) == far_rank(side):
        notes.append(f"your king reaches rank {far_rank(side) + 1} (wins)")
    return notes


def racing(st: State, p: Piece, cell: Cell, side: int) -> bool:
    """Does this move carry the mover's own king (the piece, the piece housed in a moving tree, or an eaten
    fungi king)? Only the mover's own king is consulted."""
    def own_king(q: Piece | None) -> bool:
        return q is not None and q.owner == side and q.kind == st.kings[side]
    return own_king(p) or (p.kind == "Tree" and own_king(cell.piece)) or st.proxy.get(side) == p.pid


def landing_notes(st: State, p: Piece, cell: Cell, frm: int, to: int, kind: str, side: int) -> list[str]:
    res = landing(st, p, frm, to, capture=kind != "traverse", enter_trees=kind in ("lilypad", "traverse"))
    c = st.cells.get(to)
    if c is None or res is None:
        return []
    if res == "capture":
        crushed = ["crushes the fainted Goat"] if crushes(p, c.floor) else []
        return taking(st, p, cell, c, c.top(), side, to) + crushed
    if res == "capture_housed":
        return [*taking(st, p, cell, c, c.piece, side, to), "climbs into the Tree"]
    if res == "house":
        return ["into your Tree" if c.tree is not None and c.tree.owner == side else "into the enemy Tree"]
    if res == "consume":
        if st.kings[side] == "Fungi" and c.piece is not None and c.piece.owner == side:
            return ["⚠ eats your Fungi king: win this turn or lose"]
        return ["eats your Fungi, extra turn"]
    if res == "crush":
        return ["crushes the fainted Goat"]
    if res == "floor":
        return ["onto the fainted Goat"]
    return []


def taking(st: State, captor: Piece, home: Cell, c: Cell, victim: Piece | None, side: int, to: int) -> list[str]:
    """A capture and what it brings on the captor (poison, zombie, a virus, the bear's dice); ``home`` is the
    captor's square, ``c`` the victim's."""
    if victim is None:
        return []
    if victim.ink:
        return ["takes an ink token (the Octopus or a shadow)"]
    notes = [f"takes {victim.kind}"]
    if victim.kind == "Snake" and not victim.shed and sheds(st, victim, to):
        notes[0] += " (it sheds and returns)"
    if captor.kind == "Monkey" and victim.kind == "Bear":
        notes.append("⚠ roll 5+ or the Monkey falls")
    if captor.kind == "Monkey" and victim.kind == "Fungi":
        notes.append("extra turn")
    if captor.kind in ANIMALS:
        if victim.kind == "Frog":
            notes.append(f"⚠ poisons your {captor.kind}")
        if victim.kind == "Fungi" and victim.owner != captor.side:
            notes.append(f"⚠ your {captor.kind} turns zombie")
        if c.virus is not None and c.piece is victim and not (home.virus is not None and home.piece is captor):
            notes.append("⚠ catches its Virus")
    return notes


def sheds(st: State, snake: Piece, sq: int) -> bool:
    """The snake's shed (3.11d) as the board shows it: its home square is free or an empty tree."""
    home = st.cells.get(back_rank(snake.owner) * WIDTH + file(sq))
    return home is None or (home.tree is not None and home.piece is None)


def trample(st: State, path: tuple[int, ...], side: int) -> list[str]:
    """Everything on the rhino's path falls, friend or foe: the mover's own losses are warned about."""
    theirs: list[str] = []
    mine: list[str] = []
    for sq in path:
        c = st.cells.get(sq)
        for q in (c.tree, c.floor, c.piece) if c is not None else ():
            if q is None:
                continue
            if q.owner != side:
                theirs.append("an ink token" if q.ink else q.kind)
            else:
                mine.append(f"{'king ' if q.kind == st.kings[side] else ''}{q.kind} {sq_name(sq)}")
    notes = [f"⚠ tramples your {' and '.join(mine)}"] if mine else []
    if theirs:
        notes.append(f"{'also ' if mine else 'tramples '}{', '.join(theirs)}")
    return notes


def leap(st: State, p: Piece, frm: int, to: int) -> list[str]:
    """A monkey's leap: its danger roll, an ink token it may drop into, a swing into a tree."""
    df, dr = file(to) - file(frm), rank(to) - rank(frm)
    steps = max(abs(df), abs(dr))
    ux, uy = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    danger, ink = 0, False
    for k in range(1, steps, 2):
        over = shift(frm, ux * k, uy * k)
        q = st.top(over) if over is not None else None
        if q is not None and q.side != p.side:
            danger += 1
            ink = ink or q.ink
    notes = ["leap"]
    if danger:
        danger = min(danger, 3)
        notes.append(f"⚠ danger {danger}: roll {danger + 1}+ or it falls")
    if ink:
        notes.append("⚠ an ink token may stop it")
    c = st.cells.get(to)
    if c is not None and c.tree is not None:
        notes.append("swings into the Tree: extra turn")
    elif c is not None and c.floor is not None:
        notes.append("onto the fainted Goat")
    return notes


def infect(st: State, virus: Piece, cell: Cell, to: int, side: int) -> list[str]:
    """A virus hop: whom it infects, the enemy virus it kills, and the host it kills by leaving."""
    c = st.cells.get(to)
    target = c.piece if c is not None else None
    notes: list[str] = []
    if target is not None and target.ink:
        notes.append("infects an ink token (a shadow strands it)")
    elif target is not None:
        notes.append(f"infects your {target.kind}" if target.owner == side else f"infects {target.kind}")
        if c is not None and c.virus is not None and c.virus.side != virus.side:
            notes.append("kills its Virus")
    host = cell.piece if cell.virus is virus else None
    if host is not None:
        notes.append(f"⚠ kills its host, your {host.kind}" if host.owner == side else f"kills its host {host.kind}")
    return notes

