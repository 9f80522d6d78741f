"""The tournaments repository on a real SQLite file: a stale version is refused, results and games are set once."""

from __future__ import annotations

import pytest

from data import tournaments as repo
from data.db import Database, StaleVersion
from data.tournaments import NewPairing

NOW = 1_800_000_000.0


async def new_event(db: Database) -> int:
    async with db.transaction() as tx:
        return await repo.create(tx, guild_id=1, channel_id=2, organiser_id=3, game="zrtz", options={"rings": 48},
                                 format="swiss", rounds=3, table_size=2, clock="1d", rated=True, max_players=8,
                                 starts_at=None, now=NOW)


async def test_every_change_is_checked_against_the_version_it_read(db: Database) -> None:
    event_id = await new_event(db)
    snap = await repo.load(db, event_id)
    assert snap is not None and snap.event.options == {"rings": 48} and snap.event.version == 0
    async with db.transaction() as tx:
        await repo.bump(tx, snap.event, NOW, status="running", current_round=1)
    with pytest.raises(StaleVersion):
        async with db.transaction() as tx:  # a second writer that read version 0 too
            await repo.bump(tx, snap.event, NOW, current_round=2)
            await repo.add_pairings(tx, event_id, [NewPairing(2, 1, (10, 11))])
    after = await repo.load(db, event_id)
    assert after is not None and after.event.current_round == 1 and after.pairings == []  # nothing of it landed
    with pytest.raises(ValueError, match="not an event column"):
        async with db.transaction() as tx:
            await repo.bump(tx, after.event, NOW, version=7)


async def test_entrants_pairings_games_and_results_are_each_set_once(db: Database) -> None:
    event_id = await new_event(db)
    async with db.transaction() as tx:
        assert await repo.add_entrant(tx, event_id, 10, NOW)
        assert not await repo.add_entrant(tx, event_id, 10, NOW + 1)
        await repo.add_entrant(tx, event_id, 11, NOW + 2)
        await repo.set_seeds(tx, event_id, [11, 10])
        await repo.add_pairings(tx, event_id, [NewPairing(1, 1, (11, 10)), NewPairing(1, 2, (12,), bye=True,
                                                                                     points=(1.0,))])
    snap = await repo.load(db, event_id)
    assert snap is not None
    assert [(e.user_id, e.seed) for e in snap.entrants] == [(10, 2), (11, 1)]
    board, bye = snap.pairings
    assert bye.bye and bye.points == (1.0,) and board.points is None and board.seats == (11, 10)
    async with db.transaction() as tx:
        game_id = await tx.insert("INSERT INTO games (game, players, status, seed, creator_id, created_at, updated_at)"
                                  " VALUES ('zrtz', 2, 'active', 's', 3, ?, ?)", (NOW, NOW))
        assert await repo.link_game(tx, board.id, game_id)
        assert not await repo.link_game(tx, board.id, game_id)
        assert await repo.set_points(tx, board.id, (1.0, 0.0))
        assert not await repo.set_points(tx, board.id, (0.0, 1.0))
    snap = await repo.load(db, event_id)
    assert snap is not None and snap.pairings[0].points == (1.0, 0.0) and snap.pairings[0].game_id == game_id
    with pytest.raises(Exception, match=r"(?i)unique"):
        async with db.transaction() as tx:
            await repo.add_pairings(tx, event_id, [NewPairing(1, 1, (11, 10))])


async def test_the_organiser_role_is_set_and_cleared(db: Database) -> None:
    assert await repo.organiser_role(db, 5) is None
    await repo.set_organiser_role(db, 5, 77)
    await repo.set_organiser_role(db, 5, 78)
    assert await repo.organiser_role(db, 5) == 78
    await repo.set_organiser_role(db, 5, None)
    assert await repo.organiser_role(db, 5) is None


async def test_an_events_name_and_tie_break_order_are_kept(db: Database) -> None:
    async with db.transaction() as tx:
        chosen = await repo.create(tx, guild_id=1, channel_id=2, organiser_id=3, game="zaic", options={},
                                   format="swiss", rounds=5, table_size=2, clock="1d", rated=False, max_players=8,
                                   starts_at=None, now=NOW, name="Spring Swiss", tiebreaks=("BhC1", "Bh", "DE"))
    snap = await repo.load(db, chosen)
    assert snap is not None and snap.event.name == "Spring Swiss" and snap.event.tiebreaks == ("BhC1", "Bh", "DE")
    plain = await repo.load(db, await new_event(db))
    assert plain is not None and plain.event.name is None and plain.event.tiebreaks is None
