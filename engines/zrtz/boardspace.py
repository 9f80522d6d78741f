"""Replay boardspace.net ZÈRTZ game records (SGF) through our rules.

Boardspace stores a turn as interface steps: ``RtoB <rack> <colour> <col> <row>`` (a marble from a rack
onto a ring; rack 2 is the pool, 0/1 a player's captures), ``R- <col> <row>`` (remove a ring), ``BtoB``
(one hop of a capture, or re-placing the marble just put down), ``Done``. Old records have no numbers
and no ``Done``, so a turn also ends when the other player acts. ``RtoR``, ``Edit`` and ``Start`` are
interface noise, ``Reset`` drops the unfinished turn. Each turn becomes one of our move texts and is
played through ``Zrtz.play``, so every rule is checked; the first move our rules forbid raises
``IllegalMove`` naming the ply.

``IllegalMove`` (a ``ValueError``) is the one error a bad record raises, from ``decode``, ``parse`` or
``replay``, with a message for the player: a file over ``MAX_RECORD_BYTES``, broken SGF, an unknown
step argument, or a move our rules forbid. The SGF text is read by ``sgf.tokenize`` in one linear pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engines.base import IllegalMove
from engines.text import clip, quote
from engines.zrtz.board import SUBVARIANTS
from engines.zrtz.game import COLOURS, Zrtz
from engines.zrtz.sgf import MAX_RECORD_BYTES, Tree, tokenize
from engines.zrtz.sgf_writer import to_sgf as to_sgf  # the writer, beside the reader

SGF_PLAYERS = 2
PLAYER_PROPS = {"P0": 0, "P1": 1, "P-1": -1}
SOURCE = "boardspace.net record"
"""The ``source`` of an imported boardspace record (host/records): with it, ``ended_by_record`` tells a result
the record's ``RE[]`` gave from one its moves made."""
DRAW_RE = re.compile(r"\bdraw(n)?\b|unentschieden|\bnulle\b|\bempate\b|\btablas\b|\bremis\b|ничь", re.IGNORECASE)
"""``RE[]`` of a drawn game: ours (``Draw``) and boardspace's languages."""


@dataclass
class Turn:
    """The steps of one player's unfinished turn, reduced to what the turn finally did."""

    player: int
    step: str = ""
    placed: list[str] = field(default_factory=list)  # [colour letter, ring, rack]
    removed: str | None = None
    hops: list[tuple[str, str]] = field(default_factory=list)
    resign: bool = False

    def empty(self) -> bool:
        return not (self.placed or self.removed or self.hops or self.resign)


@dataclass
class Record:
    """A parsed record: board size, player names, result text and the turns in order."""

    rings: int
    names: tuple[str, str]
    result: str
    turns: list[Turn]


def read_text(path: str | Path) -> str:
    return decode(Path(path).read_bytes())


def decode(data: bytes) -> str:
    """Records are mostly UTF-8; a few old ones are Latin-1. Refuses files over the size cap."""
    if len(data) > MAX_RECORD_BYTES:
        raise IllegalMove(f"That file is too big for a ZÈRTZ record ({len(data) // 1024} KB; "
                          f"the limit is {MAX_RECORD_BYTES // 1024} KB).")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _cell(col: str, row: str, body: str) -> str:
    if not (row.isascii() and row.isdigit() and len(row) <= 2 and len(col) == 1 and col.isascii() and col.isalpha()):
        raise IllegalMove(f"Step {quote(body, 60)}: {quote(f'{col} {row}', 20)} is not a ring.")
    return f"{col.lower()}{int(row)}"


def _steps(tree: Tree) -> list[tuple[int, str]]:
    """(player, step text) of every node whose first property is P0, P1 or P-1 (interface steps)."""
    out = []
    for node in tree.nodes:
        if node and node[0][0] in PLAYER_PROPS:
            out.append((PLAYER_PROPS[node[0][0]], node[0][1]))
        elif node and node[0][0].startswith("P") and node[0][0][1:].lstrip("-").isdigit():
            raise IllegalMove(f"{quote(node[0][0], 20)} is not a player of a two-player record.")
    return out


