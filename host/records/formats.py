"""Game records as files: our JSON export, a PGN-like text record, and the strict readers of both.

A record holds all that replays a game exactly: the game, seats, options and every ply, dice
included (seat ``-1``). A finished game's record also holds the seed, so ``python -m host.play.dice
verify record.json`` can draw every die again. A record of a game in progress is its public view:
secret moves (a Zodiac king) carry only their announcement and ``hidden``, and the seed is left out
(it would tell the future dice). Readers refuse anything they cannot replay, with a reason to show.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import engines
from engines import CHANCE, Game, IllegalMove
from engines.zrtz import boardspace
from host.play import dice
from host.results import HostError

log = logging.getLogger(__name__)
FORMAT = "z-games record"
VERSION = 1
MAX_RECORD_BYTES = 1_000_000
MAX_PLIES = 3000
"""Longer than any game here (a 4-player Ziggurat of 100 rounds); bounds the cost of a replay."""
MAX_MOVE_CHARS = 200
MAX_NAME_CHARS = 64
TAG_RE = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')
ORIGIN_RE = re.compile(r"(.*) after move (\d{1,5})")
"""The text record's ``Origin`` tag, as ``to_text`` writes it: ``Ziggurat #1 after move 5``."""
MOVE_RE = re.compile(r"^(\d+)\.\s+\[(dice|\d)\][^:\n]*:\s(.+)$")
HIDDEN_MARK = "? "


@dataclass(frozen=True)
class Ply:
    seat: int
    move: str
    at: float | None = None
    hidden: bool = False
    """The move is secret in this view: ``move`` is only its public announcement."""


@dataclass
class GameRecord:
    """One game as data: enough to replay it, show it and say where it came from."""

    game: str
    players: int
    options: dict[str, Any]
    names: list[str]
    history: list[Ply]
    sides: list[str] = field(default_factory=list)
    seed: str | None = None
    commitment: str | None = None
    outcome: dict[str, Any] | None = None
    date: float | None = None
    source: str = ""
    origin: dict[str, Any] | None = None
    """For a game played on from another's position: ``{"source", "move", "plies"}``; its first
    ``plies`` plies (and their dice) come from that game, not from this game's seed."""

    @property
    def complete(self) -> bool:
        return not any(p.hidden for p in self.history)

    @property
    def title(self) -> str:
        return engines.get(self.game).title

    def pairs(self) -> list[tuple[int, str]]:
        return [(p.seat, p.move) for p in self.history]


# ----- writing ------------------------------------------------------------------------------


def to_json(record: GameRecord) -> str:
    data = {
        "format": FORMAT, "version": VERSION, "game": record.game, "title": record.title,
        "source": record.source, "date": _iso(record.date),
        "players": [{"seat": s, "name": record.names[s], "side": _at(record.sides, s)}
                    for s in range(record.players)],
        "options": record.options, "seed": record.seed, "seed_sha256": record.commitment,
        "origin": record.origin, "complete": record.complete,
        "history": [{"ply": i, "seat": p.seat, "move": p.move, "at": p.at, **({"hidden": True} if p.hidden else {})}
                    for i, p in enumerate(record.history)],
        "outcome": record.outcome,
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def to_text(record: GameRecord) -> str:
    """Tag lines, then one numbered line per ply: ``12. [2] Orange: c3xe5``, dice as ``[dice]``."""
    variant = ", ".join(f"{k}={_option_text(v)}" for k, v in record.options.items()) or "standard"
    players = " vs ".join(f"{record.names[s]} ({_at(record.sides, s) or f'seat {s + 1}'})"
                          for s in range(record.players))
    tags = [("Game", record.game), ("Title", record.title), ("Variant", variant), ("Players", players)]
    tags += [(f"Seat{s + 1}", record.names[s]) for s in range(record.players)]
    tags += [("Date", _iso(record.date)[:10].replace("-", ".") if record.date else "????.??.??"),
             ("Result", _result(record)), ("Source", record.source)]
    if record.outcome:
        tags.append(("Termination", str(record.outcome.get("reason", ""))))
    tags.append(("Seed", record.seed) if record.seed else ("SeedSHA256", record.commitment or "-"))
    if record.origin:
        tags.append(("Origin", f"{record.origin['source']} after move {record.origin['move']}"))
        tags.append(("OriginPlies", str(record.origin["plies"])))
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags if value is not None]
    lines.append("")
    for i, ply in enumerate(record.history, start=1):
        who = "[dice]" if ply.seat == CHANCE else f"[{ply.seat + 1}] {_at(record.sides, ply.seat)}".rstrip()
        move = f"{HIDDEN_MARK}{ply.move}" if ply.hidden else ply.move
        lines.append(f"{i}. {who}: {move}")
    lines.append(_result(record))
    return "\n".join(lines) + "\n"


