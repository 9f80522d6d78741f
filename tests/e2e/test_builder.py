"""The move builder end to end: whole games played only by builder presses, and its refusals.

Each game is played to its end by people pressing Move, the builder's choices and Play, never typing a
move (Zodiac's secret choices are made in their DM menus, as the builder asks). Every payload passes the
fake Discord's limits, or the fake fails the test. Every user's budget is on, its clock at a person's pace: no
press is refused (once a whole Zaic game of its own in tests/e2e/test_rate_limits.py).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engines
from cogs._limits import Budget
from tests.e2e.builder_driver import Presses, choices, is_builder, open_builder, play_one_move, press
from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept, game_title, mover_name
from tests.fakediscord import Message

MAX_PLIES = 600
PEOPLE = ("alice", "bob", "carol", "dave")


async def start(harness: BotHarness, game: str, players: int, options: dict[str, Any]) -> int:
    """alice challenges the others with ``options``; everyone accepts; the game id."""
    fake = harness.fake
    named = {"opponent": "bob", "opponent2": "carol", "opponent3": "dave"}
    params = {key: user for key, user in list(named.items())[:players - 1]} | options
    rec = await fake.slash("alice", f"{game} new", params)
    challenge = rec.original
    assert challenge is not None and "wants to play" in challenge.content, rec.content
    accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
    for user in PEOPLE[1:players]:
        await fake.click(user, fake.world.messages[challenge.id], accept)
    return int(accept.rsplit(":", 1)[1])


def live_board(harness: BotHarness, game: str, game_id: int) -> Message:
    thread = harness.fake.thread(f"{game_title(game)} #{game_id}")
    return next(m for m in reversed(harness.fake.messages(thread)) if f"mo:{game_id}" in m.custom_ids())


async def secret_choice(harness: BotHarness, user: str, game_id: int, rng: random.Random) -> None:
    """Zodiac's duel and king picks: chosen in the DM menu the bot sent, as the builder tells players to."""
    fake = harness.fake
    menus = [m for m in fake.messages(fake.user(user)) if f"zs:{game_id}" in m.custom_ids()]
    assert menus, f"{user} has a secret choice to make but no DM menu"
    menu = menus[-1]
    options = [o["value"] for row in menu.components for c in row["components"] for o in c.get("options", [])]
    await fake.select(user, menu, f"zs:{game_id}", [rng.choice(options)])


async def play_whole_game(harness: BotHarness, bot, game: str, game_id: int, seed: str) -> Presses:
    """The players of ``game_id`` play it to its end pressing only Move, the builder's choices and Play."""
    rng, stats = random.Random(seed), Presses()
    for _ in range(MAX_PLIES):
        row, state = await bot.host.session.engine_copy(game_id)
        if row.status != "active":
            break
        seat = min(s for s in state.to_move() if s >= 0)
        user = harness.name_of(row.user_at(seat))
        if state.move_picks(seat)[0][1][0].kind == "secret":
            await secret_choice(harness, user, game_id, rng)
            continue
        builder = await open_builder(harness.fake, user, live_board(harness, game, game_id), game_id, stats)
        builder = await play_one_move(harness.fake, user, builder, rng, stats)
        while is_builder(builder):  # the same player's next step of a turn of several
            builder = await play_one_move(harness.fake, user, builder, rng, stats, opened=False)
    row = await bot.host.session.row(game_id)
    assert row.status == "finished", f"{game} #{game_id} did not end by builder presses"
    thread = harness.fake.thread(f"{game_title(game)} #{game_id}")
    assert any("🏆" in m.content or "🤝" in m.content for m in harness.fake.messages(thread)[-2:])
    return stats


GAMES = [
    ("zaic", 2, {}),
    ("zrtz", 2, {}),
    ("zodiac", 2, {}),
    ("zarathustra", 2, {"board": 6}),
    ("zarathustra", 3, {"board": 7}),
    ("zarathustra", 4, {"board": 5, "skulls_if_destroyed": True}),
    ("ziggurat", 2, {"mode": "double", "queen": True, "movement_die": "d6", "action_die": "treehouse",
                     "wild_redo": False, "round_limit": 30}),
    ("ziggurat", 3, {"round_limit": 30}),
    ("ziggurat", 4, {"mode": "partners", "round_limit": 30}),
]
"""Every game, and every player count and option value of Zarathustra and Ziggurat, played whole through
Discord (the round limit at its quickest: its value changes only the length). The same host service plays
more combinations in ``tests/host/test_builder_games.py``."""


PACE = (0.2, 0.2, 0.2, 3.4)
"""A person's pace, as the per-user budget (cogs/_limits.py) sees it: bursts of 4 presses, about one a second."""


