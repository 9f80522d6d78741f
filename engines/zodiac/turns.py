"""The turn cycle of the play phase: extra turns, end-of-turn effects, ink reveal and the win checks.

A turn may hold several actions (a monkey's swings and consumes, a virus's hops) and dice rolls; the
effects tied to "the player's next turn" (poison, zombies, ink shadows, an eaten fungi king) are all
counted here, at the one place where a turn ends.
"""

from __future__ import annotations

from typing import Any

from engines.zodiac.core import SIDE_NAMES, State, far_rank, rank


def king_alive(st: State, side: int) -> bool:
    if st.king_piece(side) is not None:
        return True
    pid = st.proxy.get(side)
    return pid is not None and st.find(pid) is not None


def carriers(st: State, side: int) -> list[int]:
    """Squares of the pieces that count as ``side``'s king now (the king, or what ate a fungi king)."""
    out = []
    king = st.king_piece(side)
    if king is not None:
        out.append(king[0])
    pid = st.proxy.get(side)
    if pid is not None and (found := st.find(pid)) is not None:
        out.append(found[0])
    return out


def check_result(st: State, mover: int, trample: bool = False) -> None:
    """King captures (both at once: the mover wins, 2.2d), then the mover's race to the far rank (2.2b).

    A side that loses its own king on its own move (its rhino trampling it, 3.10f) loses (2.2c), and the
    reason says so rather than that the other side captured it."""
    if st.winner is not None:
        return
    alive = [king_alive(st, 0), king_alive(st, 1)]
    if not alive[0] and not alive[1]:
        st.winner, st.reason = mover, f"both kings fell in one turn: {SIDE_NAMES[mover]} captured both and wins"
        return
    for side in (0, 1):
        if not alive[side]:
            st.winner = 1 - side
            if side != mover:
                st.reason = f"{SIDE_NAMES[1 - side]} captured {SIDE_NAMES[side]}'s king ({st.kings[side]})"
            elif trample:
                st.reason = f"{SIDE_NAMES[side]}'s rhino trampled its own king ({st.kings[side]})"
            else:
                st.reason = f"{SIDE_NAMES[side]} lost its own king ({st.kings[side]}) on its own move"
            return
    if any(rank(sq) == far_rank(mover) for sq in carriers(st, mover)):
        st.winner = mover
        st.reason = f"{SIDE_NAMES[mover]}'s king ({st.kings[mover]}) reached the far rank"


def after_action(st: State, info: dict[str, Any], mover: int) -> None:
    """Decide what follows an action: a die to roll, an extra turn, or the end of the turn."""
    check_result(st, mover, bool(info.get("trample")))
    if st.winner is not None or st.pending is not None:
        return
    if info["extra"]:
        chain = st.chain or {"pid": info["pid"], "kind": info["chain_kind"], "swings": [], "fungi": 0}
        chain["fungi"] += info["fungi"]
        if info["swing"] is not None:
            chain["swings"].append(info["swing"])
        st.chain = chain
        return
    end_turn(st, mover)


def end_turn(st: State, side: int) -> None:
    st.chain = None
    for _, p in st.all_pieces():
        if p.side == side and p.side != p.owner:
            p.side = p.owner  # the zombie round is over (3.5c)
        if p.zombie == side:
            p.zombie = None
        if p.owner == side and p.poison:
            p.poison -= 1
    if side in st.proxy:
        del st.proxy[side]
        if st.king_piece(side) is None:
            st.winner = 1 - side
            st.reason = f"{SIDE_NAMES[side]}'s fungi king was eaten and its borrowed turn is over"
            return
    st.turn = 1 - side
    start_turn(st, st.turn)


def start_turn(st: State, side: int) -> None:
    for sq, p in st.all_pieces():
        if p.owner == side and p.ink:
            if p.shadow:
                st.remove(sq, p)  # the opponent's turn is over: shadows vanish (3.8f)
            else:
                p.ink = False
        if p.zombie == side:
            p.side = side


def position_key(st: State) -> tuple:
    """Everything that makes two positions the same, for threefold repetition (2.3a)."""
    cells = []
    for sq in sorted(st.cells):
        c = st.cells[sq]
        cells.append((sq, tuple((p.kind, p.owner, p.side, p.fainted, p.shed, p.charged, p.facing, p.poison,
                                 p.entangled_by, p.moved) for p in c.pieces())))
    return st.turn, tuple(cells)