def _at(items: list[str], index: int) -> str:
    return items[index] if 0 <= index < len(items) else ""


def _iso(when: float | None) -> str:
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if when else ""


def _option_text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


TWO_PLAYER_RESULTS = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}
"""A two-player text record's result and the ranks it stands for: written by ``_result``, read by ``_stated``."""


def _result(record: GameRecord) -> str:
    if not record.outcome:
        return "*"
    ranks = tuple(record.outcome.get("ranks", []))
    if len(ranks) == 2:
        return next((text for text, two in TWO_PLAYER_RESULTS.items() if two == ranks), "*")
    return "ranks " + " ".join(str(r) for r in ranks)


# ----- reading ------------------------------------------------------------------------------


def read(data: bytes, game: str) -> GameRecord:
    """Our JSON or text record of ``game``, checked field by field and replayed through the rules."""
    if len(data) > MAX_RECORD_BYTES:
        raise HostError(f"That file is too large for a game record (at most {MAX_RECORD_BYTES // 1000} kB).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HostError("That record cannot be read: it is not UTF-8 text.") from None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        record = from_json(stripped, game)
    elif stripped.startswith("["):
        record = from_text(stripped, game)
    else:
        raise HostError("That record cannot be read: expected our JSON export or text record "
                        "(from /<game> export).")
    check(record)
    return record


MAX_WHY = 300
"""Characters of a reason shown to the importer; a longer one (20,000 unknown options) is cut and logged whole."""


def _fail(why: str) -> HostError:
    if len(why) > MAX_WHY:
        log.info("record refused: %s", why)
        why = why[:MAX_WHY - 1] + "…"
    return HostError(f"That record cannot be replayed: {why.rstrip('.')}.")  # a rule's reason may end in its own "."


def from_json(text: str, game: str) -> GameRecord:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise _fail(f"it is not valid JSON ({error})") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int_max_str_digits)
        raise _fail("it holds a number too long to read (over 4,300 digits)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(f"it is not a {FORMAT} (the JSON from /<game> export)")
    if data.get("version") != VERSION:
        raise _fail(f"record version {data.get('version')!r} is not {VERSION}")
    _require_game(data.get("game"), game)
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise _fail("it has no players")
    names, sides = [], []
    for i, entry in enumerate(players):
        if not isinstance(entry, dict) or entry.get("seat") != i:
            raise _fail(f"player {i + 1} is not seat {i}")
        names.append(_name(entry.get("name"), i))
        sides.append(str(entry.get("side") or "")[:MAX_NAME_CHARS])
    history = data.get("history")
    if not isinstance(history, list) or len(history) > MAX_PLIES:
        raise _fail(f"its history must be a list of at most {MAX_PLIES} plies")
    plies = [_ply(entry, i, len(players)) for i, entry in enumerate(history)]
    options = data.get("options") if data.get("options") is not None else {}
    if not isinstance(options, dict):
        raise _fail("its options are not an object")
    outcome = data.get("outcome")
    if outcome is not None and not isinstance(outcome, dict):
        raise _fail("its outcome is not an object")
    return GameRecord(game=game, players=len(players), options=options, names=names, sides=sides, history=plies,
                      seed=_hex(data.get("seed"), "seed"), commitment=_hex(data.get("seed_sha256"), "seed_sha256"),
                      outcome=outcome, date=_date(data.get("date")), source=str(data.get("source") or "")[:100],
                      origin=_origin(data.get("origin")))


def from_text(text: str, game: str) -> GameRecord:
    tags: dict[str, str] = {}
    plies: list[Ply] = []
    ended: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line == "*" or line in TWO_PLAYER_RESULTS or line.startswith("ranks "):
            ended = line
            continue
        if (tag := TAG_RE.match(line)) is not None:
            tags[tag.group(1)] = re.sub(r"\\(.)", r"\1", tag.group(2))
            continue
        move = MOVE_RE.match(line)
        if move is None:
            raise _fail(f"line {number} is neither a tag nor a numbered move: {line[:60]!r}")
        if int(move.group(1)) != len(plies) + 1:
            raise _fail(f"line {number} is move {move.group(1)}, expected {len(plies) + 1}")
        who, body = move.group(2), move.group(3).strip()
        seat = CHANCE if who == "dice" else int(who) - 1
        hidden = body.startswith(HIDDEN_MARK.strip())
        plies.append(_ply({"seat": seat, "move": body.removeprefix(HIDDEN_MARK) if hidden else body,
                           "hidden": hidden}, len(plies), MAX_PLIES))
        if len(plies) > MAX_PLIES:
            raise _fail(f"it has more than {MAX_PLIES} plies")
    _require_game(tags.get("Game"), game)
    names = []
    while f"Seat{len(names) + 1}" in tags:
        names.append(_name(tags[f"Seat{len(names) + 1}"], len(names)))
    if not names:
        raise _fail("it has no Seat1, Seat2 ... tags")
    if any(p.seat >= len(names) for p in plies):
        raise _fail("a move is played by a seat that has no Seat tag")
    options: dict[str, Any] = {}
    variant = tags.get("Variant", "standard")
    if variant != "standard":
        for part in variant.split(","):
            key, eq, value = part.strip().partition("=")
            if not eq:
                raise _fail(f"the Variant tag part {part.strip()!r} is not name=value")
            options[key.strip()] = value.strip()
    origin = None
    if "OriginPlies" in tags:
        if not tags["OriginPlies"].isdigit():
            raise _fail("the OriginPlies tag is not a number")
        where = ORIGIN_RE.fullmatch(tags.get("Origin", ""))
        if where is None:
            raise _fail('its Origin tag is not "<source> after move <n>"')
        origin = {"source": where.group(1)[:100], "move": int(where.group(2)), "plies": int(tags["OriginPlies"])}
    date = None
    if re.fullmatch(r"\d{4}\.\d\d\.\d\d", tags.get("Date", "")):
        date = datetime.strptime(tags["Date"], "%Y.%m.%d").replace(tzinfo=UTC).timestamp()
    return GameRecord(game=game, players=len(names), options=options, names=names, history=plies,
                      seed=_hex(tags.get("Seed"), "Seed"), commitment=_hex(tags.get("SeedSHA256"), "SeedSHA256"),
                      outcome=_stated(tags.get("Result", "*"), ended, len(names)), date=date,
                      source=tags.get("Source", "")[:100], origin=origin)


def _stated(result: str, ended: str | None, players: int) -> dict[str, Any] | None:
    """The result the text record states (``Result`` tag, and the line after the moves when there is one), as the
    ranks ``check`` compares with the moves' result, like a JSON record's ``outcome``; ``*`` states none."""
    if ended is not None and ended != result:
        raise _fail(f"its Result tag {result!r} is not the result line {ended!r} after its moves")
    if result == "*":
        return None
    if result in TWO_PLAYER_RESULTS and players == 2:
        return {"ranks": list(TWO_PLAYER_RESULTS[result])}
    words = result.split()
    if len(words) == players + 1 and words[0] == "ranks" and all(w.isdigit() and len(w) < 3 for w in words[1:]):
        return {"ranks": [int(w) for w in words[1:]]}
    raise _fail(f"its Result tag {result[:20]!r} is not 1-0, 0-1, 1/2-1/2, ranks … for each of its {players} seats, "
                "or *")


def _require_game(named: Any, game: str) -> None:
    if named == game:
        return
    if isinstance(named, str) and named in engines.GAMES:
        raise _fail(f"it is a {engines.get(named).title} record; use /{named} import")
    raise _fail(f"it does not say it is a {engines.get(game).title} record")


def _name(value: Any, seat: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"seat {seat + 1} has no name")
    return value.strip()[:MAX_NAME_CHARS]


def _ply(entry: Any, index: int, players: int) -> Ply:
    if not isinstance(entry, dict):
        raise _fail(f"ply {index + 1} is not an object")
    seat, move, at = entry.get("seat"), entry.get("move"), entry.get("at")
    if not isinstance(seat, int) or isinstance(seat, bool) or not CHANCE <= seat < players:
        raise _fail(f"ply {index + 1} has no valid seat")
    if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE_CHARS or "\n" in move:
        raise _fail(f"ply {index + 1} has no valid move text")
    if at is not None and (not isinstance(at, int | float) or isinstance(at, bool)):
        raise _fail(f"ply {index + 1} has a bad time")
    return Ply(seat, move, float(at) if at is not None else None, bool(entry.get("hidden", False)))


def _hex(value: Any, what: str) -> str | None:
    if value in (None, "", "-"):
        return None
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{16,128}", value):
        raise _fail(f"its {what} is not a hex string")
    return value


def _date(value: Any) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        raise _fail("its date is not like 2026-01-31T12:00:00Z") from None


def _origin(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("plies"), int) or value["plies"] < 0:
        raise _fail("its origin must say how many plies came from the other game")
    return {"source": str(value.get("source", ""))[:100], "move": int(value.get("move") or 0),
            "plies": value["plies"]}


def check(record: GameRecord) -> Game:
    """Replay the record through the rules; refuse secrets left out, bad dice or a wrong result."""
    if not record.complete:
        raise _fail("it is the public view of a game in progress, without its secret moves; "
                    "export it again once the game is over")
    cls = engines.get(record.game)
    try:
        game = cls.new(record.players, record.options)
    except ValueError as error:
        raise _fail(str(error)) from None
    record.options = dict(game.options)
    for i, (seat, text) in enumerate(record.pairs(), start=1):
        try:
            game.apply_record(seat, text)
        except (IllegalMove, ValueError) as error:
            raise _fail(f"move {i} ({text!r}) is not legal there: {error}") from None
    if record.seed is not None:
        if record.commitment is not None and dice.commitment(record.seed) != record.commitment:
            raise _fail("its seed does not match its SHA-256")
        wrong = dice.verify(cls.new(record.players, record.options), record.pairs(), record.seed,
                            first=(record.origin or {}).get("plies", 0))
        if wrong:
            raise _fail(f"its dice do not match its seed ({wrong[0]})")
    outcome = game.outcome()
    if record.outcome is not None and (outcome is None or list(outcome.ranks) != record.outcome.get("ranks")):
        raise _fail("its result is not the one its moves lead to")
    record.outcome = outcome.to_dict() if outcome else None
    if record.outcome and record.source == boardspace.SOURCE and boardspace.ended_by_record(game):  # type: ignore[arg-type]
        record.outcome["reason"] = boardspace.from_record(record.outcome["reason"])  # as its import said
    record.sides = [game.seat_name(s) for s in range(record.players)]
    return game
