"""Legal move generation for the thirteen Zodiac pieces (rule section 3), as the mover perceives the board.

Ink tokens are generated against exactly like real octopuses: the opponent cannot tell a shadow from
the octopus, so its legal moves must not depend on which token is real (3.8g). What happens when a
move meets a shadow is decided when the move is played, in ``resolve``.
"""

from __future__ import annotations

from engines.zodiac.core import (
    ANIMALS,
    DIAG,
    DIR_NAMES,
    DIRS,
    KNIGHT,
    LONE,
    ORTHO,
    WIDTH,
    Piece,
    State,
    adjacent,
    back_rank,
    file,
    forward,
    rank,
    shift,
    sq_name,
)
from engines.zodiac.reach import (
    Action,
    can_act,
    chain_squares,
    entangle_targets,
    friendly_blocked,
    landing,
    leap_landings,
    meadowed,
    mover_name,
    neighbours,
    own_count,
    rhino_path_ok,
    slide_end,
    virus_targets,
)

__all__ = ["Action", "generate", "generate_chain"]


def actors(st: State, side: int) -> list[tuple[int, Piece]]:
    """Every piece of ``side`` with the square it stands on, bottom layer first."""
    return [(sq, p) for sq, p in st.all_pieces() if p.side == side]


def generate(st: State, side: int) -> list[Action]:
    """All actions of ``side`` at the start of a turn (no extra-turn chain running)."""
    out: list[Action] = []
    for sq, p in actors(st, side):
        gen = GENERATORS[p.kind]
        gen(st, p, sq, out)
    return out


def step_moves(st: State, p: Piece, frm: int, out: list[Action], kind: str = "move") -> None:
    for df, dr in DIRS:
        to = shift(frm, df, dr)
        if to is not None and landing(st, p, frm, to) is not None:
            out.append(Action(mover_name(p.kind, frm, to), kind, p.pid, frm, to))


