"""Words for players: why a move is refused, autocomplete labels and the status caption."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.text import quote
from engines.ziggurat import rules
from engines.ziggurat.board import (
    DIRECTIONS,
    GOALS,
    LAYOUT,
    LEVEL,
    STATIONS,
    is_number,
    name,
    on_board,
    parse_square,
    sq,
    xy,
)

if TYPE_CHECKING:
    from engines.ziggurat.game import Ziggurat

VERBS = ("move", "aim", "hop", "leap", "tip", "swap", "dig", "redo", "end", "queen")


def now_you_can(game: Ziggurat) -> str:
    """One example of each kind of move legal right now: short, and only what this step allows."""
    examples: dict[str, str] = {}
    for move in sorted(game.effects()):
        examples.setdefault(move.split()[0], move)
    shown = [examples[v] for v in VERBS if v in examples] + ["end"]
    return f"Now you can play, e.g.: {', '.join(shown)}."


def piece_name(piece: int) -> str:
    return LAYOUT[piece & 3].name + (" Queen" if piece >= 4 else "")


def _loc(game: Ziggurat, word: str) -> int | None:
    if word in ("start", "station"):
        return STATIONS[game.colour]
    return parse_square(word)


def why_not(game: Ziggurat, words: list[str], text: str) -> str:
    """A specific reason when one is easy to name, else the legal moves that start the same way."""
    if not words or words[0] not in VERBS:
        return f"{quote(text)} is not a Ziggurat move. {now_you_can(game)}"
    verb = words[0]
    if verb == "end":
        return "Write just `end` to finish your turn."
    me = LAYOUT[game.colour].name
    actions = game.action_choices()
    if verb == "queen":
        if not game.queens:
            return "This game is played without Queens (the queen option is off)."
        return "The Queens were placed at the start of the game."
    if verb in ("move", "aim", "hop") and game.movement is None:
        return "The movement die is already used (or was not rolled) this turn."
    if verb != "move" and verb not in actions:
        rolled = game.action or "nothing"
        if game.action is None:
            return f"The action die is already used (or blank) this turn, so no {verb.capitalize()}."
        if game.action == "wild":
            why = "this die has no " + verb.capitalize() if verb in ("leap", "redo") and "leap" not in game.faces \
                else "not after a Redo, nor with the wild_redo option off"
            return f"The Wild cannot stand for {verb.capitalize()} here ({why})."
        return f"The action die shows {rolled.capitalize()}, not {verb.capitalize()}."
    for word in words[1:]:
        if len(word) == 2 and word[0].isalpha() and word[1].isdigit() and parse_square(word) is None:
            return f"{word} is not a square (files a-h, ranks 1-8)."
    shape = _shape_error(words)
    if shape:
        return shape
    loc = _loc(game, words[1]) if len(words) > 1 else None
    if verb in ("move", "aim", "hop", "leap") and loc is not None:
        return _why_not_moving(game, words, verb, loc)
    if verb == "tip" and loc == STATIONS[game.colour]:
        return "Your Start Station is empty: nothing to Tip."
    if verb == "tip" and loc is not None:
        if not game.board[loc]:
            return f"{words[1]} is empty: nothing to Tip."
        if loc in GOALS:
            return f"{words[1]} is a Goal Station: pieces there have finished and cannot be Tipped."
        if len(words) > 2 and words[2] in DIRECTIONS and not rules.tip_allowed(loc, words[2]):
            x, y = xy(loc)
            dx, dy = DIRECTIONS[words[2]]
            up = name(sq(x + dx, y + dy)) if on_board(x + dx, y + dy) else "off"
            return (f"Tipping {words[1]} {words[2]} would go uphill ({up} is Level {LEVEL.get(sq(x + dx, y + dy))}, "
                    f"{words[1]} is Level {LEVEL[loc]}).")
        if len(words) > 2 and words[2] in DIRECTIONS:
            return (f"To Tip {words[1]} {words[2]} you need one of your pieces in that stack, your own singleton "
                    f"there tipping itself forward, or your top piece right behind it.")
    if verb == "dig" and loc is not None:
        stack = game.board[loc]
        if not stack or stack[0] & 3 != game.colour:
            return f"Only your bottom piece may Dig, and the bottom of {words[1]} is not {me}."
        return "Dig goes to an adjacent square of the same Level or lower, never into or out of a station."
    if verb == "swap" and loc is not None:
        return _why_not_swapping(game, words, loc)
    if verb == "redo" and words[1:] == ["move"]:
        return "Redo move comes after you have used the movement die."
    same = sorted(m for m in game.effects() if m.split()[:2] == words[:2]) or sorted(
        m for m in game.effects() if m.split()[0] == verb)
    hint = ", ".join(same[:12]) + (" …" if len(same) > 12 else "")
    return f"{quote(text)} is not legal now." + (f" {verb.capitalize()} moves: {hint}." if same else "")


FORMS = {
    "move": "move <square or start>, or move <square> q for a Queen who is not on top",
    "aim": "aim <square or start>", "hop": "hop <square or start>", "leap": "leap <square or start>",
    "tip": "tip <square> <direction> (n ne e se s sw w nw), or tip start",
    "swap": "swap <square> <square> for two top pieces, or swap <square> <n> <m> inside a stack",
    "dig": "dig <from square> <to square>", "redo": "redo move or redo action", "end": "end",
}


def _shape_error(words: list[str]) -> str | None:
    """The move is not even written in its form, e.g. ``tip c2 1 2``."""
    verb, rest = words[0], words[1:]

    def place(word: str) -> bool:
        return word in ("start", "station") or parse_square(word) is not None

    ok = {
        "move": len(rest) in (1, 2) and place(rest[0]) and rest[1:] in ([], ["q"]),
        "aim": len(rest) in (1, 2) and place(rest[0]) and rest[1:] in ([], ["q"]),
        "hop": len(rest) in (1, 2) and place(rest[0]) and rest[1:] in ([], ["q"]),
        "leap": len(rest) == 1 and place(rest[0]),
        "tip": rest == ["start"] or (len(rest) == 2 and place(rest[0]) and rest[1] in DIRECTIONS),
        "swap": (len(rest) == 2 and all(place(w) for w in rest)) or (
            len(rest) == 3 and place(rest[0]) and is_number(rest[1]) and is_number(rest[2])),
        "dig": len(rest) == 2 and all(place(w) for w in rest),
        "redo": rest in (["move"], ["action"]),
        "end": not rest,
    }
    if verb == "tip" and rest[:1] in (["start"], ["station"]) and len(rest) > 1:
        return "The Start Station stack only tips forward: write tip start."
    if ok.get(verb, True):
        return None
    if verb in ("move", "aim", "hop", "leap") and rest and place(rest[0]) and len(rest) > 1:
        return f"{verb.capitalize()} takes just the square, e.g. `{verb} {rest[0]}`: {FORMS[verb]}."
    return f"{verb.capitalize()} is written: {FORMS[verb]}."


def _why_not_swapping(game: Ziggurat, words: list[str], loc: int) -> str:
    me = LAYOUT[game.colour].name
    stack = game.board[loc]
    if len(words) == 4:
        i, j = int(words[2]) - 1, int(words[3]) - 1
        if len(stack) < 2 or not (0 <= i < len(stack) and 0 <= j < len(stack)) or i == j:
            return f"The stack on {words[1]} has {len(stack)} piece(s): pick two different places, 1 = bottom."
        if loc in GOALS:
            return "Pieces on a Goal Station cannot be swapped."
        if stack[i] & 3 != game.colour and stack[j] & 3 != game.colour:
            return f"One of the two swapped pieces must be {me}."
        return "Those two pieces are the same: swapping them changes nothing."
    other = _loc(game, words[2])
    if other is None:
        return f"{FORMS['swap']}."
    ax, ay = xy(loc)
    bx, by = xy(other)
    if max(abs(ax - bx), abs(ay - by)) != 1:
        return f"{words[1]} and {words[2]} are not neighbours."
    if loc in GOALS or other in GOALS or loc == STATIONS[game.colour] or other == STATIONS[game.colour]:
        return "Pieces on a Start or Goal Station cannot be swapped."
    if not stack or not game.board[other]:
        return "Both squares need a piece to swap."
    if stack[-1] & 3 != game.colour and game.board[other][-1] & 3 != game.colour:
        return f"One of the two top pieces must be {me}."
    return "Those two top pieces are the same: swapping them changes nothing."


def _why_not_moving(game: Ziggurat, words: list[str], verb: str, loc: int) -> str:
    me = LAYOUT[game.colour].name
    stack = game.board[loc]
    where = words[1]
    if loc == GOALS[game.colour]:
        return "Pieces on the Goal Station may only Tip their neighbours."
    if len(words) > 2 and words[2] == "q":
        mine = [k for k, p in enumerate(stack) if p == 4 + game.colour]
        if not mine:
            return f"There is no {me} Queen on {where}."
        if any(p >= 4 for p in stack[mine[0] + 1:]):
            return f"Your Queen on {where} cannot move: another Queen is above her."
        if verb == "leap":
            return "A Queen may not Leap with drones on her."
        if any(p & 3 != game.colour for p in stack[mine[0] + 1:]) and game.movement is not None:
            return f"Your Queen on {where} is carrying another colour's drones and cannot take them onto your Goal."
        return f"Your Queen on {where} cannot advance: she needs 2 movement points a square."
    if not stack or stack[-1] & 3 != game.colour:
        return f"There is no {me} piece on top at {where}."
    if stack[-1] >= 4 and verb != "leap":
        return f"Your Queen on {where} cannot advance: she needs 2 movement points a square."
    if verb == "leap":
        return f"The {me} piece on {where} cannot Leap: the next square is occupied or it is on its wall."
    if verb != "hop" and rules.next_square(game.colour, loc) == GOALS[game.colour]:
        return (f"The {me} piece on {where} cannot go forward: your Goal holds a stack, and only a Hop "
                "stacks onto it.")
    return f"The {me} piece on {where} cannot go forward: the next square holds a stack."


def describe(game: Ziggurat, move: str) -> str:
    """Autocomplete label: the move with where it goes and what it does."""
    if move == "end":
        left = []
        if game.movement is not None:
            left.append(f"{game.movement} movement")
        if game.action is not None:
            left.append(game.action.capitalize())
        return "End the turn" + (f" (unused: {', '.join(left)})" if left else "")
    if move.startswith("roll") or move.startswith("queen"):
        return move
    effect = game.effects().get(move)
    if effect is None:
        return move
    kind = effect[0]
    if kind in ("move", "leap"):
        loc, dest = effect[1], effect[-2] if kind == "move" else effect[2]
        height = effect[2] if kind == "move" else len(game.board[loc]) - 1
        carried = len(game.board[loc]) - height - 1
        who = piece_name(game.board[loc][height]) + (f" carrying {carried}" if carried else "")
        label = {"move": "Move", "aim": "Aim", "hop": "Hop", "leap": "Leap"}[move.split()[0]]
        return f"{label}: {who} {rules.where(game.colour, loc)} → {name(dest)}"
    if kind in ("tip", "tipstart"):
        board = [s[:] for s in game.board]
        landed = rules.apply(board, game.colour, effect)[1:]
        spots = ", ".join("home" if not on_board(*xy(s)) else name(s) for s in landed)
        return f"Tip {move[4:]}: pieces land on {spots}"
    if kind == "dig":
        return f"Dig: {piece_name(game.board[effect[1]][0])} from under {name(effect[1])} to {name(effect[2])}"
    if kind == "swapa":
        a, b = effect[1], effect[2]
        return f"Swap tops: {piece_name(game.board[a][-1])} {name(a)} ↔ {piece_name(game.board[b][-1])} {name(b)}"
    if kind == "swapb":
        stack = game.board[effect[1]]
        return (f"Swap in the stack at {rules.where(game.colour, effect[1])}: {piece_name(stack[effect[2]])} "
                f"(#{effect[2] + 1}) ↔ {piece_name(stack[effect[3]])} (#{effect[3] + 1})")
    if kind == "redo":
        return "Redo: roll the movement die again" if effect[1] == "move" else "Redo: roll the action die again"
    return move


def status(game: Ziggurat) -> str:
    """Round, whose turn, the dice and what is left, pieces home per colour."""
    home = " · ".join(f"{LAYOUT[c].name} {game.home_count(c)}/{game.per_colour}" for c in game.colours)
    me = LAYOUT[game.colour].name
    if game.outcome() is not None:
        return f"Round {game.round} · home: {home}"
    if game.phase == "setup":
        return f"{me} places the Queen · home: {home}"
    rolls = game.roll_texts()
    if game.phase == "roll":
        dice = "rolling" + (f" again (so far {' '.join(rolls)})" if rolls else "")
    else:
        left = [str(game.movement)] if game.movement is not None else []
        left += [game.action.capitalize()] if game.action else []
        dice = f"rolled {' '.join(rolls)}; left: {', '.join(left) or 'nothing'}"
    return f"Round {game.round} · {me} {dice} · home: {home}"