def parse(sgf_text: str) -> Record:
    """Split a record into turns; each turn keeps only its net effect."""
    tree = tokenize(sgf_text)
    variant = tree.first("SU").strip().lower() or "zertz"
    if variant not in SUBVARIANTS:
        raise IllegalMove(f"Unsupported boardspace variant {quote(variant, 40)}.")
    names = (clip(tree.first("P0").strip().removeprefix("id").strip().strip('"'), 60),
             clip(tree.first("P1").strip().removeprefix("id").strip().strip('"'), 60))
    turns: list[Turn] = []
    current: Turn | None = None
    first: int | None = None
    for player, raw in _steps(tree):
        words = raw.split()
        if words and words[0].isascii() and words[0].isdigit():
            words = words[1:]  # newer records number their steps
        if not words:
            continue
        body = raw.strip()
        verb, args = words[0].lower(), words[1:]
        if verb == "start":
            who = args[0].lower() if args else ""
            first = 0
            if who.startswith("p") and who[1:].isdigit():
                if who not in ("p0", "p1"):
                    raise IllegalMove(f"Step {quote(body, 60)}: the first player must be P0 or P1.")
                first = int(who[1])
            continue
        if verb in ("rtor", "edit", "time", "id") or player < 0:
            continue
        if current is not None and current.player != player:
            turns.append(current)
            current = None
        if verb == "done":
            if current is not None:
                turns.append(current)
            current = None
            continue
        if current is None:
            current = Turn(player, step=clip(raw.split()[0], 20))
        if verb == "reset":
            current = Turn(player, step=current.step)
        elif verb == "resign":
            current.resign = True
        elif verb == "rtob" and len(args) >= 4:
            if current.placed:
                raise IllegalMove(f"Step {quote(body, 60)}: a second marble placed in one turn.")
            if args[1] not in ("0", "1", "2") or args[0] not in ("0", "1", "2"):
                raise IllegalMove(f"Step {quote(body, 60)}: racks and colours are numbered 0 to 2.")
            current.placed = [COLOURS[int(args[1])], _cell(args[2], args[3], body), args[0]]
        elif verb == "r-" and len(args) >= 2:
            if current.removed:
                raise IllegalMove(f"Step {quote(body, 60)}: a second ring removed in one turn.")
            current.removed = _cell(args[0], args[1], body)
        elif verb == "r+" and len(args) >= 2 and current.removed == _cell(args[0], args[1], body):
            current.removed = None
        elif verb == "btob" and len(args) >= 4:
            _hop(current, _cell(args[0], args[1], body), _cell(args[2], args[3], body))
    if current is not None:
        turns.append(current)
    turns = [t for t in turns if not t.empty()]
    if first is None:  # the oldest records have no Start: whoever acts first moved first
        first = turns[0].player if turns else 0
    if first:
        for turn in turns:
            turn.player = (turn.player - first) % SGF_PLAYERS
        names = (names[first], names[1 - first])
    return Record(SUBVARIANTS[variant], names, tree.first("RE").strip(), turns)


def _hop(turn: Turn, source: str, target: str) -> None:
    """A BtoB step: noise, moving the marble just placed, undoing the last hop, or the next hop."""
    if source == target:
        return
    if turn.placed and turn.placed[1] == source:
        turn.placed[1] = target
    elif turn.hops and turn.hops[-1] == (target, source):
        turn.hops.pop()
    else:
        turn.hops.append((source, target))


def move_text(game: Zrtz, turn: Turn) -> str:
    """Our notation for a boardspace turn; checks the rack the marble came from."""
    if turn.hops:
        if turn.placed or turn.removed:
            raise IllegalMove("a capture and a placement in the same turn")
        path = [turn.hops[0][0]]
        for source, target in turn.hops:
            if source != path[-1]:
                raise IllegalMove(f"the capture hops {path[-1]} and {source}-{target} are not one chain")
            path.append(target)
        return "x".join(path)
    if not turn.placed:
        raise IllegalMove(f"ring {turn.removed} removed without placing a marble")
    colour, ring, rack = turn.placed
    pool_empty = not any(game.pool)
    if pool_empty and rack != str(turn.player):
        raise IllegalMove("the pool is empty, so the marble must come from the mover's captures")
    if not pool_empty and rack != "2":
        raise IllegalMove("the marble must come from the pool while it has marbles")
    return f"{colour}{ring}" + (f" {turn.removed}" if turn.removed else "")


