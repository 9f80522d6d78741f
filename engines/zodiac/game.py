"""Zodiac Chess as a platform game: the side duel, the hidden king choice, placement and play.

The duel and the king choice are simultaneous hidden choices: both seats are to move and neither
observation shows the other's pick until it is revealed. Move texts name the piece ("Wolf b1-c3").
Rulings are documented in docs/rules/zodiac.md.
"""

from __future__ import annotations

import re
from typing import Any

from engines.base import CHANCE, Game, IllegalMove, Option, Outcome, Pick, RandomSource
from engines.text import clip, quote
from engines.zodiac import hidden, picks, view
from engines.zodiac.core import (
    DARK,
    KINDS,
    KINGABLE,
    LIGHT,
    SIDE_NAMES,
    WIDTH,
    Piece,
    State,
    back_rank,
    sq_name,
    sq_parse,
)
from engines.zodiac.movegen import Action, generate, generate_chain
from engines.zodiac.resolve import execute
from engines.zodiac.turns import after_action, end_turn, position_key, start_turn

DUEL = ("Tree", "Crane", "Wolf", "Rhino", "Snake")
BEATS = {"Tree": ("Wolf", "Rhino"), "Wolf": ("Rhino", "Crane"), "Rhino": ("Crane", "Snake"),
         "Crane": ("Snake", "Tree"), "Snake": ("Tree", "Wolf")}
PREFIXES = frozenset({k.lower() for k in KINDS} | {"pick", "king"})
SQUARE_PAIR = re.compile(r"\b([a-e][1-8])x([a-e][1-8])\b")

HELP = """\
**Zodiac Chess** is played on a 5x8 board with 5 animal pieces each. Win by capturing the enemy \
**king** or by walking your own king onto the far rank. The kings are secret: each player picks one \
of their pieces (not the Virus) as king, and nobody else knows which until the game ends.

**Setup.** A rock-paper-scissors duel (Tree, Crane, Wolf, Rhino, Snake) decides who chooses Light \
(moves first, rank 1) or Dark (rank 8). Then both choose a king in secret, and take turns placing \
five different pieces on their back rank; your king must be among them.

**Pieces.** Bear, Fungi, Goat, Monkey, Octopus: 1 square any way. Crane: 1-2 squares in a line. \
Frog: 2 diagonally. Snake: 2 orthogonally. Wolf: like a knight. Rhino: 2 forward or 1 back-diagonal, \
trampling everything it passes. Tree: 1 forward or slides sideways. Penguin: rotates, or slides the \
way it faces. Virus: hops 2 onto animals and infects them. Pieces jump over others unless a rule says \
otherwise.

**Powers.** Capturing a frog poisons the captor for a turn; capturing a fungi hands the captor to the \
fungi's owner for a turn. Goats faint and traverse along chains of pieces; monkeys leap (a die decides \
the danger), swing through trees and eat fungi for extra turns; octopuses entangle and ink (secret \
move with decoy shadows); rhinos charge, swap places and resist frontal attacks; snakes strike and \
shed once; trees house climbers.

**Moves** are written with the piece: `Wolf b1-c3`, `Penguin c2 face NE`, `Octopus c3 ink c4`, \
`Goat d2 faint`, `Rhino c1 lane a1`; `stop` ends a monkey's or virus's extra turns.
"""


def norm(text: str) -> str:
    return SQUARE_PAIR.sub(r"\1-\2", " ".join(text.lower().split()))


