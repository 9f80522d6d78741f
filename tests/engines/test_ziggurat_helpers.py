"""Position builders for the Ziggurat rules tests: place stacks and dice directly, then play moves."""

from __future__ import annotations

from engines.ziggurat import Ziggurat
from engines.ziggurat.board import LAYOUT, STATIONS, parse_square

LETTERS = {lay.letter: c for c, lay in enumerate(LAYOUT)}


def pieces(text: str) -> list[int]:
    """``"BOg"``: Blue drone, Orange drone, Green Queen (lower case), bottom to top."""
    return [LETTERS[ch.upper()] + (4 if ch.islower() else 0) for ch in text]


def loc(where: str) -> int:
    if where.startswith("start:"):
        return STATIONS[LETTERS[where[6:]]]
    square = parse_square(where)
    assert square is not None, where
    return square


def position(stacks: dict[str, str], movement: int | None = None, action: str | None = None, colour: str = "B",
             players: int = 4, **options: object) -> Ziggurat:
    """A game in the middle of ``colour``'s turn with the given stacks and unused dice.

    Stations not named are emptied, so every piece on the board is one the test put there."""
    game = Ziggurat.new(players, options)
    game.board = [[] for _ in range(100)]
    for where, text in stacks.items():
        game.board[loc(where)] = pieces(text)
    game.index = game.colours.index(LETTERS[colour])
    game.phase = "act"
    game.movement = movement
    game.action = action
    game.rolled = {"movement": [movement] if movement else [], "action": [action] if action else []}
    game._cache = None
    return game


def stacks(game: Ziggurat) -> dict[str, str]:
    """The inverse of ``position``: every non-empty location as a letter string."""
    out = {}
    for where, tokens in game.observation(None)["board"].items():
        out[where] = "".join(t[0] if len(t) == 1 else t[0].lower() for t in tokens)
    for colour, tokens in game.observation(None)["stations"].items():
        if tokens:
            out[f"start:{colour[0]}"] = "".join(t[0] if len(t) == 1 else t[0].lower() for t in tokens)
    return out
