"""Autocomplete that narrows word by word when a prefix matches more moves than Discord can list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

MAX_CHOICES = 25


def narrow(moves: list[str], typed: str, describe: Callable[[str], str]) -> list[tuple[str, str]]:
    """(label, value) pairs: the matching moves, or, when too many, their distinct next words.

    Typing ``2x1`` in Zaic then offers ``2x1 h8``, ``2x1 i8`` ... with a count each, so a player
    walks size → square → orientation; ``h1`` never drowns in ``h10``'s moves.
    """
    wanted = " ".join(typed.lower().split())
    if wanted and typed[-1:].isspace():
        wanted += " "  # a finished word: ``h1 `` must not match ``h10``
    starting = [m for m in moves if m.lower().startswith(wanted)]
    inside = [m for m in moves if wanted in m.lower() and not m.lower().startswith(wanted)]
    if len(starting) + len(inside) <= MAX_CHOICES:
        return [(describe(m)[:100], m) for m in starting + inside]
    if not starting:
        return [(describe(m)[:100], m) for m in inside[:MAX_CHOICES]]
    depth = len(wanted.split())
    while True:
        stems = Counter(" ".join(m.split()[:depth]) for m in starting)
        if len(stems) > 1 or all(len(m.split()) <= depth for m in starting):
            break
        depth += 1
    if len(stems) <= 1:
        return [(describe(m)[:100], m) for m in starting[:MAX_CHOICES]]
    choices = []
    for stem, count in list(stems.items())[:MAX_CHOICES]:
        label = describe(stem)[:100] if stem in moves and count == 1 else f"{stem} … ({count} moves)"
        choices.append((label, stem))
    return choices
