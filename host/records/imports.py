"""Uploaded records (our JSON or text, boardspace.net ZÈRTZ SGF), read safely for the record view.

An upload is untrusted: it is capped in size, and parsed and replayed in the import lane's child
process (host/offload.py) with a cap on its CPU time, so a hostile file can neither stall the event
loop nor run for minutes, and the same file gets the same answer however busy the machine is.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from host import offload
from host.play.captions import clip
from host.records import worker as record_worker
from host.records.formats import GameRecord, read
from host.results import HostError

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_RECORD_BYTES = 128_000
"""Real boardspace records are a few kilobytes; the longest game fits many times over."""
TIME_CAP = 0.5
"""Seconds of CPU time a boardspace parse and replay may take before the upload is refused (real records
take milliseconds)."""
JSON_CAP = 10.0
"""Seconds of CPU time reading and replaying one of our records may take (the largest, 1 MB, takes about 1 s)."""
CAP_ENV = "IMPORT_CPU_CAP"
"""When set (seconds of CPU time), the cap on reading any upload instead of ``TIME_CAP`` and ``JSON_CAP``: an
operator's knob, and how tests/e2e/test_fair_load.py puts a real record near the cap in the real bot process."""
NO_USER = 0
SGF_SLOW = "That record took too long to read; is it really a boardspace .sgf?"
JSON_SLOW = "That record took too long to replay."


async def in_child(work: Callable[..., T], *args: Any, user: int = NO_USER, guild: int | None = None,
                   on_place: offload.Place | None = None, cap: float = TIME_CAP, slow: str = SGF_SLOW,
                   worker: offload.Worker | None = None) -> T:
    """Run pure parsing ``work`` on an upload in the import lane (or on ``worker``, a child the caller holds from
    the lane); its failures become clear refusals."""
    cap = read_cap(cap)
    with refusals(slow):
        if worker is not None:
            return await worker.run(work, *args, cpu=cap)
        if user == NO_USER:
            return await offload.run(work, *args, timeout=cap)
        return await offload.lane("import").run(user, guild, work, *args, cpu=cap, on_place=on_place)


def read_cap(default: float) -> float:
    """``default``, or the operator's cap from ``IMPORT_CPU_CAP`` when it is a finite number of seconds above
    0 (0, a negative or ``inf`` would refuse everything or let a child read for ever)."""
    text = os.environ.get(CAP_ENV)
    if not text:
        return default
    try:
        cap = float(text)
    except ValueError:
        cap = math.nan
    if not math.isfinite(cap) or cap <= 0:
        log.warning("%s=%r is not a number of seconds above 0: the default cap %.1f s applies", CAP_ENV, text, default)
        return default
    return cap


@contextmanager
def refusals(slow: str) -> Iterator[None]:
    """The lane's and the child's failures as refusals to show the importer."""
    try:
        yield
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
                    on_place: offload.Place | None = None, worker: offload.Worker | None = None) -> dict[str, Any]:
    """A boardspace SGF as names, options, history, sides and outcome (host/records/worker.py), read safely."""
    check_size(data)
    return await in_child(record_worker.sgf_game, data, user=user, guild=guild, on_place=on_place, worker=worker)


async def our_record(data: bytes, game: str, user: int = NO_USER, guild: int | None = None,
                     on_place: offload.Place | None = None, worker: offload.Worker | None = None) -> GameRecord:
    """Our JSON or text record of ``game``, read and replayed through the rules in the import lane."""
    return await in_child(read, data, game, user=user, guild=guild, on_place=on_place, cap=JSON_CAP, slow=JSON_SLOW,
                          worker=worker)

