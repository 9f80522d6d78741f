"""The ladder's rows: one ladder per server and game, orders written whole, stale changes refused."""

from __future__ import annotations

import pytest

from data import ladder
from data.db import Database, StaleVersion
from data.ladder import LadderStore


async def test_one_ladder_per_server_and_game_with_default_settings(db: Database) -> None:
    async with db.transaction() as tx:
        first, created = await ladder.ensure(tx, 1, "zrtz", 10.0)
        again, created_again = await ladder.ensure(tx, 1, "zrtz", 20.0)
        other, _ = await ladder.ensure(tx, 2, "zrtz", 20.0)
    assert created and not created_again and first.id == again.id != other.id
    assert (first.reach, first.inactive_days, first.clock, first.rated, first.created_at) == (3, 30, "3d", True, 10.0)


async def test_orders_are_written_whole_and_a_stale_change_is_refused(db: Database) -> None:
    store = LadderStore(db)
    async with db.transaction() as tx:
        row, _ = await ladder.ensure(tx, 1, "zaic", 0.0)
        for user, order in ((7, [7]), (8, [7, 8]), (9, [7, 8, 9])):
            await ladder.set_order(tx, row.id, order, joined=user, now=float(user))
        await ladder.bump(tx, row)
    seen = await store.find(1, "zaic")
    assert seen is not None and seen.version == 1
    async with db.transaction() as tx:
        loaded = await ladder.load(tx, row.id)
        assert loaded is not None
        await ladder.set_order(tx, row.id, [9, 7])  # 8 leaves, 9 climbs
        await ladder.touch(tx, row.id, [9], 50.0, played=True)
        await ladder.bump(tx, loaded[0], reach=5, rated=False)
    rungs = await store.rungs(row.id)
    assert [(r.user_id, r.place, r.games, r.last_active) for r in rungs] == [(9, 1, 1, 50.0), (7, 2, 0, 7.0)]
    with pytest.raises(StaleVersion):
        async with db.transaction() as tx:
            await ladder.set_order(tx, row.id, [7])
            await ladder.bump(tx, seen)  # read at version 1: the ladder is at 2 now
    assert [r.user_id for r in await store.rungs(row.id)] == [9, 7]  # rolled back
    now = await store.find(1, "zaic")
    assert now is not None and (now.reach, now.rated, now.version) == (5, False, 2)
    with pytest.raises(ValueError):
        async with db.transaction() as tx:
            await ladder.bump(tx, now, colour="red")
