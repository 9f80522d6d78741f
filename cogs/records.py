"""Game records in Discord: ``/<game> replay|gif|export|import`` and the replay message's controls.

Every control is a ``DynamicItem`` whose custom id holds the source and the step (``g12`` is game
#12, ``r3`` imported record R3), so replays work after a restart and for any number of viewers.
The work is in ``host/records/replay.py``; this module only turns its pages into messages.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands

from cogs._delivery import bot_of
from cogs._errors import guarded
from cogs._limits import refuse_after_defer
from cogs._lobby import lobby_text, post_lobby
from host.offload import ordinal
from host.play import bots
from host.records import replay as records
from host.records.formats import MAX_RECORD_BYTES
from host.records.replay import ReplayPage
from host.results import Busy, HostError

if TYPE_CHECKING:
    from zbot import ZBot

NO_PINGS = discord.AllowedMentions.none()
SOURCE = r"(?P<kind>[gr])(?P<ident>[0-9]+)"
NAV = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


def viewer(interaction: discord.Interaction) -> records.Viewer:
    return records.Viewer(interaction.user.id, interaction.guild_id)


def replay_message(page: ReplayPage) -> dict[str, Any]:
    """Caption, board and controls of one replay step (for send_message and edit_message alike)."""
    view = discord.ui.View(timeout=None)
    for action in NAV:
        disabled = page.step == 0 if action in ("first", "prev") else page.step == page.last
        view.add_item(ReplayNav(page.kind, page.ident, page.step, action, disabled=disabled))
    if page.can_play_on:
        view.add_item(PlayOn(page.kind, page.ident, page.step))
    if len(page.menu) > 1:
        view.add_item(ReplayJump(page.kind, page.ident, page.step, page.menu))
    file = discord.File(io.BytesIO(page.board.image), filename=page.board.filename)
    return {"content": page.caption[:2000], "file": file, "view": view, "allowed_mentions": NO_PINGS}


async def show_step(interaction: discord.Interaction, kind: str, ident: int, step: int | None) -> None:
    """Replace the replay message with another step."""
    await interaction.response.defer()  # a long record takes a moment to replay: never miss the 3 s
    page = await bot_of(interaction).host.records.page(kind, ident, step, viewer=viewer(interaction))
    message = replay_message(page)
    file = message.pop("file")
    await interaction.edit_original_response(attachments=[file], **message)


class AtStep:
    """Mixed into a ``DynamicItem`` for a position of a record: its template ends in ``{SOURCE}:<step>`` and
    its ``__init__`` takes ``(kind, ident, step)``, so discord.py rebuilds it from its custom id."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(match["kind"], int(match["ident"]), int(match["step"]))  # type: ignore[call-arg]


