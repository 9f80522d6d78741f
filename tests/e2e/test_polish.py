"""What a player sees: clear refusals, explained autocomplete, live boards only, captions, draw and rematch buttons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept, full_moves, mover_name


def labels(message) -> list[str]:
    return [message.component(c)["label"] for c in message.custom_ids()]


async def test_empty_lists_say_none_and_how_to_start_and_help_counts_players(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        games = await fake.slash("carol", "games")
        assert games.ephemeral and "none" in games.content and "/zrtz new" in games.content
        helped = await fake.slash("carol", "help")
        shown = str(helped.original.embeds)
        assert "2-2" not in shown and "2 players" in shown and "2-4 players" in shown


async def test_a_move_while_the_challenge_waits_is_told_it_waits(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        await fake.slash("alice", "zaic new", {"opponent": "bob"})
        rec = await fake.slash("alice", "zaic move", {"move": "2x2 h8"})
        assert rec.ephemeral and "still waiting for players" in rec.content
        hint = await fake.autocomplete("alice", "zaic move", focused="move", value="")
        assert len(hint) == 1, "the whole reason fits one entry"
        assert hint[0]["name"].endswith("still waiting for players; it starts once all have joined")


async def test_another_games_command_in_a_thread_names_the_threads_commands(harness: BotHarness) -> None:
    """``/zaic move`` in a ZÈRTZ thread (no Zaic game of the player's anywhere) points to ``/zrtz``, in the words
    ``/zrtz replay`` of a Zaic game uses; without a game in the channel it still says how to start one."""
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zrtz")
        thread = fake.thread(f"ZÈRTZ #{game_id}")
        said = f"Game #{game_id} is a ZÈRTZ game: use the /zrtz commands for it."
        for user in ("alice", "carol"):
            moved = await fake.slash(user, "zaic move", {"move": "2x2 h8"}, channel=thread)
            assert moved.ephemeral and moved.content == said, moved.content
        hint = await fake.autocomplete("alice", "zaic move", focused="move", value="", channel=thread)
        assert hint[0]["name"].startswith(f"Game #{game_id} is a ZÈRTZ game")
        outside = await fake.slash("alice", "zaic board")
        assert outside.ephemeral and outside.content == "You have no Zaic game here. Start one with /zaic new."


async def test_a_wall_of_text_as_a_move_gets_a_short_private_answer(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        for game in ("zaic", "ziggurat"):
            game_id, _ = await challenge_and_accept(harness, game)
            thread = fake.thread(f"{game.capitalize()} #{game_id}")
            for user in ("alice", "bob"):
                rec = await fake.slash(user, f"{game} move", {"move": "2x2 h8 " * 500}, channel=thread)
                assert rec.ephemeral and len(rec.content) < 400 and "2x2 h8 2x2 h8 2x2" not in rec.content


async def test_old_boards_lose_their_buttons_after_a_typed_move(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "zrtz")
        thread = fake.thread(f"ZÈRTZ #{game_id}")
        for _ in range(6):  # ZÈRTZ offers buttons when few moves are legal; typed moves must retire them too
            mover = await mover_name(harness, bot, game_id)
            choices = await fake.autocomplete(mover, "zrtz move", focused="move", value="", channel=thread)
            while " moves)" in choices[0]["name"]:
                choices = await fake.autocomplete(mover, "zrtz move", focused="move", value=choices[0]["value"],
                                                  channel=thread)
            await fake.slash(mover, "zrtz move", {"move": choices[0]["value"]}, channel=thread)
            boards = [m for m in fake.messages(thread) if m.attachments]
            assert all(not m.custom_ids() for m in boards[:-1]), "only the newest board keeps buttons"
        assert not first.custom_ids()


async def test_a_ziggurat_turn_is_one_message_edited_step_by_step(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "ziggurat")
        thread = fake.thread(f"Ziggurat #{game_id}")
        steps = edits = 0
        for _ in range(30):
            board = fake.messages(thread)[-1]
            ids = [c for c in board.custom_ids() if c.startswith("zm:")]  # not Move (the builder)
            if not ids:
                break
            names = labels(board)
            assert names[-1].startswith("End the turn")
            assert all(not n.startswith(("aim ", "move ", "hop ")) for n in names), "labels read like autocomplete"
            before = len(fake.messages(thread))
            mover = await mover_name(harness, bot, game_id)
            pick = ids[0]
            await fake.click(mover, board, pick)
            if pick.endswith(":end"):
                assert len(fake.messages(thread)) == before + 1, "a new turn, a new message"
                continue
            steps += 1
            if len(fake.messages(thread)) == before:
                edits += 1
                edited = fake.world.messages[board.id]
                assert edited.edited_timestamp and len(edited.attachments) == 1
                assert edited.content.startswith("🎲") and "played" in edited.content
                live = [m for m in fake.messages(thread) if m.custom_ids()]
                assert live == [] or [m.id for m in live] == [board.id]
        assert steps and edits, "some steps stayed inside their turn and edited its message"
        boards = sum(1 for m in fake.messages(thread) if m.attachments)
        rolls = len(await bot.host.boards.rolls(game_id))
        assert boards <= rolls + 1, "at most one board message per turn"


async def test_three_players_hear_who_resigned_and_the_resigned_player_is_told(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        rec = await fake.slash("alice", "zarathustra new", {"opponent": "bob", "opponent2": "carol"})
        challenge = rec.original
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("bob", challenge, accept)
        await fake.click("carol", fake.messages("general")[-1], accept)
        game_id = int(accept.rsplit(":", 1)[1])
        thread = fake.thread(f"Zarathustra #{game_id}")
        resigned = await fake.slash("carol", "zarathustra resign", channel=thread)
        assert "resigned" in resigned.content and f"<@{harness.user_id('carol')}>" in resigned.content
        again = await fake.slash("carol", "zarathustra move", {"move": "a1 xxxx"}, channel=thread)
        assert again.ephemeral and "You resigned from this game" in again.content
        hint = await fake.autocomplete("carol", "zarathustra move", focused="move", value="", channel=thread)
        assert [c["name"] for c in hint] == ["You resigned from this game; it goes on without you"]
        assert (await bot.host.session.row(game_id)).status == "active"


async def test_draw_offers_have_buttons_and_the_final_board_offers_a_rematch(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "zaic")
        thread = fake.thread(f"Zaic #{game_id}")
        offer = await fake.slash("alice", "zaic draw", channel=thread)
        assert sorted(offer.original.custom_ids()) == [f"zd:accept:{game_id}", f"zd:decline:{game_id}"]
        own = await fake.click("alice", offer.original, f"zd:accept:{game_id}")
        assert own.ephemeral and "already offered" in own.content
        await fake.click("bob", offer.original, f"zd:decline:{game_id}")
        declined = fake.world.messages[offer.original.id]
        assert "declined" in declined.content and not declined.custom_ids()
        late = await fake.slash("alice", "zaic draw", channel=thread)
        await fake.click("bob", late.original, f"zd:accept:{game_id}")
        row = await bot.host.session.row(game_id)
        assert row.status == "finished" and (row.result or {}).get("reason") == "draw agreed"
        final = fake.messages(thread)[-1]
        assert "Draw" in final.content and final.custom_ids() == [f"zr:{game_id}", f"zro:{game_id}"]
        stranger = await fake.click("carol", final, f"zr:{game_id}")
        assert stranger.ephemeral and "Only the players" in stranger.content
        asked = await fake.click("bob", final, f"zr:{game_id}")
        assert asked.ephemeral and "Rematch" in asked.content
        challenge = fake.messages("general")[-1]
        assert f"rematch of #{game_id}" in challenge.content and "<@" in challenge.content
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("alice", challenge, accept)
        new_id = int(accept.rsplit(":", 1)[1])
        old, new = await bot.host.session.row(game_id), await bot.host.session.row(new_id)
        assert new.status == "active" and new.options == old.options
        assert [new.user_at(s) for s in range(2)] == [old.user_at(1), old.user_at(0)]


async def test_unrated_games_say_so_in_the_challenge_and_in_history(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        self_play = await fake.slash("alice", "zrtz new", {"opponent": "alice"})
        assert "Unrated (you cannot rate a game against yourself)" in self_play.original.content
        casual = await fake.slash("alice", "zaic new", {"opponent": "bob", "rated": False})
        assert "Unrated." in casual.original.content
        game_id, _ = await challenge_and_accept(harness, "zarathustra")
        await fake.slash("bob", "zarathustra resign", channel=fake.thread(f"Zarathustra #{game_id}"))
        history = await fake.slash("alice", "history")
        assert history.ephemeral and "unrated: a player made fewer than 2 moves" in history.content


async def test_history_pages_past_the_first_screen(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        for _ in range(12):
            game_id, _ = await challenge_and_accept(harness, "zaic")
            await fake.slash("bob", "zaic resign", channel=fake.thread(f"Zaic #{game_id}"))
        first = await fake.slash("alice", "history")
        assert "(page 1 of 2, 12 games; older ones: `/history page:2`)" in first.content
        assert first.content.count("**Zaic**") == 8 and "more." not in first.content
        second = await fake.slash("alice", "history", {"page": 2})
        assert "page 2 of 2" in second.content and second.content.count("**Zaic**") == 4


async def test_leaderboard_game_autocomplete_explains_a_miss_and_a_wall_is_not_echoed(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        miss = await fake.autocomplete("alice", "leaderboard", focused="game", value="go")
        assert [c["name"] for c in miss] == ["No game matches “go”: clear the box to see them all"]
        refused = await fake.slash("alice", "leaderboard", {"game": miss[0]["value"]})
        assert refused.ephemeral and "There is no game called 'none'" in refused.content and "zrtz" in refused.content
        wall = await fake.slash("alice", "leaderboard", {"game": "chess " * 900})
        assert wall.ephemeral and len(wall.content) < 300


async def test_board_outside_a_thread_means_the_game_in_play_not_a_finished_one(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        done, _ = await challenge_and_accept(harness, "zrtz")
        await fake.slash("bob", "zrtz resign", channel=fake.thread(f"ZÈRTZ #{done}"))
        only_finished = await fake.slash("alice", "zrtz board")
        assert f"#{done}" in only_finished.content and only_finished.files
        live, _ = await challenge_and_accept(harness, "zrtz")
        board = await fake.slash("alice", "zrtz board")
        assert f"#{live}" in board.content and board.files, board.content
        final = [m for m in fake.messages(fake.thread(f"ZÈRTZ #{done}")) if m.attachments][-1]
        assert "resigned" in final.content and final.custom_ids() == [f"zr:{done}", f"zro:{done}"]


async def test_an_aborted_game_keeps_no_live_buttons(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        assert first.custom_ids()
        aborted = await fake.slash("bob", "ziggurat abort", channel=fake.thread(f"Ziggurat #{game_id}"))
        assert "aborted" in aborted.content and (await bot.host.session.row(game_id)).status == "aborted"
        assert not fake.world.messages[first.id].custom_ids()


@dataclass
class Offered:
    """A Zaic game in which the player not to move has offered a draw in the thread."""

    game_id: int
    thread: Any
    mover: str
    other: str
    offer: Any


async def draw_offered(harness: BotHarness, bot: Any) -> Offered:
    game_id, _ = await challenge_and_accept(harness, "zaic")
    thread = harness.fake.thread(f"Zaic #{game_id}")
    mover = await mover_name(harness, bot, game_id)
    other = "bob" if mover == "alice" else "alice"
    return Offered(game_id, thread, mover, other, await harness.fake.slash(other, "zaic draw", channel=thread))


async def test_a_move_closes_the_draw_offer_buttons(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        table = await draw_offered(harness, bot)
        thread, mover, other, offer = table.thread, table.mover, table.other, table.offer
        assert offer.original.custom_ids()
        choices = await full_moves(fake, mover, "zaic move", "2x2 h8", thread)
        await fake.slash(mover, "zaic move", {"move": choices[0]["value"]}, channel=thread)
        closed = fake.world.messages[offer.original.id]
        assert not closed.custom_ids() and "Draw offer closed" in closed.content
        again = await fake.slash(other, "zaic draw", channel=thread)
        await fake.slash(mover, "zaic draw", {"decline": True}, channel=thread)
        assert "declined" in fake.world.messages[again.original.id].content


async def test_a_draw_offer_made_before_a_restart_closes_with_the_move_after_it(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        table = await draw_offered(harness, bot)
        thread, mover, offer = table.thread, table.mover, table.offer
    async with harness.running():  # a new process: the offer's message is known from the database
        choices = await full_moves(fake, mover, "zaic move", "2x2 h8", thread)
        await fake.slash(mover, "zaic move", {"move": choices[0]["value"]}, channel=thread)
        closed = fake.world.messages[offer.original.id]
        assert not closed.custom_ids() and closed.content == "Draw offer closed: see the newest board."


async def test_a_stale_draw_offer_left_live_closes_when_pressed(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        table = await draw_offered(harness, bot)
        game_id, thread, mover, offer = table.game_id, table.thread, table.mover, table.offer
        fake.faults.add("PATCH", "/channels/{channel_id}/messages/{message_id}", 403, code=50013,
                        path=f"/channels/{thread.id}/messages/{offer.original.id}")
        choices = await full_moves(fake, mover, "zaic move", "2x2 h8", thread)
        await fake.slash(mover, "zaic move", {"move": choices[0]["value"]}, channel=thread)
        assert fake.world.messages[offer.original.id].custom_ids(), "Discord refused to close it"
        pressed = await fake.click(mover, offer.original, f"zd:accept:{game_id}")
        closed = fake.world.messages[offer.original.id]
        assert not closed.custom_ids() and closed.content == "Draw offer closed: see the newest board."
        [told] = pressed.followups
        assert told.ephemeral and told.content == "There is no draw offer on the table any more."
        assert (await bot.host.session.row(game_id)).status == "active"


async def test_a_draw_offered_or_declined_outside_the_thread_goes_to_the_thread_and_is_answered_privately(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zaic")
        thread = fake.thread(f"Zaic #{game_id}")
        public = [m.id for m in fake.messages("general") if not m.ephemeral]
        offered = await fake.slash("bob", "zaic draw")  # typed in #general, as a move may be
        assert offered.ephemeral and offered.content == f"Done: see <#{thread.id}>."
        offer = fake.messages(thread)[-1]
        assert "offers a draw" in offer.content
        assert sorted(offer.custom_ids()) == [f"zd:accept:{game_id}", f"zd:decline:{game_id}"]
        declined = await fake.slash("alice", "zaic draw", {"decline": True})
        assert declined.ephemeral and declined.content == f"Done: see <#{thread.id}>."
        assert "declined the draw offer" in fake.messages(thread)[-1].content
        closed = fake.world.messages[offer.id]
        assert not closed.custom_ids() and closed.content == "Draw offer declined."
        assert [m.id for m in fake.messages("general") if not m.ephemeral] == public, "nothing said in #general"


async def test_a_challenge_withdrawn_by_command_loses_its_buttons(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        rec = await fake.slash("alice", "zrtz new", {"opponent": "bob"})
        assert rec.original.custom_ids()
        withdrawn = await fake.slash("alice", "zrtz abort")
        assert "withdrew the challenge" in withdrawn.content
        challenge = fake.world.messages[rec.original.id]
        assert not challenge.custom_ids() and "withdrawn" in challenge.content
