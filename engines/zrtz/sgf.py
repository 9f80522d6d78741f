"""A linear-time SGF reader for boardspace.net records: nodes of ``(property, value)`` pairs.

The earlier regular expressions backtracked over unclosed values, so a 120 KB upload took seconds
(issue 16). This reader makes one pass: ``str.find`` jumps to each value's end and simple character
classes skip identifiers and spacing, so every character is examined a bounded number of times.
``Tree.work`` counts the characters examined, which the tests use to check the time is linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engines.base import IllegalMove

MAX_RECORD_BYTES = 256 * 1024
"""Refuse larger uploads: boardspace's longest ZÈRTZ records are about 4 KB."""

_IDENT = re.compile(r"[A-Za-z0-9-]+")
_SPACING = re.compile(r"[^;\[A-Za-z0-9-]+")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)

Node = list[tuple[str, str]]


@dataclass
class Tree:
    """The nodes in file order (variations are flattened: boardspace records have none)."""

    nodes: list[Node] = field(default_factory=list)
    work: int = 0
    """Characters examined while reading: at most about twice the text's length."""

    def first(self, ident: str) -> str:
        """The first value of property ``ident`` anywhere in the record, or ``""``."""
        for node in self.nodes:
            for name, value in node:
                if name == ident:
                    return value
        return ""


def tokenize(text: str, tree: Tree | None = None) -> Tree:
    """Read the whole record; raises ``IllegalMove`` for a file too big or a value never closed.

    ``tree``: read into this one, so a caller (the linear-time test) sees the work even after a refusal.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise IllegalMove(f"That file is too big for a ZÈRTZ record (over {MAX_RECORD_BYTES // 1024} KB).")
    tree = tree if tree is not None else Tree()
    node: Node | None = None
    ident = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            node = []
            tree.nodes.append(node)
            ident = ""
            i += 1
            tree.work += 1
        elif ch == "[":
            end = _value_end(text, i + 1, tree)
            if node is None or not ident:
                raise IllegalMove(f"This is not an SGF record: a value without a property at character {i}.")
            raw = text[i + 1:end]
            node.append((ident, _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw))
            i = end + 1
        else:
            match = _IDENT.match(text, i) or _SPACING.match(text, i)
            assert match is not None  # every character is in one of the two classes
            if match.re is _IDENT:
                ident = match.group()
            i = match.end()
            tree.work += match.end() - match.start()
    return tree


def _value_end(text: str, start: int, tree: Tree) -> int:
    """Index of the ``]`` closing a value that starts at ``start`` (``\\]`` is an escaped bracket)."""
    pos = start
    while True:
        end = text.find("]", pos)
        if end < 0:
            tree.work += len(text) - pos
            raise IllegalMove(f"The record is cut off: a value opened at character {start - 1} is never closed.")
        tree.work += end + 1 - pos
        slashes = 0
        while end - slashes - 1 >= start and text[end - slashes - 1] == "\\":
            slashes += 1
        tree.work += slashes
        if slashes % 2 == 0:
            return end
        pos = end + 1
