"""Carrying out a legal action: captures and their after-effects, special abilities, shadows and dice.

Every capture goes through ``capture`` and its consequences through ``after_effects``, so poison,
zombification, shedding and a virus jumping to its host's captor work the same whichever piece or
ability did the capturing (rhino trample, a virus leaving its host, a monkey's fall).
"""

from __future__ import annotations

from typing import Any

from engines.zodiac.core import ANIMALS, DIRS, ORTHO, WIDTH, Piece, State, back_rank, file, rank, shift
from engines.zodiac.reach import (
    Action,
    chain_squares,
    crushes,
    landing,
    leap_landings,
    neighbours,
    slide_end,
    virus_targets,
)

Effect = tuple[Piece, int, Piece | None]
"""A captured piece, the square it was taken on, and the virus that rode it (to pass on)."""


def release(st: State, octopus_pid: int) -> None:
    """The octopus moved or was captured: its entanglements break (3.8c)."""
    for _, p in st.all_pieces():
        if p.entangled_by == octopus_pid:
            p.entangled_by = None


def capture(st: State, sq: int, victim: Piece, effects: list[Effect]) -> None:
    """Take ``victim`` off ``sq``; a shadow just vanishes (3.8f). Consequences wait in ``effects``."""
    c = st.cells.get(sq)
    if c is None:
        return
    if victim.shadow:
        st.remove(sq, victim)
        return
    if c.tree is victim and c.piece is not None:
        capture(st, sq, c.piece, effects)
    virus = c.virus if c.piece is victim else None
    if virus is not None:
        c.virus = None
    st.remove(sq, victim)
    effects.append((victim, sq, virus))
    if victim.kind == "Octopus":
        release(st, victim.pid)
        if victim.ink:
            for tsq, token in st.all_pieces():
                if token.ink and token.pid == victim.pid:
                    st.remove(tsq, token)


def shed(st: State, snake: Piece, sq: int) -> bool:
    """A captured unshed snake returns on its own back rank, same file, if free or an empty tree (3.11d)."""
    home = back_rank(snake.owner) * WIDTH + file(sq)
    c = st.cells.get(home)
    if c is not None and not (c.tree is not None and c.piece is None):
        return False
    snake.shed = True
    snake.poison, snake.entangled_by, snake.zombie, snake.side = 0, None, None, snake.owner
    st.put(home, snake)
    return True


def after_effects(st: State, captor: Piece | None, effects: list[Effect]) -> list[str]:
    """Apply what each capture triggers on the captor; returns the kinds actually lost, for the log."""
    lost = []
    found = st.find(captor.pid) if captor is not None else None
    for victim, sq, virus in effects:
        if virus is not None:
            passed = False
            if captor is not None and captor.kind in ANIMALS and found is not None:
                cc = st.cells[found[0]]
                if cc.piece is captor and cc.virus is None:
                    cc.virus, passed = virus, True
            if not passed:
                st.captured[virus.owner].append("Virus")
                lost.append("Virus")
        if victim.kind == "Snake" and not victim.shed and shed(st, victim, sq):
            lost.append("Snake (shed)")
            continue
        st.captured[victim.owner].append(victim.kind)
        lost.append(victim.kind)
        if captor is None or captor.kind not in ANIMALS or found is None:
            continue
        if victim.kind == "Frog":
            # Frozen for its owner's next turn only (3.4e): the count drops at each end of the owner's
            # turn, so a zombie capturing on the controller's turn needs one less than a normal capture.
            captor.poison = 2 if captor.owner == st.turn else 1
        if victim.kind == "Fungi" and victim.owner != captor.side:
            captor.zombie = victim.owner
            if st.kings[victim.owner] == "Fungi":
                st.proxy[victim.owner] = captor.pid
    return lost