class ReplayNav(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=rf"zr:{SOURCE}:(?P<step>[0-9]+):(?P<action>first|prev|next|last)"):
    """⏮ ◀ ▶ ⏭: the step in the id is where the message is now; a step beyond the game is refused."""

    def __init__(self, kind: str, ident: int, step: int, action: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=NAV[action], style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"zr:{kind}{ident}:{step}:{action}"))
        self.kind, self.ident, self.step, self.action = kind, ident, step, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ReplayNav:
        return cls(match["kind"], int(match["ident"]), int(match["step"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        target = {"first": 0, "prev": self.step - 1, "next": self.step + 1, "last": None}[self.action]
        if target is not None and target < 0:
            raise HostError("This is already the starting position.")
        await show_step(interaction, self.kind, self.ident, target)


class ReplayJump(AtStep, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"zrj:{SOURCE}:(?P<step>[0-9]+)"):
    """Jump to a move by its number and notation (a window of 25 moves around the current one)."""

    def __init__(self, kind: str, ident: int, step: int, menu: list[tuple[int, str]] | None = None) -> None:
        options = [discord.SelectOption(label=label[:100], value=str(k), default=k == step)
                   for k, label in (menu or [])] or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=f"zrj:{kind}{ident}:{step}", placeholder="Jump to move…",
                                           options=options))
        self.kind, self.ident = kind, ident

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values or not str(values[0]).isdigit():
            raise HostError("Choose a move from the list.")
        await show_step(interaction, self.kind, self.ident, int(values[0]))


class ReplayOpen(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zro:(?P<ident>[0-9]+)"):
    """A game in ``/history``: opens its replay, privately, at the final position."""

    def __init__(self, ident: int) -> None:
        super().__init__(discord.ui.Button(label=f"Replay #{ident}", style=discord.ButtonStyle.secondary,
                                           custom_id=f"zro:{ident}"))
        self.ident = ident

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> ReplayOpen:
        return cls(int(match["ident"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        page = await bot_of(interaction).host.records.page("g", self.ident, None, viewer=viewer(interaction))
        await interaction.response.send_message(ephemeral=True, **replay_message(page))


def history_view(game_ids: list[int]) -> discord.ui.View:
    """One replay button per game listed by ``/history`` (at most 25, Discord's limit)."""
    view = discord.ui.View(timeout=None)
    for ident in game_ids[:25]:
        view.add_item(ReplayOpen(ident))
    return view


# ----- play on from a position --------------------------------------------------------------


class PlayOn(AtStep, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"zrf:{SOURCE}:(?P<step>[0-9]+)"):
    """Play from here: asks privately whom to challenge (a person, or an open seat)."""

    def __init__(self, kind: str, ident: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Play from here", style=discord.ButtonStyle.primary,
                                           custom_id=f"zrf:{kind}{ident}:{step}"))
        self.kind, self.ident, self.step = kind, ident, step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise HostError("Start games in a server channel, not in DMs.")
        view = discord.ui.View(timeout=None)
        view.add_item(PlayOnPick(self.kind, self.ident, self.step))
        view.add_item(PlayOnOpen(self.kind, self.ident, self.step))
        view.add_item(PlayOnAi(self.kind, self.ident, self.step))
        await interaction.response.send_message(
            f"Play on from move {self.step}: choose your opponent, leave the seat open, or play the AI. "
            "The new game is never rated.", view=view, ephemeral=True)


async def post_challenge(interaction: discord.Interaction, kind: str, ident: int, step: int,
                         opponents: list[discord.User | discord.Member], ai: str | None = None) -> None:
    """The new game's challenge, in the channel (a thread's parent: each game opens its own thread);
    against the AI the game starts at once in its own thread."""
    if any(u.bot for u in opponents):
        raise HostError("Other bots cannot play; challenge a person, leave the seat open, or choose an AI level.")
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if not isinstance(channel, discord.TextChannel):
        raise HostError("Play on in a server text channel.")
    bot = bot_of(interaction)
    lobby = await bot.host.record_exchange.play_from(kind, ident, step, creator=interaction.user.id,
                                            opponents=[u.id for u in opponents], guild_id=interaction.guild_id,
                                            channel_id=channel.id, ai=ai)
    title = records.title_of(lobby.row.game)
    origin = lobby.row.settings.get("origin", {})
    text = f"{lobby_text(lobby, title)}\nFrom {origin.get('source')} after move {step} (never rated)."

    async def answer(message: discord.Message) -> None:
        done = "Game started" if lobby.started else "Challenge posted"
        await interaction.response.edit_message(content=f"{done}: {message.jump_url}", view=None)

    await post_lobby(bot, channel, lobby, text, answer)


class PlayOnPick(AtStep, discord.ui.DynamicItem[discord.ui.UserSelect[Any]],
                 template=rf"zrfu:{SOURCE}:(?P<step>[0-9]+)"):
    def __init__(self, kind: str, ident: int, step: int) -> None:
        super().__init__(discord.ui.UserSelect(custom_id=f"zrfu:{kind}{ident}:{step}", placeholder="Challenge…"))
        self.kind, self.ident, self.step = kind, ident, step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await post_challenge(interaction, self.kind, self.ident, self.step, list(self.item.values))


class PlayOnOpen(AtStep, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"zrfo:{SOURCE}:(?P<step>[0-9]+)"):
    def __init__(self, kind: str, ident: int, step: int) -> None:
        super().__init__(discord.ui.Button(label="Open seat (anyone may join)", style=discord.ButtonStyle.secondary,
                                           custom_id=f"zrfo:{kind}{ident}:{step}"))
        self.kind, self.ident, self.step = kind, ident, step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await post_challenge(interaction, self.kind, self.ident, self.step, [])


class PlayOnAi(AtStep, discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"zrfa:{SOURCE}:(?P<step>[0-9]+)"):
    """Play the AI from here: its level, then the game starts at once (the AI takes the other seats)."""

    def __init__(self, kind: str, ident: int, step: int) -> None:
        options = [discord.SelectOption(label=f"AI ({level})", value=level) for level in bots.LEVELS]
        super().__init__(discord.ui.Select(custom_id=f"zrfa:{kind}{ident}:{step}", placeholder="Play the AI…",
                                           options=options))
        self.kind, self.ident, self.step = kind, ident, step

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values or values[0] not in bots.LEVELS:
            raise HostError(f"Choose an AI level: {', '.join(bots.LEVELS)}.")
        await post_challenge(interaction, self.kind, self.ident, self.step, [], ai=str(values[0]))


# ----- the commands every game cog gets -----------------------------------------------------


async def user_name(bot: ZBot, user_id: int) -> str:
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
    except discord.HTTPException:
        return f"user {user_id}"
    return user.global_name or user.name


class Placeholder:
    """The private "thinking…" of a heavy command: edited with the user's place in line while they wait,
    then removed for the public result (a lock keeps a late place edit from following the removal)."""

    def __init__(self, interaction: discord.Interaction, what: str) -> None:
        self.interaction, self.what = interaction, what
        self.lock = asyncio.Lock()
        self.done = False

    async def tell(self, place: int) -> None:
        async with self.lock:
            if not self.done:
                await self.interaction.edit_original_response(
                    content=f"⏳ You are {ordinal(place)} in line for your {self.what}; it starts by itself.")

    async def refuse(self, text: str) -> None:
        async with self.lock:
            self.done = True
            await refuse_after_defer(self.interaction, text)

    async def answer(self, caption: str, **message: Any) -> None:
        """The result for the channel: a new public message; the private placeholder goes."""
        async with self.lock:
            self.done = True
            try:
                await self.interaction.delete_original_response()
            except discord.HTTPException:
                pass
        message.setdefault("allowed_mentions", NO_PINGS)
        await self.interaction.followup.send(caption, **message)


class RecordCommands:
    """Mixed into ``GameCog``: ``replay``, ``gif``, ``export`` and ``import`` for every game."""

    game: str
    bot: ZBot

    async def _record_game(self, interaction: discord.Interaction, game: int | None) -> int:
        if game is not None:
            return game
        thread_id = interaction.channel_id if isinstance(interaction.channel, discord.Thread) else None
        row = await self.bot.host.boards.resolve(self.game, interaction.user.id, thread_id=thread_id,
                                          guild_id=interaction.guild_id, statuses=("active", "finished"))
        return row.id

    @app_commands.command(name="replay", description="Replay a game move by move")
    @app_commands.describe(game="The game's number (default: this thread's game)",
                           move="Start at this move (default: the last)", private="Only you see the replay")
    async def replay(self, interaction: discord.Interaction, game: int | None = None,
                     move: app_commands.Range[int, 0, 100000] | None = None, private: bool = False) -> None:
        ident = await self._record_game(interaction, game)
        page = await self.bot.host.records.page("g", ident, move, game=self.game, viewer=viewer(interaction))
        await interaction.response.send_message(ephemeral=private, **replay_message(page))

    @app_commands.command(name="gif", description="An animated GIF of a whole game")
    @app_commands.describe(game="The game's number (default: this thread's game)")
    async def gif(self, interaction: discord.Interaction, game: int | None = None) -> None:
        ident = await self._record_game(interaction, game)
        await self.bot.host.records.source("g", ident, self.game, viewer(interaction))  # refuse before deferring
        with self.bot.gifs.turn(interaction.user.id) as ticket:  # after the cheap checks: a wrong number is told
            await interaction.response.defer(thinking=True, ephemeral=True)  # private: it may say "3rd in line"
            placeholder = Placeholder(interaction, "GIF")
            try:
                caption, board = await self.bot.host.records.gif(ident, game=self.game, viewer=viewer(interaction),
                                                                 on_place=placeholder.tell)
            except (HostError, Busy) as error:
                await placeholder.refuse(str(error))
                return
            ticket.served = True  # only a GIF built spends the ration
        await placeholder.answer(caption, file=discord.File(io.BytesIO(board.image), filename=board.filename))

    @app_commands.command(name="export", description="Download a game's record (JSON, text, and SGF for ZÈRTZ)")
    @app_commands.describe(game="The game's number (default: this thread's game)")
    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        ident = await self._record_game(interaction, game)
        bot = self.bot
        text, files = await bot.host.record_exchange.export(ident, lambda user: user_name(bot, user), game=self.game,
                                           viewer=viewer(interaction))
        await interaction.response.send_message(
            text[:2000], files=[discord.File(io.BytesIO(data), filename=name) for name, data in files], ephemeral=True)

    @app_commands.command(name="import", description="Replay a record exported by /<game> export (JSON or text)")
    @app_commands.describe(record="The record file", move="Show this move first (default: the last)")
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment,
                            move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        if record.size > MAX_RECORD_BYTES:
            raise HostError(f"That file is too large for a game record (at most {MAX_RECORD_BYTES // 1000} kB).")
        with self.bot.imports.turn(interaction.user.id) as ticket:
            await interaction.response.defer(thinking=True, ephemeral=True)  # private: it may say "3rd in line"
            placeholder = Placeholder(interaction, "import")
            data = await record.read()
            try:
                page = await self.bot.host.record_exchange.import_record(self.game, data, interaction.user.id,
                                                                         interaction.guild_id, move,
                                                                         on_place=placeholder.tell)
            except (HostError, Busy) as error:
                await placeholder.refuse(str(error))
                return
            ticket.served = True  # only a record read spends the ration
        message = replay_message(page)
        await placeholder.answer(message.pop("content"), **message)


async def setup(bot: ZBot) -> None:
    bot.add_dynamic_items(ReplayNav, ReplayJump, ReplayOpen, PlayOn, PlayOnPick, PlayOnOpen, PlayOnAi)