def at_a_persons_pace(budget: Budget) -> None:
    """Each user's interactions reach ``budget`` ``PACE`` apart on its clock, however fast the test presses and
    whoever else presses between them (one clock for all users would space each user's presses by the others' too,
    a slower pace than a person's)."""
    paces: dict[int, Iterator[float]] = {}
    now: dict[int, float] = {}
    take = budget.take

    def paced(user_id: int) -> float:
        now[user_id] = now.get(user_id, 0.0) + next(paces.setdefault(user_id, itertools.cycle(PACE)))
        budget.clock = lambda: now[user_id]
        return take(user_id)

    budget.take = paced  # type: ignore[method-assign]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[f"{g}-{p}p" for g, p, _ in GAMES])
async def test_a_whole_game_by_builder_presses_only(harness: BotHarness, game: str, players: int,
                                                    options: dict[str, Any]) -> None:
    """With every user's budget on (issue 24, item 2), as a bot has it: a builder at a person's pace is never
    refused, in any game."""
    harness.rate_burst = 10
    async with harness.running() as bot:
        assert bot.rates is not None
        at_a_persons_pace(bot.rates)
        game_id = await start(harness, game, players, options)
        stats = await play_whole_game(harness, bot, game, game_id, f"{game}{players}")
    assert stats.per_move and max(stats.picks_per_move) <= 4
    fake = harness.fake
    assert not any("Slow down" in m.content for m in fake.world.messages.values()), "every channel and DM"


async def test_back_cancel_and_refusals(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "zrtz")
        mover = await mover_name(harness, bot, game_id)
        other = "bob" if mover == "alice" else "alice"
        refused = await fake.click(other, first, f"mo:{game_id}")
        await refused.wait_resolved()
        assert refused.messages[-1].ephemeral and "turn" in refused.messages[-1].content
        stranger = await fake.click("carol", first, f"mo:{game_id}")
        await stranger.wait_resolved()
        assert "not playing" in stranger.messages[-1].content

        assert "How to move: press **Move** under the board, or type `/zrtz move`." in first.content
        stats = Presses()
        builder = await open_builder(fake, mover, first, game_id, stats)
        assert "Which marble do you place?" in builder.content and builder.attachments
        white = next(c for c, _ in choices(builder) if c.endswith(":2"))  # b, g, w: the third is white
        await press(fake, mover, builder, white, None, stats)
        picked = fake.world.messages[builder.id]
        assert "Picked: White marble" in picked.content and "On which ring?" in picked.content
        back = next(c for c in picked.custom_ids() if c.startswith("mk:"))
        await press(fake, mover, picked, back, None, stats)
        assert "Which marble do you place?" in fake.world.messages[builder.id].content, "Back undoes the pick"

        # The opponent moves meanwhile (typed): the open builder is stale and says so, changing nothing.
        old = await open_builder(fake, mover, first, game_id, stats)
        state = await bot.host.boards.observation(game_id, None)
        thread = fake.thread(f"ZÈRTZ #{game_id}")
        move = (await bot.host.session.engine_copy(game_id))[1].legal_moves(state["to_move"][0])[0]
        await fake.slash(mover, "zrtz move", {"move": move}, channel=thread)
        forward = choices(fake.world.messages[old.id])[0]
        await press(fake, mover, fake.world.messages[old.id], forward[0], forward[1], stats)
        stale = fake.world.messages[old.id]
        assert "already moved from this position" in stale.content and "Nothing more was played" in stale.content
        assert stale.custom_ids() == [f"mo:{game_id}"], "a stale builder offers a fresh one"
        assert (await bot.host.boards.observation(game_id, None))["ply"] == state["ply"] + 1

        # A newer builder replaces an older one; Cancel closes without playing.
        board = live_board(harness, "zrtz", game_id)
        older = await open_builder(fake, other, board, game_id, stats)
        newer = await open_builder(fake, other, board, game_id, stats)
        forward = choices(fake.world.messages[older.id])[0]
        await press(fake, other, fake.world.messages[older.id], forward[0], forward[1], stats)
        assert "newer move builder" in fake.world.messages[older.id].content
        cancel = next(c for c in newer.custom_ids() if c.startswith("mx:"))
        await press(fake, other, newer, cancel, None, stats)
        closed = fake.world.messages[newer.id]
        assert "closed" in closed.content and not closed.custom_ids()
        assert (await bot.host.boards.observation(game_id, None))["ply"] == state["ply"] + 1

        # The opponent's builder is open when the game ends: its next press says so and plays nothing.
        last = await open_builder(fake, other, live_board(harness, "zrtz", game_id), game_id, stats)
        await fake.slash(mover, "zrtz resign", channel=thread)
        forward = choices(fake.world.messages[last.id])[0]
        await press(fake, other, fake.world.messages[last.id], forward[0], forward[1], stats)
        ended = fake.world.messages[last.id]
        assert ended.content == f"Game #{game_id} is over." and not ended.custom_ids(), "no Move for an ended game"


