"""A costly, deterministic test input computed once, not once per pytest-xdist worker or per run.

``make test`` runs several workers, each a session of its own; a ``functools.cache`` there still computes the
input in every worker that needs it (the ZÈRTZ tactics set: 18 s of CPU each time). ``once`` keeps the JSON
result in the folder all workers of this run share (``tests/conftest.py`` names it in ``SHARED_ENV``), under a
file lock: the first worker computes it, the others read it. That folder is fresh per run.

An input that names the files it is computed from (``inputs``: files or folders, the code that computes it
among them) is also kept between runs, under the SHA-256 of those files' names and bytes and of the Python
version, in ``STORE``: a change to any of them is a new key, so a stale value is never read, and an unchanged
tree does not solve the same positions again on every run.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

SHARED_ENV = "ZGAMES_TEST_SHARED_DIR"
STORE = Path(tempfile.gettempdir()) / "zgames-test-once"


def fingerprint(inputs: Iterable[Path]) -> str:
    """SHA-256 of the Python version and every file under ``inputs``: its name (below the input) and bytes."""
    digest = hashlib.sha256(sys.version.encode())
    for top in inputs:
        digest.update(top.name.encode() + b"\0")
        for path in sorted([top] if top.is_file() else (p for p in top.rglob("*") if p.is_file())):
            if "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(top)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def once(key: str, compute: Callable[[], Any], inputs: Iterable[Path] = ()) -> Any:
    """``compute()`` (JSON-serialisable), computed by the first worker of this run that asks for ``key``, or
    read from an earlier run whose ``inputs`` were the same bytes."""
    inputs = list(inputs)
    if inputs:
        STORE.mkdir(exist_ok=True)
        return _locked(STORE, f"{key}-{fingerprint(inputs)[:24]}", compute)
    shared = os.environ.get(SHARED_ENV)
    if not shared:
        return compute()
    return _locked(Path(shared), key, compute)


def _locked(folder: Path, key: str, compute: Callable[[], Any]) -> Any:
    path = folder / f"{key}.json"
    with open(folder / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if compute() raises
        if path.exists():
            return json.loads(path.read_text())
        value = compute()
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(value))
        partial.replace(path)
        return json.loads(path.read_text())  # the same shape (lists, not tuples) in every worker
