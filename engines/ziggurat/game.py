"""Ziggurat (Bryan Stout, 2009): the dice race counterclockwise up a four-level stepped pyramid.

Turn structure: a chance step rolls both dice (``roll 5 tip``); then each use of a die is one move
(``move b1``, ``aim b1``, ``tip c2 n``, ``redo move``...) until the player says ``end`` or nothing
is left to use. The piece rules live in ``rules.py`` and the board layout in ``board.py``.
"""

from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Game, IllegalMove, Option, Outcome, Pick
from engines.text import quote
from engines.ziggurat import rules
from engines.ziggurat.board import (
    DIRECTION_WORDS,
    DIRECTIONS,
    GOALS,
    LAYOUT,
    LEVEL,
    POSITION,
    STATIONS,
    facing,
    is_number,
    name,
    on_board,
    parse_square,
    xy,
)
from engines.ziggurat.help import HELP

D8_ACTIONS = ("tip", "swap", "hop", "dig", "aim", "wild", "leap", "redo")
TREEHOUSE_ACTIONS = ("tip", "swap", "hop", "dig", "aim", "wild")
_OUTCOMES: dict[tuple[str, str, tuple[str, ...]], list[tuple[str, float]]] = {}
VERBS = ("move", "aim", "hop", "leap", "tip", "swap", "dig", "redo", "end", "queen")


