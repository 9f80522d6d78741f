"""The fake Discord's roles and permissions, seen by a real discord.py client: GUILD_CREATE roles, permissions
computed like Discord's in every interaction, ROLE options and role selects, and roles changing mid-run."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.roles import ALL, BOT_INVITE, EVERYONE_DEFAULT, MANAGE_GUILD

pytest_plugins = ["tests.fakediscord.fixtures"]


class RolePick(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(cls=discord.ui.RoleSelect, custom_id="pick:role")
    async def pick(self, interaction: discord.Interaction, select: discord.ui.RoleSelect) -> None:
        await interaction.response.send_message(f"picked {select.values[0].name}")


class RoleBot(commands.Bot):
    """Answers what discord.py makes of the interaction: permissions, the member's roles, a picked role."""

    def __init__(self, *, members: bool = False) -> None:
        intents = discord.Intents.default()
        intents.members = members
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0,
                         enable_debug_events=True)
        self.events: list[str] = []

    async def on_socket_event_type(self, event_type: str) -> None:
        self.events.append(event_type)

    async def setup_hook(self) -> None:
        @app_commands.command(name="whoami", description="Permissions and roles")
        async def whoami(interaction: discord.Interaction) -> None:
            roles = ",".join(r.name for r in interaction.user.roles)  # type: ignore[union-attr]
            await interaction.response.send_message(
                f"perms={interaction.permissions.value} manage={interaction.permissions.manage_guild} "
                f"app={interaction.app_permissions.value} roles={roles}")

        @app_commands.command(name="pick", description="Pick a role")
        async def pick(interaction: discord.Interaction, role: discord.Role) -> None:
            known = interaction.guild is not None and interaction.guild.get_role(role.id) is not None
            await interaction.response.send_message(f"role={role.name} id={role.id} cached={known}")

        @app_commands.command(name="menu", description="A role select")
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick", view=RolePick())

        for command in (whoami, pick, menu):
            self.tree.add_command(command)
        await self.tree.sync()


def said(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split())


