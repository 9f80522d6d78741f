"""Rematches: an AI opponent takes its seat at once, and one game has at most one live rematch."""

from __future__ import annotations

import asyncio

import pytest

from host.app import Host
from host.play import bots
from host.results import HostError
from tests.host.test_service import ALICE, BOB, CAROL

EASY = bots.user_of("easy")


async def finished_game(host: Host, opponents: list[int]) -> int:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=opponents, guild_id=1, channel_id=2)
    for user in lobby.waiting_for:
        lobby = await host.lobby.accept(lobby.row.id, user)
    assert lobby.started
    for user in [ALICE, *opponents][:-1]:  # all but the last resign: the game is over
        if not bots.is_ai(user):
            await host.turns.resign(lobby.row.id, user)
    assert (await host.session.row(lobby.row.id)).status == "finished"
    return lobby.row.id


async def test_a_rematch_against_the_ai_starts_at_once(host: Host) -> None:
    game_id = await finished_game(host, [EASY])
    old = await host.session.row(game_id)
    again = await host.lobby.rematch(game_id, ALICE)
    assert again.started and again.waiting_for == []
    assert (await host.session.row(again.row.id)).status == "active"
    assert [again.row.user_at(s) for s in (0, 1)] == [old.user_at(1), old.user_at(0)], "seats rotated"


async def test_an_ai_seat_beside_people_waits_only_for_the_people(host: Host) -> None:
    game_id = await finished_game(host, [BOB, EASY])
    again = await host.lobby.rematch(game_id, ALICE)
    assert not again.started and again.waiting_for == [BOB]
    assert (await host.lobby.accept(again.row.id, BOB)).started


async def test_a_second_rematch_is_refused_while_the_first_waits_or_is_played(host: Host) -> None:
    game_id = await finished_game(host, [BOB, CAROL])
    first = await host.lobby.rematch(game_id, BOB)
    for user in (ALICE, BOB, CAROL):  # whoever presses again, even the one who asked
        with pytest.raises(HostError, match=rf"Rematch #{first.row.id} of game #{game_id} is already waiting"):
            await host.lobby.rematch(game_id, user)
    for user in first.waiting_for:
        started = await host.lobby.accept(first.row.id, user)
    assert started.started
    with pytest.raises(HostError, match=rf"Rematch #{first.row.id} of game #{game_id} is already being played"):
        await host.lobby.rematch(game_id, CAROL)
    await host.turns.resign(first.row.id, ALICE)
    await host.turns.resign(first.row.id, BOB)
    third = await host.lobby.rematch(first.row.id, CAROL)  # the rematch, once over, has its own rematch
    assert third.row.settings["rematch_of"] == first.row.id


async def test_a_declined_rematch_can_be_asked_again(host: Host) -> None:
    game_id = await finished_game(host, [BOB])
    first = await host.lobby.rematch(game_id, BOB)
    await host.lobby.decline(first.row.id, ALICE)
    second = await host.lobby.rematch(game_id, ALICE)
    assert second.row.id != first.row.id and second.row.settings["rematch_of"] == game_id


async def test_two_rematch_presses_at_once_make_one_rematch(host: Host) -> None:
    game_id = await finished_game(host, [BOB])
    results = await asyncio.gather(host.lobby.rematch(game_id, ALICE), host.lobby.rematch(game_id, BOB),
                                   return_exceptions=True)
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, HostError)]
    assert len(made) == 1 and len(refused) == 1, results
