"""Runs in a child process (host/offload.py): parse and replay an uploaded record. Imports only the engine,
so the fork server that preloads it starts fast."""

from __future__ import annotations

from typing import Any

from engines.zrtz import boardspace


def sgf_game(data: bytes) -> dict[str, Any]:
    """In the child process: a boardspace record as the parts of our own game record, or ``ValueError``."""
    text = boardspace.decode(data)
    parsed = boardspace.parse(text)
    if not parsed.turns:
        raise ValueError("it has no ZÈRTZ moves (is it a boardspace .sgf?)")
    game = boardspace.replay(text)
    game = boardspace.with_result(game, parsed)  # RE[...]: checked, or ends moves that stop before the end
    outcome = game.outcome()
    stated = outcome.to_dict() if outcome else None
    if stated is not None and boardspace.ended_by_record(game):
        stated["reason"] = boardspace.from_record(stated["reason"])
    return {"names": [n or f"player {i + 1}" for i, n in enumerate(parsed.names)], "options": dict(game.options),
            "history": [[seat, move] for seat, move in game.history], "sides": [game.seat_name(s) for s in (0, 1)],
            "outcome": stated}
