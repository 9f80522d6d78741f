"""Playing through the move builder only, as a player would: press Move, pick until Play, press Play.

The driver chooses uniformly among what the builder offers (buttons and menu entries), so a whole game
walks many different steps; it never types a move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import FakeDiscord, Message
from tests.fakediscord.world import walk_components


@dataclass
class Presses:
    """What building moves cost: presses per move (Move, picks, Play), and each step's reply time."""

    per_move: list[int] = field(default_factory=list)
    picks_per_move: list[int] = field(default_factory=list)
    reply_seconds: list[float] = field(default_factory=list)


def choices(message: Message) -> list[tuple[str, str | None]]:
    """(custom id, menu value or None for a button) of every forward choice on a builder message."""
    found: list[tuple[str, str | None]] = []
    for comp in walk_components(message.components):
        custom_id = comp.get("custom_id", "")
        if comp.get("type") == 2 and custom_id.startswith("mb:") and not comp.get("disabled"):
            found.append((custom_id, None))
        elif comp.get("type") == 3 and custom_id.startswith("ms:"):
            found += [(custom_id, option["value"]) for option in comp.get("options", [])]
    return found


def is_builder(message: Message) -> bool:
    return any(c.startswith(("mb:", "ms:", "mp:")) for c in message.custom_ids())


async def press(fake: FakeDiscord, user: str, message: Message, custom_id: str, value: str | None,
                stats: Presses) -> Any:
    started = time.perf_counter()
    if value is None:
        rec = await fake.click(user, message, custom_id)
    else:
        rec = await fake.select(user, message, custom_id, [value])
    stats.reply_seconds.append(time.perf_counter() - started)
    return rec


async def open_builder(fake: FakeDiscord, user: str, board: Message, game_id: int, stats: Presses) -> Message:
    """Press Move under ``board``; the private builder message it opens."""
    rec = await press(fake, user, board, f"mo:{game_id}", None, stats)
    await rec.wait_resolved()
    assert rec.ephemeral or (rec.messages and rec.messages[-1].ephemeral), "the builder must be private"
    return rec.messages[-1]


async def play_one_move(fake: FakeDiscord, user: str, builder: Message, rng: random.Random,
                        stats: Presses, opened: bool = True) -> Message:
    """From an open builder, pick until Play appears and press it; returns the builder message afterwards
    (which holds the next step of a turn of several, or says the move was played)."""
    presses, picks = (1 if opened else 0), 0
    for _ in range(64):
        builder = fake.world.messages[builder.id]
        play = [c for c in builder.custom_ids() if c.startswith("mp:")]
        if play:
            await press(fake, user, builder, play[0], None, stats)
            stats.per_move.append(presses + 1)
            stats.picks_per_move.append(picks)
            return fake.world.messages[builder.id]
        offered = choices(builder)
        assert offered, f"a builder step with nothing to choose: {builder.content!r}"
        custom_id, value = rng.choice(offered)
        await press(fake, user, builder, custom_id, value, stats)
        presses += 1
        picks += 1
    raise AssertionError("the builder never finished a move")
