"""Per-user budgets through the bot (issue 24, item 2): a spammer is slowed down privately, others are not,
autocomplete is always answered. A builder at a person's pace is never refused: every whole game of
tests/e2e/test_builder.py is played with the budget on and says so."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.fakediscord.logs import ErrorLogCollector


async def test_a_spammer_is_slowed_down_privately_and_others_are_served(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    harness.rate_burst = 10
    fake = harness.fake
    async with harness.running() as bot:
        now = [0.0]

        def spammers_clock() -> float:  # 20 interactions a second, however slowly a loaded machine answers them
            now[0] += 0.05
            return now[0]

        bot.rates.clock = spammers_clock
        answers = [await fake.slash("alice", "games") for _ in range(25)]
        slowed = [a for a in answers if "Slow down" in a.content]
        assert 8 <= len(slowed) <= 15 and all(a.ephemeral for a in slowed)
        assert all("Slow down" not in a.content for a in answers[:10])
        assert "Slow down" not in (await fake.slash("bob", "games")).content
        choices = await fake.autocomplete("alice", "leaderboard", focused="game", value="z")
        assert choices, "autocomplete is answered whatever the budget"
        rec = await fake.slash("alice", "zaic new", {"opponent": "bob"})
        assert rec.ephemeral and "Slow down" in rec.content  # a button press is counted the same way
        challenge = await fake.slash("bob", "zaic new", {"opponent": "carol"})
        button = next(c for c in challenge.original.custom_ids() if c.startswith("zg:decline:"))
        presses = [await fake.click("dave", challenge.original, button) for _ in range(14)]  # not his to decline
        assert all(p.ephemeral for p in presses)
        assert "Slow down" not in presses[0].content and "Slow down" in presses[-1].content
