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


ENGINE_CACHE_BYTES = 150 * 1024 * 1024
"""Estimated bytes of engines kept by default: the bound that matters; ``ENGINE_CACHE`` is the fallback."""
BASE_BYTES = 8000
PLY_BYTES = {"zodiac": 2000, "zrtz": 600, "zaic": 450, "zarathustra": 300, "ziggurat": 150}
"""Bytes an engine grows by per ply (tracemalloc of replayed random games, 30-400 plies); others 600."""


def estimate(game: Game) -> int:
    """An engine's memory, from its game and length (a deep size would cost more than the cache saves)."""
    return BASE_BYTES + PLY_BYTES.get(getattr(game, "name", ""), 600) * len(game.history)


class EngineCache:
    """``game id -> (version, engine)`` with LRU eviction by estimated bytes (``budget``) and by count
    (``size``); ``get``/``put``/``pop`` like a small dict."""

    def __init__(self, size: int = ENGINE_CACHE, budget: int = ENGINE_CACHE_BYTES) -> None:
        if size < 1:
            raise ValueError("the engine cache holds at least one game")
        self.size = size
        self.budget = budget
        self.bytes = 0
        self._items: OrderedDict[int, tuple[int, Game]] = OrderedDict()
        self._sizes: dict[int, int] = {}

    def get(self, game_id: int) -> tuple[int, Game] | None:
        found = self._items.get(game_id)
        if found is not None:
            self._items.move_to_end(game_id)
        return found

    def __setitem__(self, game_id: int, entry: tuple[int, Game]) -> None:
        self.bytes -= self._sizes.pop(game_id, 0)
        self._items[game_id] = entry
        self._items.move_to_end(game_id)
        self._sizes[game_id] = estimate(entry[1])
        self.bytes += self._sizes[game_id]
        while len(self._items) > 1 and (len(self._items) > self.size or self.bytes > self.budget):
            old, _ = self._items.popitem(last=False)
            self.bytes -= self._sizes.pop(old, 0)

    def pop(self, game_id: int, default: tuple[int, Game] | None = None) -> tuple[int, Game] | None:
        self.bytes -= self._sizes.pop(game_id, 0)
        return self._items.pop(game_id, default)

    def clear(self) -> None:
        self._items.clear()
        self._sizes.clear()
        self.bytes = 0

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