def drag(st: State, octopus: Piece, df: int, dr: int) -> None:
    """A tree carrying an entangling octopus drags its prey along, until a wall or piece stops it (3.8d)."""
    steps = max(abs(df), abs(dr))
    unit = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    for sq, p in st.all_pieces():
        if p.entangled_by != octopus.pid:
            continue
        c = st.cells[sq]
        if c.piece is not p or c.tree is not None:
            p.entangled_by = None
            continue
        at = sq
        for _ in range(steps):
            nxt = shift(at, *unit)
            if nxt is None or nxt in st.cells:
                p.entangled_by = None
                break
            piece, virus, _ = st.lift(at, p)
            st.put(nxt, piece, virus)
            at = nxt


def arrive(st: State, p: Piece, frm: int, to: int, res: str, effects: list[Effect], faint: bool = False) -> None:
    """Lift ``p`` (with its rider or housed piece) from ``frm`` and land it on ``to`` as ``res`` says."""
    piece, virus, housed = st.lift(frm, p)
    c = st.cells.get(to)
    if c is not None:
        if res == "capture":
            top = c.top()
            if top is not None:
                capture(st, to, top, effects)
        elif res == "capture_housed" and c.piece is not None:
            capture(st, to, c.piece, effects)
        elif res == "consume" and c.piece is not None:
            fungi = c.piece
            st.remove(to, fungi)
            st.captured[fungi.owner].append("Fungi")
            if st.kings[fungi.owner] == "Fungi":
                st.proxy[fungi.owner] = p.pid
        c = st.cells.get(to)
        if c is not None and c.floor is not None and crushes(p, c.floor):
            capture(st, to, c.floor, effects)
    piece.moved = True
    if faint and to not in st.cells:
        piece.fainted = True
    st.put(to, piece, virus)
    if housed is not None:
        st.cells[to].piece = housed


def traverse_destination(st: State, goat: Piece, frm: int, to: int) -> int:
    """Where a traversing goat really ends: a shadow in its only chain drops it there (3.8g)."""
    chain = chain_squares(st, frm)

    def shadow_at(sq: int) -> bool:
        c = st.cells.get(sq)
        return c is not None and c.piece is not None and c.piece.shadow

    shadows = sorted(sq for sq in chain if shadow_at(sq))
    if not shadows:
        return to
    seen = {sq for sq in neighbours(frm) if sq in chain and not shadow_at(sq)}
    todo = list(seen)
    while todo:
        sq = todo.pop()
        for nb in neighbours(sq):
            if nb in chain and nb not in seen and not shadow_at(nb):
                seen.add(nb)
                todo.append(nb)
    if any(to in neighbours(sq) for sq in seen):
        return to
    order = sorted(neighbours(frm))
    visited = set(order)
    while order:
        sq = order.pop(0)
        if sq in chain and shadow_at(sq):
            return sq
        if sq in chain:
            for nb in sorted(neighbours(sq)):
                if nb not in visited:
                    visited.add(nb)
                    order.append(nb)
    return shadows[0]


def leap_plan(st: State, p: Piece, frm: int, to: int) -> tuple[int, int, int, bool]:
    """(landing, direction, danger, fell): a leaped shadow drops the monkey into its square (3.7b-c, 3.8g)."""
    for land, d, k in leap_landings(st, p, frm):
        if land != to:
            continue
        df, dr = DIRS[d]
        danger = 0
        for i in range(k):
            over = shift(frm, (2 * i + 1) * df, (2 * i + 1) * dr)
            assert over is not None
            top = st.top(over)
            assert top is not None
            if top.shadow:
                return over, d, danger, True
            danger += top.side != p.side
        return to, d, min(danger, 3), False
    raise AssertionError("leap not found")


