"""Which Discord shards this process connects (``SHARD_COUNT``, ``SHARD_IDS``), and which shard a guild is on.

Large bots split their guilds over shards and run the shards in several processes over one shared
database. Nothing else in the host depends on the split: scheduled work is claimed in the database
(data/jobs.py), so any process may do it, and REST calls reach every guild from every process.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096
"""More shards than any bot needs; a bigger number is a typo."""


@dataclass(frozen=True)
class Shards:
    """``count`` shards in all; this process connects ``ids`` (every shard when ``None``)."""

    count: int
    ids: tuple[int, ...] | None = None

    def describe(self) -> str:
        mine = ", ".join(str(i) for i in self.ids) if self.ids is not None else "all"
        return f"shard(s) {mine} of {self.count}"


def shard_of(guild_id: int | None, count: int) -> int:
    """Discord's rule: a guild is on shard ``(guild_id >> 22) % count``; DMs arrive on shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def parse(count_text: str, ids_text: str) -> Shards | None:
    """Read ``SHARD_COUNT`` and ``SHARD_IDS``; ``None`` when neither is set (one process runs everything).

    Raises ``ValueError`` with one line naming the variable and what is wrong, for start-up to print."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ValueError(f"SHARD_IDS={ids_text!r} needs SHARD_COUNT, the number of shards in all")
        return None
    try:
        count = int(count_text)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, not {count_text!r}")
    if not ids_text:
        return Shards(count)
    ids: list[int] = []
    for part in ids_text.split(","):
        try:
            shard = int(part.strip())
        except ValueError:
            raise ValueError(f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_text!r}")\
                from None
        if not 0 <= shard < count:
            raise ValueError(f"SHARD_IDS: shard {shard} does not exist; with SHARD_COUNT={count} they are"
                             f" 0 to {count - 1}")
        if shard in ids:
            raise ValueError(f"SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return Shards(count, tuple(ids))