def gen_bear(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if can_act(p):
        step_moves(st, p, frm, out)


def gen_crane(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    for df, dr in DIRS:
        for n in (1, 2):
            to = shift(frm, df * n, dr * n)
            if to is not None and landing(st, p, frm, to) is not None:
                out.append(Action(mover_name(p.kind, frm, to), "move", p.pid, frm, to))


def gen_frog(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    regular: set[int] = set()
    for df, dr in DIAG:
        far = shift(frm, 2 * df, 2 * dr)
        if far is not None and not friendly_blocked(st, p, far):
            regular.add(far)
            continue
        near = shift(frm, df, dr)
        if near is not None and not friendly_blocked(st, p, near):
            regular.add(near)
    if file(frm) in (0, WIDTH - 1):
        for dr in (1, -1):
            to = shift(frm, 0, dr)
            if to is not None:
                regular.add(to)
    for to in sorted(regular):
        if landing(st, p, frm, to) is not None:
            out.append(Action(mover_name(p.kind, frm, to), "move", p.pid, frm, to))
    if not p.moved:
        home = back_rank(p.owner)
        ranks = {home, home + forward(p.owner), home + 2 * forward(p.owner)}
        for to in range(40):
            if rank(to) in ranks and to != frm and to not in regular:
                if landing(st, p, frm, to, enter_trees=True) is not None:
                    out.append(Action(mover_name(p.kind, frm, to), "lilypad", p.pid, frm, to))


def gen_fungi(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if can_act(p):
        step_moves(st, p, frm, out)


def traverse_targets(st: State, p: Piece, frm: int) -> list[int]:
    chain = chain_squares(st, frm)
    targets: set[int] = set()
    for sq in chain:
        c = st.cells[sq]
        if c.tree is not None and c.piece is None:
            targets.add(sq)  # a tree of the chain can take the goat in (3.6a)
        for nb in neighbours(sq):
            if nb != frm and nb not in chain:
                targets.add(nb)
    return sorted(t for t in targets if landing(st, p, frm, t, capture=False, enter_trees=True) is not None)


def gen_goat(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    c = st.cells[frm]
    if p.fainted:
        if c.piece is not None:
            return  # something stands on it: it may not get up (3.6e)
        out.append(Action(f"Goat {sq_name(frm)} wake", "wake", p.pid, frm, frm))
        awake = p.copy()
        awake.fainted = False
        p = awake
    elif c.tree is None and c.floor is None:
        out.append(Action(f"Goat {sq_name(frm)} faint", "faint", p.pid, frm, frm))
    if not can_act(p):
        return
    steps: set[int] = set()
    for df, dr in DIRS:
        to = shift(frm, df, dr)
        if to is not None and landing(st, p, frm, to) is not None:
            if c.tree is not None and st.cells.get(to) is not None and st.cells[to].floor is not None:
                continue  # leaving a tree it lands fainted, and cannot lie on another fainted goat
            steps.add(to)
            out.append(Action(mover_name("Goat", frm, to), "move", p.pid, frm, to))
    for to in traverse_targets(st, p, frm):
        if to in steps:
            continue
        if c.tree is not None and st.cells.get(to) is not None and st.cells[to].floor is not None:
            continue
        out.append(Action(mover_name("Goat", frm, to), "traverse", p.pid, frm, to))


def gen_monkey(st: State, p: Piece, frm: int, out: list[Action], chain: dict | None = None) -> None:
    if not can_act(p):
        return
    step_moves(st, p, frm, out)
    for land, _d, _k in leap_landings(st, p, frm, chain["swings"] if chain else None):
        out.append(Action(mover_name("Monkey", frm, land), "leap", p.pid, frm, land))
    if chain and chain["fungi"] >= 2:
        for to in range(40):
            if to != frm and not adjacent(frm, to):
                res = landing(st, p, frm, to)
                if res is not None and res != "consume":
                    out.append(Action(mover_name("Monkey", frm, to), "transcend", p.pid, frm, to))


def gen_octopus(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    name = sq_name(frm)
    before = entangle_targets(st, p, frm)
    for e in before:
        out.append(Action(f"Octopus {name} entangle {sq_name(e)}", "entangle", p.pid, frm, frm, e))
    if not can_act(p):
        return
    for df, dr in DIRS:
        to = shift(frm, df, dr)
        if to is None or landing(st, p, frm, to) is None:
            continue
        base = mover_name("Octopus", frm, to)
        out.append(Action(base, "move", p.pid, frm, to))
        for e in entangle_targets(st, p, to, vacated=frm):
            out.append(Action(f"{base} entangle {sq_name(e)}", "move", p.pid, frm, to, e))
        for e in before:
            if e != to:
                out.append(Action(f"Octopus {name} entangle {sq_name(e)} then {sq_name(to)}", "move", p.pid, frm,
                                  to, -1 - e))
    if st.cells[frm].virus is not None or p.side != p.owner:
        return  # no ink when infected (the virus would show the real square) or played as a zombie
    for df, dr in ORTHO:
        to = shift(frm, df, dr)
        if to is not None and to not in st.cells:
            out.append(Action(f"Octopus {name} ink {sq_name(to)}", "ink", p.pid, frm, to))


def gen_penguin(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    name = sq_name(frm)
    for f in range(8):
        if f != p.facing:
            out.append(Action(f"Penguin {name} face {DIR_NAMES[f]}", "rotate", p.pid, frm, frm, f))
    if p.side != p.owner:
        # A zombie penguin reverses its turn order (3.5d): it turns first, then slides the new way.
        for f in range(8):
            end = slide_end(st, frm, f, True)
            if end is not None:
                out.append(Action(mover_name("Penguin", frm, end), "slide", p.pid, frm, end, f))
    elif (end := slide_end(st, frm, p.facing, True)) is not None:
        base = mover_name("Penguin", frm, end)
        for f in range(8):
            text = base if f == p.facing else f"{base} face {DIR_NAMES[f]}"
            out.append(Action(text, "slide", p.pid, frm, end, f))
    for df, dr in DIRS:
        to = shift(frm, df, dr)
        if to is None or landing(st, p, frm, to) != "capture":
            continue
        base = mover_name("Penguin", frm, to)
        for f in range(8):
            text = base if f == p.facing else f"{base} face {DIR_NAMES[f]}"
            out.append(Action(text, "move", p.pid, frm, to, f))


def gen_rhino(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    fwd = forward(p.side)
    paths = []
    ahead = [shift(frm, 0, fwd * n) for n in (1, 2, 3)]
    if ahead[1] is not None:
        paths.append(("rhino", [ahead[0], ahead[1]]))
    if not p.charged and ahead[2] is not None:
        if any(st.cells.get(sq) is not None and any(q.kind in ANIMALS for q in st.cells[sq].pieces())
               for sq in ahead if sq is not None):
            paths.append(("charge", [ahead[0], ahead[1], ahead[2]]))
    for df in (-1, 1):
        back = shift(frm, df, -fwd)
        if back is not None:
            paths.append(("rhino", [back]))
    for kind, path in paths:
        clean = [sq for sq in path if sq is not None]
        if rhino_path_ok(st, p, clean):
            out.append(Action(mover_name("Rhino", frm, clean[-1]), kind, p.pid, frm, clean[-1], tuple(clean)))
    if not p.moved and rank(frm) == back_rank(p.owner):
        for f in range(WIDTH):
            sq = rank(frm) * WIDTH + f
            top = st.top(sq)
            if sq != frm and top is not None and top.side == p.side and not top.moved and top.owner == p.owner:
                out.append(Action(f"Rhino {sq_name(frm)} lane {sq_name(sq)}", "lane", p.pid, frm, sq))


def gen_snake(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    for df, dr in ORTHO:
        far = shift(frm, 2 * df, 2 * dr)
        to = far
        if far is None or friendly_blocked(st, p, far):
            near = shift(frm, df, dr)
            to = near if near is not None and not friendly_blocked(st, p, near) else None
        if to is not None and landing(st, p, frm, to) is not None:
            out.append(Action(mover_name("Snake", frm, to), "move", p.pid, frm, to))
    fwd = forward(p.side)
    target = shift(frm, 0, 3 * fwd)
    if target is None:
        return
    c = st.cells.get(target)
    if c is None or c.tree is not None or c.piece is None or c.piece.kind not in ANIMALS:
        return
    for n in (1, 2):
        between = st.cells.get(frm + n * fwd * WIDTH)
        if between is not None and between.tree is not None:
            return
        if between is not None and between.piece is not None and not (between.piece.kind == "Virus" and
                                                                       between.virus is None):
            return
    if landing(st, p, frm, target) == "capture":
        out.append(Action(mover_name("Snake", frm, target), "strike", p.pid, frm, target))


def gen_tree(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    fungi = st.fungi_squares(1 - p.side)
    if not can_act(p) or meadowed(fungi, frm):
        return
    ahead = shift(frm, 0, forward(p.side))
    if ahead is not None and landing(st, p, frm, ahead) is not None and not meadowed(fungi, ahead):
        out.append(Action(mover_name("Tree", frm, ahead), "tree", p.pid, frm, ahead))
    for df in (-1, 1):
        sq = frm
        while True:
            nxt = shift(sq, df, 0)
            if nxt is None:
                break
            res = landing(st, p, frm, nxt)
            if res is not None and not meadowed(fungi, nxt):
                out.append(Action(mover_name("Tree", frm, nxt), "tree", p.pid, frm, nxt))
            if res != "empty":
                break
            sq = nxt


def gen_wolf(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    if not can_act(p):
        return
    jumps = LONE if own_count(st, p.side) == 1 else KNIGHT
    for df, dr in jumps:
        to = shift(frm, df, dr)
        if to is not None and landing(st, p, frm, to) is not None:
            out.append(Action(mover_name("Wolf", frm, to), "move", p.pid, frm, to))


def gen_virus(st: State, p: Piece, frm: int, out: list[Action]) -> None:
    for to in virus_targets(st, p, frm):
        out.append(Action(mover_name("Virus", frm, to), "virus", p.pid, frm, to))


GENERATORS = {
    "Bear": gen_bear, "Crane": gen_crane, "Frog": gen_frog, "Fungi": gen_fungi, "Goat": gen_goat,
    "Monkey": gen_monkey, "Octopus": gen_octopus, "Penguin": gen_penguin, "Rhino": gen_rhino, "Snake": gen_snake,
    "Tree": gen_tree, "Wolf": gen_wolf, "Virus": gen_virus,
}


def generate_chain(st: State) -> list[Action]:
    """Moves of the piece taking an extra turn (monkey swing/consume, virus hops), plus stopping."""
    chain = st.chain
    assert chain is not None
    out = [Action("stop", "stop", chain["pid"], -1, -1)]
    found = st.find(chain["pid"])
    if found is None:
        return out
    sq, p = found
    if chain["kind"] == "monkey":
        gen_monkey(st, p, sq, out, chain)
    else:
        gen_virus(st, p, sq, out)
    return out
