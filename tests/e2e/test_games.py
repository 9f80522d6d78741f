"""Each game's Discord promises end to end: options of ``/<game> new``, move autocomplete, board, abort.

The real bot talks to the fake Discord; positions are reached with ``bot.host.turns.play`` (the host the cogs
call), and what a player sees is checked through the fake (autocomplete choices, messages, files).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import engines
from engines import CHANCE
from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import PNG, challenge_and_accept, game_title, mover_name
from tests.fakediscord import Channel
from zbot import ZBot


async def open_game(harness: BotHarness, game: str, options: dict[str, Any],
                    accept: tuple[str, ...] = ("bob",)) -> tuple[int, Channel]:
    """alice runs ``/<game> new`` with ``options`` and the named players press Accept."""
    fake = harness.fake
    rec = await fake.slash("alice", f"{game} new", options)
    challenge = rec.original
    assert challenge is not None and not rec.ephemeral, rec.content
    game_id = int(re.search(r"#(\d+)", challenge.content)[1])
    for user in accept:
        await fake.click(user, fake.messages("general")[-1], f"zg:accept:{game_id}")
    return game_id, fake.thread(f"{game_title(game)} #{game_id}")


async def play_by_host(harness: BotHarness, bot: ZBot, game_id: int, *moves: str) -> None:
    """Whoever is to move plays each move in turn, through the host (no Discord round trip)."""
    for move in moves:
        mover = await mover_name(harness, bot, game_id)
        await bot.host.turns.play(game_id, harness.user_id(mover), move)


async def legal_moves(bot: ZBot, game_id: int, harness: BotHarness, user: str) -> list[str]:
    row = await bot.host.session.row(game_id)
    game = await bot.host.session.cached_engine(row)
    seat = row.seat_of(harness.user_id(user))
    assert seat is not None
    return game.legal_moves(seat)


def values(choices: list[dict[str, Any]]) -> list[str]:
    return [c["value"] for c in choices]


# ----- ZÈRTZ ----------------------------------------------------------------------------------


async def test_zrtz_48_rings_and_autocomplete_narrows_placements_by_colour_ring_then_removal(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        blitz = await fake.slash("alice", "zrtz new", {"opponent": "bob", "rings": 61, "blitz": True})
        assert blitz.ephemeral and blitz.content == "Cannot start ZÈRTZ: Blitz is played on 37 rings only."
        game_id, thread = await open_game(harness, "zrtz", {"opponent": "bob", "rings": 48})
        row = await bot.host.session.row(game_id)
        assert row.status == "active" and row.options["rings"] == 48
        observation = await bot.host.boards.observation(game_id, None)
        assert observation["rings"] == 48 and len(observation["names"]) == 48 and "h1" in observation["names"]
        mover = await mover_name(harness, bot, game_id)
        legal = await legal_moves(bot, game_id, harness, mover)
        assert len(legal) == 2961  # the 48-ring opening (37 rings would give 1,944)

        first = await fake.autocomplete(mover, "zrtz move", focused="move", value="", channel=thread)
        # Too many moves even per colour and ring (3 x 48): one entry per colour and column, with its count.
        assert values(first) == sorted({m[:2] for m in legal}) and len(first) == 24
        for choice in first:
            assert re.fullmatch(r"[wgb][a-h]", choice["value"]), choice
            count = sum(m.startswith(choice["value"]) for m in legal)
            assert choice["name"] == f"{choice['value']} … ({count} moves)"
        column = await fake.autocomplete(mover, "zrtz move", focused="move", value="wd", channel=thread)
        assert values(column) == sorted({m.split()[0] for m in legal if m.startswith("wd")})

        for typed in ("wd4", "Wd4", "wd4 "):
            removals = await fake.autocomplete(mover, "zrtz move", focused="move", value=typed, channel=thread)
            assert values(removals) == sorted(m for m in legal if m.startswith("wd4 ")), typed
            assert all(c["name"].startswith("White on d4, remove ") for c in removals)

        played = await fake.slash(mover, "zrtz move", {"move": removals[0]["value"]}, channel=thread)
        assert not played.ephemeral and played.files[0].data.startswith(PNG), played.content


async def test_zrtz_autocomplete_offers_only_captures_when_a_capture_is_compulsory(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await open_game(harness, "zrtz", {"opponent": "bob"})
        await play_by_host(harness, bot, game_id, "bd1 g1", "wb2 a3", "bc3 a1")
        mover = await mover_name(harness, bot, game_id)
        other = "bob" if mover == "alice" else "alice"
        legal = await legal_moves(bot, game_id, harness, mover)
        assert legal == ["b2xd4"]

        offered = await fake.autocomplete(mover, "zrtz move", focused="move", value="", channel=thread)
        assert values(offered) == ["b2xd4"] and "capture" in offered[0]["name"]
        none = await fake.autocomplete(mover, "zrtz move", focused="move", value="wd4", channel=thread)
        assert len(none) == 1 and none[0]["value"].startswith("⛔") and "No legal move matches" in none[0]["name"]
        waiting = await fake.autocomplete(other, "zrtz move", focused="move", value="", channel=thread)
        assert [c["name"] for c in waiting] == [f"Not your turn: waiting for Orange (@{mover})"] or \
            [c["name"] for c in waiting] == [f"Not your turn: waiting for Blue (@{mover})"]

        refused = await fake.slash(mover, "zrtz move", {"move": "we5 a4"}, channel=thread)
        assert refused.ephemeral and "capture is compulsory" in refused.content
        captured = await fake.slash(mover, "zrtz move", {"move": "b2xd4"}, channel=thread)
        assert not captured.ephemeral and "b2xd4" in captured.content and captured.files


# ----- Zarathustra ----------------------------------------------------------------------------


async def test_zarathustra_three_players_with_an_open_seat_filled_by_join(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        rec = await fake.slash("alice", "zarathustra new", {"opponent": "bob", "open_seats": 1})
        assert "1 open seat(s): press Join" in rec.content
        game_id = int(re.search(r"#(\d+)", rec.content)[1])
        assert set(rec.original.custom_ids()) == {f"zg:{a}:{game_id}" for a in ("accept", "join", "decline")}

        await fake.click("bob", fake.messages("general")[-1], f"zg:accept:{game_id}")
        assert (await bot.host.session.row(game_id)).status == "challenge"
        already = await fake.click("bob", fake.messages("general")[-1], f"zg:join:{game_id}")
        assert already.ephemeral and "already in this game" in already.content
        await fake.click("carol", fake.messages("general")[-1], f"zg:join:{game_id}")

        row = await bot.host.session.row(game_id)
        assert row.status == "active" and row.players == 3 and row.options["board"] == 6
        assert {harness.name_of(s.user_id) for s in row.seats} == {"alice", "bob", "carol"}
        assert "The game is on" in fake.messages("general")[-1].content
        first = fake.messages(fake.thread(f"Zarathustra #{game_id}"))[0]
        assert first.attachments and all(f"<@{harness.user_id(u)}>" in first.content
                                         for u in ("alice", "bob", "carol"))


async def test_zarathustra_autocomplete_by_square_by_edges_and_destroy_preview(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await open_game(harness, "zarathustra", {"opponent": "bob", "opponent2": "carol"},
                                          accept=("bob", "carol"))
        mover = await mover_name(harness, bot, game_id)
        legal = await legal_moves(bot, game_id, harness, mover)

        square = await fake.autocomplete(mover, "zarathustra move", focused="move", value="c3", channel=thread)
        c3 = [m for m in legal if m.startswith("c3 ")]
        assert len(c3) > 25 and 1 < len(square) <= 25  # 64 placements: grouped by their first edges
        assert all(v.startswith("c3 ") for v in values(square))
        counted = [int(m[1]) if (m := re.search(r"\((\d+) moves\)$", c["name"])) else 1 for c in square]
        assert sum(counted) == len(c3)

        edges = await fake.autocomplete(mover, "zarathustra move", focused="move", value="oo.x", channel=thread)
        squares = [v.split()[0] for v in values(edges)]
        assert len(edges) == 25 and len(set(squares)) == 25
        assert all(v.endswith(" oo.x") and v in legal for v in values(edges))

        first_seat = (await bot.host.session.row(game_id)).seat_of(harness.user_id(mover))
        # c3 shows a blank on top; f6 is far away (no skull near c3); the third player attacks c3 from c4.
        await play_by_host(harness, bot, game_id, "c3 .x..", "f6 .x..")
        third = await mover_name(harness, bot, game_id)
        attack = await fake.autocomplete(third, "zarathustra move", focused="move", value="c4 ..x", channel=thread)
        labels = {c["value"]: c["name"] for c in attack}
        game = engines.get("zarathustra").new(3, {})
        victim = game.seat_name(first_seat)
        assert labels["c4 ..x."] == f"c4 ..x. — destroys c3 ({victim})"
        quiet = await fake.autocomplete(third, "zarathustra move", focused="move", value="c5 ", channel=thread)
        assert quiet and not any("destroys" in c["name"] for c in quiet)

        await fake.slash(third, "zarathustra move", {"move": "c4 ..x."}, channel=thread)
        board = (await bot.host.boards.observation(game_id, None))["board"]
        assert "c3" not in board and "c4" in board


# ----- Zaic -----------------------------------------------------------------------------------


async def test_zaic_autocomplete_walks_size_then_square_then_orientation(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "zaic")
        thread = fake.thread(f"Zaic #{game_id}")
        await play_by_host(harness, bot, game_id, "2x1 h8 v", "2x1 i9 h", "2x2 k9")
        mover = await mover_name(harness, bot, game_id)
        legal = await legal_moves(bot, game_id, harness, mover)

        sizes = await fake.autocomplete(mover, "zaic move", focused="move", value="", channel=thread)
        assert values(sizes) == sorted({m.split()[0] for m in legal})
        assert all(re.fullmatch(r"\dx\d … \(\d+ moves\)", c["name"]) for c in sizes), sizes

        squares = await fake.autocomplete(mover, "zaic move", focused="move", value="2x1", channel=thread)
        assert 1 < len(squares) <= 25
        # A square with both orientations is a step to narrow into; one with a single orientation is the move.
        stems = {" ".join(m.split()[:2]) for m in legal if m.startswith("2x1 ")}
        assert all(v in stems or v in legal for v in values(squares)), squares

        both = [c["value"] for c in squares if c["name"].endswith("(2 moves)")]
        assert both, squares
        turns = await fake.autocomplete(mover, "zaic move", focused="move", value=both[0] + " ", channel=thread)
        assert sorted(values(turns)) == [f"{both[0]} h", f"{both[0]} v"]
        assert all(v in legal for v in values(turns))

        played = await fake.slash(mover, "zaic move", {"move": turns[0]["value"]}, channel=thread)
        assert not played.ephemeral and played.files and turns[0]["value"] in played.content


# ----- Ziggurat -------------------------------------------------------------------------------


async def test_ziggurat_partners_game_opens_with_four_players_and_names_the_mover(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        short = await fake.slash("alice", "ziggurat new", {"opponent": "bob", "opponent2": "carol", "mode": "partners"})
        assert short.ephemeral and "partners is for 4 players" in short.content
        game_id, thread = await open_game(
            harness, "ziggurat", {"opponent": "bob", "opponent2": "carol", "opponent3": "dave", "mode": "partners"},
            accept=("bob", "carol", "dave"))
        row = await bot.host.session.row(game_id)
        assert row.status == "active" and row.players == 4 and row.options["mode"] == "partners"
        team = {harness.name_of(s.user_id): s.team for s in row.seats}
        assert sorted(team) == ["alice", "bob", "carol", "dave"]
        assert team["alice"] == team["carol"] != team["bob"] == team["dave"], team  # opponent2 is the partner
        game = await bot.host.session.cached_engine(row)
        assert list(game.teams()) == [s.team for s in sorted(row.seats, key=lambda s: s.seat)]

        first = fake.messages(thread)[0]
        observation = await bot.host.boards.observation(game_id, None)
        movers = [s for s in observation["to_move"] if s != CHANCE]
        assert len(movers) == 1
        mover_id = row.user_at(movers[0])
        assert f"To move: {game.seat_name(movers[0])} <@{mover_id}>" in first.content
        mover = harness.name_of(mover_id)
        assert await fake.autocomplete(mover, "ziggurat move", focused="move", value="end", channel=thread)
        ended = await fake.slash(mover, "ziggurat move", {"move": "end"}, channel=thread)
        after = await bot.host.boards.observation(game_id, None)
        nxt = [s for s in after["to_move"] if s != CHANCE]
        assert nxt and nxt != movers
        assert f"To move: {game.seat_name(nxt[0])} <@{row.user_at(nxt[0])}>" in ended.content


# ----- board and abort, for every game --------------------------------------------------------

GAMES_WITH_A_FIRST_MOVE = {"zrtz": "wd4 a1", "zarathustra": "c3 oo.x", "zaic": "2x2 h8", "ziggurat": "end"}


@pytest.mark.parametrize("game", sorted(GAMES_WITH_A_FIRST_MOVE))
async def test_board_public_and_private_and_abort_only_before_the_first_move(harness: BotHarness,
                                                                             game: str) -> None:
    fake = harness.fake
    title = game_title(game)
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, game)
        thread = fake.thread(f"{title} #{game_id}")
        shown = await fake.slash("carol", f"{game} board", channel=thread)
        assert not shown.ephemeral and shown.content == f"**{title}** #{game_id}"
        assert shown.files and shown.files[0].data.startswith(PNG)
        assert fake.messages(thread)[-1].attachments
        private = await fake.slash("bob", f"{game} board", {"private": True}, channel=thread)
        assert private.ephemeral and private.files[0].data.startswith(PNG)
        assert fake.messages(thread)[-1].id == shown.original.id  # nothing new in the thread for others

        stranger = await fake.slash("carol", f"{game} abort", channel=thread)
        assert stranger.ephemeral and "Only a player" in stranger.content
        aborted = await fake.slash("bob", f"{game} abort", channel=thread)
        assert not aborted.ephemeral and "aborted the game before the first move" in aborted.content
        assert (await bot.host.session.row(game_id)).status == "aborted"
        late = await fake.slash("alice", f"{game} move", {"move": GAMES_WITH_A_FIRST_MOVE[game]}, channel=thread)
        assert late.ephemeral and "was aborted" in late.content

        second_id, _ = await challenge_and_accept(harness, game)
        second = fake.thread(f"{title} #{second_id}")
        mover = await mover_name(harness, bot, second_id)
        moved = await fake.slash(mover, f"{game} move", {"move": GAMES_WITH_A_FIRST_MOVE[game]}, channel=second)
        assert not moved.ephemeral, moved.content
        for user in ("alice", "bob"):
            refused = await fake.slash(user, f"{game} abort", channel=second)
            assert refused.ephemeral and refused.content == "The game has started: resign instead, or offer a draw."
        assert (await bot.host.session.row(second_id)).status == "active"
