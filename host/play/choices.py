"""Autocomplete that narrows step by step when a prefix matches more moves than Discord can list."""

from __future__ import annotations

from collections.abc import Callable

MAX_CHOICES = 25


def narrow(moves: list[str], typed: str, describe: Callable[[str], str]) -> list[tuple[str, str]]:
    """(label, value) pairs: the matching moves, or, when too many, groups of them to narrow into.

    Groups follow the notation's words where they fit (Zaic: size → square → orientation, so ``h1``
    never drowns in ``h10``'s moves), else the longest common starts that fit (ZÈRTZ ``wd`` … for
    111 colour-and-ring words). A group of one move is offered as that whole move.
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
    choices = []
    for stem, members in list(_groups(starting, wanted).items())[:MAX_CHOICES]:
        if len(members) == 1:
            choices.append((describe(members[0])[:100], members[0]))
        else:
            choices.append((f"{stem} … ({len(members)} moves)", stem))
    return choices


def _groups(moves: list[str], wanted: str) -> dict[str, list[str]]:
    """The moves grouped by their next word, or by the longest starts that still fit in one list."""
    depth = len(wanted.split())
    while True:
        by_word = _group_by(moves, lambda m, d=depth: " ".join(m.split()[:d]))
        if len(by_word) > 1 or all(len(m.split()) <= depth for m in moves):
            break
        depth += 1
    if len(by_word) <= MAX_CHOICES:
        return by_word
    fitting = by_word
    for length in range(len(wanted) + 1, max(len(m) for m in moves) + 1):
        by_start = _group_by(moves, lambda m, n=length: m[:n])
        if len(by_start) > MAX_CHOICES:
            break
        if len(by_start) > 1:
            fitting = by_start
    return fitting


def _group_by(moves: list[str], key: Callable[[str], str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for move in moves:
        groups.setdefault(key(move), []).append(move)
    return groups

