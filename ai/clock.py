"""The clock every budgeted search reads: CPU time of the searching thread unless its host says wall time.

``ai.choose(..., budget_s=x)`` stops each search part when ``now()`` passes its deadline. By default that is
the CPU time of the thread that searches (``time.thread_time``: other threads of the process, a test runner's
or a thread pool's, do not eat the budget), so a benchmark on a busy machine measures strength, not the
machine. The bot's AI pool
switches to the wall clock (``use(time.perf_counter)``): there the budget caps how long a player waits, and a
loaded machine costs the AI a little strength instead (issue 27).
"""

from __future__ import annotations

import time
from collections.abc import Callable

_clock: Callable[[], float] = time.thread_time


def now() -> float:
    return _clock()


def use(clock: Callable[[], float]) -> Callable[[], float]:
    """Make ``clock`` this process's search clock; returns the one it replaces."""
    global _clock
    previous, _clock = _clock, clock
    return previous
