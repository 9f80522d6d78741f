"""The contract every game engine follows, so the host, renderers, tests and AIs drive all games alike.

A game is data: ``{game, players, options, history}``. Replaying the history from a new game
rebuilds the exact state, so persistence and ``to_dict`` need nothing game-specific. Dice are
chance steps: the engine lists the outcomes, the host samples one with the game's seeded RNG and
plays it as a move of the ``CHANCE`` seat, so every roll lands in the history.

Subclasses implement the underscored hooks; the public methods here add the checks that every
game shares (whose turn, game over, resignations, timeouts, agreed draws, history).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

T = TypeVar("T")

CHANCE = -1
"""The pseudo-seat that plays dice outcomes."""

META_MOVES = ("resign", "timeout", "draw")
"""History texts handled by the base class; no game may use them as move notation."""


class RandomSource(Protocol):
    """What ``Game.determinize`` needs of a generator (``random.Random`` fits): engines never import ``random``."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...


@dataclass(frozen=True)
class Pick:
    """One click of a move in the move builder (and, later, on a clickable board).

    A legal move decomposes into a short sequence of picks (``Game.move_picks``): ZÈRTZ ``wd4 e1`` is
    marble colour ``w`` → ring ``d4`` → ring to remove ``e1``. ``kind`` says what is being chosen (the
    builder asks "Choose a <prompt>" from it), ``label`` is the player-facing text (≤ 80 characters),
    ``target`` names what on the board the pick points at, a key of the renderer's ``hotspots`` (a cell
    or ring name such as ``d4``, or ``<space>:<id>`` such as ``hand:2`` or ``supply:w``), or ``None``
    for a choice that is not a place on the board (a rotation, "no free ring", ``end``). ``group``
    bunches the choices of one step when there are more than a menu holds (a file or row of the board,
    a colour, a piece); choices with the same group are shown together.
    """

    kind: str
    label: str
    target: str | None = None
    group: str = ""

    @property
    def key(self) -> tuple[str, str, str | None]:
        """Identity of the pick inside one step: two choices of a step never share it."""
        return (self.kind, self.label, self.target)


class IllegalMove(ValueError):
    """A move the rules forbid. The message is shown to the player as is, so write it for them."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``ranks[seat]`` is 1 for first place; tied seats share a rank."""

    winners: frozenset[int]
    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str

    @classmethod
    def from_ranks(cls, ranks: tuple[int, ...], reason: str, scores: tuple[float, ...] | None = None) -> Outcome:
        scores = scores if scores is not None else tuple(0.0 for _ in ranks)
        return cls(frozenset(s for s, r in enumerate(ranks) if r == 1), tuple(ranks), tuple(scores), reason)

    @classmethod
    def by_scores(cls, scores: tuple[float, ...], reason: str) -> Outcome:
        """Higher score is better; equal scores share a rank (competition ranking: 1, 1, 3)."""
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        return cls.from_ranks(ranks, reason, tuple(float(s) for s in scores))

    @classmethod
    def win(cls, winners: int | frozenset[int] | set[int], players: int, reason: str,
            scores: tuple[float, ...] | None = None) -> Outcome:
        """The given seat (or seats, for a team) win; everyone else shares second place."""
        won = {winners} if isinstance(winners, int) else set(winners)
        return cls.from_ranks(tuple(1 if s in won else 2 for s in range(players)), reason, scores)

    @classmethod
    def draw(cls, players: int, reason: str, scores: tuple[float, ...] | None = None) -> Outcome:
        return cls.from_ranks(tuple(1 for _ in range(players)), reason, scores)

    @property
    def is_draw(self) -> bool:
        return len(set(self.ranks)) == 1

    def to_dict(self) -> dict[str, Any]:
        return {"winners": sorted(self.winners), "ranks": list(self.ranks),
                "scores": list(self.scores), "reason": self.reason}


