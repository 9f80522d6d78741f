"""Issue 25 at the host: one rating rule for AI seats in every game."""

from __future__ import annotations

import engines
from data.db import Database
from data.store import GameRow, Seat
from host import bots, ratings
from tests.host.test_ratings import SCOPE, A, B, count_ratings, finish, rating, scripted

EASY = bots.user_of("easy")


async def test_two_ai_seats_of_one_level_in_a_free_for_all_rate_the_people_and_leave_the_ai(db: Database) -> None:
    row = await finish(db, (A, EASY, B, EASY), (1, 2, 3, 4), game="ziggurat")
    assert ratings.unrated_reason(row, scripted((1, 2, 3, 4))) is None
    assert (await rating(db, A, game="ziggurat"))["wins"] == 1
    assert (await rating(db, B, game="ziggurat"))["losses"] == 1
    assert await rating(db, EASY, game="ziggurat") is None  # not rated against itself
    assert await count_ratings(db) == 6  # A and B on three boards


async def test_an_ai_team_in_partners_is_one_player_and_rated(db: Database) -> None:
    await finish(db, (A, EASY, B, EASY), (1, 2, 1, 2), game="ziggurat", teams=(0, 1, 0, 1))
    assert (await rating(db, EASY, game="ziggurat"))["losses"] == 1
    assert (await rating(db, A, game="ziggurat", scope=SCOPE))["wins"] == 1


def test_the_note_says_whether_a_game_counts() -> None:
    def row(settings: dict, users: tuple) -> GameRow:
        return GameRow(1, 7, None, None, None, "ziggurat", len(users), {"mode": "standard"}, settings, "challenge", 1,
                       "s", A, 0, 0, None, None, [], [Seat(i, u, True, 0) for i, u in enumerate(users)])

    cls = engines.get("ziggurat")
    assert ratings.rating_note(row({"rated": True}, (A, B)), cls).startswith("Rated:")
    assert "plays several sides" in ratings.rating_note(row({"rated": True}, (A, EASY, B, EASY)), cls)
    assert "practice game" in ratings.rating_note(row({"rated": False, "practice": True}, (A, EASY)), cls)
    assert ratings.rating_note(row({"rated": False}, (A, B)), cls) == "Unrated."
