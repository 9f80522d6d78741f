"""What players see of a Zodiac game: the observation, move labels and the caption line.

Kept apart from the rules so the hiding of secrets (kings, duel picks, the real ink square) is in one
place that is easy to audit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.zodiac.core import DIR_NAMES, SIDE_NAMES, Piece, sq_name
from engines.zodiac.reach import Action, crushes, landing
from engines.zodiac.turns import carriers

if TYPE_CHECKING:
    from engines.zodiac.game import Zodiac


def describe(game: Zodiac, seat: int, move: str) -> str:
    """Autocomplete label: the move text plus what it does (capture, trample, ability)."""
    moves = game.move_table(seat) if seat in game.to_move() else {}
    act = moves.get(move)
    if not isinstance(act, Action) or act.kind == "stop":
        return move[:100]
    notes = {"lilypad": "lilypad", "traverse": "traverse", "transcend": "transcendence", "charge": "charge",
             "lane": "swap places", "ink": "secret move, shadows on the other squares", "faint": "",
             "strike": "snake strike", "leap": "leap", "slide": "slide"}
    extra = [notes[act.kind]] if notes.get(act.kind) else []
    st = game.st
    if act.kind in ("move", "strike", "transcend", "tree", "lilypad", "traverse"):
        c = st.cells.get(act.to)
        mover = st.find(act.pid)
        if c is not None and mover is not None:
            res = landing(st, mover[1], act.frm, act.to, capture=act.kind != "traverse",
                          enter_trees=act.kind in ("lilypad", "traverse"))
            target = c.piece if res == "capture_housed" else c.top()
            if res in ("capture", "capture_housed") and target is not None:
                extra.append(f"takes {target.kind}")
                if crushes(mover[1], c.floor):
                    extra.append("crushes the fainted Goat")
                if target.kind == "Bear" and mover[1].kind == "Monkey":
                    extra.append("needs a roll of 5+")
            elif res == "house":
                extra.append("into the tree")
            elif res == "consume":
                extra.append("eats the Fungi")
    if act.kind == "leap":
        df, dr = (act.to % 5 - act.frm % 5) // 2, (act.to // 5 - act.frm // 5) // 2
        sign = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        danger = sum(1 for k in range(1, 6, 2)
                     if (t := st.top(act.frm + k * (sign[0] + 5 * sign[1]))) is not None and t.side != st.turn
                     and k < max(abs(act.to % 5 - act.frm % 5), abs(act.to // 5 - act.frm // 5)))
        if danger:
            extra.append(f"danger {danger}: needs a roll of {danger + 1}+")
    if act.kind in ("rhino", "charge"):
        side = game.side_of(seat)
        own_king = set(carriers(st, side))  # the mover's own king (or what carries it) dies too: it loses
        hit = [sq_name(sq) + (": your own king, you lose" if sq in own_king else "")
               for sq in act.arg if sq in st.cells]  # type: ignore[attr-defined]
        if hit:
            extra.append("tramples " + ", ".join(hit))
    if act.kind == "virus":
        extra.append("infects")
    label = f"{move} ({', '.join(extra)})" if extra else move
    return label[:100]


def status(game: Zodiac) -> str:
    """The public caption line: phase, losses, dice."""
    if game.phase == "duel":
        done = len(game.picks)
        return f"Side duel, round {len(game.rounds) + 1}: {done}/2 picked"
    if game.phase == "side":
        return f"{game.seat_name(game.duel_winner or 0)} won the duel and chooses a side"
    if game.phase == "king":
        return f"Choosing kings in secret: {len(game.king_pick)}/2 chosen"
    lost = " | ".join(f"{SIDE_NAMES[s]} lost: {', '.join(game.st.captured[s]) or 'nothing'}" for s in (0, 1))
    if game.phase == "place":
        return f"Placement: {SIDE_NAMES[game.place_side()]} to place | {lost}"
    parts = [lost]
    if game.last_roll:
        r = game.last_roll
        parts.append(f"die {r['roll']} (needed {r['need']}+: {'safe' if r['ok'] else 'the monkey fell'})")
    if game.st.pending:
        parts.append(f"monkey must roll {game.st.pending['need']}+")
    return " | ".join(parts)


def observation(game: Zodiac, seat: int | None, reveal: bool = False) -> dict[str, Any]:
    """What ``seat`` may see: never the other king, duel pick or real ink square before they are revealed.

    ``reveal``: show what the end of the game reveals (replays of a finished game's earlier positions).
    """
    over = reveal or game.outcome() is not None
    my_side = game.side_of(seat) if seat is not None and game.light_seat is not None else None
    st = game.st
    board = []
    for sq in sorted(st.cells):
        c = st.cells[sq]
        stack = []
        for layer in ("tree", "floor", "piece", "virus"):
            p = getattr(c, layer)
            if p is not None:
                stack.append(piece_view(game, p, layer, my_side, over))
        board.append({"sq": sq_name(sq), "stack": stack})
    last = None
    if game.last is not None:
        last = dict(game.last)
        own = my_side is not None and SIDE_NAMES[my_side] == last["side"]
        if "public" in last:
            if not own and not over and last["public"] != last["text"]:
                last["text"], last["to"] = last["public"], None
            del last["public"]
    chain = None
    if st.chain is not None and (found := st.find(st.chain["pid"])) is not None:
        chain = {"piece": found[1].kind, "square": sq_name(found[0]), "fungi": st.chain["fungi"]}
    kings_by_seat = None
    if over and game.light_seat is not None and None not in st.kings:
        kings_by_seat = [st.kings[game.side_of(s)] for s in (0, 1)]
    return {
        "phase": game.phase,
        "light_seat": game.light_seat,
        "duel": {"picked": [s in game.picks for s in (0, 1)],
                 "my_pick": game.picks.get(seat) if seat is not None else None,
                 "rounds": [list(r) for r in game.rounds], "winner": game.duel_winner},
        "kings_chosen": [s in game.king_pick for s in (0, 1)],
        "my_king": game.king_pick.get(seat) if seat is not None else None,
        "my_side": SIDE_NAMES[my_side] if my_side is not None else None,
        "kings": kings_by_seat,
        "board": board,
        "turn": SIDE_NAMES[st.turn] if game.phase == "play" else (
            SIDE_NAMES[game.place_side()] if game.phase == "place" else None),
        "last": last,
        "roll": dict(game.last_roll) if game.last_roll else None,
        "pending": {"why": st.pending["why"], "need": st.pending["need"]} if st.pending else None,
        "chain": chain,
        "captured": {SIDE_NAMES[s]: list(st.captured[s]) for s in (0, 1)},
        "placed": {SIDE_NAMES[s]: list(game.placed[s]) for s in (0, 1)},
        "status": status(game),
    }


def piece_view(game: Zodiac, p: Piece, layer: str, my_side: int | None, over: bool) -> dict[str, Any]:
    """One piece as a player sees it; ink tokens look alike except to their owner."""
    view: dict[str, Any] = {"kind": p.kind, "side": SIDE_NAMES[p.owner], "layer": layer}
    if p.side != p.owner or p.zombie is not None:
        view["zombie"] = True
    for flag in ("fainted", "shed", "charged", "moved"):
        if getattr(p, flag):
            view[flag] = True
    if p.kind == "Rhino":
        view["charged"] = p.charged
    if p.kind == "Penguin":
        view["facing"] = DIR_NAMES[p.facing]
    if p.poison:
        view["poisoned"] = True
    if p.entangled_by is not None:
        view["entangled"] = True
    if p.zombie is not None:
        view["zombie_for"] = SIDE_NAMES[p.zombie]
    if layer == "virus":
        view["infecting"] = True
    if p.ink:
        view["ink"] = True
        if my_side == p.owner or over:
            view["shadow"] = p.shadow
    mine = my_side == p.owner or over
    if mine and game.st.kings[p.owner] == p.kind and not p.shadow:
        view["king"] = True
    return view
