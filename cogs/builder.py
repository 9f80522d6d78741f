"""The move builder's Discord side: a Move button under every board opens a private builder message.

Each press edits that private message to the next step (``host/play/builder.py`` does the work). Every
component carries the builder's whole state in its custom id, so the buttons work after a restart.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs._delivery import bot_of, post_report
from cogs._errors import guarded
from host.play.builder import StaleBuilder, Step, decode, encode
from host.results import HostError

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
EXPIRED = (10008, 10015, 50027)
"""Unknown message, unknown webhook, invalid webhook token: the builder message cannot be edited any more
(its token expired after Discord's 15 minutes, or it was dismissed), so a fresh builder is sent instead."""
STATE = r"(?P<game_id>[0-9]+):(?P<ply>[0-9]+):(?P<token>[0-9a-z]+):(?P<path>[0-9.~]*)"


def token_of(interaction: discord.Interaction) -> str:
    """A builder's name: the id of the Move press that opened it, in base 36 (short, unique, no randomness)."""
    number, digits = interaction.id, ""
    while number:
        number, rest = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[rest] + digits
    return digits or "0"


def builder_message(step: Step) -> dict[str, Any]:
    """The private message of one builder step: what is picked, what to choose next, the board, the controls."""
    lines = [step.title]
    if step.picked:
        lines.append("Picked: " + " → ".join(step.picked))
    lines.append(step.prompt)
    view = discord.ui.View(timeout=None)
    state = (step.game_id, step.ply, step.token)
    if step.groups:
        options = [(f"~{k}", name) for k, name in enumerate(step.groups)]
        view.add_item(BuilderSelect(*state, encode(step.path), 0, options, "Where on the board…"))
    elif step.menus:
        prefix = step.path if not step.path or not step.path[-1].startswith("~") else step.path[:-1]
        for n, (title, menu) in enumerate(step.menus):
            options = [(choice.value.rsplit(".", 1)[-1], choice.label) for choice in menu]
            view.add_item(BuilderSelect(*state, encode(prefix), n, options, title or "Choose…"))
    else:
        for n, choice in enumerate(step.choices):
            view.add_item(BuilderPick(*state, choice.value, choice.label, row=n // 5))
    if step.move is not None:
        view.add_item(BuilderPlay(*state, encode(step.path)))
    view.add_item(BuilderPick(*state, encode(step.path[:-1]), "Back", row=4, back=True, disabled=not step.can_back))
    view.add_item(BuilderCancel(step.game_id, step.token))
    if any(len(item.custom_id or "") > 100 for item in view.children if hasattr(item, "custom_id")):
        raise HostError("This move has too many steps for the builder: type it with the move command instead.")
    assert step.board is not None
    file = discord.File(io.BytesIO(step.board.image), filename=step.board.filename)
    return {"content": "\n".join(lines)[:2000], "file": file, "view": view}


async def show(interaction: discord.Interaction, step: Step) -> None:
    """Replace the builder message with ``step`` (the press was deferred: the image may take a moment)."""
    message = builder_message(step)
    file = message.pop("file")
    await edit_or_send(interaction, step.game_id, attachments=[file], **message)


async def edit_or_send(interaction: discord.Interaction, game_id: int, **message: Any) -> None:
    """Edit the builder message; when Discord no longer lets us (the token expired after 15 minutes, or the
    message was dismissed), send the same privately as a new message instead."""
    try:
        await interaction.edit_original_response(**message)
    except discord.HTTPException as error:
        if error.code not in EXPIRED:
            raise
        log.info("builder of game %s could not be edited (%s): sent afresh", game_id, error.code)
        files = message.pop("attachments", [])
        if message.get("view", ...) is None:  # "no buttons": an edit takes None, a new message only leaves it out
            del message["view"]
        await interaction.followup.send(ephemeral=True, files=files, **message)


async def stale(interaction: discord.Interaction, game_id: int, error: StaleBuilder) -> None:
    """The builder is out of date: say so in its place, with a button for a fresh one while the game is on."""
    view = None
    if error.reopen:
        view = discord.ui.View(timeout=None)
        view.add_item(OpenBuilder(game_id))
    await edit_or_send(interaction, game_id, content=str(error), attachments=[], view=view)


class OpenBuilder(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mo:(?P<game_id>[0-9]+)"):
    """**Move** under a board: opens the pressing player's private move builder at the current position."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Move", emoji="✋", style=discord.ButtonStyle.success,
                                           custom_id=f"mo:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> OpenBuilder:
        return cls(int(match["game_id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        step = await bot_of(interaction).host.builder.open(self.game_id, interaction.user.id, token_of(interaction))
        await interaction.followup.send(ephemeral=True, **builder_message(step))


class Stateful:
    """Mixed into the builder's items: their custom id holds (game, ply, token, path)."""

    game_id: int
    ply: int
    token: str

    async def go(self, interaction: discord.Interaction, path: str) -> None:
        await interaction.response.defer()
        host = bot_of(interaction).host
        try:
            step = await host.builder.show(self.game_id, interaction.user.id, self.ply, self.token, decode(path))
        except StaleBuilder as error:
            await stale(interaction, self.game_id, error)
            return
        await show(interaction, step)


class BuilderPick(Stateful, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"m(?P<back>[bk]):{STATE}"):
    """One choice of a step (its path is where it leads), or Back (the path one step shorter)."""

    def __init__(self, game_id: int, ply: int, token: str, path: str, label: str = "…", *, row: int | None = None,
                 back: bool = False, disabled: bool = False) -> None:
        style = discord.ButtonStyle.secondary if back else discord.ButtonStyle.primary
        super().__init__(discord.ui.Button(label=label[:80], style=style, disabled=disabled, row=row,
                                           custom_id=f"m{'k' if back else 'b'}:{game_id}:{ply}:{token}:{path}"))
        self.game_id, self.ply, self.token, self.path = game_id, ply, token, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> BuilderPick:
        return cls(int(match["game_id"]), int(match["ply"]), match["token"], match["path"], back=match["back"] == "k")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await self.go(interaction, self.path)


class BuilderSelect(Stateful, discord.ui.DynamicItem[discord.ui.Select[Any]],
                    template=rf"ms:{STATE}:(?P<n>[0-9])"):
    """A menu of one step's choices (a group of them); the chosen option's value extends the path."""

    def __init__(self, game_id: int, ply: int, token: str, prefix: str, n: int = 0,
                 options: list[tuple[str, str]] | None = None, placeholder: str = "Choose…") -> None:
        shown = [discord.SelectOption(label=label[:100], value=value) for value, label in (options or [])]
        super().__init__(discord.ui.Select(custom_id=f"ms:{game_id}:{ply}:{token}:{prefix}:{n}",
                                           placeholder=placeholder[:150],
                                           options=shown or [discord.SelectOption(label="-", value="0")]))
        self.game_id, self.ply, self.token, self.prefix = game_id, ply, token, prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str]) -> BuilderSelect:
        return cls(int(match["game_id"]), int(match["ply"]), match["token"], match["path"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1:
            raise HostError("Choose one entry from the menu.")
        await self.go(interaction, encode([*decode(self.prefix), str(values[0])]))


class BuilderPlay(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mp:{STATE}"):
    """Play the finished move; a stepped turn (Ziggurat) goes on in the same builder with its next step."""

    def __init__(self, game_id: int, ply: int, token: str, path: str) -> None:
        super().__init__(discord.ui.Button(label="Play", emoji="✅", style=discord.ButtonStyle.success, row=4,
                                           custom_id=f"mp:{game_id}:{ply}:{token}:{path}"))
        self.game_id, self.ply, self.token, self.path = game_id, ply, token, path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> BuilderPlay:
        return cls(int(match["game_id"]), int(match["ply"]), match["token"], match["path"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        bot = bot_of(interaction)
        user = interaction.user.id
        try:
            report = await bot.host.builder.play(self.game_id, user, self.ply, self.token, decode(self.path))
        except StaleBuilder as error:
            await stale(interaction, self.game_id, error)
            return
        await post_report(bot, report)
        try:  # the same player moves again (a turn of several steps): build the next step here
            step = await bot.host.builder.open(self.game_id, user, self.token)
        except HostError:
            played = f"Played: see the board in <#{report.row.thread_id}>." if report.row.thread_id else "Played."
            await edit_or_send(interaction, self.game_id, content=played, attachments=[], view=None)
            return
        await show(interaction, step)


class BuilderCancel(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"mx:(?P<game_id>[0-9]+):(?P<token>[0-9a-z]+)"):
    """Close the builder; nothing is played."""

    def __init__(self, game_id: int, token: str) -> None:
        super().__init__(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.danger, row=4,
                                           custom_id=f"mx:{game_id}:{token}"))
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> BuilderCancel:
        return cls(int(match["game_id"]), match["token"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot_of(interaction).host.builder.cancel(self.game_id, interaction.user.id, self.token)
        await interaction.response.edit_message(content="Move builder closed; nothing was played.", attachments=[],
                                                view=None)


async def setup(bot: ZBot) -> None:
    bot.add_dynamic_items(OpenBuilder, BuilderPick, BuilderSelect, BuilderPlay, BuilderCancel)
