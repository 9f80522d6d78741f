"""A per-user token bucket: a page may burst (a view, its image, a move) but not flood the server."""

from __future__ import annotations

MAX_USERS = 50_000
"""Buckets remembered; the least recently refilled are forgotten first (a forgotten user starts full)."""


class Budget:
    def __init__(self, burst: float, per_second: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[int, tuple[float, float]] = {}

    def take(self, user: int, now: float) -> bool:
        """Spend one request of ``user``'s budget at ``now`` (monotonic seconds); ``False`` when spent out."""
        level, then = self._buckets.pop(user, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.per_second)
        allowed = level >= 1.0
        self._buckets[user] = (level - 1.0 if allowed else level, now)
        while len(self._buckets) > MAX_USERS:
            del self._buckets[next(iter(self._buckets))]
        return allowed
