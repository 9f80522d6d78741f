"""Game records from elsewhere: boardspace.net ZÈRTZ SGF files, read safely for the record view.

An upload is untrusted: it is capped in size, and parsed and replayed in a child process with a time
cap (host/offload.py), so a hostile file can neither stall the event loop nor run for minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from host import offload, record_worker
from host.captions import clip
from host.results import HostError

T = TypeVar("T")
MAX_RECORD_BYTES = 128_000
"""Real boardspace records are a few kilobytes; the longest game fits many times over."""
TIME_CAP = 0.5
"""Seconds the parse and replay may take before the upload is refused (real records take milliseconds)."""


async def in_child(work: Callable[..., T], *args: Any) -> T:
    """Run pure parsing ``work`` on an upload in the child process; its failures become clear refusals."""
    try:
        return await offload.run(work, *args, timeout=TIME_CAP)
    except offload.TooSlow:
        raise HostError("That record took too long to read; is it really a boardspace .sgf?") from None
    except offload.Failed as error:
        if error.kind in ("ValueError", "IllegalMove", "UnicodeDecodeError"):
            raise HostError(clip(f"That record cannot be replayed: {error}", 300)) from None
        raise HostError(f"That record cannot be replayed ({error.kind}).") from None


def check_size(data: bytes) -> None:
    if len(data) > MAX_RECORD_BYTES:
        raise HostError(f"That file is too large for a ZÈRTZ record (the limit is {MAX_RECORD_BYTES // 1000} KB).")


async def zrtz_game(data: bytes) -> dict[str, Any]:
    """A boardspace SGF as names, options, history, sides and outcome (host/record_worker.py), read safely."""
    check_size(data)
    return await in_child(record_worker.sgf_game, data)

