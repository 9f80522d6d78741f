"""Issue 25: what players still tripped over (aborting an AI game, hints, AI names, teams, leaderboards, wording)."""

from __future__ import annotations

import sqlite3

from host.play import bots
from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import AI_WAIT, ai_move_count, legal_for, start_ai_game
from tests.e2e.test_platform import challenge_and_accept, mover_name


def rating_rows(harness: BotHarness) -> int:
    with sqlite3.connect(harness.database_path) as conn:
        return conn.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0]


async def test_a_zodiac_game_against_the_ai_can_be_aborted_after_its_secret_pick(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zodiac", {"ai": "hard"})
        await fake.wait_until(lambda: ai_move_count(harness.database_path, game_id, "hard") >= 1,
                              timeout=AI_WAIT, what="the AI's secret pick")
        listed = await fake.slash("alice", "games")
        assert f"#{game_id}" in listed.content
        aborted = await fake.slash("alice", "zodiac abort", channel=thread)
        assert not aborted.ephemeral, aborted.content
        assert "aborted" in aborted.content and "AI's moves are taken back" in aborted.content
        assert (await bot.host.session.row(game_id)).status == "aborted"
        assert f"#{game_id}" not in (await fake.slash("alice", "games")).content
        assert rating_rows(harness) == 0


async def test_a_game_against_the_ai_cannot_be_aborted_once_the_player_moved(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        alice = harness.user_id("alice")
        row = await bot.host.session.row(game_id)
        if row.seats_of(bots.user_of("easy"))[0] == 0:  # the AI opens: wait for it
            await fake.wait_until(lambda: ai_move_count(harness.database_path, game_id, "easy") >= 1,
                                  timeout=AI_WAIT, what="the AI's first move")
        move = legal_for(harness.database_path, game_id, alice)[0]
        await fake.slash("alice", "zaic move", {"move": move}, channel=thread)
        refused = await fake.slash("alice", "zaic abort", channel=thread)
        assert refused.ephemeral and "resign instead" in refused.content


async def test_a_newcomers_game_against_the_easy_ai_is_practice_and_their_first_hint_works(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        started = fake.messages("general")[-1].content
        assert "Unrated: a practice game against the easy AI" in started, started
        assert "practice game" in fake.messages(thread)[0].content  # the first board says it too
        alice = harness.user_id("alice")
        await fake.wait_until(lambda: bool(legal_for(harness.database_path, game_id, alice)),
                              timeout=AI_WAIT, what="alice's turn")
        rec = await fake.slash("alice", "zaic hint", {}, channel=thread, wait="response")
        followups = await rec.wait_followups(1, timeout=AI_WAIT)
        assert followups[0].content.startswith(f"💡 Hint for #{game_id}"), followups[0].content
        assert not (await bot.host.session.row(game_id)).settings["rated"]

        rated_id, rated_thread = await start_ai_game(fake, "bob", "zrtz", {"ai": "medium"})
        assert "Rated: it counts for the leaderboards" in fake.messages("general")[-1].content
        await fake.wait_until(lambda: bool(legal_for(harness.database_path, rated_id, harness.user_id("bob"))),
                              timeout=AI_WAIT, what="bob's turn")
        refused = await fake.slash("bob", "zrtz hint", {}, channel=rated_thread, wait="response")
        answer = (await refused.wait_followups(1, timeout=AI_WAIT))[0].content
        assert "`/zrtz new ai: easy`" in answer and "`rated: False`" in answer


async def test_two_ai_seats_in_a_free_for_all_are_rated_by_the_same_rule_and_it_is_said_up_front(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        rec = await fake.slash("alice", "ziggurat new", {"opponent": "bob", "open_seats": 2, "ai": "easy"})
        challenge = rec.original
        assert "Rated: it counts for the leaderboards" in challenge.content, challenge.content
        assert "🤖 AI (easy) plays several sides" in challenge.content
        game_id = int(next(c for c in challenge.custom_ids() if c.startswith("zg:accept:")).rsplit(":", 1)[1])
        await fake.click("bob", challenge, f"zg:accept:{game_id}")
        first = fake.messages(fake.thread(f"Ziggurat #{game_id}"))[0]
        assert "Rated: it counts for the leaderboards" in first.content and "plays several sides" in first.content


async def test_replays_and_records_name_an_ai_seat_like_a_player(harness: BotHarness) -> None:
    fake = harness.fake
    ai = f"<@{bots.user_of('hard')}>"
    async with harness.running():
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "hard"})
        await fake.slash("alice", "zaic resign", channel=thread)
        replay = await fake.slash("alice", "zaic replay", {"game": game_id})
        shown = replay.original.content if replay.original is not None else replay.content
        assert "(🤖 AI (hard))" in shown and ai not in shown, shown
        assert "🏁 Result:" in shown and "won" in shown
        exported = await fake.slash("alice", "zaic export", {"game": game_id})
        for file in exported.files:
            text = file.data.decode()
            assert "🤖 AI (hard)" in text and "user 4194" not in text, file.filename


async def test_ziggurat_partners_say_who_partners_whom_and_the_losing_team_lost(harness: BotHarness) -> None:
    fake = harness.fake
    alice, carol = f"<@{harness.user_id('alice')}>", f"<@{harness.user_id('carol')}>"
    async with harness.running() as bot:
        rec = await fake.slash("alice", "ziggurat new", {"mode": "partners", "opponent2": "carol", "open_seats": 2,
                                                         "ai": "easy"})
        challenge = rec.original
        assert f"Partners: {alice} & 🤖 AI (easy) vs" not in challenge.content
        assert f"Partners: {alice} & {carol} vs 🤖 AI (easy) & 🤖 AI (easy)." in challenge.content, challenge.content
        game_id = int(next(c for c in challenge.custom_ids() if c.startswith("zg:accept:")).rsplit(":", 1)[1])
        await fake.click("carol", challenge, f"zg:accept:{game_id}")
        thread = fake.thread(f"Ziggurat #{game_id}")
        first = fake.messages(thread)[0].content
        teams = next(line for line in first.splitlines() if line.startswith("Teams: "))
        ours = next(half for half in teams.removeprefix("Teams: ").split(" vs ") if alice in half)
        assert carol in ours and "AI" not in ours, teams
        await fake.slash("alice", "ziggurat resign", channel=thread)
        await fake.wait_until(lambda: any("🏆" in m.content for m in fake.messages(thread)), what="the result")
        result = next(m.content for m in fake.messages(thread) if "🏆" in m.content)
        assert "🏆 Team " in result and " lost." in result and alice in result.split("won")[1], result
        assert (await bot.host.session.row(game_id)).status == "finished"
        for user in ("alice", "carol"):
            history = await fake.slash(user, "history")
            line = next(x for x in history.content.splitlines() if f"#{game_id}" in x)
            assert ": lost (" in line and " with " in line and "shared" not in line, line


async def test_games_of_another_member_never_say_your_turn(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "zaic")
        mover = await mover_name(harness, bot, game_id)
        seen = await fake.slash("carol", "games", {"user": fake.user(mover)})
        line = next(x for x in seen.content.splitlines() if f"#{game_id}" in x)
        assert "your turn" not in line and f"**<@{harness.user_id(mover)}>'s turn**" in line, line
        own = await fake.slash(mover, "games")
        assert "**your turn**" in next(x for x in own.content.splitlines() if f"#{game_id}" in x)


async def test_after_one_rated_game_the_leaderboard_is_not_empty(harness: BotHarness) -> None:
    from tests.e2e.test_ratings import play_rated_game

    fake = harness.fake
    async with harness.running() as bot:
        await play_rated_game(harness, bot, loser="bob")
        board = await fake.slash("alice", "leaderboard", {"game": "zaic"})
        assert "Nobody is ranked yet" not in board.content
        assert "listed, unranked, with a provisional ?" in board.content, board.content


async def test_a_ziggurat_redo_keeps_the_turn_in_one_message(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "ziggurat")
        thread = fake.thread(f"Ziggurat #{game_id}")
        redone = steps_in_turn = 0
        for _ in range(300):
            if (await bot.host.session.row(game_id)).status != "active" or redone >= 2:
                break
            mover = await mover_name(harness, bot, game_id)
            uid = harness.user_id(mover)
            legal = legal_for(harness.database_path, game_id, uid)
            redo = [m for m in legal if m.startswith("redo")]
            steps = [m for m in legal if m != "end" and not m.startswith("redo")]
            move = redo[0] if redo else steps[0] if steps and steps_in_turn < 3 else "end" if "end" in legal \
                else legal[0]
            before = len(fake.messages(thread))
            turn_board = fake.messages(thread)[-1]
            await fake.slash(mover, "ziggurat move", {"move": move}, channel=thread)
            still = (await bot.host.session.row(game_id)).status == "active" \
                and await mover_name(harness, bot, game_id) == mover \
                and bool(legal_for(harness.database_path, game_id, uid))
            if still:
                assert len(fake.messages(thread)) == before, f"{move!r} inside the turn posted a new message"
                steps_in_turn += 1
                if move.startswith("redo"):
                    redone += 1
                    edited = fake.world.messages[turn_board.id].content
                    assert "redo" in edited and "then" in edited, edited
            else:
                steps_in_turn = 0
        assert redone, "no Redo came up in 300 steps"


async def test_wording_no_seed_without_dice_and_an_accepted_draw_offer_says_so(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, first = await challenge_and_accept(harness, "zaic")
        assert "SHA-256" not in first.content, first.content
        thread = fake.thread(f"Zaic #{game_id}")
        offer = await fake.slash("alice", "zaic draw", channel=thread)
        assert "press Accept draw" in offer.content
        await fake.click("bob", offer.original, f"zd:accept:{game_id}")
        assert "press Accept" not in fake.world.messages[offer.original.id].content
        assert "draw" in fake.world.messages[offer.original.id].content
        result = fake.messages(thread)[-1].content
        assert "🤝 Draw" in result and "Seed:" not in result, result
        exported = await fake.slash("alice", "zaic export", {"game": game_id})
        assert "host.play.dice verify" not in exported.content and "die" not in exported.content, exported.content

        _, zig_first = await challenge_and_accept(harness, "ziggurat")
        assert "Dice seed SHA-256" in zig_first.content  # a dice game keeps its commitment


async def test_the_zodiac_replay_names_the_sides_as_the_text_record_does(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        await fake.slash("alice", "zodiac move", {"move": "pick Tree"}, channel=thread)
        await fake.slash("bob", "zodiac move", {"move": "pick Wolf"}, channel=thread)
        await fake.slash("alice", "zodiac move", {"move": "light"}, channel=thread)
        await fake.slash("bob", "zodiac resign", channel=thread)
        replay = await fake.slash("carol", "zodiac replay", {"game": game_id, "move": 1})
        shown = replay.original.content
        exported = await fake.slash("carol", "zodiac export", {"game": game_id})
        record = next(f.data.decode() for f in exported.files if f.filename.endswith(".txt"))
        first = next(line for line in record.splitlines() if line.startswith("1. "))
        side = first.split("]", 1)[1].split(":", 1)[0].strip()
        assert side in ("Light", "Dark"), first
        assert f"{side} (<@" in shown and "Player 1" not in shown and "Player 2" not in shown, shown


async def test_a_board_game_the_ai_opened_can_be_aborted_before_the_player_moves(harness: BotHarness) -> None:
    """Not only Zodiac's secret pick: in any game against the AI, the AI's opening moves do not count."""
    fake = harness.fake
    async with harness.running() as bot:
        for _ in range(12):  # seats are drawn at random: start games until the AI has the first move
            game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
            if (await bot.host.session.row(game_id)).seats_of(bots.user_of("easy"))[0] == 0:
                break
            await fake.slash("alice", "zaic abort", channel=thread)
        else:
            raise AssertionError("the AI never drew the first seat")
        await fake.wait_until(lambda: ai_move_count(harness.database_path, game_id, "easy") >= 1,
                              timeout=AI_WAIT, what="the AI's first move")
        aborted = await fake.slash("alice", "zaic abort", channel=thread)
        assert not aborted.ephemeral and "AI's moves are taken back" in aborted.content, aborted.content
        assert (await bot.host.session.row(game_id)).status == "aborted"
        assert rating_rows(harness) == 0
