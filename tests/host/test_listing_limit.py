"""``/games`` reads a bounded number of games: a player in hundreds of games still gets a prompt answer."""

from __future__ import annotations

from data import bulk
from data.bulk import WholeGame
from host.app import Host
from host.correspondence import service as correspondence

ALICE = 101


async def test_games_lists_at_most_the_limit_most_recently_changed(host: Host) -> None:
    count = correspondence.OVERVIEW_LIMIT + 5
    ids = await bulk.load_games(host.db, [WholeGame("zaic", 2, "active", (ALICE, 1000 + i), creator_id=ALICE,
                                                    guild_id=1, channel_id=2, updated_at=float(i))
                                          for i in range(count)])
    lines = await host.correspondence.games_overview(ALICE, 1)
    assert len(lines) == correspondence.OVERVIEW_LIMIT
    assert {line.game_id for line in lines} == set(ids[5:]), "the five least recently changed are left out"
    assert all(len(line.text()) < 300 for line in lines)
