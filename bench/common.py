"""Timing, reporting and game options shared by the bench scripts: samples in milliseconds, one report line format."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def timing(samples: list[float]) -> Iterator[None]:
    """Append the milliseconds the ``with`` body takes to ``samples`` (works around ``await`` too)."""
    start = time.perf_counter()
    yield
    samples.append((time.perf_counter() - start) * 1000)


def timed(fn: Callable[[T], object], items: Iterable[T], repeat: int = 1) -> list[float]:
    """Milliseconds of ``fn(item)`` for every item, ``repeat`` times each."""
    samples: list[float] = []
    for item in items:
        for _ in range(repeat):
            with timing(samples):
                fn(item)
    return samples


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest sample with at least ``q`` percent of them at or below it."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def report(label: str, samples: list[float]) -> None:
    """One line: n, p50 (median), p95 and max in milliseconds."""
    print(f"{label:<44} n={len(samples):<6} p50={statistics.median(samples):8.3f} ms"
          f"  p95={percentile(samples, 95):8.3f} ms  max={max(samples):8.3f} ms")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process used so far, its children not counted (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option rings=61``, repeatable: a game option for every game the script plays (``game_options``)."""
    parser.add_argument("--option", action="append", default=[], help="a game option, e.g. rings=61 (integers as such)")


def game_options(given: list[str]) -> dict[str, int | str]:
    """The ``--option`` texts as a game's options: ``rings=61`` -> ``{"rings": 61}`` (digits as integers)."""
    return {k: int(v) if v.isdigit() else v for k, v in (o.split("=", 1) for o in given)}