async def test_a_builder_works_across_a_restart(harness: BotHarness) -> None:
    fake = harness.fake
    stats = Presses()
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "zaic")
        mover = await mover_name(harness, bot, game_id)
        builder = await open_builder(fake, mover, first, game_id, stats)
        forward = choices(builder)[0]
        await press(fake, mover, builder, forward[0], forward[1], stats)
    async with harness.running() as bot:
        builder = await play_one_move(fake, mover, fake.world.messages[builder.id], random.Random(1), stats)
        assert (await bot.host.boards.observation(game_id, None))["ply"] == 1, "the builder played after the restart"
        assert not is_builder(builder) and "Played" in builder.content


def test_every_game_is_played_whole_here() -> None:
    assert {g for g, _, _ in GAMES} == set(engines.GAMES), "every registered game needs its builder game"


async def test_the_thread_shows_typing_while_the_ai_thinks_and_it_stops_after_its_move(
        fake_discord, tmp_path) -> None:
    from host.play import bots
    from tests.e2e.test_ai import AI_WAIT, harness_id, legal_for, played_by, start_ai_game
    from tests.fakediscord import running_bot
    from zbot import Config, create_bot

    fake = fake_discord
    database = tmp_path / "typing.sqlite3"
    config = Config(token="fake-token", database_path=database, api_base=fake.api_base,
                    gateway_url=fake.gateway_url, sync=True, guild_ready_timeout=0, ai_think_delay=6.0)
    async with running_bot(fake, create_bot(config)) as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        row = await bot.host.session.row(game_id)
        if row.seats_of(bots.user_of("easy"))[0] != 0:
            move = legal_for(database, game_id, harness_id(fake, "alice"))[0]
            await fake.slash("alice", "zaic move", {"move": move}, channel=thread)
        await fake.wait_until(lambda: any("is thinking" in m.content for m in fake.messages(thread)),
                              what="the board saying the AI thinks")

        def typing() -> list:
            return [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{thread.id}/typing"]

        await fake.wait_until(lambda: len(typing()) >= 2, timeout=AI_WAIT, what="typing renewed while the AI thinks")
        await fake.wait_until(lambda: played_by(fake.messages(thread), "easy"), timeout=AI_WAIT, what="the AI's move")
        after = len(typing())
        await asyncio.sleep(6)  # discord.py renews typing every 5 s while it lasts
        assert len(typing()) == after, "typing stopped with the AI's move"
        assert "is thinking" not in played_by(fake.messages(thread), "easy")[-1].content
        assert any("🤖 AI (easy) is thinking…" in m.content for m in fake.messages(thread)), "the caption names the AI"


async def test_a_builder_whose_message_cannot_be_edited_any_more_opens_afresh(harness: BotHarness) -> None:
    """Discord refuses an edit through an expired interaction token (after 15 minutes): a fresh builder follows."""
    fake = harness.fake
    stats = Presses()
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "zaic")
        mover = await mover_name(harness, bot, game_id)
        builder = await open_builder(fake, mover, first, game_id, stats)
        fake.faults.add("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", 401, code=50027)
        forward = choices(builder)[0]
        rec = await press(fake, mover, builder, forward[0], forward[1], stats)
        fresh = await rec.wait_followups(1)
        assert fresh[-1].ephemeral and is_builder(fresh[-1]) and "Picked:" in fresh[-1].content
        await play_one_move(fake, mover, fresh[-1], random.Random(2), stats, opened=False)
        assert (await bot.host.boards.observation(game_id, None))["ply"] == 1


async def test_a_builder_after_its_game_ended_says_so_and_offers_no_move(harness: BotHarness) -> None:
    """The game ended while the builder was open (by the other player's resignation, or by the builder's own
    player): it says the game is over, plays nothing and offers no Move button, also when its message cannot be
    edited any more and the answer is a new private message."""
    fake = harness.fake
    stats = Presses()
    async with harness.running() as bot:
        for resigner_moves, expired in ((False, False), (True, False), (False, True)):
            game_id, first = await challenge_and_accept(harness, "zaic")
            mover = await mover_name(harness, bot, game_id)
            builder = await open_builder(fake, mover, first, game_id, stats)
            resigner = mover if resigner_moves else ("bob" if mover == "alice" else "alice")
            await fake.slash(resigner, "zaic resign", channel=fake.thread(f"Zaic #{game_id}"))
            if expired:
                fake.faults.add("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", 401, code=50027)
            before = await bot.host.boards.observation(game_id, None)
            forward = choices(builder)[0]
            rec = await press(fake, mover, builder, forward[0], forward[1], stats)
            shown = (await rec.wait_followups(1))[-1] if expired else fake.world.messages[builder.id]
            assert shown.content == f"Game #{game_id} is over.", shown.content
            assert not shown.custom_ids(), "a fresh builder could only say the same again"
            assert await bot.host.boards.observation(game_id, None) == before
