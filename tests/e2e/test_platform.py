"""The platform end to end: challenge, accept, thread, moves with autocomplete, errors, restart."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.fakediscord import Message

PNG = b"\x89PNG\r\n\x1a\n"


async def challenge_and_accept(harness: BotHarness, game: str = "zarathustra") -> tuple[int, Message]:
    """alice challenges bob, bob accepts: returns the game id and the thread's first message."""
    fake = harness.fake
    rec = await fake.slash("alice", f"{game} new", {"opponent": "bob"})
    challenge = rec.original
    assert challenge is not None and "wants to play" in challenge.content and not rec.ephemeral
    accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
    game_id = int(accept.rsplit(":", 1)[1])
    await fake.click("bob", challenge, accept)
    thread = fake.thread(f"{game_title(game)} #{game_id}")
    return game_id, fake.messages(thread)[0]


def game_title(game: str) -> str:
    import engines

    return engines.get(game).title


async def mover_name(harness: BotHarness, bot, game_id: int) -> str:
    row = await bot.host.session.row(game_id)
    obs = await bot.host.boards.observation(game_id, None)
    user = row.user_at(obs["to_move"][0])
    assert user is not None
    return harness.name_of(user)


async def full_moves(fake, user: str, command: str, typed: str, channel) -> list[dict]:
    """Autocomplete, drilling into the first group until the choices are whole moves."""
    choices = await fake.autocomplete(user, command, focused="move", value=typed, channel=channel)
    while choices and " moves)" in choices[0]["name"]:
        choices = await fake.autocomplete(user, command, focused="move", value=choices[0]["value"], channel=channel)
    return choices


async def test_a_challenge_opens_a_thread_with_the_first_board(harness: BotHarness) -> None:
    async with harness.running():
        _game_id, first = await challenge_and_accept(harness)
        assert first.attachments and first.attachments[0].data.startswith(PNG)
        assert "begins" in first.content and "SHA-256" not in first.content  # Zarathustra has no dice
        challenge = harness.fake.messages("general")[-1]
        assert "The game is on" in challenge.content and not challenge.custom_ids()


async def test_moves_by_autocomplete_post_a_new_board_and_illegal_moves_change_nothing(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness)
        thread = fake.thread(f"Zarathustra #{game_id}")
        mover = await mover_name(harness, bot, game_id)
        choices = await full_moves(fake, mover, "zarathustra move", "c3 ", thread)
        assert 0 < len(choices) <= 25 and all(c["value"].startswith("c3 ") for c in choices)
        other = "bob" if mover == "alice" else "alice"
        waiting = await fake.autocomplete(other, "zarathustra move", focused="move", value="", channel=thread)
        assert len(waiting) == 1 and waiting[0]["name"].startswith("Not your turn: waiting for ")
        assert "<@" not in waiting[0]["name"] and "@" in waiting[0]["name"]
        refused = await fake.slash(other, "zarathustra move", {"move": waiting[0]["value"]}, channel=thread)
        assert refused.ephemeral and refused.content.startswith("That is not a move: Not your turn")

        before = (await bot.host.session.row(game_id)).version
        bad = await fake.slash(mover, "zarathustra move", {"move": "z9 xxxx"}, channel=thread)
        assert bad.ephemeral and bad.content == "z9 is not on the 5x5 board."
        assert (await bot.host.session.row(game_id)).version == before
        wrong_turn = await fake.slash(other, "zarathustra move", {"move": choices[0]["value"]}, channel=thread)
        assert wrong_turn.ephemeral and "not your turn" in wrong_turn.content

        played = await fake.slash(mover, "zarathustra move", {"move": choices[0]["value"]}, channel=thread)
        assert not played.ephemeral and choices[0]["value"] in played.content
        assert played.files and played.files[0].data.startswith(PNG)
        assert (await bot.host.session.row(game_id)).version == before + 1


