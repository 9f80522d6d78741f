"""Bad input gets a clear, private answer within Discord's limits (issue 24, items 4-7).

A record with a number of over 4,300 digits, a record with 20,000 unknown option keys, control
characters typed into every autocomplete, and a game aborted by its clock before its thread existed.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import BotHarness
from tests.e2e.test_correspondence_e2e import clocked_bot, real_time_clock
from tests.fakediscord import Upload
from tests.fakediscord.logs import ErrorLogCollector

HEAD = {"format": "z-games record", "version": 1, "game": "zrtz",
        "players": [{"seat": 0, "name": "a"}, {"seat": 1, "name": "b"}], "history": []}
GENERIC = "Something went wrong"


def public_texts(harness: BotHarness) -> list[str]:
    return [m.content for m in harness.fake.messages()]


async def test_a_number_of_5000_digits_is_refused_privately(harness: BotHarness,
                                                            discord_error_logs: ErrorLogCollector) -> None:
    data = json.dumps(HEAD)[:-1].encode() + b', "junk": ' + b"7" * 5000 + b"}"
    async with harness.running():
        rec = await harness.fake.slash("alice", "zrtz import", {"record": Upload("big.json", data)})
        refusal = rec.followups[-1] if rec.followups else rec.original
        assert refusal is not None and refusal.ephemeral, "the refusal is public"
        assert "number" in refusal.content and GENERIC not in refusal.content
        assert not any(GENERIC in text or "number" in text for text in public_texts(harness))


async def test_twenty_thousand_unknown_options_get_a_short_private_reason(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    data = json.dumps({**HEAD, "options": {f"option{i}": 1 for i in range(20_000)}}).encode()
    async with harness.running():
        rec = await harness.fake.slash("bob", "zrtz import", {"record": Upload("options.json", data)})
        refusal = rec.followups[-1] if rec.followups else rec.original
        assert refusal is not None and refusal.ephemeral
        assert "unknown option" in refusal.content and "19,995 more" in refusal.content
        assert len(refusal.content) < 2000 and GENERIC not in refusal.content


async def test_control_characters_in_every_autocomplete(harness: BotHarness,
                                                        discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    typed = ["\x00" * 100, "\x1b[31m" * 20, "\u200b\n\t" * 33, "é" * 100]
    async with harness.running():
        tree_commands = [("leaderboard", "game", {})]
        tree_commands += [(f"{game} move", "move", {}) for game in ("zrtz", "zaic", "zarathustra", "zodiac",
                                                                    "ziggurat")]
        tree_commands += [("tournament create", "options", {"game": "zrtz"}), ("tournament join", "event", {})]
        for command, focused, options in tree_commands:
            for text in typed:
                choices = await fake.autocomplete("alice", command, focused=focused, value=text, options=options)
                for choice in choices:
                    assert 1 <= len(choice["name"]) <= 100, (command, choice)
                    assert all(ch.isprintable() for ch in choice["name"]), (command, choice)
                    assert not isinstance(choice["value"], str) or 1 <= len(choice["value"]) <= 100


async def test_a_clock_abort_before_the_thread_existed_reaches_the_players(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, cog):
        rec = await fake.slash("alice", "zaic new", {"opponent": "bob"})
        accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
        game_id = int(accept.rsplit(":", 1)[1])
        async with bot.db.transaction() as tx:
            await tx.execute("UPDATE games SET settings = json_set(settings, '$.clock', ?) WHERE id = ?",
                             ("1d", game_id))
        fake.faults.add("POST", "/channels/{channel_id}/messages/{message_id}/threads", 403, times=1000,
                        code=50013)
        fake.faults.add("POST", "/channels/{channel_id}/threads", 403, times=1000, code=50013)
        await fake.click("bob", rec.original, accept)
        assert (await bot.host.session.row(game_id)).thread_id is None
        clock.advance(3 * 86400)
        await cog.run_once()
        await fake.wait_until(lambda: any("is aborted" in m.content for m in fake.messages()), what="the notice")
        notice = next(m for m in fake.messages() if "is aborted" in m.content)
        assert notice.message_reference is not None
        assert int(notice.message_reference["message_id"]) == rec.original.id
        for name in ("alice", "bob"):
            assert f"<@{harness.user_id(name)}>" in notice.content
        fake.faults.clear()
        discord_error_logs.clear()
        fake.errors.clear()


async def test_a_failure_after_thinking_is_private_and_logged(harness: BotHarness, monkeypatch: pytest.MonkeyPatch,
                                                             discord_error_logs: ErrorLogCollector) -> None:
    from host.records.exchange import RecordExchange

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("x" * 5000)

    monkeypatch.setattr(RecordExchange, "import_record", broken)
    async with harness.running():
        rec = await harness.fake.slash("carol", "zaic import", {"record": Upload("r.json", b"{}")})
        refusal = rec.followups[-1]
        assert refusal.ephemeral and GENERIC in refusal.content
        assert not any(GENERIC in text for text in public_texts(harness))
        assert any("import failed" in r.getMessage() for r in discord_error_logs.records)
        discord_error_logs.clear()
