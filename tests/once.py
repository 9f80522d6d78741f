"""A costly, deterministic test input computed once per test run, not once per pytest-xdist worker.

``make test`` runs several workers, each a session of its own; a ``functools.cache`` there still computes the
input in every worker that needs it (the ZÈRTZ tactics set: 18 s of CPU each time). ``once`` keeps the JSON
result in the folder all workers of this run share (``tests/conftest.py`` names it in ``SHARED_ENV``), under a
file lock: the first worker computes it, the others read it. The folder is fresh per run, so nothing stale is
ever read; outside xdist there is nothing to share and it just computes.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

SHARED_ENV = "ZGAMES_TEST_SHARED_DIR"


def once(key: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` (JSON-serialisable), computed by the first worker of this run that asks for ``key``."""
    shared = os.environ.get(SHARED_ENV)
    if not shared:
        return compute()
    path = Path(shared) / f"{key}.json"
    with open(Path(shared) / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if compute() raises
        if path.exists():
            return json.loads(path.read_text())
        value = compute()
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(value))
        partial.replace(path)
        return json.loads(path.read_text())  # the same shape (lists, not tuples) in every worker
