"""A linear-time SGF reader for boardspace.net records: nodes of ``(property, value)`` pairs.

The earlier regular expressions backtracked over unclosed values, so a 120 KB upload took seconds
(issue 16). This reader makes one pass: ``str.find`` jumps to each value's start and end, so every
character is examined a bounded number of times.
``Tree.work`` counts the characters examined, which the tests use to check the time is linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engines.base import IllegalMove

MAX_RECORD_BYTES = 256 * 1024
"""Refuse larger uploads: boardspace's longest ZÈRTZ records are about 4 KB."""

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
    Each round takes the text up to the next ``[`` (node starts and the property name) and then the
    value up to its ``]``; both are found by ``str.find``, so no character is scanned twice.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise IllegalMove(f"That file is too big for a ZÈRTZ record (over {MAX_RECORD_BYTES // 1024} KB).")
    tree = tree if tree is not None else Tree()
    node: Node | None = None
    ident = ""
    pos, n = 0, len(text)
    while pos < n:
        start = text.find("[", pos)
        between = text[pos:start if start >= 0 else n]
        tree.work += len(between)
        if ";" in between:
            for _ in range(between.count(";")):
                node = []
                tree.nodes.append(node)
            between = between[between.rindex(";") + 1:]
            ident = ""
        ident = _last_ident(between, tree) or ident
        if start < 0:
            break
        end = _value_end(text, start + 1, tree)
        if node is None or not ident:
            raise IllegalMove(f"This is not an SGF record: a value without a property at character {start}.")
        raw = text[start + 1:end]
        node.append((ident, _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw))
        pos = end + 1
    return tree


def _is_ident(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "-")


def _last_ident(text: str, tree: Tree) -> str:
    """The last property name in ``text`` (letters, digits, ``-``), skipping what follows it."""
    word = text.strip()
    if word.isascii() and word.replace("-", "").isalnum():  # the usual case: just the name
        tree.work += len(word)
        return word
    end = len(text)
    while end and not _is_ident(text[end - 1]):
        end -= 1
    begin = end
    while begin and _is_ident(text[begin - 1]):
        begin -= 1
    tree.work += len(text) - begin
    return text[begin:end]


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
