"""Runs in a child process (host/offload.py): parse and replay an uploaded record. Imports only the engine,
so the fork server that preloads it starts fast."""

from __future__ import annotations

from typing import Any

from engines.zrtz import boardspace


def replay(data: bytes, upto: int | None) -> tuple[str, dict[str, Any]]:
    """In the child process: the caption and the public observation of the position, or ``ValueError``."""
    text = boardspace.decode(data)
    record = boardspace.parse(text)
    game = boardspace.replay(text, upto)
    if not record.turns:
        raise ValueError("it has no ZÈRTZ moves (is it a boardspace .sgf?)")
    shown = len(record.turns) if upto is None else min(upto, len(record.turns))
    caption = (f"**ZÈRTZ** record: {record.names[0]} vs {record.names[1]}, {record.rings} rings, "
               f"after move {shown} of {len(record.turns)}.")
    if record.result:
        caption += f" Result: {record.result}."
    return caption, {"observation": game.observation(None), "shown": shown}


def sgf_game(data: bytes) -> dict[str, Any]:
    """In the child process: a boardspace record as the parts of our own game record, or ``ValueError``."""
    text = boardspace.decode(data)
    parsed = boardspace.parse(text)
    if not parsed.turns:
        raise ValueError("it has no ZÈRTZ moves (is it a boardspace .sgf?)")
    game = boardspace.replay(text)
    outcome = game.outcome()
    return {"names": [n or f"player {i + 1}" for i, n in enumerate(parsed.names)], "options": dict(game.options),
            "history": [[seat, move] for seat, move in game.history], "sides": [game.seat_name(s) for s in (0, 1)],
            "outcome": outcome.to_dict() if outcome else None}
