"""Worked examples for ``/<game> rules``: a short scripted game, its picture, and the moves explained.

Each script is replayed through the engine (so a rule change that breaks it fails a test, not a
player), and the position it reaches is drawn by the game's own renderer from a spectator's view.
Discord-free: the cog only attaches what ``lesson`` returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import engines
import render
from engines import CHANCE

Step = tuple[int, str, str]
"""(seat, move as typed, what it shows); seat ``CHANCE`` for a roll of the dice."""


@dataclass(frozen=True)
class Script:
    players: int
    options: dict[str, Any]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Lesson:
    image: bytes
    filename: str
    text: str
    """The moves in notation, one line each with what they show (Markdown, under 1,024 characters)."""


SCRIPTS: dict[str, Script] = {
    "zarathustra": Script(2, {}, (
        (0, "c3 o...", "a tile on c3, edges clockwise from the top: a shield up, three blanks"),
        (1, "a1 o...", "Orange may not play next to c3 (the skulls), so goes far away"),
        (0, "e5 .xo.", "a sword to the right, a shield down"),
        (1, "d3 ...x", "a sword on the left edge meets c3's blank edge: Blue's c3 is destroyed"),
    )),
    "zaic": Script(2, {}, (
        (0, "2x2 h8", "the first tile always goes on h8; it covers h8 i8 h9 i9"),
        (1, "2x1 j8 v", "a 2x1 upright from j8 (covers j8 j9); a tile on the table must touch another tile"),
        (0, "2x1 i8 h", "on top: lying flat on i8 j8, covering a Dark square; Light's area is now 5"),
        (1, "1x1 k8", "j9 and k8 touch only at a corner, so Dark's largest area is 1"),
    )),
    "zrtz": Script(2, {}, (
        (0, "wd4 a1", "a white marble on d4, then the free ring a1 is removed"),
        (1, "gd3 a2", "a grey marble on d3, next to d4, and a2 is removed"),
        (0, "d4xd2", "a capture is compulsory: d4 jumps d3 and lands on d2; Blue keeps the grey marble"),
    )),
    "zodiac": Script(2, {}, (
        (0, "pick Tree", ""),
        (1, "pick Wolf", "the secret side duel: Tree beats Wolf"),
        (0, "light", "the winner takes Light and moves first"),
        (0, "king Bear", ""),
        (1, "king Goat", ("each king is chosen in secret: here Light's is the Bear and Dark's the Goat, but the board"
                           " never marks a king before the game ends")),
        (0, "Wolf b1", ""), (1, "Bear c8", ""), (0, "Bear c1", ""), (1, "Wolf b8", ""), (0, "Crane a1", ""),
        (1, "Frog a8", ""), (0, "Penguin d1", ""), (1, "Goat d8", ""), (0, "Snake e1", ""),
        (1, "Rhino e8", "the pieces go on the back ranks one at a time, each king among them"),
        (0, "Wolf b1-c3", "the wolf jumps like a knight"),
        (1, "Goat d8-d7", "Dark's secret king steps forward"),
    )),
    "ziggurat": Script(2, {}, (
        (CHANCE, "roll 3 tip", "Blue rolls 3 and Tip"),
        (0, "move start", "the top piece leaves Blue's Start Station and must stop at the corner a1"),
        (0, "end", "Blue ends the turn without using the Tip"),
        (CHANCE, "roll 2 aim", "Green rolls 2 and Aim"),
        (1, "aim start", "Aim: 2 + 1 squares, ignoring corners and walls, to f8"),
        (CHANCE, "roll 6 hop", "Blue rolls 6 and Hop"),
        (0, "hop a1", "Hop: 6 + 1 squares, jumping any pieces, from a1 to h1"),
    )),
}


def play_script(game: str) -> engines.Game:
    """The position the example reaches; every step must be legal (``IllegalMove`` otherwise)."""
    script = SCRIPTS[game]
    state = engines.get(game).new(script.players, script.options)
    for seat, move, _ in script.steps:
        state.play(seat, move)
    return state


def explain(game: str) -> str:
    """The explained moves: who played what, in the notation players type."""
    state = engines.get(game).new(SCRIPTS[game].players, SCRIPTS[game].options)
    lines: list[str] = []
    group: list[str] = []
    for seat, move, note in SCRIPTS[game].steps:
        who = "🎲" if seat == CHANCE else state.seat_name(seat)
        state.play(seat, move)
        group.append(f"{who} `{move}`")
        if note:  # a note explains the steps since the last note
            lines.append(f"{', '.join(group)}: {note}.")
            group = []
    return "\n".join(lines)


@cache
def _cached(game: str) -> Lesson:
    return _build(game, render.render)


def _build(game: str, renderer: Callable[[dict[str, Any]], bytes]) -> Lesson:
    state = play_script(game)
    return Lesson(image=renderer(state.observation(None)), filename=f"{game}-example.png", text=explain(game))


def lesson(game: str, renderer: Callable[[dict[str, Any]], bytes] | None = None) -> Lesson:
    """The example for ``game``: a picture of the scripted position and its moves explained.
    The default renderer's result is cached (it never changes while the bot runs)."""
    return _cached(game) if renderer is None else _build(game, renderer)
