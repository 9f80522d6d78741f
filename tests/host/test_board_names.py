"""The host puts the players' display names into what the renderer gets, when the Discord side gives them."""

from __future__ import annotations

import json

from host.app import Host

ALICE, BOB = 101, 202


async def started(host: Host) -> int:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert lobby.started
    return lobby.row.id


async def test_board_observations_carry_display_names_by_seat(host: Host) -> None:
    game_id = await started(host)
    assert "player_names" not in json.loads((await host.boards.board(game_id)).image)
    host.boards.display_name = {ALICE: "Alice 🐉", BOB: None}.get
    observation = json.loads((await host.boards.board(game_id)).image)
    row = await host.store.get(game_id)
    assert row is not None
    expected = ["Alice 🐉" if row.user_at(seat) == ALICE else None for seat in range(2)]
    assert observation["player_names"] == expected


async def test_an_ai_seat_is_named_on_the_board_like_everywhere_else(host: Host) -> None:
    from host.play import bots

    robot = bots.user_of("hard")
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[robot], guild_id=1, channel_id=2)
    row = await host.store.get(lobby.row.id)
    assert row is not None and row.status == "active"
    for namer in (None, {ALICE: "Alice 🐉"}.get):  # with or without names of people from Discord
        host.boards.display_name = namer
        observation = json.loads((await host.boards.board(row.id)).image)
        expected = [("Alice 🐉" if namer else None) if row.user_at(s) == ALICE else "🤖 AI (hard)" for s in range(2)]
        assert observation["player_names"] == expected