def replay(sgf_text: str, upto: int | None = None) -> Zrtz:
    """The game after the record's moves (or its first ``upto`` turns); ``IllegalMove`` names the bad ply."""
    record = parse(sgf_text)
    game = Zrtz.new(2, {"rings": record.rings})
    for ply, turn in enumerate(record.turns, start=1):
        if upto is not None and ply > upto:
            break
        try:
            if turn.resign:
                game.eliminate(turn.player, "resign")
                continue
            if game.outcome() is None and game.turn != turn.player:
                raise IllegalMove(f"it is {game.seat_name(game.turn)}'s turn")
            game.play(turn.player, move_text(game, turn))
        except IllegalMove as error:
            raise IllegalMove(f"ply {ply} (step {turn.step}, {record.names[turn.player]}): {error}") from None
    return game


def winner_seat(record: Record) -> int | None:
    """The seat ``RE[...]`` names as winner (in any language), or None when it names nobody we know."""
    text = record.result.lower()
    if not text:
        return None
    hits = [s for s, name in enumerate(record.names) if name and name.lower() in text]
    if not hits:  # robots are renamed between sessions: "Dumbot1" plays, "Dumbot" wins
        hits = [s for s, name in enumerate(record.names) if name.rstrip("0123456789").lower() in text]
    if len(hits) == 2 and record.names[0].lower() == record.names[1].lower():
        return None  # both seats have the same name: the text cannot say which
    if len(hits) == 2:  # one name contains the other, e.g. "guest" and "guest1490"
        hits = [max(hits, key=lambda s: len(record.names[s]))]
    if len(hits) == 1:
        return hits[0]
    guests = [s for s, name in enumerate(record.names) if name.lower() == "guest"]
    if len(guests) == 1 and re.search(r"guest|gast|invit", text):
        return guests[0]
    return None


def stated_result(record: Record) -> tuple[str, int | None] | None:
    """What ``RE[...]`` says: ``("draw", None)``, ``("win", seat)``, or None (empty, or naming nobody we know)."""
    unnamed = record.result
    for name in filter(None, record.names):  # a winner called Remis or Draw is no draw
        unnamed = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", unnamed, flags=re.IGNORECASE)
    if DRAW_RE.search(unnamed):
        return ("draw", None)
    seat = winner_seat(record)
    return None if seat is None else ("win", seat)


def with_result(game: Zrtz, record: Record) -> Zrtz:
    """``game`` (the record's moves replayed) ended as ``RE[...]`` says when its moves stop before the end: an
    agreed draw, or the named winner's opponent out, by ``timeout`` when it was to move (a loss on time; ours
    writes no step for it) and else by ``resign`` (one runs out of time only on one's own turn). ``IllegalMove``
    when ``RE[...]`` contradicts the result the moves lead to. An empty or unreadable ``RE[...]`` changes
    nothing."""
    stated = stated_result(record)
    if stated is None:
        return game
    kind, seat = stated
    outcome = game.outcome()
    if outcome is not None:
        if (outcome.is_draw if kind == "draw" else outcome.winners == {seat}):
            return game
        said = "a draw" if kind == "draw" else f"a win for {record.names[seat or 0]}"
        raise IllegalMove(f"its result {quote(record.result, 60)} says {said}, but its moves end in "
                          f"{'a draw' if outcome.is_draw else 'a win for ' + record.names[min(outcome.winners)]}"
                          f" ({outcome.reason})")
    if kind == "draw":
        game.agree_draw(game.turn)
    else:
        assert seat is not None
        game.eliminate(1 - seat, "timeout" if game.turn == 1 - seat else "resign")
    return game


def ended_by_record(game: Zrtz) -> bool:
    """Whether the game's last step is one only ``RE[...]`` gives (``with_result``): a timeout or an agreed draw
    (boardspace writes no step for either), or a resignation by the player not to move (boardspace writes a real
    one as a step of the resigner's own turn; all 10 in the 310 shared records are). The import and every later
    reading of the kept record tell the result's source by this one rule."""
    if not game.history or game.outcome() is None:
        return False
    seat, move = game.history[-1]
    return move in ("timeout", "draw") or (move == "resign" and seat != game.turn)


def from_record(reason: str) -> str:
    """The reason of a result taken from ``RE[...]`` (``with_result``): it says where it came from."""
    return f"{reason}, by the record's stated result after its last move"
