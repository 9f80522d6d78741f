"""The reviews repository on both backends: one review per game, the first write stays."""

from __future__ import annotations

from data.db import Database
from data.reviews import Reviews
from data.store import GameStore, Seat


async def test_a_review_is_stored_once_per_game(db: Database) -> None:
    game_id = await GameStore(db).create(guild_id=1, channel_id=2, game="zaic", players=2, options={}, settings={},
                                         seed="s", creator_id=10, seats=[Seat(0, 10, True), Seat(1, 11, True)],
                                         now=1.0)
    reviews = Reviews(db)
    assert await reviews.get(game_id) is None
    assert await reviews.put(game_id, "hard", {"moves": [{"ply": 0, "verdict": "blunder"}]}, 5.0)
    assert not await reviews.put(game_id, "hard", {"moves": []}, 6.0)
    stored = await reviews.get(game_id)
    assert stored is not None
    first = {"moves": [{"ply": 0, "verdict": "blunder"}]}
    assert (stored.level, stored.data, stored.created_at) == ("hard", first, 5.0)
