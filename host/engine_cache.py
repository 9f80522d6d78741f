"""The engines of recently used games, bounded (least recently used dropped first) and keyed by version.

Each entry remembers the game version it was built at. Every read loads the row first, so a version
that differs (another process moved, or this one lost a race) never serves the cached engine: the
host extends a copy of it with the moves it lacks, or replays the log. Memory stays bounded however
many games the bot has touched.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from engines import Game

ENGINE_CACHE = 2000
"""Games kept by default (``ENGINE_CACHE``): a big game's engine is tens of kB, so this stays well under 200 MB."""


class EngineCache:
    """``game id -> (version, engine)`` with LRU eviction; ``get``/``put``/``pop`` like a small dict."""

    def __init__(self, size: int = ENGINE_CACHE) -> None:
        if size < 1:
            raise ValueError("the engine cache holds at least one game")
        self.size = size
        self._items: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def get(self, game_id: int) -> tuple[int, Game] | None:
        found = self._items.get(game_id)
        if found is not None:
            self._items.move_to_end(game_id)
        return found

    def __setitem__(self, game_id: int, entry: tuple[int, Game]) -> None:
        self._items[game_id] = entry
        self._items.move_to_end(game_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, game_id: int, default: tuple[int, Game] | None = None) -> tuple[int, Game] | None:
        return self._items.pop(game_id, default)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._items


def extend(cached: Game | None, log: Sequence[tuple[int, str]]) -> Game | None:
    """A copy of ``cached`` brought up to ``log`` (the stored moves), or ``None`` when it is no prefix of it
    (built at a newer version than this log, say): then the caller replays the whole log."""
    if cached is None or len(cached.history) > len(log):
        return None
    if [tuple(h) for h in cached.history] != [tuple(m) for m in log[:len(cached.history)]]:
        return None
    game = cached.clone()
    for seat, text in log[len(cached.history):]:
        game.apply_record(seat, text)
    return game
