"""Caption and refusal texts that say what happened, so the host's service code stays about the rules of hosting.

Everything here is public: what a move did comes from the engine's ``describe`` of the position
before it, and only for moves whose ``announce`` hides nothing.
"""

from __future__ import annotations

from data.store import GameRow
from engines import CHANCE, Game
from engines.base import META_MOVES
from host.play import bots

STATUS_SAID = {"challenge": "is still waiting for players", "finished": "is over", "aborted": "was aborted",
               "declined": "was declined"}
MAX_CAPTION = 2000


def other_game(what: str, title: str, game: str) -> str:
    """A command of one game used on another game (a record, a thread): the commands that fit it."""
    return f"{what} is a {title} game: use the /{game} commands for it."


def mention(user_id: int | None) -> str:
    """A player as the channel shows them: an AI seat by its name, a person by a mention."""
    return bots.mention(user_id) if user_id is not None else "an open seat"


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, with an ellipsis when cut (echoed input must not flood a reply)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit(text: str) -> str:
    """A caption inside Discord's 2,000 characters: whole lines kept from the end, where the news is."""
    if len(text) <= MAX_CAPTION:
        return text
    lines = text.split("\n")
    kept: list[str] = []
    for line in reversed(lines):
        if sum(len(k) + 1 for k in kept) + len(line) + 2 > MAX_CAPTION:
            break
        kept.insert(0, line)
    return "\n".join(["…", *kept]) if kept else clip(text, MAX_CAPTION)


def _name(row: GameRow, game: Game, seat: int) -> str:
    return f"{game.seat_name(seat)} ({mention(row.user_at(seat))})"


def not_your_turn(row: GameRow, game: Game, seats: list[int], *, short: bool = False) -> str:
    """Why this player cannot move now: they left the game, already chose in secret, or it is someone else's turn."""
    gone = [text for seat, text in game.history if seat in seats and text in ("resign", "timeout")]
    if all(s in game.eliminated for s in seats):
        how = {"resign": "You resigned from", "timeout": "You ran out of time in"}.get(
            gone[-1] if gone else "", "Your team left")  # a partner's resignation takes the whole team out
        return f"{how} this game; it goes on without you" + ("" if short else ".")
    waiting = sorted(s for s in game.to_move() if s != CHANCE)
    names = ", ".join(_name(row, game, s) for s in waiting) or "the dice"
    if game.hidden_information and _chose_in_secret(game, seats):
        return f"Already chosen in secret: waiting for {names}" if short else \
            f"You have already made your secret choice; waiting for {names}."
    return f"Not your turn: waiting for {names}" if short else f"It is not your turn; waiting for {names}."


def _chose_in_secret(game: Game, seats: list[int]) -> bool:
    """The player's last act was a hidden choice and nobody has made a public move since.

    A hidden choice is a move whose announcement hides all of it (a Zodiac pick or king), not one that
    only hides a detail (an ink square: ``Octopus b2 ink`` still starts the move)."""
    for seat, text in reversed(game.history):
        if seat == CHANCE or text in META_MOVES:
            continue
        secret = not text.startswith(game.announce(seat, text))
        if seat in seats:
            return secret
        if not secret:
            return False
    return False


def played(game: Game, before: Game | None, seat: int, move: str) -> str:
    """`move` and what it did (tiles destroyed, marbles or pieces taken), told from the position before it."""
    shown = game.announce(seat, move)
    if shown != move or before is None:
        return f"`{shown}`"
    try:
        described = before.describe(seat, move)
    except Exception:  # a label is a nicety: never let it cost the move's report
        described = move
    if described == move:
        return f"`{move}`"
    if described.startswith(move):
        return f"`{move}`{described[len(move):]}"
    return f"`{move}` — {described}"


def revealed(row: GameRow, game: Game, before: Game | None) -> list[str]:
    """Secrets the move made public: both Zodiac side-duel picks once the second is in."""
    if before is None or not game.hidden_information:
        return []
    now = (game.observation(None).get("duel") or {}).get("rounds") or []
    then = (before.observation(None).get("duel") or {}).get("rounds") or []
    if len(now) <= len(then):
        return []
    picks = ", ".join(f"{_name(row, game, s)} picked {pick}" for s, pick in enumerate(now[-1]))
    return [f"⚔️ Side duel, round {len(now)}: {picks}."]


def continues_turn(game: Game, applied: list[tuple[int, str]]) -> bool:
    """A step inside a turn of a stepped game, game still on: its message is edited, not repeated.

    A roll the step leads to belongs to the same turn when the same player is still to move after it (a
    Ziggurat Redo rolls a die again); a turn that ended hands the next roll to another player."""
    if not (game.stepped_turns and game.outcome() is None and applied):
        return False
    seat, text = applied[0]
    if seat == CHANCE or text in META_MOVES or any(t in META_MOVES for s, t in applied if s != CHANCE):
        return False
    return all(s in (CHANCE, seat) for s, _ in applied) and seat in game.to_move()


def turn_so_far(row: GameRow, game: Game, before: Game | None = None) -> list[str]:
    """The turn's roll and every step played since, for the message edited in place; the newest step
    also says what it did (``Move: Blue c4 → c7``)."""
    steps: list[tuple[int, str]] = []
    rolls: list[str] = []
    # the turn's steps so far, Redo included, when the engine tells them: a redo's roll does not start a turn
    owed = len(game.observation(None).get("turn_moves") or [])
    for seat, text in reversed(game.history):
        if seat == CHANCE:
            rolls.insert(0, text)
            if len(steps) >= owed:
                break
            continue
        steps.insert(0, (seat, text))
    lines = [f"🎲 {' · then '.join(rolls)}"] if rolls else []
    if steps:
        seat = steps[-1][0]
        shown = [f"`{game.announce(s, t)}`" for s, t in steps[:-1]] + [played(game, before, *steps[-1])]
        moves = ", then ".join(shown)
        lines.append(f"{_name(row, game, seat)} played {moves}")
    return lines


def teams_line(row: GameRow, game: Game) -> str | None:
    """``Teams: Blue <@a> & Green <@c> vs Orange <@b> & Purple 🤖 AI (easy)`` in a team game, else ``None``."""
    teams = game.teams()
    if len(set(teams)) == len(teams):
        return None
    groups: dict[int, list[int]] = {}
    for seat, team in enumerate(teams):
        groups.setdefault(team, []).append(seat)
    return "Teams: " + " vs ".join(" & ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in seats)
                                   for seats in groups.values())


def lobby_teams(row: GameRow, teams: tuple[int, ...]) -> str | None:
    """Who partners whom in a challenge (seat order is only rotated at the start, so teams stay as named)."""
    if len(set(teams)) == len(teams) or len(teams) != len(row.seats):
        return None
    groups: dict[int, list[str]] = {}
    for seat in sorted(row.seats, key=lambda s: s.seat):
        groups.setdefault(teams[seat.seat], []).append(mention(seat.user_id))
    return "Partners: " + " vs ".join(" & ".join(group) for group in groups.values()) + "."
