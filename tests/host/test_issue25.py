"""Issue 25 at the host: one rating rule for AI seats in every game."""

from __future__ import annotations

import engines
from data.db import Database
from data.store import GameRow, Seat
from host.app import Host
from host.play import bots
from host.ratings import service as ratings
from tests.host.test_ratings import GUILD, SCOPE, A, B, count_ratings, finish, rating, scripted
from tests.host.test_standings import Names

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


async def test_a_new_servers_board_lists_provisional_players_and_keeps_bots_apart(host: Host, db: Database) -> None:
    await finish(db, (A, EASY), (2, 1), now=100.0)  # the easy AI beats a beginner
    await finish(db, (B, A), (1, 2), now=101.0)
    board = await ratings.leaderboard(db, "zrtz", SCOPE, user_id=A, bots_too=False)
    assert [s.user_id for s in board.rows] == [B, A] and board.players == 0
    assert all(s.rank is None and s.shown.endswith("?") for s in board.rows)
    assert [s.user_id for s in board.bots] == [EASY] and board.bots[0].shown.endswith("?")
    request = await host.standings.board_request("zrtz", GUILD, None, None)
    picture = await host.standings.leaderboard(request, A, include_bots=False, server_name="Club", name_of=Names())
    assert picture.text.startswith("You have 2 rated game(s) here: listed, unranked, with a provisional ?")
    assert "AI levels (not ranked among people; `bots: True` ranks them): 🤖 AI (easy) " in picture.text
    mixed = await ratings.leaderboard(db, "zrtz", SCOPE, bots_too=True)
    assert EASY in [s.user_id for s in mixed.rows] and mixed.bots == []


async def test_the_podium_counts_as_its_table_does_and_updates_explain_tie_breaks_once(db: Database) -> None:
    from tests.conftest import FakeClock
    from tests.host.test_tournaments import Run, new_event, play_out

    run = Run(db, FakeClock())
    knockout = await new_event(run, "knockout", [101, 102, 103, 104])
    await play_out(run, knockout)
    podium = next(p.text for p in run.posts if p.what == "podium")
    assert " won" in podium and "pts" not in podium, podium
    swiss = await new_event(run, "swiss", [201, 202, 203, 204, 205], rounds=2)
    await play_out(run, swiss)
    updates = [p.text for p in run.posts if p.what == "standings" and f"#{swiss}" in p.text]
    assert updates and all("Buchholz (Bh)" not in text for text in updates)
    assert all(text.count("\n-# ") == 1 and "/tournament standings" in text for text in updates)
    assert "Buchholz (Bh)" in (await run.t.standings(swiss)).text  # the command explains them
