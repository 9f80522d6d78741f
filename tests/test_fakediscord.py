"""End-to-end tests of the fake Discord with a real discord.py ``commands.Bot`` over loopback."""

from __future__ import annotations

import asyncio
import io
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, Upload, running_bot

pytest_plugins = ["tests.fakediscord.fixtures"]

MOVES = ["wd", "we", "wf", "xd"]


class MoveButton(discord.ui.DynamicItem[discord.ui.Button], template=r"zrtz:move:(?P<game>\d+)"):
    """Persistent button: survives restarts because the game id lives in the custom_id."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Move", custom_id=f"zrtz:move:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"game {self.game} handled by {interaction.client.instance_name}", ephemeral=True
        )


class Pick(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="zrtz:pick", options=[discord.SelectOption(label=m, value=m) for m in MOVES])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Name your game"):
    game_name = discord.ui.TextInput(label="Name", custom_id="zrtz:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.game_name.value}")


class GameCog(commands.Cog):
    zrtz = app_commands.Group(name="zrtz", description="Play zrtz")
    admin = app_commands.Group(name="admin", description="Admin", parent=zrtz)

    @zrtz.command(name="move", description="Make a move")
    async def move(self, interaction: discord.Interaction, move: str, opponent: discord.Member | None = None) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(MoveButton(42))
        vs = f" vs {opponent.name}" if opponent else ""
        await interaction.response.send_message(f"{interaction.user.name} played {move}{vs}", view=view)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

    @zrtz.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("the board", file=discord.File(io.BytesIO(b"PNGDATA"), "board.png"))

    @zrtz.command(name="thread", description="Start a game thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("starting", ephemeral=True)
        starter = await interaction.channel.send("game 7")
        th = await starter.create_thread(name="game-7")
        await th.send("your move")
        private = await interaction.channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
        await private.add_user(interaction.user)
        await private.send("psst")

    @zrtz.command(name="dm", description="DM a player")
    async def dm(self, interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send("your turn")
        except discord.Forbidden:
            await interaction.response.send_message(f"cannot DM {player.name}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @zrtz.command(name="upload", description="Upload a game")
    async def upload(self, interaction: discord.Interaction, game: discord.Attachment) -> None:
        data = await game.read()
        echo = discord.File(io.BytesIO(data[::-1]), "echo.txt")
        await interaction.response.send_message(f"{game.filename}: {len(data)} bytes", file=echo)

    @zrtz.command(name="pick", description="Pick a move")
    async def pick(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=Pick())

    @zrtz.command(name="name", description="Name the game")
    async def name(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @admin.command(name="reset", description="Reset a game")
    async def reset(self, interaction: discord.Interaction, game: int) -> None:
        await interaction.response.send_message(f"reset {game}")


class GameBot(commands.Bot):
    def __init__(self, instance_name: str) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0)
        self.instance_name = instance_name

    async def setup_hook(self) -> None:
        self.add_dynamic_items(MoveButton)
        await self.add_cog(GameCog())
        await self.tree.sync()


async def test_slash_button_autocomplete_and_nested_group(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, GameBot("first")):
        assert "zrtz" in fake.world.global_commands
        assert await fake.autocomplete(alice, "zrtz move", focused="move", value="w") == [
            {"name": m, "value": m} for m in ["wd", "we", "wf"]
        ]
        rec = await fake.slash(alice, "zrtz move", {"move": "wd", "opponent": bob})
        assert rec.response_type == 4 and not rec.ephemeral
        assert rec.content == "alice played wd vs bob"
        assert fake.last_message("general") is rec.original
        assert rec.original.custom_ids() == ["zrtz:move:42"]

        click = await fake.click(bob, rec.original, "zrtz:move:42")
        assert click.ephemeral and click.content == "game 42 handled by first"
        assert click.original not in fake.messages("general")

        reset = await fake.slash(alice, "zrtz admin reset", {"game": 3})
        assert reset.content == "reset 3"
        assert reset.payload["data"]["options"][0]["options"][0]["options"] == [{"type": 4, "name": "game", "value": 3}]


async def test_deferred_followup_with_file_attachment_option_select_and_modal(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, GameBot("first")):
        board = await fake.slash("alice", "zrtz board")
        assert board.response_type == 5
        assert board.original.content == "the board"  # first followup filled the "thinking" message
        assert board.original.file("board.png") == b"PNGDATA"
        assert fake.attachment_bytes("general", "board.png") == b"PNGDATA"

        up = await fake.slash("alice", "zrtz upload", {"game": Upload("game.pgn", b"1. e4 e5")})
        assert up.content == "game.pgn: 8 bytes"
        assert [(f.filename, f.data, f.content_type) for f in up.files] == [("echo.txt", b"5e 4e .1", "text/plain")]

        pick = await fake.slash("alice", "zrtz pick")
        chosen = await fake.select("bob", pick.original, "zrtz:pick", ["xd"])
        assert chosen.response_type == 7 and chosen.original is pick.original
        assert pick.original.content == "picked xd" and pick.original.components == []

        shown = await fake.slash("alice", "zrtz name")
        assert shown.modal is not None and shown.modal["title"] == "Name your game"
        named = await fake.submit_modal("alice", shown, {"zrtz:name": "Friday game"})
        assert named.content == "named Friday game"


async def test_threads_and_dms(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    alice, carol = fake.user("alice"), fake.user("carol")
    fake.close_dms(carol)
    async with running_bot(fake, GameBot("first")):
        await fake.slash(alice, "zrtz thread")
        game = fake.thread("game-7")
        assert game.id == fake.last_message("general").id  # a thread started from a message shares its id
        assert [m.content for m in fake.messages(game)] == ["your move"]
        secret = fake.thread("secret")
        assert secret.type == 12 and alice.id in secret.member_ids
        assert [m.content for m in fake.messages(secret)] == ["psst"]

        sent = await fake.slash(alice, "zrtz dm", {"player": alice})
        assert sent.content == "sent"
        assert [m.content for m in fake.messages(alice)] == ["your turn"]

        refused = await fake.slash(alice, "zrtz dm", {"player": carol})
        assert refused.content == "cannot DM carol" and refused.ephemeral
        assert fake.messages(carol) == []
        assert [r.status for r in fake.requests_to("POST", "/channels/{channel_id}/messages")][-1] == 403


async def test_restart_keeps_dynamic_button_working(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, GameBot("first")):
        rec = await fake.slash("alice", "zrtz move", {"move": "we"})
    async with running_bot(fake, GameBot("second")):
        click = await fake.click("bob", rec.original, "zrtz:move:42")
        assert click.content == "game 42 handled by second"


async def test_invalid_usage_is_reported(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(fake, GameBot("first")):
        with pytest.raises(LookupError, match="no option"):
            await fake.slash("alice", "zrtz move", {"mvoe": "wd"})
        with pytest.raises(ValueError, match="required option"):
            await fake.slash("alice", "zrtz move", {})
        with pytest.raises(LookupError, match="not registered"):
            await fake.slash("alice", "chess move", {})
        rec = await fake.slash("alice", "zrtz move", {"move": "wd"})
        with pytest.raises(LookupError, match="no component"):
            await fake.click("alice", rec.original, "nope")


async def test_unhandled_route_and_rejected_message_are_recorded() -> None:
    async with FakeDiscord() as fake:
        bot = GameBot("first")
        async with running_bot(fake, bot):
            channel = bot.get_channel(fake.world.general.id)
            with pytest.raises(discord.HTTPException):
                await channel.send("x" * 2001)
            with pytest.raises(discord.NotFound):
                await bot.http.request(discord.http.Route("GET", "/nonexistent"))
        assert any("2001 chars" in e for e in fake.errors)
        assert any("unhandled route: GET /api/v10/nonexistent" in e for e in fake.errors)
        with pytest.raises(AssertionError):
            fake.check()


class ExtrasCog(commands.Cog):
    """Commands exercising the less common paths: errors, waiting handlers, DMs, double responses."""

    def __init__(self) -> None:
        self.accepted: discord.Interaction | None = None

    @app_commands.command(name="boom", description="Fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @app_commands.command(name="challenge", description="Wait for an accept")
    async def challenge(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        button = discord.ui.Button(label="Accept", custom_id="accept")

        async def accepted(inter: discord.Interaction) -> None:
            await inter.response.edit_message(content="accepted", view=None)
            view.stop()

        button.callback = accepted
        view.add_item(button)
        await interaction.response.send_message("challenge!", view=view)
        await view.wait()
        await interaction.followup.send("game on")

    @app_commands.command(name="twice", description="Responds twice")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:
            await interaction.response.send_message("two")
        except discord.InteractionResponded:
            await interaction.followup.send("two", ephemeral=True)

    @app_commands.command(name="where", description="Where am I")
    async def where(self, interaction: discord.Interaction) -> None:
        kind = "dm" if interaction.guild is None else interaction.channel.name
        await interaction.response.send_message(kind)

    @app_commands.command(name="rude", description="Acknowledges twice behind discord.py's back")
    async def rude(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None
        await interaction.response.send_message("two")

    @app_commands.command(name="counter", description="A counter button")
    async def counter(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        button = discord.ui.Button(label="+1", custom_id="inc")

        async def inc(inter: discord.Interaction) -> None:
            await inter.response.defer()
            count = int(inter.message.content) + 1
            await inter.edit_original_response(content=str(count))

        button.callback = inc
        view.add_item(button)
        await interaction.response.send_message("0", view=view)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.content.startswith("echo "):
            return
        await message.channel.send(message.content.removeprefix("echo "))


class ExtrasBot(commands.Bot):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0)

    async def setup_hook(self) -> None:
        await self.add_cog(ExtrasCog())
        await self.tree.sync(guild=None)


async def test_command_errors_are_collected_from_discord_logs(fake_discord, discord_error_logs) -> None:
    async with running_bot(fake_discord, ExtrasBot()):
        with pytest.raises(AssertionError, match="without responding"):
            await fake_discord.slash("alice", "boom")
    assert any("kaboom" in (r.exc_text or "") or "boom" in r.getMessage() for r in discord_error_logs.records)
    with pytest.raises(AssertionError, match="ERROR logs"):
        discord_error_logs.check()
    discord_error_logs.clear()


async def test_waiting_handler_followup_double_response_dm_and_messages(fake_discord) -> None:
    fake = fake_discord
    async with running_bot(fake, ExtrasBot()):
        challenge = await fake.slash("alice", "challenge", wait="response")
        assert challenge.content == "challenge!"
        await fake.click("bob", challenge.original, "accept")
        (game_on,) = await challenge.wait_followups(1)
        assert game_on.content == "game on" and challenge.original.content == "accepted"

        twice = await fake.slash("alice", "twice")
        assert [m.content for m in twice.messages] == ["one", "two"] and twice.followups[0].ephemeral

        dm = await fake.slash("alice", "where", channel=fake.user("alice"))
        assert dm.content == "dm"

        await fake.say("bob", "echo hello")
        assert fake.last_message().content == "hello"
        waiter = asyncio.ensure_future(fake.wait_message("general", lambda m: m.content == "later"))
        await fake.say("bob", "echo later", wait="none")
        assert (await waiter).author_id == fake.bot_user.id


async def test_deferred_update_edits_the_clicked_message(fake_discord) -> None:
    async with running_bot(fake_discord, ExtrasBot()):
        counter = await fake_discord.slash("alice", "counter")
        for _ in range(2):
            click = await fake_discord.click("bob", counter.original, "inc")
            assert click.response_type == 6 and click.original is counter.original
        assert counter.original.content == "2" and counter.original.edited_timestamp is not None


async def test_double_and_late_acknowledgements_are_recorded(fake_discord, discord_error_logs) -> None:
    fake = fake_discord
    async with running_bot(fake, ExtrasBot()):
        rude = await fake.slash("alice", "rude")
        assert rude.content == "one"
        assert any("already been acknowledged" in e for e in fake.errors)
        fake.errors.clear()

        fake.callback_deadline = 0.0
        with pytest.raises(AssertionError, match="without responding"):
            await fake.slash("alice", "where")
        assert any("answered after" in e for e in fake.errors)
        fake.errors.clear()
    assert discord_error_logs.records  # the bot saw HTTP errors and logged them
    discord_error_logs.clear()


async def test_register_tree_without_sync_guild_commands_and_threads(fake_discord) -> None:
    fake = fake_discord
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0)
    tree = app_commands.CommandTree(client)

    @tree.command(name="ping", description="Pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pong in {interaction.channel.name}")

    @tree.command(name="local", description="Guild only", guild=discord.Object(fake.guild_id))
    async def local(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("local")

    @tree.context_menu(name="Challenge")
    async def challenge(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"challenged {member.name}")

    @tree.context_menu(name="Quote")
    async def quote(interaction: discord.Interaction, message: discord.Message) -> None:
        await interaction.response.send_message(f"> {message.content}")

    fake.register_tree(tree)
    fake.register_tree(tree, guild=True)
    async with running_bot(fake, client):
        assert (await fake.slash("alice", "local")).content == "local"
        with pytest.raises(LookupError, match="not registered"):
            await fake.slash("alice", "local", channel=fake.world.dm_channel(fake.user("alice")))
        general = client.get_channel(fake.world.general.id)
        starter = await general.send("start")
        thread = await starter.create_thread(name="t1")
        await fake.wait_idle()  # THREAD_CREATE reached the client
        assert client.get_channel(thread.id) is not None
        rec = await fake.slash("alice", "ping", channel=fake.thread("t1"))
        assert rec.content == "pong in t1" and fake.messages("t1") == [rec.original]
        assert (await fake.context_menu("alice", "Challenge", "bob")).content == "challenged bob"
        assert (await fake.context_menu("alice", "Quote", rec.original)).content == "> pong in t1"
    assert not fake.requests_to("PUT", "/applications/{app_id}/commands")


async def test_members_intent_sees_all_members_and_joins(fake_discord) -> None:
    fake = fake_discord
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents, guild_ready_timeout=0)
    async with running_bot(fake, client):
        guild = client.get_guild(fake.guild_id)
        assert guild.chunked and {m.name for m in guild.members} >= {"alice", "bob", "carol", "dave"}
        erin = await fake.join("erin")
        await fake.wait_idle()
        assert guild.get_member(erin.id).name == "erin"
        assert (await guild.fetch_member(erin.id)).name == "erin"
        assert (await client.fetch_user(fake.user("bob").id)).name == "bob"