class Zodiac(Game):
    name = "zodiac"
    title = "Zodiac Chess"
    players = range(2, 3)
    options_spec = (
        Option("sides", "duel", ("duel", "seat1", "seat2"),
               "who plays Light: the side duel decides, or seat 1 / seat 2 (later games of a match swap sides)"),
    )
    help = HELP
    hidden_information = True  # the last placement offers only the king: public move lists would betray it
    has_chance = True  # the monkey's dice

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.st = State()
        self.picks: dict[int, str] = {}
        self.rounds: list[list[str]] = []
        self.duel_winner: int | None = None
        self.light_seat: int | None = None
        self.phase = "duel"
        if options["sides"] != "duel":
            self.light_seat = 0 if options["sides"] == "seat1" else 1
            self.phase = "king"
        self.king_pick: dict[int, str] = {}
        self.placed: list[list[str]] = [[], []]
        self.reps: dict[tuple, int] = {}
        self.last: dict[str, Any] | None = None
        self.last_roll: dict[str, Any] | None = None
        self._cache: tuple[int, int, dict[str, Any]] | None = None
        self._checked = -1

    def clone(self) -> Zodiac:
        new = self._shallow_copy()
        new.st = self.st.copy()
        new.picks, new.rounds, new.king_pick = dict(self.picks), [list(r) for r in self.rounds], dict(self.king_pick)
        new.placed = [list(p) for p in self.placed]
        new.reps = dict(self.reps)
        return new

    def determinize(self, seat: int, rng: RandomSource) -> Zodiac:
        """A clone with the other seat's duel pick, king and real ink square re-drawn (engines/zodiac/hidden.py)."""
        twin = self.clone()
        if self.outcome() is None and seat in (0, 1):
            hidden.apply_draws(twin, seat, rng)
            # Square order, not the order pieces arrived in (which tells where the real ink went).
            twin.st.cells = dict(sorted(twin.st.cells.items()))
            twin._cache = None
            twin._checked = -1
        return twin

    # ----- seats and sides -------------------------------------------------------------------

    def side_of(self, seat: int) -> int:
        return LIGHT if seat == self.light_seat else DARK

    def seat_of(self, side: int) -> int:
        assert self.light_seat is not None
        return self.light_seat if side == LIGHT else 1 - self.light_seat

    def seat_name(self, seat: int) -> str:
        if self.light_seat is None:
            return f"Player {seat + 1}"
        return SIDE_NAMES[self.side_of(seat)]

    # ----- turn structure -------------------------------------------------------------------

    def _to_move(self) -> frozenset[int]:
        if self.phase == "duel":
            return frozenset(s for s in (0, 1) if s not in self.picks)
        if self.phase == "side":
            assert self.duel_winner is not None
            return frozenset({self.duel_winner})
        if self.phase == "king":
            return frozenset(s for s in (0, 1) if s not in self.king_pick)
        if self.phase == "place":
            return frozenset({self.seat_of(self.place_side())})
        if self.st.pending is not None:
            return frozenset({CHANCE})
        return frozenset({self.seat_of(self.st.turn)})

    def place_side(self) -> int:
        return LIGHT if len(self.placed[LIGHT]) == len(self.placed[DARK]) else DARK

    def move_table(self, seat: int) -> dict[str, Any]:
        """Canonical text -> what to do, cached per position and seat."""
        if self._cache is not None and self._cache[:2] == (len(self.history), seat):
            return self._cache[2]
        moves: dict[str, Any] = {}
        if self.phase == "duel":
            moves = {f"pick {k}": k for k in DUEL}
        elif self.phase == "side":
            moves = {"light": LIGHT, "dark": DARK}
        elif self.phase == "king":
            moves = {f"king {k}": k for k in KINGABLE}
        elif self.phase == "place":
            moves = self._placements(self.side_of(seat))
        elif seat == CHANCE:
            moves = {f"roll {n}": n for n in range(1, 7)}
        else:
            actions = generate_chain(self.st) if self.st.chain is not None else generate(self.st, self.st.turn)
            for act in actions:
                moves.setdefault(act.text, act)
        self._cache = (len(self.history), seat, moves)
        return moves

    def _placements(self, side: int) -> dict[str, Any]:
        seat = self.seat_of(side)
        king = self.king_pick[seat]
        home = back_rank(side) * WIDTH
        free = [home + f for f in range(WIDTH) if home + f not in self.st.cells]
        kinds = [k for k in KINDS if k not in self.placed[side]]
        if king not in self.placed[side] and len(free) == 1:
            kinds = [king]  # the bot never lets a player finish without their king (1.4f)
        return {f"{k} {sq_name(sq)}": (k, sq) for k in kinds for sq in free}

    def _legal_moves(self, seat: int) -> list[str]:
        return list(self.move_table(seat))

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """Piece, then destination, then a facing or octopus option where needed (engines/zodiac/picks.py);
        the duel pick and the king are one ``secret`` pick each, for the host to ask in a DM."""
        return picks.move_picks(self, seat)

    def _chance_outcomes(self) -> list[tuple[str, float]]:
        return [(f"roll {n}", 1 / 6) for n in range(1, 7)]

    def _lookup(self, seat: int, text: str) -> tuple[str, Any]:
        moves = self.move_table(seat)
        if text in moves:
            return text, moves[text]
        wanted = norm(text)
        aliases: dict[str, str | None] = {}
        for canon in moves:
            low = canon.lower()
            aliases[low] = canon
            words = low.split(" ", 1)
            if len(words) == 2 and words[0] in PREFIXES:
                short = words[1] if words[0] in ("pick", "king") or sq_parse(words[1][:2]) is not None else None
                if short is not None and short not in moves:
                    aliases[short] = None if short in aliases and aliases[short] != canon else canon
        canon = aliases.get(wanted)
        if canon is None:
            if wanted in aliases:
                raise IllegalMove(f"{quote(text)} could mean more than one piece: write the piece name too.")
            raise IllegalMove(self._why_illegal(seat, text))
        return canon, moves[canon]

    def _why_illegal(self, seat: int, text: str) -> str:
        shown = clip(text, 60) or "(empty)"
        if self.phase == "duel":
            return f"{shown!r} is not a duel pick: choose one of {', '.join(DUEL)}."
        if self.phase == "side":
            return "Choose light or dark."
        if self.phase == "king":
            return f"{shown!r} is not a king choice: choose any piece but the Virus, e.g. 'king Bear'."
        if self.phase == "place":
            return f"{shown!r} cannot be placed: write a piece and a free square of your back rank, e.g. 'Bear c1'."
        if seat == CHANCE:
            return "The dice show roll 1 to roll 6."
        if self.st.chain is not None:
            return f"{shown!r} is not possible: continue with the same piece or write 'stop'."
        for word in norm(text).replace("-", " ").split():
            sq = sq_parse(word)
            if sq is None:
                continue
            c = self.st.cells.get(sq)
            mine = [p for p in (c.pieces() if c else []) if p.side == self.st.turn]
            if not mine:
                return f"You have no piece on {word} that can move."
            p = mine[-1]
            named = norm(text).split()[0]
            if named in PREFIXES - {"pick", "king"} and named != p.kind.lower():
                return f"The piece on {word} is your {p.kind}, not a {named.capitalize()}."
            if p.poison:
                return f"Your {p.kind} on {word} is poisoned and cannot move this turn."
            if p.entangled_by is not None:
                return f"Your {p.kind} on {word} is entangled by an octopus and cannot move."
            return f"Your {p.kind} on {word} cannot make the move {shown!r}."
        words = norm(text).split()
        if words == ["stop"]:
            return "'stop' ends a monkey's or a virus's extra turns, and none is under way: make a move."
        if words and words[0] in PREFIXES - {"pick", "king"}:
            kind = words[0].capitalize()
            own = sorted(m for m in self.move_table(seat) if m.split()[0] == kind)
            if own:
                more = f" and {len(own) - 6} more" if len(own) > 6 else ""
                return f"{shown!r} is not a legal move. {kind} moves now: {', '.join(own[:6])}{more}."
            return f"{shown!r} is not a legal move: no {kind} of yours can move now."
        return f"{shown!r} is not a legal move; moves look like 'Wolf b1-c3'."

    # ----- playing --------------------------------------------------------------------------

    def _play(self, seat: int, text: str) -> str:
        canon, what = self._lookup(seat, text)
        self._cache = None
        if self.phase == "duel":
            self._duel(seat, what)
        elif self.phase == "side":
            self.light_seat = seat if what == LIGHT else 1 - seat
            self.phase = "king"
        elif self.phase == "king":
            self.king_pick[seat] = what
            if len(self.king_pick) == 2:
                for s, k in self.king_pick.items():
                    self.st.kings[self.side_of(s)] = k
                self.phase = "place"
        elif self.phase == "place":
            self._place(self.side_of(seat), *what)
        elif seat == CHANCE:
            self._roll(what)
        else:
            self._act(what)
        return canon

    def _duel(self, seat: int, pick: str) -> None:
        self.picks[seat] = pick
        if len(self.picks) < 2:
            return
        a, b = self.picks[0], self.picks[1]
        self.rounds.append([a, b])
        self.picks = {}
        if a != b:
            self.duel_winner = 0 if b in BEATS[a] else 1
            self.phase = "side"

    def _place(self, side: int, kind: str, sq: int) -> None:
        st = self.st
        piece = Piece(st.next_pid, kind, side, side, facing=4 if side == LIGHT else 0)
        st.next_pid += 1
        st.put(sq, piece)
        self.placed[side].append(kind)
        self.last = {"side": SIDE_NAMES[side], "text": f"{kind} {sq_name(sq)}", "to": sq_name(sq), "lost": []}
        if len(self.placed[DARK]) == 5:
            self.phase = "play"
            st.turn = LIGHT
            start_turn(st, LIGHT)
            self.reps[position_key(st)] = 1

    def _act(self, act: Action) -> None:
        st = self.st
        side = st.turn
        self.last_roll = None
        if act.kind == "stop":
            self.last = {"side": SIDE_NAMES[side], "text": "stop", "lost": []}
            end_turn(st, side)
            self._turn_over(side)
            return
        found = st.find(act.pid)
        assert found is not None
        info = execute(st, act)
        self._record(side, act, info)
        info["pid"], info["chain_kind"] = act.pid, "monkey" if found[1].kind == "Monkey" else "virus"
        after_action(st, info, side)
        self._turn_over(side)

    def _roll(self, n: int) -> None:
        st = self.st
        assert st.pending is not None
        pending = st.pending
        act = Action(*pending["action"])
        st.pending = None
        side = st.turn
        found = st.find(act.pid)
        assert found is not None
        info = execute(st, act, roll=n)
        ok = n >= pending["need"]
        self.last_roll = {"roll": n, "need": pending["need"], "why": pending["why"], "ok": ok}
        self._record(side, act, info)
        if not ok:
            self.last["lost"] = [*self.last["lost"], "Monkey (failed roll)"]  # type: ignore[index]
        info["pid"], info["chain_kind"] = act.pid, "monkey"
        after_action(st, info, side)
        self._turn_over(side)

    def _record(self, side: int, act: Action, info: dict[str, Any]) -> None:
        public = act.text
        to = info.get("to", act.to)
        if act.kind == "ink":
            public = f"Octopus {sq_name(act.frm)} ink"
        self.last = {"side": SIDE_NAMES[side], "text": act.text, "public": public, "from": sq_name(act.frm),
                     "to": sq_name(to) if isinstance(to, int) and to >= 0 else None, "lost": list(info["lost"])}

    def _turn_over(self, side: int) -> None:
        """After an action: count repetitions at each new turn (2.3a)."""
        st = self.st
        if st.winner is not None or st.pending is not None or st.chain is not None:
            return
        if st.turn != side:
            key = position_key(st)
            self.reps[key] = self.reps.get(key, 0) + 1
            if self.reps[key] >= 3:
                st.draw = "the same position occurred three times"

    def _outcome(self) -> Outcome | None:
        st = self.st
        if (self.phase == "play" and st.winner is None and st.draw is None and st.pending is None
                and st.chain is None and self._checked != len(self.history)):
            # Checked lazily, once per position: a player without a legal move draws (2.3b).
            self._checked = len(self.history)
            if not self.move_table(self.seat_of(st.turn)):
                st.draw = f"{SIDE_NAMES[st.turn]} has no legal move"
        if self.st.winner is not None:
            return Outcome.win(self.seat_of(self.st.winner), 2, self.st.reason)
        if self.st.draw is not None:
            return Outcome.draw(2, self.st.draw)
        return None

    # ----- presentation (engines/zodiac/view.py) ------------------------------------------------

    def describe(self, seat: int, move: str) -> str:
        return view.describe(self, seat, move)

    def status(self) -> str:
        return view.status(self)

    def next_match_options(self) -> dict[str, Any] | None:
        """Later games of a match swap sides without a duel (rule of the match, issue 7)."""
        if self.light_seat is None:
            return None
        return {**self.options, "sides": "seat2" if self.light_seat == 0 else "seat1"}

    def timeout_move(self, seat: int) -> str | None:
        """Rule 1.2e: a player whose time runs out in the side duel picks Tree.

        Only against a pick already made: two absent players would tie Tree against Tree forever,
        so then the late player simply times out.
        """
        other_picked = any(s != seat for s in self.picks)
        return "pick Tree" if self.phase == "duel" and seat not in self.picks and other_picked else None

    def announce(self, seat: int, move: str) -> str:
        """What the channel may read: duel picks and kings stay secret, an ink move hides its square."""
        if move.startswith("pick "):
            return "a secret duel pick"
        if move.startswith("king "):
            return "a secret king choice"
        if " ink " in move:
            return move.split(" ink ")[0] + " ink"
        return move

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return view.observation(self, seat)

    def revealed_observation(self) -> dict[str, Any]:
        """Kings, ink squares and the last move in full, as the end of the game reveals them."""
        return {**self.observation(None), **view.observation(self, None, reveal=True)}