async def test_the_game_and_its_buttons_survive_a_restart(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness)
        mover = await mover_name(harness, bot, game_id)
        thread = fake.thread(f"Zarathustra #{game_id}")
        pending = await fake.slash("carol", "zarathustra new", {"opponent": "dave"})
        board_before = await bot.host.boards.observation(game_id, None)
    async with harness.running() as bot:
        assert await bot.host.boards.observation(game_id, None) == board_before
        accept = next(c for c in pending.original.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("dave", pending.original, accept)
        second_id = int(accept.rsplit(":", 1)[1])
        assert (await bot.host.session.row(second_id)).status == "active"
        assert fake.thread(f"Zarathustra #{second_id}") is not None
        choices = await full_moves(fake, mover, "zarathustra move", "a1 ", thread)
        played = await fake.slash(mover, "zarathustra move", {"move": choices[0]["value"]}, channel=thread)
        assert played.files and not played.ephemeral


async def test_decline_resign_draw_and_rules(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        rec = await fake.slash("alice", "zaic new", {"opponent": "carol"})
        decline = next(c for c in rec.original.custom_ids() if c.startswith("zg:decline:"))
        await fake.click("carol", rec.original, decline)
        assert "declined" in fake.messages("general")[-1].content

        game_id, _ = await challenge_and_accept(harness, "zaic")
        thread = fake.thread(f"Zaic #{game_id}")
        offer = await fake.slash("alice", "zaic draw", channel=thread)
        assert "offers a draw" in offer.content
        stranger = await fake.slash("dave", "zaic resign", channel=thread)
        assert stranger.ephemeral
        resign = await fake.slash("bob", "zaic resign", channel=thread)
        assert "won" in resign.content and (await bot.host.session.row(game_id)).status == "finished"
        rules = await fake.slash("dave", "zaic rules")
        assert rules.ephemeral and rules.embeds and "Zaic" in rules.embeds[0]["title"]
        assert [f.filename for f in rules.files] == ["zaic-example.png"]
        assert "2x2 h8" in str(rules.embeds[0]["fields"])


async def test_commands_outside_a_game_explain_what_to_do(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        rec = await fake.slash("alice", "zrtz move", {"move": "wd4"})
        assert rec.ephemeral and "/zrtz new" in rec.content
        helped = await fake.slash("alice", "help")
        assert helped.ephemeral and any("zrtz" in f["name"] for f in helped.embeds[0]["fields"])


async def test_zrtz_import_posts_the_record_position(harness: BotHarness) -> None:
    from pathlib import Path

    from tests.fakediscord import Upload

    record = sorted((Path(__file__).resolve().parents[1] / "data" / "zrtz-records").glob("*.sgf"))[0]
    async with harness.running():
        rec = await harness.fake.slash("alice", "zrtz import", {"record": Upload(record.name, record.read_bytes()),
                                                                  "move": 5})
        shown = rec.followups[-1]
        assert "after move 5" in shown.content and shown.attachments[0].data.startswith(PNG)
        junk = await harness.fake.slash("bob", "zrtz import", {"record": Upload("x.sgf", b"hello")})
        refusal = junk.followups[-1]  # the public "thinking…" placeholder is deleted; only bob sees why
        assert junk.original is not None and junk.original.deleted
        assert refusal.ephemeral and "cannot be replayed" in refusal.content


async def test_a_start_interrupted_by_a_crash_is_finished_and_posted_on_restart(harness: BotHarness) -> None:
    import sqlite3

    fake = harness.fake
    async with harness.running():
        rec = await fake.slash("alice", "zaic new", {"opponent": "bob"})
        game_id = int(next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:")).rsplit(":", 1)[1])
    with sqlite3.connect(harness.database_path) as conn:  # bob's accept landed; the start did not
        conn.execute("UPDATE seats SET accepted = 1 WHERE game_id = ?", (game_id,))
    async with harness.running() as bot:
        await fake.wait_until(lambda: any(t.name == f"Zaic #{game_id}" and t.messages for t in fake.threads()),
                              what="the recovered game's thread")
        assert (await bot.host.session.row(game_id)).status == "active"
        first = fake.messages(fake.thread(f"Zaic #{game_id}"))[0]
        assert first.attachments and "begins" in first.content
        assert not fake.messages("general")[-1].custom_ids(), "the old challenge buttons are gone"
