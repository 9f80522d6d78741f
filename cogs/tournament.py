"""``/tournament``: Swiss, round-robin and knockout events, from sign-up to the podium.

Thin: every command parses the interaction and calls ``host.tournaments``; the tournament worker (a host
service started here) runs the event's jobs and hands back what to show, which ``deliver`` sends: the
sign-up message (edited, with persistent Join and Leave buttons), each round's pairings, the standings
message (edited after every result) and the final podium.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engines
from cogs._ai import AI_CHOICES
from cogs._delivery import MENTION_USERS, bot_of, deliver_owed, post_report, thread_of
from cogs._errors import guarded
from cogs._names import fit_choices
from cogs.correspondence import CLOCK_CHOICES
from host import outbox
from host.results import HostError
from host.tournaments.jobs import Post, TournamentWorker
from host.tournaments.service import Actor, Tournaments
from host.tournaments.texts import split_lines

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
FORMAT_CHOICES = [app_commands.Choice(name="Swiss", value="swiss"),
                  app_commands.Choice(name="round robin", value="round_robin"),
                  app_commands.Choice(name="knockout", value="knockout")]
GAME_CHOICES = [app_commands.Choice(name=cls.title, value=name) for name, cls in engines.GAMES.items()]


def actor(interaction: discord.Interaction) -> Actor:
    """Who acts, with Manage Server and their roles (for the organiser role of /tournament settings)."""
    roles = tuple(r.id for r in getattr(interaction.user, "roles", []) if r is not None)
    manage = bool(interaction.permissions.manage_guild or interaction.permissions.administrator)
    return Actor(interaction.user.id, manage_guild=manage, roles=roles)


def standings_files(images: Sequence[bytes]) -> list[discord.File]:
    """The standings pages as attachments (Discord takes at most 10 in one message)."""
    return [discord.File(io.BytesIO(png), filename=f"standings-{i}.png") for i, png in enumerate(images[:10], 1)]


def signup_view(event_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton(event_id, "join"))
    view.add_item(SignupButton(event_id, "leave"))
    return view


class SignupButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"ze:(?P<action>join|leave):(?P<id>[0-9]+)"):
    """Join or Leave on an event's sign-up message; the event id lives in the custom id (works after a restart)."""

    def __init__(self, event_id: int, action: str) -> None:
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=action.capitalize(), style=style, custom_id=f"ze:{action}:{event_id}"))
        self.event_id, self.action = event_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> SignupButton:
        return cls(int(match["id"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        t = bot_of(interaction).host.tournaments
        if self.action == "join":
            snap = await t.join(self.event_id, interaction.user.id)
        else:
            snap = await t.leave(self.event_id, interaction.user.id)
        await interaction.response.edit_message(content=t.signup_text(snap), view=signup_view(self.event_id),
                                                allowed_mentions=NO_MENTIONS)


DECISION_LABELS = {"rematch": "Pair with a rematch", "second_bye": "Give a second bye",
                   "rematch+second_bye": "Allow a rematch and a second bye"}


def decision_view(event_id: int, round_: int, ways: Sequence[str]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for way in ways:
        view.add_item(DecisionButton(event_id, round_, way))
    return view


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"ze:decide:(?P<id>[0-9]+):(?P<round>[0-9]+):(?P<way>[a-z_+]+)"):
    """The organiser's choice when a round has no legal pairing; works after a restart (all in the custom id)."""

    def __init__(self, event_id: int, round_: int, way: str) -> None:
        super().__init__(discord.ui.Button(label=DECISION_LABELS.get(way, way), style=discord.ButtonStyle.primary,
                                           custom_id=f"ze:decide:{event_id}:{round_}:{way}"))
        self.event_id, self.round, self.way = event_id, round_, way

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> DecisionButton:
        return cls(int(match["id"]), int(match["round"]), match["way"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        said = await bot_of(interaction).host.tournaments.decide(self.event_id, actor(interaction), self.round,
                                                                 self.way)
        await interaction.response.edit_message(content=f"{interaction.message.content if interaction.message else ''}"
                                                f"\n✅ {said}"[:2000], view=None, allowed_mentions=NO_MENTIONS)


async def event_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    found = await bot_of(interaction).host.tournaments.choices(interaction.guild_id, current)
    return fit_choices([app_commands.Choice(name=label, value=event_id) for label, event_id in found])


async def option_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    game = getattr(interaction.namespace, "game", None)
    found = bot_of(interaction).host.tournaments.option_choices(game, current)
    return fit_choices([app_commands.Choice(name=text, value=text) for text in found])


async def tiebreak_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = bot_of(interaction).host.tournaments.tiebreak_choices(current)
    return [app_commands.Choice(name=text, value=text) for text in found]


@app_commands.guild_only()
class TournamentCog(commands.GroupCog, group_name="tournament",
                    group_description="Swiss, round-robin and knockout events"):
    def __init__(self, bot: ZBot) -> None:
        self.bot = bot
        self.worker = TournamentWorker(bot.host.tournaments, self.deliver, self.name_of, worker=bot.worker)
        self.known: dict[int, str] = {}
        """Display names already fetched: a standings update must not cost a request per player."""
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage("Events are run in a server channel, not in DMs.")
        return True

    @property
    def t(self) -> Tournaments:
        return self.bot.host.tournaments

    # ----- commands ---------------------------------------------------------------------

    @app_commands.command(name="create", description="Create an event; players sign up with the Join button")
    @app_commands.describe(game="Which game", format="Swiss, round robin or knockout", rounds="Rounds (Swiss)",
                           clock="Time per move (days) or a live clock per player", rated="Count the games for ratings",
                           max_players="Most players who may join", starts="`manual` (default), `2h`, or a UTC "
                           "time `2030-05-01 18:00`", options="The game's options as name=value, e.g. rings=48",
                           table_size="Players per game (3 or 4: Zarathustra and Ziggurat tables, Swiss only)",
                           name="The event's name, e.g. Spring Swiss (shown in its game threads)",
                           tiebreaks="Tie-breaks in order, e.g. BhC1, Bh, SB, W, DE (default Swiss: Bh, SB; "
                           "round robin: H2H, SB)", match_games="Knockout: games a match (1, 2 or 3), then a "
                           "tie-break game if level", third_place="Knockout: the semi-finals' losers play for third",
                           late_entry="Swiss: players may join until this round is paired (lichess: half the rounds)")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, clock=CLOCK_CHOICES)
    @app_commands.autocomplete(options=option_choices, tiebreaks=tiebreak_choices)
    async def create(self, interaction: discord.Interaction, game: str, format: str,
                     rounds: app_commands.Range[int, 1, 15] | None = None, clock: str = "none", rated: bool = True,
                     max_players: app_commands.Range[int, 2, 64] = 16, starts: str | None = None,
                     options: str | None = None, table_size: app_commands.Range[int, 2, 4] = 2,
                     name: app_commands.Range[str, 1, 40] | None = None, tiebreaks: str | None = None,
                     match_games: app_commands.Range[int, 1, 3] = 1, third_place: bool = False,
                     late_entry: app_commands.Range[int, 1, 15] | None = None) -> None:
        event = await self.t.create(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                    actor=actor(interaction), game=game, format=format, rounds=rounds, clock=clock,
                                    rated=rated, max_players=max_players, starts=starts, options=options,
                                    table_size=table_size, name=name, tiebreaks=tiebreaks,
                                    match_games=match_games, third_place=third_place, late_entry=late_entry)
        snap = await self.t.load(event.id)
        await interaction.response.send_message(self.t.signup_text(snap), view=signup_view(event.id),
                                                allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response()
        await self.t.set_signup_message(event.id, message.id)

    @app_commands.command(name="join", description="Enter an event that is open for sign-up")
    @app_commands.autocomplete(event=event_choices)
    async def join(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event, ("open", "running"))
        snap = await self.t.join(event_id, interaction.user.id)
        late = (f" You play from round {snap.event.current_round + 1}; the rounds already paired count as absences "
                "(0 points)." if snap.event.status == "running" else "")
        await interaction.response.send_message(f"You are entered in event #{event_id}.{late}", ephemeral=True)

    @app_commands.command(name="bye", description="Sit out a round of a Swiss for ½ point (again: cancel it)")
    @app_commands.describe(round="The round to sit out (not yet paired, not the last)")
    @app_commands.autocomplete(event=event_choices)
    async def bye(self, interaction: discord.Interaction, round: app_commands.Range[int, 1, 15],
                  event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event)
        said = await self.t.request_bye(event_id, interaction.user.id, round)
        await interaction.response.send_message(said, ephemeral=True)

    @app_commands.command(name="forbid", description="Two players who must never be paired, e.g. family "
                          "(organiser; again: allow)")
    @app_commands.describe(player="One player", other="The other player")
    @app_commands.autocomplete(event=event_choices)
    async def forbid(self, interaction: discord.Interaction, player: discord.User, other: discord.User,
                     event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event)
        said = await self.t.forbid(event_id, actor(interaction), player.id, other.id)
        await interaction.response.send_message(said, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="leave", description="Leave an event before it starts")
    @app_commands.autocomplete(event=event_choices)
    async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event, ("open",))
        await self.t.leave(event_id, interaction.user.id)
        await interaction.response.send_message(f"You left event #{event_id}.", ephemeral=True)

    @app_commands.command(name="start", description="Close sign-up and pair round 1 (organiser)")
    @app_commands.autocomplete(event=event_choices)
    async def start(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event, ("open",))
        snap = await self.t.start(event_id, actor(interaction))
        await interaction.response.send_message(
            f"Event #{event_id} has started with {len(snap.entrants)} players: the pairings follow.")

    @app_commands.command(name="standings", description="The table: points, tie-breaks (explained) and games")
    @app_commands.autocomplete(event=event_choices)
    async def standings(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve_shown(interaction.guild_id, event)
        await interaction.response.defer(thinking=True)
        view = await self.t.standings(event_id, name_of=self.name_of)
        files = standings_files(view.images)
        await interaction.followup.send(view.text, files=files, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="export", description="The event as a FIDE tournament report file (TRF-16)")
    @app_commands.autocomplete(event=event_choices)
    async def export(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve_shown(interaction.guild_id, event)
        await interaction.response.defer(thinking=True)
        filename, text = await self.t.export(event_id, name_of=self.name_of)
        await interaction.followup.send(f"Event #{event_id} as a TRF-16 file (FIDE C.04 Annex 2).",
                                        file=discord.File(io.BytesIO(text.encode()), filename=filename))

    @app_commands.command(name="withdraw", description="Leave an event: you forfeit the games you have not played")
    @app_commands.autocomplete(event=event_choices)
    async def withdraw(self, interaction: discord.Interaction, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event)
        said = await self.t.withdraw(event_id, interaction.user.id)
        await interaction.response.send_message(said, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="remove", description="Take a player off an event (organiser)")
    @app_commands.describe(player="The player to take off", ai="Or the AI level to take off")
    @app_commands.choices(ai=AI_CHOICES)
    @app_commands.autocomplete(event=event_choices)
    async def remove(self, interaction: discord.Interaction, player: discord.User | None = None,
                     ai: str | None = None, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event)
        said = await self.t.remove(event_id, actor(interaction), player.id if player else None, ai)
        await interaction.response.send_message(said, ephemeral=True, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="add_ai", description="Enter the bot's AI at a level (organiser)")
    @app_commands.choices(level=AI_CHOICES)
    @app_commands.autocomplete(event=event_choices)
    async def add_ai(self, interaction: discord.Interaction, level: str, event: int | None = None) -> None:
        event_id = await self.t.resolve(interaction.guild_id, event, ("open",))
        await self.t.add_ai(event_id, actor(interaction), level)
        await interaction.response.send_message(f"The AI ({level}) is entered in event #{event_id}.", ephemeral=True)

    @app_commands.command(name="settings", description="Which role may create events (Manage Server)")
    @app_commands.describe(organiser_role="Members with this role may create events; leave empty to clear")
    async def settings(self, interaction: discord.Interaction, organiser_role: discord.Role | None = None) -> None:
        said = await self.t.settings(interaction.guild_id, actor(interaction),
                                     organiser_role.id if organiser_role else None)
        await interaction.response.send_message(said, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def name_of(self, user_id: int) -> str:
        """Server nickname, else the user's name; fetched once, then remembered."""
        if user_id in self.known:
            return self.known[user_id]
        user: discord.abc.User | None = None
        for guild in self.bot.guilds:
            user = guild.get_member(user_id) or user
        user = user or self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"user {user_id}"
        self.known[user_id] = user.display_name
        return user.display_name

    # ----- what the worker hands over -----------------------------------------------------

    async def deliver(self, post: Post) -> int | None:
        """Send (or edit) what an event job produced; returns the message id, for the worker to remember."""
        await self.bot.wait_until_ready()
        if post.what == "games":
            await deliver_owed(self.bot, list(post.thread_keys))
            return None
        if post.what == "podium":  # the last boards first (their nonces make a post racing this one appear once)
            await deliver_owed(self.bot, list(post.thread_keys))
        if post.what == "reports":
            for report in post.reports:
                await post_report(self.bot, report)
            return None
        channel = await thread_of(self.bot, post.event.channel_id)
        if channel is None:
            raise HostError(f"the channel of event {post.event.id} is unreachable")
        files = standings_files(post.images)
        if post.edit is not None:
            message = self.bot.get_partial_messageable(channel.id).get_partial_message(post.edit)  # type: ignore[attr-defined]
            view = signup_view(post.event.id) if post.open else None
            try:
                if post.what == "signup":
                    await message.edit(content=post.text, view=view, allowed_mentions=NO_MENTIONS)
                else:
                    await message.edit(content=post.text, attachments=files, allowed_mentions=NO_MENTIONS)
                return post.edit
            except discord.NotFound:
                if post.what == "signup":
                    return None
        if post.what == "decision":  # the organiser is mentioned, and answers with the buttons
            sent = await channel.send(post.text, view=decision_view(post.event.id, post.round, post.ways),
                                      allowed_mentions=MENTION_USERS, nonce=outbox.nonce(post.key))
            return sent.id
        mentions = MENTION_USERS if post.what == "pairings" else NO_MENTIONS
        key = f"event:{post.event.id}:standings-message" if post.what == "standings" else post.key
        parts = split_lines(post.text)
        sent = None
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            sent = await channel.send(part, files=files if last else [], allowed_mentions=mentions,
                                      nonce=outbox.nonce(key if i == 0 else f"{key}:{i}"))
        return sent.id if sent is not None else None


async def setup(bot: ZBot) -> None:
    bot.add_dynamic_items(SignupButton, DecisionButton)
    await bot.add_cog(TournamentCog(bot))