@dataclass(frozen=True)
class Option:
    """A variant switch of a game: ``/<game> new`` offers each one, with ``help`` as its description."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str

    def coerce(self, value: Any) -> Any:
        """Accept the typed value or its text form (from a command line or a stored JSON)."""
        if isinstance(value, str) and not isinstance(self.default, str):
            text = value.strip().lower()
            if isinstance(self.default, bool):
                value = {"true": True, "yes": True, "on": True, "1": True,
                         "false": False, "no": False, "off": False, "0": False}.get(text, value)
            elif isinstance(self.default, int):
                digits = text.removeprefix("-")
                value = int(text) if digits.isascii() and digits.isdigit() else value
        if value not in self.choices or type(value) is not type(self.default):
            shown = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"option {self.name} must be one of {shown}, not {value!r}")
        return value


class Game(ABC):
    """One game in progress. Subclasses set the class attributes and implement the hooks."""

    name: ClassVar[str]
    """Registry key, e.g. ``zrtz``."""
    title: ClassVar[str]
    """Display name, e.g. ``ZÈRTZ``."""
    players: ClassVar[range]
    """Allowed player counts."""
    options_spec: ClassVar[tuple[Option, ...]] = ()
    help: ClassVar[str] = ""
    """A few short paragraphs that teach the game; shown by ``/<game> rules``."""
    hidden_information: ClassVar[bool] = False
    """True when a player's legal moves may betray a secret (hidden kings): no public move buttons then."""
    has_chance: ClassVar[bool] = False
    """True when dice decide part of the game (``CHANCE`` ever moves): ratings then allow more luck."""
    stepped_turns: ClassVar[bool] = False
    """True when one player's turn is several plies after one roll: a replay steps a whole turn at a
    time, and the turn's steps edit one message instead of posting one each."""

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        """Set up the opening position. Called by ``new`` with checked options."""
        self.num_players = players
        self.options = options
        self.history: list[tuple[int, str]] = []
        self.eliminated: list[int] = []
        self.agreed_draw = False

    # ----- construction and persistence -------------------------------------------------

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults and reject unknown or invalid options. Override to check combinations."""
        known = {o.name: o for o in cls.options_spec}
        unknown = sorted(set(options) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            listed = ", ".join(name[:40] for name in unknown[:5])
            more = f" and {len(unknown) - 5:,} more" if len(unknown) > 5 else ""
            raise ValueError(f"unknown option {listed}{more} for {cls.title} (options: {names})")
        return {name: opt.coerce(options[name]) if name in options else opt.default
                for name, opt in known.items()}

    @classmethod
    def player_count(cls) -> str:
        """``2 players`` or ``2-4 players`` (for /help and refusals): never ``2-2``."""
        low, high = cls.players.start, cls.players.stop - 1
        return f"{low} players" if low == high else f"{low}-{high} players"

    @classmethod
    def new(cls, players: int, options: Mapping[str, Any] | None = None) -> Self:
        if players not in cls.players:
            raise ValueError(f"{cls.title} is played by {cls.player_count()}, not {players}")
        return cls(players, cls.check_options(players, options or {}))

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.name, "players": self.num_players, "options": dict(self.options),
                "history": [[seat, text] for seat, text in self.history]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild by replaying the history; the history is the truth."""
        if data["game"] != cls.name:
            raise ValueError(f"a {data['game']} game cannot be loaded as {cls.name}")
        game = cls.new(int(data["players"]), data.get("options") or {})
        for seat, text in data["history"]:
            game.apply_record(int(seat), str(text))
        return game

    def apply_record(self, seat: int, text: str) -> None:
        """Replay one history entry, meta moves included."""
        if text == "resign" or text == "timeout":
            self.eliminate(seat, text)
        elif text == "draw":
            self.agree_draw(seat)
        else:
            self.play(seat, text)

    def clone(self) -> Self:
        return copy.deepcopy(self)

    def _shallow_copy(self) -> Self:
        """A shallow copy with the base's own mutable state (options, history, eliminations) copied.

        A game's fast ``clone`` starts here and copies only its own containers, so a mutable field added
        to the base needs one change, here, not one per game.
        """
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin.history = list(self.history)
        twin.eliminated = list(self.eliminated)
        return twin

    def determinize(self, seat: int, rng: RandomSource) -> Self:
        """A copy in which everything ``seat`` cannot know is re-drawn by ``rng``, consistently with all it has seen.

        The AI searches such copies (information-set search), so it can never act on a secret. The
        copy must depend only on what ``seat`` may know and on ``rng``: the same draws from the same
        generator give the same copy whatever the real secrets are. Perfect-information games (the
        default) return a plain clone; games with ``hidden_information`` override this.
        """
        return self.clone()

    # ----- turn structure ---------------------------------------------------------------

    def to_move(self) -> frozenset[int]:
        """Seats that may act now (``{CHANCE}`` when dice must be rolled); empty once over."""
        if self.outcome() is not None:
            return frozenset()
        return frozenset(self._to_move()) - frozenset(self.eliminated)

    def legal_moves(self, seat: int) -> list[str]:
        """Every legal move of ``seat`` in canonical notation, sorted, no duplicates."""
        if seat not in self.to_move():
            return []
        return sorted(set(self._legal_moves(seat)))

    def move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """Each legal move of ``seat`` with the picks that build it, in ``legal_moves`` order.

        Every interface (the move builder, a clickable board) walks these as a prefix tree: the picks of
        two different moves differ, and no move's picks are a prefix of another's, so every complete
        pick sequence leads to exactly one legal move.
        """
        if seat not in self.to_move():
            return []
        by_move = dict(self._move_picks(seat))  # the games build these without listing legal_moves again
        return sorted(by_move.items(), key=lambda item: item[0])  # legal_moves' order: sorted, unique

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The possible dice results and their probabilities while ``CHANCE`` is to move."""
        if CHANCE not in self.to_move():
            return []
        return self._chance_outcomes()

    def play(self, seat: int, text: str) -> str:
        """Apply one move and return its canonical text; on ``IllegalMove`` nothing changed."""
        if self.outcome() is not None:
            raise IllegalMove("The game is already over.")
        if seat not in self.to_move():
            who = "the dice" if seat == CHANCE else self.seat_name(seat)
            raise IllegalMove(f"It is not {who}'s turn.")
        if text.strip().lower() in META_MOVES:
            raise IllegalMove("Use the resign or draw commands for that.")
        canonical = self._play(seat, text)
        self.history.append((seat, canonical))
        return canonical

    # ----- ends that are not on the board -----------------------------------------------

    def active_seats(self) -> list[int]:
        return [s for s in range(self.num_players) if s not in self.eliminated]

    def teams(self) -> tuple[int, ...]:
        """Team of each seat; by default every seat is its own team."""
        return tuple(range(self.num_players))

    def eliminate(self, seat: int, how: str = "resign") -> None:
        """Resignation or timeout: the seat (and its team) leaves the game and ranks last."""
        if how not in ("resign", "timeout"):
            raise ValueError(how)
        if self.outcome() is not None:
            raise IllegalMove("The game is already over.")
        if not 0 <= seat < self.num_players or seat in self.eliminated:
            raise IllegalMove("That seat is not in the game.")
        team = self.teams()[seat]
        leaving = [s for s in range(self.num_players) if self.teams()[s] == team and s not in self.eliminated]
        self.eliminated.extend(leaving)
        self.history.append((seat, how))
        if self.outcome() is None:
            for gone in leaving:
                self._skip_seat(gone)

    def next_match_options(self) -> dict[str, Any] | None:
        """Options for the next game of a match with the sides swapped, keeping the seats.

        ``None`` (the default): the host swaps the seat order instead (seat 0 moves first).
        """
        return None

    def timeout_move(self, seat: int) -> str | None:
        """A move the rules make for a seat whose time ran out, instead of its leaving the game.

        ``None`` (the default): the seat times out. Zodiac Chess: a timed-out duel pick counts as Tree.
        """
        return None

    def agree_draw(self, seat: int) -> None:
        """Every remaining player agreed to a draw; ``seat`` is the one who accepted last."""
        if self.outcome() is not None:
            raise IllegalMove("The game is already over.")
        self.agreed_draw = True
        self.history.append((seat, "draw"))

    def outcome(self) -> Outcome | None:
        """``None`` while playing. Eliminated seats always rank below those still in."""
        if self.agreed_draw:
            return Outcome.draw(self.num_players, "draw agreed")
        if not self.eliminated:
            return self._outcome()
        teams = self.teams()
        active_teams = {teams[s] for s in self.active_seats()}
        result = self._outcome()
        if result is None and len(active_teams) > 1:
            return None
        how = self.history_reason()
        if result is None:
            base = tuple(1 if s in self.active_seats() else 2 for s in range(self.num_players))
            scores: tuple[float, ...] = tuple(0.0 for _ in range(self.num_players))
            reason = how
        else:
            base, scores, reason = result.ranks, result.scores, result.reason
        # Order: active seats by the board result, then eliminated seats, latest out first.
        out_order = {s: i for i, s in enumerate(self.eliminated)}

        def key(s: int) -> tuple[int, int]:
            if s in out_order:
                return (1, -out_order[s])
            return (0, base[s])

        ranks = tuple(1 + sum(key(o) < key(s) for o in range(self.num_players)) for s in range(self.num_players))
        return Outcome.from_ranks(ranks, reason, scores)

    def history_reason(self) -> str:
        """Why a game ended off the board, from its last resignation or timeout."""
        for seat, text in reversed(self.history):
            if text in ("resign", "timeout"):
                verb = "resigned" if text == "resign" else "ran out of time"
                return f"{self.seat_name(seat)} {verb}"
        return "ended"

    # ----- presentation -----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """How a seat is called in this game (a colour or side), e.g. ``White``."""
        return f"Player {seat + 1}"

    def describe(self, seat: int, move: str) -> str:
        """A label for a legal move in autocomplete, e.g. ``Wolf b1-c3`` or ``c3 oo.x (destroys d4)``."""
        return move

    def announce(self, seat: int, move: str) -> str:
        """How a move is told to everyone in the channel. Games with hidden choices hide them here."""
        return move

    pick_prompts: ClassVar[dict[str, str]] = {
        "action": "What do you do?", "colour": "Which marble do you place?", "direction": "Which way does it lie?",
        "end": "What do you do?", "facing": "Which way does it face?", "jump": "Where does it land?",
        "marble": "Which marble jumps?", "move": "Which move?", "piece": "Which piece?",
        "queen": "Where does your Queen go?", "remove": "Which free ring do you remove?", "ring": "On which ring?",
        "roll": "Which roll?", "rotation": "Which way round?", "side": "Which side do you take?",
        "square": "Which square?", "stack": "Which stack or piece?", "swap": "Swap with what?",
        "tile": "Which tile?", "to": "Where to?",
    }
    """The move builder's question before a step, by the kind of its picks; a game may override entries."""

    def pick_prompt(self, kind: str) -> str:
        """What the move builder asks before a step whose picks are of ``kind`` (see ``Pick``)."""
        return self.pick_prompts.get(kind, f"Choose the {kind}:")

    def status(self) -> str:
        """One public line for the caption under the board: scores, captures, dice."""
        return ""

    def observation(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: a spectator), JSON-serializable."""
        result = self.outcome()
        obs = {
            "game": self.name,
            "players": self.num_players,
            "options": dict(self.options),
            "seat": seat,
            "seat_names": [self.seat_name(s) for s in range(self.num_players)],
            "to_move": sorted(self.to_move()),
            "ply": len(self.history),
            "eliminated": list(self.eliminated),
            "outcome": result.to_dict() if result else None,
        }
        obs.update(self._observation(seat))
        return obs

    def revealed_observation(self) -> dict[str, Any]:
        """The spectator view plus every secret a finished game reveals, for replays of earlier positions.

        Only for games that are over: a game in progress must show ``observation(None)``.
        """
        return self.observation(None)

    # ----- hooks for subclasses ---------------------------------------------------------

    @abstractmethod
    def _to_move(self) -> frozenset[int]:
        """Seats to act while the game is on the board (eliminated seats are removed for you)."""

    @abstractmethod
    def _legal_moves(self, seat: int) -> list[str]:
        """Canonical texts of the legal moves; only called for a seat that is to move."""

    @abstractmethod
    def _play(self, seat: int, text: str) -> str:
        """Parse, check and apply; return the canonical text. Raise ``IllegalMove`` before changing anything."""

    @abstractmethod
    def _outcome(self) -> Outcome | None:
        """The result on the board, or ``None``. Called often: keep it cheap."""

    @abstractmethod
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The game-specific part of the observation."""

    def _chance_outcomes(self) -> list[tuple[str, float]]:
        return []

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """The picks of each legal move. The default is one pick per move, labelled by ``describe``:
        games override it to split a move into the few clicks a player would make."""
        return [(move, (Pick("move", self.describe(seat, move)[:80]),)) for move in self.legal_moves(seat)]

    def _skip_seat(self, seat: int) -> None:
        """A seat left mid-game (3-4 players): pass its turn on. Games for 3+ players override this."""
        return None