def execute(st: State, act: Action, roll: int | None = None) -> dict[str, Any]:
    """Apply ``act`` (already known legal). Returns {"extra": bool, "lost": [...], "pending": bool, ...}."""
    found = st.find(act.pid) if act.kind != "stop" else None
    info: dict[str, Any] = {"extra": False, "lost": [], "pending": False, "fungi": 0, "swing": None,
                            "trample": act.kind in ("rhino", "charge")}
    if act.kind == "stop":
        return info
    assert found is not None
    frm, p = found
    frm = act.frm
    effects: list[Effect] = []
    kind = act.kind
    if kind in ("move", "lilypad", "transcend", "traverse"):
        _execute_move(st, p, act, roll, effects, info)
    elif kind == "leap":
        _execute_leap(st, p, act, roll, effects, info)
    elif kind == "slide":
        way = int(act.arg) if p.side != p.owner else p.facing  # type: ignore[call-overload]  # a zombie turns first (3.5d)
        end = slide_end(st, frm, way, False)
        assert end is not None
        piece, virus, _ = st.lift(frm, p)
        c = st.cells.get(end)
        if c is not None and c.piece is not None and (c.piece.shadow or (c.piece.kind == "Virus" and c.virus is None)):
            capture(st, end, c.piece, effects)
        piece.moved, piece.facing = True, int(act.arg)  # type: ignore[call-overload]
        st.put(end, piece, virus)
        info["to"] = end
    elif kind == "rotate":
        p.facing, p.moved = int(act.arg), True  # type: ignore[call-overload]
    elif kind == "faint":
        c = st.cells[frm]
        virus = c.virus
        c.piece = c.virus = None
        p.fainted, p.poison, p.entangled_by, p.moved = True, 0, None, True
        c.floor = p
        if virus is not None:
            c.piece = virus  # the virus stays on top, dormant (3.6b)
    elif kind == "wake":
        c = st.cells[frm]
        c.floor, c.piece, p.fainted = None, p, False
    elif kind == "entangle":
        target = st.cells[int(act.arg)].piece  # type: ignore[call-overload]
        assert target is not None
        target.entangled_by = p.pid
    elif kind == "ink":
        _execute_ink(st, p, act)
    elif kind == "strike":
        c = st.cells[act.to]
        arrive(st, p, frm, act.to, "capture", effects)
    elif kind in ("rhino", "charge"):
        for sq in act.arg:  # type: ignore[attr-defined]
            while (c := st.cells.get(sq)) is not None and (c.top() or c.floor) is not None:
                victim = c.top() or c.floor
                assert victim is not None
                capture(st, sq, victim, effects)
        arrive(st, p, frm, act.to, "empty", effects)
        if kind == "charge":
            p.charged = True
    elif kind == "lane":
        other = st.top(act.to)
        assert other is not None
        a = st.lift(frm, p)
        b = st.lift(act.to, other)
        for sq, (piece, virus, housed) in ((act.to, a), (frm, b)):
            piece.moved = True
            st.put(sq, piece, virus)
            if housed is not None:
                st.cells[sq].piece = housed
    elif kind == "tree":
        res = landing(st, p, frm, act.to)
        assert res is not None
        c = st.cells[frm]
        housed = c.piece
        arrive(st, p, frm, act.to, res, effects)
        if housed is not None and housed.kind == "Octopus":
            drag(st, housed, (act.to % WIDTH) - (frm % WIDTH), rank(act.to) - rank(frm))
    elif kind == "virus":
        _execute_virus(st, p, act, effects, info)
    info["lost"] += after_effects(st, p, effects)
    return info


