"""Quoting a player's input back in an ``IllegalMove`` message, kept short.

A refusal that repeats a pasted wall of text could exceed Discord's 2,000-character limit and then
reach nobody, so every echo goes through ``quote``.
"""

from __future__ import annotations

ECHO_LIMIT = 100
"""At most this many characters of the player's input are shown back."""


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """The stripped text, cut to ``limit`` characters with an ellipsis when longer."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(text: str, limit: int = ECHO_LIMIT) -> str:
    """``'text'`` as Python's repr would show it, but clipped (the ellipsis inside the quotes)."""
    return repr(clip(text, limit))
