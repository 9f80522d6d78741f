"""``host.standings``: what /leaderboard, /profile and /season send, asked of the host as a cog asks."""

from __future__ import annotations

import asyncio

import discord
import pytest

import engines
from data.db import Database
from host.app import Host
from host.play import bots
from host.ratings import seasons
from host.ratings.standings import Standings
from host.results import HostError
from tests.host.test_ratings import GUILD, SCOPE, A, B, C, D, finish

PNG = b"\x89PNG\r\n\x1a\n"
EASY = bots.user_of("easy")


class Names:
    """The cog's name callback: records whom it was asked about."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    async def __call__(self, user_id: int) -> str:
        self.asked.append(user_id)
        return f"Player {user_id}"


async def test_board_requests_are_checked_before_the_slow_part(host: Host) -> None:
    standings = host.standings
    with pytest.raises(HostError, match="no game called 'chess'"):
        await standings.board_request("chess", GUILD, None, None)
    with pytest.raises(HostError, match="Seasons belong to a server"):
        await standings.board_request("zrtz", GUILD, "global", 1)
    with pytest.raises(HostError, match="Server boards live in a server"):
        await standings.board_request("zrtz", None, "server", None)
    with pytest.raises(HostError, match="Season 2 has not started; this server is in season 1"):
        await standings.board_request("zrtz", GUILD, None, 2)
    request = await standings.board_request("zrtz", GUILD, None, 1)
    assert (request.scope, request.season) == (SCOPE, 1)
    assert (await standings.board_request("zrtz", None, None, None)).scope == "global"


async def test_only_admins_start_a_season_and_it_opens_its_board(host: Host) -> None:
    with pytest.raises(HostError, match="Manage Server"):
        await host.standings.start_season(GUILD, A, discord.Permissions(send_messages=True))
    with pytest.raises(HostError, match="Seasons belong to a server"):
        await host.standings.start_season(None, A, True)
    text = await host.standings.start_season(GUILD, A, discord.Permissions(manage_guild=True))
    assert "Season 2 begins" in text and "/leaderboard season:2" in text
    assert (await host.standings.board_request("zrtz", GUILD, None, 2)).season == 2


async def test_the_leaderboard_is_an_image_with_the_callers_place(host: Host, db: Database) -> None:
    names = Names()
    empty = await host.standings.board_request("zaic", GUILD, None, None)
    picture = await host.standings.leaderboard(empty, A, include_bots=True, server_name="Club", name_of=names)
    assert picture.text == "Nobody is ranked yet." and picture.image.startswith(PNG)
    for i in range(5):
        await finish(db, (A, EASY), (1, 2), now=100.0 + i)
    await finish(db, (B, C), (1, 2), now=200.0)
    request = await host.standings.board_request("zrtz", GUILD, None, None)
    picture = await host.standings.leaderboard(request, A, include_bots=True, server_name="Club", name_of=names)
    assert picture.text == "You are #1 of 2." and picture.filename == "leaderboard-zrtz.png"
    assert picture.image.startswith(PNG)
    assert EASY not in names.asked, "an AI level is named by the host, never looked up as a person"
    assert names.asked[0] == A  # then B and C, listed as provisional below the ranked players
    newcomer = await host.standings.leaderboard(request, B, include_bots=False, server_name="Club", name_of=names)
    assert newcomer.text.startswith("You have 1 rated game(s) here: listed, unranked, with a provisional ?; 5 give"
                                    " you a place.")


async def test_a_profile_has_a_field_per_game_recent_results_and_a_chart(host: Host, db: Database) -> None:
    empty = await host.standings.profile(D, GUILD, Names())
    assert empty.title == f"Player {D} · ratings on this server"
    assert empty.description == "No rated games yet." and empty.chart is None and empty.fields == []
    await finish(db, (A, B), (1, 2), now=100.0)
    await finish(db, (A, B), (1, 1), game="zaic", now=101.0)
    page = await host.standings.profile(A, GUILD, Names())
    assert [f.name for f in page.fields] == ["Zaic", "ZÈRTZ", "Recent results"]  # most played first, then by name
    assert "Best win" not in page.fields[0].value and "0W 0L 1D" in page.fields[0].value
    assert f"Best win: <@{B}>" in page.fields[1].value and "1W 0L 0D" in page.fields[1].value
    assert page.fields[-1].value.startswith("🤝 Draw · Zaic") and not page.fields[-1].inline
    assert page.chart is not None and page.chart.startswith(PNG) and page.footer
    assert (await host.standings.profile(A, None, Names())).title.endswith("ratings on all servers")
    assert (await host.standings.profile(EASY, GUILD, Names())).title.startswith("AI (easy) [bot]")


async def test_the_profile_gives_the_place_the_leaderboard_gives(host: Host, db: Database) -> None:
    """People are ranked among people on both; an AI level's own profile ranks it as ``bots: True`` does
    (reviewer R2, R1: the profile said #2 of 4 where the board said #1 of 3)."""
    hard = bots.user_of("hard")
    t = 100.0
    for _ in range(2):  # the AI beats everyone; A beats B and C
        for person in (A, B, C):
            await finish(db, (hard, person), (1, 2), now=(t := t + 1))
    for _ in range(3):
        await finish(db, (A, B), (1, 2), now=(t := t + 1))
        await finish(db, (A, C), (1, 2), now=(t := t + 1))
    request = await host.standings.board_request("zrtz", GUILD, None, None)
    people = await host.standings.leaderboard(request, A, include_bots=False, server_name="Club", name_of=Names())
    assert people.text.startswith("You are #1 of 3.")
    everyone = await host.standings.leaderboard(request, A, include_bots=True, server_name="Club", name_of=Names())
    assert everyone.text == "You are #2 of 4."
    mine = await host.standings.profile(A, GUILD, Names())
    assert "· #1 of 3\n" in mine.fields[0].value
    its = await host.standings.profile(hard, GUILD, Names())
    assert "· #1 of 4, people and AI levels\n" in its.fields[0].value


async def test_a_second_season_start_soon_after_is_taken_for_a_double_submit(host: Host, clock) -> None:
    """Within a day of a start, ``/season start`` alone changes nothing and says how to go on; naming the
    season begins it, and a named season that has begun already is refused (reviewer R2, R3)."""
    admin = discord.Permissions(manage_guild=True)
    assert "Season 2 begins" in await host.standings.start_season(GUILD, A, admin)
    clock.advance(60)
    with pytest.raises(HostError) as again:
        await host.standings.start_season(GUILD, B, admin)
    began = f"Season 2 began on this server <t:{int(clock() - 60)}:R> (by <@{A}>), so nothing changed"
    assert began in str(again.value)
    assert "`/season start season:3`" in str(again.value)
    with pytest.raises(HostError, match=rf"Season 2 has already begun on this server <t:\d+:R> \(by <@{A}>\)\."):
        await host.standings.start_season(GUILD, B, admin, season=2)
    with pytest.raises(HostError, match="Season 1 has already begun"):
        await host.standings.start_season(GUILD, B, admin, season=1)
    with pytest.raises(HostError, match="This server is in season 2: the next to begin is season 3"):
        await host.standings.start_season(GUILD, B, admin, season=4)
    assert await seasons.current_season(host.db, GUILD) == 2
    assert "Season 3 begins" in await host.standings.start_season(GUILD, B, admin, season=3)
    clock.advance(seasons.RESTART_GUARD)
    assert "Season 4 begins" in await host.standings.start_season(GUILD, A, admin)
    assert [s.number for s in await seasons.seasons(host.db, GUILD)] == [1, 2, 3, 4]


@pytest.mark.parametrize("named", [None, 2])
async def test_two_season_starts_at_once_begin_one_season(shared: str, clock, named: int | None) -> None:
    """Two admins (or one double click, or two processes) at the same moment: one season begins, the other
    caller is told so privately; no database error reaches either (PostgreSQL raised UniqueViolationError)."""
    first, second = await Database.open(shared), await Database.open(shared)
    try:
        one, two = Standings(first, engines.GAMES, clock), Standings(second, engines.GAMES, clock)
        named_too = {} if named is None else {"season": named}  # without it: as before the season option
        said = await asyncio.gather(one.start_season(GUILD, A, True, **named_too),
                                    two.start_season(GUILD, B, True, **named_too), return_exceptions=True)
        begun = [s for s in said if isinstance(s, str)]
        refused = [s for s in said if not isinstance(s, str)]
        assert len(begun) == 1 and "Season 2 begins" in begun[0]
        assert len(refused) == 1 and isinstance(refused[0], HostError) and "Season 2" in str(refused[0])
        assert [s.number for s in await seasons.seasons(first, GUILD)] == [1, 2]
    finally:
        await first.close()
        await second.close()