async def test_default_guild_roles_and_permissions_computed_like_discord(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    mods = fake.add_role("Moderators", MANAGE_GUILD, members=("bob",))
    async with running_bot(fake, RoleBot()) as bot:
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.default_role.id == fake.guild_id
        assert {r.name for r in guild.roles} == {"@everyone", "Admin", "FakeBot", "Moderators"}
        everyone = guild.default_role.permissions
        assert everyone.value == EVERYONE_DEFAULT and not everyone.manage_guild
        assert guild.get_role(mods.id).permissions.value == MANAGE_GUILD
        assert guild.owner_id == fake.world.owner.id

        alice = said((await fake.slash("alice", "whoami")).content)
        assert alice["manage"] == "True" and int(alice["perms"]) == ALL  # Administrator implies every permission
        assert alice["roles"] == "@everyone,Admin" and int(alice["app"]) == EVERYONE_DEFAULT | BOT_INVITE
        bob = said((await fake.slash("bob", "whoami")).content)
        assert bob["manage"] == "True" and int(bob["perms"]) == EVERYONE_DEFAULT | MANAGE_GUILD
        assert bob["roles"] == "@everyone,Moderators"
        carol = said((await fake.slash("carol", "whoami")).content)
        assert carol["manage"] == "False" and int(carol["perms"]) == EVERYONE_DEFAULT and carol["roles"] == "@everyone"
        owner = said((await fake.slash("owner", "whoami")).content)  # owns the guild without any role
        assert owner["manage"] == "True" and int(owner["perms"]) == ALL and owner["roles"] == "@everyone"
        fake.user("alice").permissions = "0"  # the explicit override still wins
        assert said((await fake.slash("alice", "whoami")).content)["manage"] == "False"

        listed = await guild.fetch_roles()
        assert [r.name for r in sorted(listed)] == ["@everyone", "FakeBot", "Admin", "Moderators"]
        assert next(r for r in listed if r.name == "FakeBot").managed
        assert (await guild.fetch_role(mods.id)).name == "Moderators"
        with pytest.raises(discord.NotFound) as missing:
            await guild.fetch_role(12345)
        assert missing.value.code == 10011
        member = await guild.fetch_member(fake.user("bob").id)
        assert [r.name for r in member.roles] == ["@everyone", "Moderators"]

        sent = await guild.get_channel(fake.world.general.id).send(f"ping {mods.mention}")  # type: ignore[union-attr]
        assert sent.raw_role_mentions == [mods.id] and sent.role_mentions == [guild.get_role(mods.id)]


async def test_role_options_resolve_like_discord_and_unknown_roles_are_refused(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    elsewhere = fake.world.add_guild("Other", "other-general")
    foreign = fake.world.add_role("Foreign", guild_id=elsewhere.guild_id)
    async with running_bot(fake, RoleBot()):
        picked = said((await fake.slash("alice", "pick", {"role": "Admin"})).content)
        assert picked == {"role": "Admin", "id": str(fake.world.admin_role.id), "cached": "True"}
        everyone = said((await fake.slash("carol", "pick", {"role": "everyone"})).content)
        assert everyone["role"] == "@everyone" and everyone["id"] == str(fake.guild_id)
        rec = fake.interactions[next(reversed(fake.interactions))]
        assert rec.payload["data"]["resolved"]["roles"][str(fake.guild_id)]["name"] == "@everyone"
        with pytest.raises(LookupError, match="no role 'Nobody'"):
            await fake.slash("alice", "pick", {"role": "Nobody"})
        with pytest.raises(LookupError, match="no role"):  # another guild's role is not on this guild's picker
            await fake.slash("alice", "pick", {"role": foreign})
        in_other = said((await fake.slash("alice", "pick", {"role": foreign}, channel=elsewhere)).content)
        assert in_other["role"] == "Foreign"

        menu = await fake.slash("bob", "menu")
        chosen = await fake.select("bob", menu.original, "pick:role", ["Admin"])
        assert chosen.content == "picked Admin"


async def test_roles_created_given_taken_and_deleted_while_connected(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, RoleBot()) as bot:
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None
        organisers = await fake.create_role("Organisers")
        await fake.wait_idle()
        assert guild.get_role(organisers.id) is not None  # GUILD_ROLE_CREATE reached the client
        await fake.give_role("carol", organisers)
        assert said((await fake.slash("carol", "whoami")).content)["roles"] == "@everyone,Organisers"
        assert said((await fake.slash("carol", "pick", {"role": "Organisers"})).content)["cached"] == "True"
        await fake.take_role("carol", "Organisers")
        assert said((await fake.slash("carol", "whoami")).content)["roles"] == "@everyone"

        await fake.give_role("carol", organisers)
        await fake.delete_role(organisers)
        await fake.wait_idle()
        assert guild.get_role(organisers.id) is None and not fake.user("carol").role_ids
        with pytest.raises(LookupError, match="no role"):
            await fake.slash("alice", "pick", {"role": "Organisers"})
        with pytest.raises(ValueError, match="cannot be deleted"):
            await fake.delete_role("everyone")


async def test_member_updates_reach_only_a_bot_with_the_members_intent(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bob_id = fake.user("bob").id
    async with running_bot(fake, RoleBot(members=True)) as bot:
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.get_member(bob_id) is not None
        vip = await fake.create_role("VIP")
        await fake.give_role("bob", vip)
        await fake.wait_idle()
        assert [r.name for r in guild.get_member(bob_id).roles] == ["@everyone", "VIP"]  # type: ignore[union-attr]
        await fake.take_role("bob", vip)
        await fake.wait_idle()
        assert [r.name for r in guild.get_member(bob_id).roles] == ["@everyone"]  # type: ignore[union-attr]
        assert bot.events.count("GUILD_MEMBER_UPDATE") == 2
    async with running_bot(fake, RoleBot()) as bot:  # default intents: no GUILD_MEMBER_UPDATE
        await fake.give_role("bob", "VIP")
        await fake.create_role("Later")
        await fake.wait_idle()
        assert "GUILD_ROLE_CREATE" in bot.events and "GUILD_MEMBER_UPDATE" not in bot.events
        bob = said((await fake.slash("bob", "whoami")).content)  # the interaction still carries bob's roles
        assert bob["roles"] == "@everyone,VIP"