def _execute_move(st: State, p: Piece, act: Action, roll: int | None, effects: list[Effect],
                  info: dict[str, Any]) -> None:
    frm, to = act.frm, act.to
    c_from = st.cells[frm]
    leaving_tree = c_from.tree is not None and c_from.tree is not p
    if p.fainted:
        p.fainted = False
    if act.kind == "traverse":
        to = traverse_destination(st, p, frm, to)
    target = st.cells.get(to)
    top = target.top() if target is not None else None
    if top is not None and top.shadow:
        capture(st, to, top, effects)
        res = "empty"
    else:
        res = landing(st, p, frm, to, capture=act.kind != "traverse",
                      enter_trees=act.kind in ("lilypad", "traverse")) or "empty"
    if p.kind == "Monkey" and res in ("capture", "capture_housed") and target is not None:
        victim = target.piece if res == "capture_housed" else top
        if victim is not None and victim.kind == "Bear":
            if roll is None:
                st.pending = {"why": "bear", "need": 5, "action": list(act)}
                info["pending"] = True
                return
            if roll < 5:
                monkey_falls(st, frm, p, effects)
                return
    if p.kind == "Octopus":
        release(st, p.pid)
    ent_before = int(act.arg) if act.kind == "move" and p.kind == "Octopus" and act.arg is not None else None
    arrive(st, p, frm, to, res, effects, faint=leaving_tree and p.kind == "Goat")
    if p.kind == "Penguin" and act.arg is not None:
        p.facing = int(act.arg)  # type: ignore[call-overload]
    if ent_before is not None:
        e = ent_before if ent_before >= 0 else -1 - ent_before
        c = st.cells.get(e)
        if c is not None and c.piece is not None:
            c.piece.entangled_by = p.pid
    if p.kind == "Monkey":
        ate = res == "consume" or any(v.kind == "Fungi" for v, _, _ in effects)
        if ate:
            info["extra"], info["fungi"] = True, 1
    info["to"] = to


def monkey_falls(st: State, sq: int, monkey: Piece, effects: list[Effect]) -> None:
    """A failed danger or bear roll: the monkey is captured (3.7c ruling, 3.7l)."""
    capture(st, sq, monkey, effects)


def _execute_leap(st: State, p: Piece, act: Action, roll: int | None, effects: list[Effect],
                  info: dict[str, Any]) -> None:
    land, d, danger, fell = leap_plan(st, p, act.frm, act.to)
    if danger and roll is None:
        st.pending = {"why": "danger", "need": danger + 1, "action": list(act)}
        info["pending"] = True
        return
    if danger and roll is not None and roll <= danger:
        monkey_falls(st, act.frm, p, effects)
        return
    c = st.cells.get(land)
    if fell:
        assert c is not None and c.piece is not None
        capture(st, land, c.piece, effects)
        arrive(st, p, act.frm, land, "empty", effects)
    elif c is not None and c.tree is not None:
        tree = c.tree
        arrive(st, p, act.frm, land, "house", effects)
        info["extra"], info["swing"] = True, [tree.pid, d]
    else:
        arrive(st, p, act.frm, land, "floor" if c is not None else "empty", effects)
    info["to"] = land


def _execute_ink(st: State, p: Piece, act: Action) -> None:
    release(st, p.pid)
    spots = [sq for df, dr in ORTHO if (sq := shift(act.frm, df, dr)) is not None and sq not in st.cells]
    piece, _, _ = st.lift(act.frm, p)
    piece.moved, piece.ink = True, True
    st.put(act.to, piece)
    for sq in spots:
        if sq != act.to:
            token = piece.copy()
            token.shadow = True
            st.put(sq, token)


def _execute_virus(st: State, p: Piece, act: Action, effects: list[Effect], info: dict[str, Any]) -> None:
    frm, to = act.frm, act.to
    c = st.cells[frm]
    host = c.piece if c.virus is p else None
    st.lift(frm, p)
    if host is not None:
        capture(st, frm, host, effects)  # leaving a host captures it (3.14f)
    target = st.cells.get(to)
    if target is None or target.piece is None:
        st.put(to, p)  # its target was a token that vanished with the octopus it left: it lands dormant
        info["to"] = to
        return
    if target.piece.shadow:
        capture(st, to, target.piece, effects)
        st.put(to, p)  # fell into a shadow: dormant there (3.8g)
        info["to"] = to
        return
    if target.virus is not None:
        capture(st, to, target.virus, effects)  # attacking an infected piece captures the enemy virus (3.14h)
        target = st.cells[to]
    target.virus = p
    p.moved = True
    info["to"] = to
    if virus_targets(st, p, to):
        info["extra"] = True
