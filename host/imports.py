"""Uploaded records (our JSON or text, boardspace.net ZÈRTZ SGF), read safely for the record view.

An upload is untrusted: it is capped in size, and parsed and replayed in the import lane's child
process (host/offload.py) with a cap on its CPU time, so a hostile file can neither stall the event
loop nor run for minutes, and the same file gets the same answer however busy the machine is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from host import offload, record_worker
from host.captions import clip
from host.record_formats import GameRecord, read
from host.results import HostError

T = TypeVar("T")
MAX_RECORD_BYTES = 128_000
"""Real boardspace records are a few kilobytes; the longest game fits many times over."""
TIME_CAP = 0.5
"""Seconds of CPU time a boardspace parse and replay may take before the upload is refused (real records
take milliseconds)."""
JSON_CAP = 10.0
"""Seconds of CPU time reading and replaying one of our records may take (the largest, 1 MB, takes about 1 s)."""
NO_USER = 0


async def in_child(work: Callable[..., T], *args: Any, user: int = NO_USER, guild: int | None = None,
                   on_place: offload.Place | None = None, cap: float = TIME_CAP,
                   slow: str = "That record took too long to read; is it really a boardspace .sgf?") -> T:
    """Run pure parsing ``work`` on an upload in the import lane; its failures become clear refusals."""
    try:
        if user == NO_USER:
            return await offload.run(work, *args, timeout=cap)
        return await offload.lane("import").run(user, guild, work, *args, cpu=cap, on_place=on_place)
    except offload.Busy as error:
        raise HostError(str(error)) from None
    except offload.TooSlow:
        raise HostError(slow) from None
    except offload.Failed as error:
        if error.kind == "HostError":
            raise HostError(str(error)) from None
        if error.kind in ("ValueError", "IllegalMove", "UnicodeDecodeError"):
            raise HostError(clip(f"That record cannot be replayed: {error}", 300)) from None
        raise HostError(f"That record cannot be replayed ({error.kind}).") from None


def check_size(data: bytes) -> None:
    if len(data) > MAX_RECORD_BYTES:
        raise HostError(f"That file is too large for a ZÈRTZ record (the limit is {MAX_RECORD_BYTES // 1000} KB).")


async def zrtz_game(data: bytes, user: int = NO_USER, guild: int | None = None,
                    on_place: offload.Place | None = None) -> dict[str, Any]:
    """A boardspace SGF as names, options, history, sides and outcome (host/record_worker.py), read safely."""
    check_size(data)
    return await in_child(record_worker.sgf_game, data, user=user, guild=guild, on_place=on_place)


async def our_record(data: bytes, game: str, user: int = NO_USER, guild: int | None = None,
                     on_place: offload.Place | None = None) -> GameRecord:
    """Our JSON or text record of ``game``, read and replayed through the rules in the import lane."""
    return await in_child(read, data, game, user=user, guild=guild, on_place=on_place, cap=JSON_CAP,
                          slow="That record took too long to replay.")

