"""Write a ZÈRTZ game as a boardspace.net SGF record, the steps boardspace's own reader replays.

Each of our moves becomes boardspace interface steps, numbered like modern boardspace records:
a placement is ``RtoB <rack> <colour> <col> <row>`` (rack 2 is the pool, 0/1 a player's captures)
then ``R- <col> <row>`` and ``Done``; a capture is one ``BtoB`` per hop and ``Done``; a resignation
is ``Resign``. ``Start P0`` says seat 0 moved first. Boardspace has no Blitz board, no pass, no
timeout and no agreed draw as moves: Blitz and passes are refused, a timeout or draw ends the
moves and the result line says how the game ended.
"""

from __future__ import annotations

import re
from itertools import pairwise

from engines.base import CHANCE
from engines.zrtz.board import SUBVARIANTS
from engines.zrtz.game import COLOURS, Zrtz

SU_NAMES = {rings: name for name, rings in SUBVARIANTS.items()}
CELL_RE = re.compile(r"([a-i])(\d{1,2})")
SGF_UNSAFE = re.compile(r'[\]\["\\\n\r]')


def _cell(name: str) -> str:
    match = CELL_RE.fullmatch(name)
    if match is None:
        raise ValueError(f"not a ring name: {name!r}")
    return f"{match.group(1).upper()} {match.group(2)}"


def _clean(name: str) -> str:
    """Names go inside ``id "..."`` in a bracketed property: no brackets, quotes or new lines."""
    return SGF_UNSAFE.sub("", name).strip()[:40] or "player"


def to_sgf(game: Zrtz, names: tuple[str, str]) -> str:
    """The boardspace SGF of ``game`` (its whole history); ``names`` are seat 0's and seat 1's."""
    if game.options.get("blitz"):
        raise ValueError("boardspace has no Blitz board, so a Blitz game has no boardspace record")
    clean = (_clean(names[0]), _clean(names[1]))
    steps: list[tuple[int, str]] = [(0, "Start P0")]
    trial = Zrtz.new(2, dict(game.options))
    for seat, text in game.history:
        if seat == CHANCE:
            raise ValueError("ZÈRTZ has no dice")
        if text in ("timeout", "draw"):
            break
        if text == "resign":
            steps.append((seat, "Resign"))
            break
        if text == "pass":
            raise ValueError("boardspace records cannot hold a pass")
        cells = CELL_RE.findall(text)
        if "x" in text:
            names_only = [f"{c}{r}" for c, r in cells]
            steps += [(seat, f"BtoB {_cell(a)} {_cell(b)}") for a, b in pairwise(names_only)]
        else:
            rack = 2 if any(trial.pool) else seat
            steps.append((seat, f"RtoB {rack} {COLOURS.index(text[0])} {_cell(''.join(cells[0]))}"))
            if len(cells) > 1:
                steps.append((seat, f"R- {_cell(''.join(cells[1]))}"))
        steps.append((seat, "Done "))
        trial.apply_record(seat, text)
    outcome = game.outcome()
    if outcome is None:
        result = ""
    elif outcome.is_draw:
        result = "Draw"
    else:
        result = f"Game won by {clean[min(outcome.winners)]}"
    lines = ["(;", "GM[22]VV[2]", f"SU[{SU_NAMES[game.options['rings']].capitalize()}]",
             f"GN[{clean[0]}-{clean[1]}]", f"RE[{result}]", f'P0[id "{clean[0]}"]', f'P1[id "{clean[1]}"]']
    lines += [f"; P{seat}[{number} {step}]" for number, (seat, step) in enumerate(steps)]
    lines += [")", ""]
    return "\n".join(lines)
