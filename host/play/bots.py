"""Who the AI players are: one reserved user id per level, so seats, ratings and history need no new columns.

A Discord id is a snowflake, milliseconds since 2015 shifted left by 22 bits; ids just below ``2**22``
(4194301-4194303) would be from the very first millisecond, so no person can have one.
Each level is one player: it may hold several seats of a game (the AI team in Ziggurat partners), and
it has its own rating on every board it played on, like boardspace.net's robots.
"""

from __future__ import annotations

LEVELS = ("easy", "medium", "hard")
DEFAULT_LEVEL = "medium"
"""The level when a player challenges the bot itself as ``opponent``."""
AI_USERS: dict[str, int] = {level: 2**22 - 3 + i for i, level in enumerate(LEVELS)}
HINT_LEVEL = "hard"
TURN_JOB, DRAW_JOB = "ai_turn", "ai_draw"
JOB_KINDS = (TURN_JOB, DRAW_JOB)
"""The AI's durable jobs (host/ai_players/turns.py): a move, an answer to a draw offer. Named here so a shown board can
make them due (``Turns.shown``) without the host importing the AI worker, which builds on it."""


def user_of(level: str) -> int:
    """The reserved user id of an AI level; refuses an unknown level."""
    try:
        return AI_USERS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}") from None


def level_of(user_id: int | None) -> str | None:
    """The level when ``user_id`` is an AI seat, else ``None``."""
    return next((level for level, uid in AI_USERS.items() if uid == user_id), None)


def is_ai(user_id: int | None) -> bool:
    return level_of(user_id) is not None


def name(user_id: int) -> str:
    """How an AI seat is written wherever a person would be mentioned: marked as a bot, with its level."""
    level = level_of(user_id)
    if level is None:
        raise ValueError(f"user {user_id} is not an AI")
    return f"🤖 AI ({level})"


def plain_name(user_id: int) -> str:
    """The name without the emoji, for images (their fonts have no emoji): still marked as a bot."""
    return f"AI ({level_of(user_id)}) [bot]"


def mention(user_id: int) -> str:
    """A person's mention, or an AI level's name (an AI id as ``<@id>`` would show as an unknown user)."""
    return name(user_id) if is_ai(user_id) else f"<@{user_id}>"
