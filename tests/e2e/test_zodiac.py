"""Zodiac Chess end to end: secret duel and king choices by DM, the closed-DM fallback, "My view"."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import PNG, challenge_and_accept


def dm_menu(harness: BotHarness, user: str, game_id: int):
    menus = [m for m in harness.fake.messages(harness.fake.user(user)) if f"zs:{game_id}" in m.custom_ids()]
    assert menus, f"{user} got no menu by DM"
    return menus[-1]


async def test_secret_choices_by_dm_with_a_fallback_for_closed_dms(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        assert "Tree" in str(dm_menu(harness, "alice", game_id).components)

        await fake.select("alice", dm_menu(harness, "alice", game_id), f"zs:{game_id}", ["pick Tree"])
        assert "You chose" in fake.messages(fake.user("alice"))[-1].content
        assert "a secret duel pick" in fake.messages(thread)[-1].content
        assert all("Tree" not in m.content for m in fake.messages(thread)), "bob must not learn alice's pick"
        assert not fake.messages(fake.user("alice"))[-1].custom_ids(), "the answered menu is closed"
        again = await fake.slash("alice", "zodiac move", {"move": "pick Wolf"}, channel=thread)
        assert again.ephemeral and "already made your secret choice" in again.content
        bob_menu = dm_menu(harness, "bob", game_id)
        typed = await fake.slash("bob", "zodiac move", {"move": "pick Wolf"}, channel=thread)
        assert typed.ephemeral and "stays secret" in typed.content, "a typed secret choice is answered privately"
        revealed = fake.messages(thread)[-1].content
        assert "a secret duel pick" in revealed
        assert "Side duel, round 1" in revealed and "picked Tree" in revealed and "picked Wolf" in revealed
        closed = fake.world.messages[bob_menu.id]
        assert not closed.custom_ids() and "already chosen" in closed.content, "bob's DM menu closes after he typed"

        # Tree beats Wolf: alice chooses her side in the thread; bob's DMs are closed from now on.
        fake.close_dms("bob")
        side = await fake.slash("alice", "zodiac move", {"move": "light"}, channel=thread)
        assert not side.ephemeral and side.files

        king_menu = dm_menu(harness, "alice", game_id)
        assert "secret king" in king_menu.content and "Bear" in str(king_menu.components)
        fallback = next(m for m in fake.messages(thread) if f"zp:{game_id}" in m.custom_ids())
        opened = await fake.click("bob", fallback, f"zp:{game_id}")
        assert opened.ephemeral and f"zs:{game_id}" in opened.original.custom_ids()
        await fake.select("bob", opened.original, f"zs:{game_id}", ["king Bear"])
        await fake.select("alice", dm_menu(harness, "alice", game_id), f"zs:{game_id}", ["king Wolf"])
        assert not fake.world.messages[fallback.id].custom_ids(), "the thread's Choose privately button closes too"
        public = " ".join(m.content for m in fake.messages(thread) + fake.messages("general"))
        assert "Bear" not in public and "king Wolf" not in public
        assert (await bot.host.boards.observation(game_id, None))["phase"] == "place"

        board = fake.messages(thread)[-1]
        mine = await fake.click("bob", board, f"zv:{game_id}")
        assert mine.ephemeral and mine.files[0].data.startswith(PNG)
        stranger = await fake.click("carol", board, f"zv:{game_id}")
        assert stranger.ephemeral and "Only the players" in stranger.content
        mover = "alice"  # Light places first
        pieces = await fake.autocomplete(mover, "zodiac move", focused="move", value="", channel=thread)
        assert "Wolf" in [c["value"] for c in pieces]  # too many placements: first the piece, then the square
        choices = await fake.autocomplete(mover, "zodiac move", focused="move", value="Wolf ", channel=thread)
        assert choices and all(c["value"].startswith("Wolf ") for c in choices)
        placed = await fake.slash(mover, "zodiac move", {"move": choices[0]["value"]}, channel=thread)
        assert placed.files and not placed.ephemeral, placed.content


async def test_a_match_goes_on_in_the_same_thread_with_new_king_menus(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        rec = await fake.slash("alice", "zodiac new", {"opponent": "bob", "games": 3})
        accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("bob", rec.original, accept)
        game_id = int(accept.rsplit(":", 1)[1])
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        await fake.select("alice", dm_menu(harness, "alice", game_id), f"zs:{game_id}", ["pick Tree"])
        await fake.select("bob", dm_menu(harness, "bob", game_id), f"zs:{game_id}", ["pick Wolf"])
        await fake.slash("alice", "zodiac move", {"move": "light"}, channel=thread)
        resigned = await fake.slash("bob", "zodiac resign", channel=thread)
        assert "Match (best of 3)" in resigned.content and "game 2 starts below" in resigned.content
        second = await bot.host.boards.resolve("zodiac", harness.user_id("alice"), thread_id=int(thread.id),
                                        guild_id=None)
        assert second.id != game_id and second.status == "active"
        assert fake.messages(thread)[-1].attachments, "the next game's board is posted in the same thread"
        assert "secret king" in dm_menu(harness, "bob", second.id).content


async def test_a_menu_sent_before_a_restart_closes_when_the_pick_is_typed_after_it(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        menu, bobs = dm_menu(harness, "alice", game_id), dm_menu(harness, "bob", game_id)
    async with harness.running():  # a new process: the menus it closes are the ones the database names
        await fake.slash("alice", "zodiac move", {"move": "pick Tree"}, channel=thread)
        closed = fake.world.messages[menu.id]
        assert not closed.custom_ids() and "already chosen" in closed.content
        fake.faults.add("PATCH", "/channels/{channel_id}/messages/{message_id}", 403, code=50013,
                        path=f"/channels/{bobs.channel_id}/messages/{bobs.id}")
        await fake.slash("bob", "zodiac move", {"move": "pick Wolf"}, channel=thread)
        assert fake.world.messages[bobs.id].custom_ids(), "Discord refused to close it"
        await fake.select("bob", bobs, f"zs:{game_id}", ["pick Tree"])
        late = fake.world.messages[bobs.id]
        assert not late.custom_ids() and "already made your secret choice" in late.content


async def test_an_aborted_or_resigned_game_closes_every_secret_choice_menu_saying_so(harness: BotHarness) -> None:
    """The menus belong to the game: its end takes their select off, and says why (never "already chosen" to a player
    who never chose)."""
    fake = harness.fake
    async with harness.running():
        for how, said in (("abort", "the game was aborted"), ("resign", "the game is over")):
            game_id, _ = await challenge_and_accept(harness, "zodiac")
            menus = [dm_menu(harness, user, game_id) for user in ("alice", "bob")]
            ended = await fake.slash("bob", f"zodiac {how}", channel=fake.thread(f"Zodiac Chess #{game_id}"))
            assert not ended.ephemeral
            for menu in menus:
                closed = fake.world.messages[menu.id]
                assert not closed.custom_ids(), f"{how}: the menu is closed"
                assert closed.content == f"**Zodiac Chess** #{game_id}: {said}; this menu is closed."


async def test_menus_sent_before_a_restart_close_when_the_game_ends_after_it(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        await fake.select("alice", dm_menu(harness, "alice", game_id), f"zs:{game_id}", ["pick Tree"])
        menu = dm_menu(harness, "bob", game_id)
    async with harness.running():  # a new process: what it knows of the menu is in the database
        await fake.slash("alice", "zodiac resign", channel=fake.thread(f"Zodiac Chess #{game_id}"))
        closed = fake.world.messages[menu.id]
        assert not closed.custom_ids() and "the game is over" in closed.content
        assert "You chose **pick Tree**" in fake.messages(fake.user("alice"))[-1].content, "an answered menu is left"


async def test_a_menu_left_open_after_the_game_ended_answers_once_that_the_game_is_over(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        menu = dm_menu(harness, "alice", game_id)
        edit = f"/channels/{menu.channel_id}/messages/{menu.id}"
        fake.faults.add("PATCH", "/channels/{channel_id}/messages/{message_id}", 403, code=50013, path=edit)
        await fake.slash("bob", "zodiac abort", channel=fake.thread(f"Zodiac Chess #{game_id}"))
        assert fake.world.messages[menu.id].custom_ids(), "Discord refused to close it"
        pressed = await fake.select("alice", menu, f"zs:{game_id}", ["pick Tree"])
        shown = fake.world.messages[menu.id]
        assert pressed.response_type == 7, "the DM menu itself answers: only alice sees it"
        assert shown.content == f"**Zodiac Chess** #{game_id}: the game was aborted; this menu is closed."
        assert not shown.custom_ids()
