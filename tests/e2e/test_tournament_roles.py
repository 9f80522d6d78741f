"""Who may create events, end to end: Manage Server, or the organiser role set with ``/tournament settings``.

The fake Discord computes each member's permissions from their roles as Discord does and resolves the ROLE
option; the bot reads them from the interaction (``interaction.permissions`` and ``interaction.user.roles``).
bob and carol are plain members, dave holds ``Moderators`` (Manage Server), alice is the server's Admin.
"""

from __future__ import annotations

from data import tournaments as repo
from tests.e2e.conftest import BotHarness
from tests.fakediscord.logs import ErrorLogCollector
from tests.fakediscord.records import InteractionRecord
from tests.fakediscord.roles import MANAGE_GUILD
from zbot import ZBot

CREATE = {"game": "zaic", "format": "knockout"}
STATUSES = ("open", "running", "finished", "cancelled")


async def stored_events(harness: BotHarness, bot: ZBot) -> list[tuple[int, int]]:
    """(event id, organiser) of every event of the server, in any state."""
    return [(e.id, e.organiser_id) for e in await repo.of_guild(bot.host.db, harness.fake.guild_id, STATUSES)]


def refused(rec: InteractionRecord, words: str) -> bool:
    """A private answer saying ``words``, with no sign-up message (no Join button) posted."""
    return rec.ephemeral and words in rec.content and not any(m.custom_ids() for m in rec.messages)


def created_by(harness: BotHarness, rec: InteractionRecord, name: str) -> int:
    """The event a public sign-up message (with its Join button) announces; the organiser is ``name``."""
    assert not rec.ephemeral, rec.content
    signup = rec.original
    assert signup is not None and signup in harness.fake.messages("general")
    join = next(c for c in signup.custom_ids() if c.startswith("ze:join:"))
    assert f"<@{harness.user_id(name)}>" in signup.content
    return int(join.rsplit(":", 1)[1])


async def test_the_organiser_role_lets_members_create_events_while_they_hold_it(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    fake.add_role("Moderators", MANAGE_GUILD, members=("dave",))
    async with harness.running() as bot:
        no_right = await fake.slash("bob", "tournament create", CREATE)
        assert refused(no_right, "Only members with Manage Server, or the role set with /tournament settings")
        assert await stored_events(harness, bot) == []

        organisers = await fake.create_role("Organisers")  # made while the bot runs: GUILD_ROLE_CREATE
        not_admin = await fake.slash("bob", "tournament settings", {"organiser_role": organisers})
        assert refused(not_admin, "Only members with Manage Server can change the tournament settings")
        await fake.give_role("bob", organisers)
        still_no = await fake.slash("bob", "tournament create", CREATE)  # the refused setting changed nothing
        assert refused(still_no, "Only members with Manage Server") and await stored_events(harness, bot) == []

        accepted = await fake.slash("dave", "tournament settings", {"organiser_role": organisers})
        assert accepted.ephemeral and f"<@&{organisers.id}>" in accepted.content
        first = created_by(harness, await fake.slash("bob", "tournament create", CREATE), "bob")
        assert await stored_events(harness, bot) == [(first, harness.user_id("bob"))]
        without_role = await fake.slash("carol", "tournament create", CREATE)
        assert refused(without_role, "Only members with Manage Server")

        await fake.take_role("bob", organisers)
        taken = await fake.slash("bob", "tournament create", CREATE)
        assert refused(taken, "Only members with Manage Server") and len(await stored_events(harness, bot)) == 1
        own = await fake.slash("bob", "tournament add_ai", {"level": "easy", "event": first})
        assert own.ephemeral and "is entered in event" in own.content  # his event stays his to run

    async with harness.running() as bot:  # after a restart the role arrives in GUILD_CREATE
        await fake.give_role("bob", organisers)
        second = created_by(harness, await fake.slash("bob", "tournament create", CREATE), "bob")
        cleared = await fake.slash("dave", "tournament settings")
        assert cleared.ephemeral and "Only members with Manage Server may create events now" in cleared.content
        after_clear = await fake.slash("bob", "tournament create", CREATE)
        assert refused(after_clear, "Only members with Manage Server")

        by_manager = created_by(harness, await fake.slash("dave", "tournament create", CREATE), "dave")
        by_admin = created_by(harness, await fake.slash("alice", "tournament create", CREATE), "alice")
        organisers_of = dict(await stored_events(harness, bot))
        assert organisers_of == {first: harness.user_id("bob"), second: harness.user_id("bob"),
                                 by_manager: harness.user_id("dave"), by_admin: harness.user_id("alice")}


async def test_everyone_as_the_organiser_role_and_a_deleted_role(harness: BotHarness,
                                                                 discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        everyone = await fake.slash("alice", "tournament settings", {"organiser_role": "everyone"})
        assert everyone.ephemeral and "Everyone in this server may now create events" in everyone.content
        assert "<@&" not in everyone.content
        created_by(harness, await fake.slash("carol", "tournament create", CREATE), "carol")

        helpers = await fake.create_role("Helpers")
        await fake.give_role("bob", helpers)
        await fake.slash("alice", "tournament settings", {"organiser_role": helpers})
        created_by(harness, await fake.slash("bob", "tournament create", CREATE), "bob")
        await fake.delete_role(helpers)  # nobody holds a deleted role: only Manage Server is left
        gone = await fake.slash("bob", "tournament create", CREATE)
        assert refused(gone, "Only members with Manage Server") and len(await stored_events(harness, bot)) == 2