class Ziggurat(Game):
    name = "ziggurat"
    title = "Ziggurat"
    players = range(2, 5)
    options_spec = (
        Option("mode", "standard", ("standard", "double", "partners"),
               "standard: one colour each; double: 2 players with two opposite colours each (either colour "
               "home wins); partners: 4 players, opposite seats are a team"),
        Option("queen", False, (False, True), "Queen Ziggurat: a Queen joins each colour; all four must get home"),
        Option("movement_die", "d8", ("d8", "d6"), "d6 movement counts roll + 1, and Aim/Hop add 2"),
        Option("action_die", "d8", ("d8", "treehouse"), "treehouse: the six-sided die without Leap and Redo"),
        Option("wild_redo", True, (True, False), "whether a Wild may be used as a Redo"),
        Option("round_limit", 100, (30, 60, 100),
               "after this many rounds the game ends and the colour closest to home wins (30: a quick game)"),
    )
    help = HELP
    has_chance = True  # the movement and action dice
    stepped_turns = True  # a roll, then the moves and actions it allows

    @classmethod
    def check_options(cls, players: int, options: Any) -> dict[str, Any]:
        checked = super().check_options(players, options)
        if checked["mode"] == "double" and players != 2:
            raise ValueError("double (two colours each) is for 2 players")
        if checked["mode"] == "partners" and players != 4:
            raise ValueError("partners is for 4 players")
        return checked

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        mode = options["mode"]
        self.colours: tuple[int, ...] = (0, 1, 2, 3) if players == 4 or mode == "double" else (
            (0, 2) if players == 2 else (0, 1, 2))
        self.owner: dict[int, int] = {c: (i % 2 if mode == "double" else i) for i, c in enumerate(self.colours)}
        self.queens: bool = options["queen"]
        self.per_colour = 4 if self.queens else 3
        self.board: list[list[int]] = [[] for _ in range(100)]
        for c in self.colours:
            self.board[STATIONS[c]] = [c, c, c]
        self.faces = D8_ACTIONS if options["action_die"] == "d8" else TREEHOUSE_ACTIONS
        self.bonus = 2 if options["movement_die"] == "d6" else 1
        self.index = 0
        self.round = 1
        self.phase = "setup" if self.queens else "roll"
        self.roll_kind = "both"
        self.movement: int | None = None
        self.action: str | None = None
        self.rolled: dict[str, Any] = {}
        self.moved = False
        self.second = False
        self.turn_moves: list[str] = []
        self.marks: list[int] = []
        """Squares this turn's die uses changed, all of them (the board marks the whole turn, not its last use)."""
        self.last_turn: dict[str, Any] = {}
        self.winner: int | None = None
        self.limit_reached = False
        self._cache: dict[str, rules.Effect] | None = None

    def clone(self) -> Ziggurat:
        """Copy the mutable state by hand: much faster than deepcopy for random playouts."""
        twin = self._shallow_copy()
        twin.board = list(map(list.copy, self.board))
        twin.rolled = {k: list(v) if isinstance(v, list) else v for k, v in self.rolled.items()}
        twin.turn_moves = list(self.turn_moves)
        twin.marks = list(self.marks)
        twin.last_turn = {k: list(v) if isinstance(v, list) else v for k, v in self.last_turn.items()}
        return twin

    # ----- who plays ----------------------------------------------------------------------

    @property
    def colour(self) -> int:
        return self.colours[self.index]

    def seat_name(self, seat: int) -> str:
        own = [LAYOUT[c].name for c in self.colours if self.owner[c] == seat]
        return " & ".join(own) if own else f"Player {seat + 1}"

    def teams(self) -> tuple[int, ...]:
        if self.options["mode"] == "partners":
            return tuple(s % 2 for s in range(self.num_players))
        return tuple(range(self.num_players))

    def _to_move(self) -> frozenset[int]:
        if self.winner is not None or self.limit_reached:
            return frozenset()
        if self.phase == "roll":
            return frozenset({CHANCE})
        return frozenset({self.owner[self.colour]})

    # ----- dice ---------------------------------------------------------------------------

    def _movement_faces(self) -> tuple[int, ...]:
        return tuple(range(2, 8)) if self.options["movement_die"] == "d6" else tuple(range(1, 9))

    def _chance_outcomes(self) -> list[tuple[str, float]]:
        key = (self.roll_kind, self.options["movement_die"], self.faces)
        if key not in _OUTCOMES:
            _OUTCOMES[key] = self._outcomes_for()
        return list(_OUTCOMES[key])

    def _outcomes_for(self) -> list[tuple[str, float]]:
        moves, acts = self._movement_faces(), self.faces
        if self.roll_kind == "move":
            return [(f"roll {m}", 1 / len(moves)) for m in moves]
        if self.roll_kind == "action":
            return [(f"roll {a}", 1 / len(acts)) for a in acts]
        p = 1 / (len(moves) * len(acts))
        return [(f"roll {m} {a}", p) for m in moves for a in acts]

    def action_choices(self) -> frozenset[str]:
        """What the unused action die allows: Wild stands for any other action on the die."""
        if self.action is None:
            return frozenset()
        if self.action != "wild":
            return frozenset({self.action})
        pool = set(self.faces) - {"wild"}
        if self.second or not self.options["wild_redo"]:
            pool.discard("redo")
        return frozenset(pool)

    # ----- moves --------------------------------------------------------------------------

    def effects(self) -> dict[str, rules.Effect]:
        """The current player's moves this step (``end`` excluded) with what each does, cached until the
        state changes (public for explain.py's captions and hints)."""
        if self._cache is None:
            actions = self.action_choices()
            moves = rules.generate(self.board, self.colour, self.movement, actions, self.bonus, self.queens)
            if "redo" in actions:
                moves["redo action"] = ("redo", "action")
                if self.moved and self.movement is None:
                    moves["redo move"] = ("redo", "move")
            self._cache = moves
        return self._cache

    def _legal_moves(self, seat: int) -> list[str]:
        if seat == CHANCE:
            return [text for text, _ in self._chance_outcomes()]
        if self.phase == "setup":
            return [f"queen {n}" for n in range(1, 5)]
        return [*self.effects(), "end"]

    def _play(self, seat: int, text: str) -> str:
        words = normalize(text)
        canonical = " ".join(words)
        if seat == CHANCE:
            if canonical not in dict(self._chance_outcomes()):
                raise IllegalMove(f"{quote(text)} is not a possible roll now.")
            self._roll(words[1:])
            return canonical
        if self.phase == "setup":
            if canonical not in (f"queen {n}" for n in range(1, 5)):
                raise IllegalMove("First place your Queen in your Start stack: queen 1 (bottom) to queen 4 (top).")
            self.board[STATIONS[self.colour]].insert(int(words[1]) - 1, 4 + self.colour)
            self._next_colour(setup=True)
            return canonical
        if canonical == "end":
            self._end_turn()
            return canonical
        effect = self.effects().get(canonical)
        if effect is None:
            raise IllegalMove(self._why_not(words, text))
        self._apply(canonical, effect)
        return canonical

    def _roll(self, faces: list[str]) -> None:
        kind = self.roll_kind
        self.phase = "act"
        self._cache = None
        if kind != "action":
            self.movement = int(faces[0])
            self.rolled.setdefault("movement", []).append(self.movement)
        if kind != "move":
            action = faces[-1]
            self.rolled.setdefault("action", []).append(action)
            if kind == "action" and self.rolled.get("redo_action"):
                self.second = True
            self.action = None if action == "redo" and self.second else action
        self._auto_end()

    def _apply(self, canonical: str, effect: rules.Effect) -> None:
        self._cache = None
        self.turn_moves.append(canonical)
        if effect[0] == "redo":
            self.action = None
            self.phase = "roll"
            self.roll_kind = effect[1]
            if effect[1] == "action":
                self.rolled["redo_action"] = True
            return
        self.marks = list(dict.fromkeys([*self.marks, *rules.apply(self.board, self.colour, effect)]))
        if effect[0] == "move":
            self.movement = None
            self.moved = True
            if effect[4]:
                self.action = None
        else:
            self.action = None
        self._check_win()
        self._auto_end()

    def _auto_end(self) -> None:
        """The turn ends by itself when nothing is left to use."""
        if self.winner is None and not self.effects():
            self._end_turn()

    def _end_turn(self) -> None:
        self.last_turn = {"colour": self.colour, "rolls": self.roll_texts(), "moves": list(self.turn_moves),
                          "marks": list(self.marks)}
        self._next_colour(setup=False)

    def roll_texts(self) -> list[str]:
        """This turn's dice as shown to players: movement numbers, then action faces."""
        out = [str(m) for m in self.rolled.get("movement", [])]
        return out + list(self.rolled.get("action", []))

    def _next_colour(self, setup: bool) -> None:
        self.movement = None
        self.action = None
        self.moved = False
        self.second = False
        self.rolled = {}
        self.turn_moves = []
        self.marks = []
        self._cache = None
        for _ in range(2 * len(self.colours)):
            self.index += 1
            if self.index == len(self.colours):
                self.index = 0
                if setup:
                    self.phase = "roll"
                    setup = False
                elif self.phase != "setup":
                    self.round += 1
            if self.round > self.options["round_limit"]:
                self.limit_reached = True
                return
            if self.owner[self.colour] in self.eliminated:
                if self.phase == "setup":
                    self.board[STATIONS[self.colour]].insert(0, 4 + self.colour)
                continue
            if setup:
                return
            self.phase = "roll"
            self.roll_kind = "both"
            if self.home_count(self.colour) == self.per_colour:
                # A finished partner rolls only the action die, and passes when nothing could be Tipped.
                if not rules.generate(self.board, self.colour, None, frozenset({"tip"}), 0, self.queens):
                    continue
                self.roll_kind = "action"
            return

    def _skip_seat(self, seat: int) -> None:
        if self.owner[self.colour] == seat and self.winner is None:
            if self.phase == "setup":
                self.board[STATIONS[self.colour]].insert(0, 4 + self.colour)
                self._next_colour(setup=True)
            else:
                self._end_turn()

    # ----- results ------------------------------------------------------------------------

    def home_count(self, colour: int) -> int:
        """How many of ``colour``'s pieces stand in its Goal."""
        return sum(1 for p in self.board[GOALS[colour]] if p & 3 == colour)

    def _check_win(self) -> None:
        if self.home_count(self.colour) != self.per_colour:  # only the mover's own path enters its Goal
            return
        done = [c for c in self.colours if self.home_count(c) == self.per_colour]
        if self.options["mode"] == "partners":
            for c in done:
                if (c + 2) % 4 in done:
                    self.winner = c
        elif done:
            self.winner = done[0]

    def progress(self, colour: int) -> int:
        """Squares travelled by all of a colour's pieces (61 each at home): the round-limit tiebreak."""
        return sum(POSITION[p & 3].get(s, 0) for s in range(100) for p in self.board[s] if p & 3 == colour)

    def _outcome(self) -> Outcome | None:
        if self.winner is not None:
            c = self.winner
            team = {self.owner[c]}
            what = f"all {self.per_colour} pieces"
            if self.options["mode"] == "partners":
                team.add(self.owner[(c + 2) % 4])
                reason = f"{LAYOUT[c].name} and {LAYOUT[(c + 2) % 4].name} brought {what} home"
            else:
                reason = f"{LAYOUT[c].name} brought {what} to the Goal"
            return Outcome.win(team, self.num_players, reason)
        if self.limit_reached:
            scores = [0.0] * self.num_players
            for c in self.colours:
                seat = self.owner[c]
                value = 1000 * self.home_count(c) + self.progress(c)
                if self.options["mode"] == "partners":
                    scores[seat] = float(value + self.progress((c + 2) % 4) + 1000 * self.home_count((c + 2) % 4))
                else:
                    scores[seat] = max(scores[seat], float(value))
            return Outcome.by_scores(tuple(scores), self._limit_reason())
        return None

    def _limit_groups(self) -> list[tuple[int, ...]]:
        """What the round limit compares: each colour, or in partners mode each team's two colours."""
        if self.options["mode"] == "partners":
            return [(c, (c + 2) % 4) for c in self.colours if c < 2]
        return [(c,) for c in self.colours]

    def limit_standing(self) -> dict[str, Any]:
        """The round limit's result for the board: what decided it and each colour's (or team's) squares travelled.

        Why: the board shows pieces home on its badges, but the squares travelled, which decide most such games,
        appear nowhere else; a player must see why they won or lost."""
        outcome = self._outcome()
        scores = sorted(set(outcome.scores if outcome else ()), reverse=True)
        by_home = len(scores) < 2 or scores[0] // 1000 > scores[1] // 1000
        return {"round_limit": self.options["round_limit"],
                "decided_by": "pieces home" if by_home else "squares travelled",
                "travelled": [{"colours": [LAYOUT[c].name for c in group],
                               "squares": sum(self.progress(c) for c in group)} for group in self._limit_groups()]}

    def _limit_reason(self) -> str:
        """Why the round limit's winner won: pieces home first, then squares travelled, per colour or team."""
        partners = self.options["mode"] == "partners"
        groups = self._limit_groups()

        def said(group: tuple[int, ...]) -> str:
            home = sum(self.home_count(c) for c in group)
            travelled = sum(self.progress(c) for c in group)
            names = " & ".join(LAYOUT[c].name for c in group)
            return f"{names} {home}/{self.per_colour * len(group)} home, {travelled} squares travelled"

        who = "team" if partners else "colour"
        return (f"round limit {self.options['round_limit']} reached, so the {who} closest to home wins (pieces home"
                f" first, then squares travelled): " + "; ".join(said(g) for g in groups))

    # ----- explanations -------------------------------------------------------------------

    def _why_not(self, words: list[str], text: str) -> str:
        from engines.ziggurat.explain import why_not

        return why_not(self, words, text)

    def describe(self, seat: int, move: str) -> str:
        from engines.ziggurat.explain import describe

        return describe(self, move)

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        from engines.ziggurat.picks import picks

        return picks(self)

    def status(self) -> str:
        from engines.ziggurat.explain import status

        return status(self)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        def stack(s: int) -> list[str]:
            return [LAYOUT[p & 3].letter + ("Q" if p >= 4 else "") for p in self.board[s]]

        layout = [{"colour": c, "name": lay.name, "letter": lay.letter, "station": list(lay.station),
                   "facing": facing(c), "walls": list(lay.walls), "goal": lay.goal,
                   "seat": self.owner.get(c), "in_play": c in self.colours}
                  for c, lay in enumerate(LAYOUT)]
        turn_rolls = self.roll_texts()
        return {
            "layout": layout,
            "board": {name(s): stack(s) for s in range(100) if self.board[s] and on_board(*xy(s))},
            "stations": {LAYOUT[c].name: stack(STATIONS[c]) for c in self.colours},
            "home": {LAYOUT[c].name: self.home_count(c) for c in self.colours},
            "pieces_per_colour": self.per_colour,
            "turn": {"colour": LAYOUT[self.colour].name, "seat": self.owner[self.colour], "phase": self.phase,
                     "round": self.round, "roll_kind": self.roll_kind if self.phase == "roll" else None},
            "dice": {"rolled": turn_rolls, "movement_left": self.movement, "action_left": self.action,
                     "action_choices": sorted(self.action_choices()), "moved": self.moved},
            "turn_moves": list(self.turn_moves),
            "marks": [self._mark_name(s) for s in self.marks],
            "last_turn": {"colour": LAYOUT[self.last_turn["colour"]].name, "rolls": self.last_turn["rolls"],
                          "moves": self.last_turn["moves"],
                          "marks": [self._mark_name(s) for s in self.last_turn["marks"]]} if self.last_turn else None,
            "limit": self.limit_standing() if self.limit_reached and self.winner is None else None,
        }

    @staticmethod
    def _mark_name(s: int) -> str:
        if on_board(*xy(s)):
            return name(s)
        return "start:" + LAYOUT[STATIONS.index(s)].name


def normalize(text: str) -> list[str]:
    """Lower case, single spaces, and the usual variations (``d4-e4``, ``north``, ``queen``)."""
    words: list[str] = []
    for token in text.lower().replace(",", " ").split():
        parts = token.split("-")  # d4-e4 is d4 e4; a dash with nothing on one side is no notation: refused
        words += parts if len(parts) > 1 and all(parts) else [token]
    words = [DIRECTION_WORDS.get(w, w) for w in words]
    words = ["q" if w == "queen" and i > 1 else w for i, w in enumerate(words)]
    if not words:
        return words
    if words in (["pass"], ["done"], ["stop"], ["end", "turn"]):
        return ["end"]
    if words[0] == "redo" and len(words) == 2:
        words[1] = {"movement": "move", "m": "move", "a": "action"}.get(words[1], words[1])
    if words[0] == "swap" and len(words) == 3 and all(parse_square(w) for w in words[1:]):
        words[1:] = sorted(words[1:])
    if words[0] == "swap" and len(words) == 4 and is_number(words[2]) and is_number(words[3]):
        words[2:] = sorted(words[2:], key=int)
    return words


__all__ = ["DIRECTIONS", "LEVEL", "Ziggurat", "normalize"]
