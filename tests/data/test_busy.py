"""A write blocked by a lock is refused as busy within 2 s, instead of failing after 5 s with a generic error."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest

from data.db import Busy, Database


async def test_another_process_holding_the_lock_makes_a_write_busy_within_2_seconds(tmp_path: Path) -> None:
    """SQLite only, by nature: another process's ``BEGIN IMMEDIATE`` locks the whole file. The PostgreSQL
    counterpart (a row held by another writer) is in tests/data/test_postgres.py."""
    db = await Database.open(tmp_path / "z.sqlite3")
    other = sqlite3.connect(tmp_path / "z.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(Busy) as refused:
            async with db.transaction() as conn:
                await conn.execute("PRAGMA user_version")
        assert time.monotonic() - started < 2.0
        assert "try again" in str(refused.value)
        other.execute("ROLLBACK")
        async with db.transaction() as conn:  # free again: writes work, and our lock was released
            await conn.execute("CREATE TABLE t (x)")
    finally:
        other.close()
        await db.close()


async def test_a_long_transaction_in_this_process_makes_others_wait_their_turn_not_busy(tmp_path: Path) -> None:
    """SQLite only, by nature: SQLite has one writer at a time, so a second transaction waits for the first
    one whatever it touches. Inside one process the writes queue in order (issue 24: a burst never reaches
    the busy limit); only a lock held by another process is refused as busy (the test above). PostgreSQL
    runs both at once unless they touch the same rows or lock key (tests/data/test_postgres.py)."""
    db = await Database.open(tmp_path / "z.sqlite3")
    holding = asyncio.Event()

    async def hog() -> None:
        async with db.transaction():
            holding.set()
            await asyncio.sleep(1.5)

    task = asyncio.create_task(hog())
    await holding.wait()
    started = time.monotonic()
    async with db.transaction():
        waited = time.monotonic() - started
    assert waited >= 1.0, "the second writer ran while the first held the write lock"
    await task
    await db.close()
