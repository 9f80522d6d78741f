"""In-memory model of the guilds (one by default), their users, channels and messages that the fake serves."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .roles import ADMINISTRATOR, BOT_INVITE, EVERYONE_DEFAULT, Role, combined

DISCORD_EPOCH_MS = 1420070400000

GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

DEFAULT_USERS = ("alice", "bob", "carol", "dave")
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def now_iso() -> str:
    """Timestamps in the ISO form discord.py parses."""
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Monotonic, time-based ids so discord.py's ``created_at`` values stay plausible."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (next(self._counter) & 0xFFF)
        self._last = max(self._last + 1, candidate)
        return self._last

    def on_shard(self, shard: int, count: int) -> int:
        """A new id that Discord routes to ``shard`` of ``count``: ``(id >> 22) % count == shard``."""
        found = self.next()
        found += ((shard - (found >> 22)) % count) << 22
        self._last = max(self._last, found)
        return found


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    permissions: str | None = None
    """A shortcut overriding the member's permission bits in interactions (a decimal string); None: computed
    from their roles, as Discord does (prefer roles: ``World.add_role`` and ``World.give_role``)."""
    role_ids: set[int] = field(default_factory=set)
    """The roles they hold, in any guild (a role belongs to one guild); @everyone is implied, never listed."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component in a tree of action rows, containers, sections and labels."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    pinned: bool = False
    deleted: bool = False
    thread_id: int | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in walk_components(self.components) if c.get("custom_id") == custom_id), None)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def file(self, filename: str) -> bytes:
        """Bytes of the attachment called ``filename``."""
        for att in self.attachments:
            if att.filename == filename:
                return att.data
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    member_ids: set[int] = field(default_factory=set)
    messages: list[Message] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


class World:
    """Guilds (one unless a test adds more) with roles, text channels, users/members, threads and DM channels.

    Every user is a member of every guild. ``guild_id`` is the first guild, the one most tests use. The user
    ``owner`` owns every guild; in the first guild ``alice`` holds the role ``Admin`` (Administrator), the bot
    its managed role with the invite's permissions, and everyone else only @everyone (no Manage Server)."""

    def __init__(self, bot_name: str = "FakeBot") -> None:
        self.ids = Snowflakes()
        self.guild_id = self.ids.next()
        self.guild_name = "Fake Guild"
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}
        self.users: dict[int, User] = {}
        self.member_ids: list[int] = []
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.roles: dict[int, Role] = {}
        self.bot = self.add_user(bot_name, bot=True)
        self.application_id = self.bot.id
        self.owner = self.add_user("owner")
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        for name in DEFAULT_USERS:
            self.add_user(name)
        self._add_guild_roles(self.guild_id)
        self.admin_role = self.add_role("Admin", ADMINISTRATOR)
        self.give_role(self.user("alice"), self.admin_role)
        self.add_text_channel("general")

    def add_user(self, name: str, *, bot: bool = False, member: bool = True) -> User:
        user = User(id=self.ids.next(), name=name, bot=bot)
        self.users[user.id] = user
        if member:
            self.member_ids.append(user.id)
        return user

    def add_text_channel(self, name: str, guild_id: int | None = None) -> Channel:
        guild_id = guild_id or self.guild_id
        position = sum(1 for c in self.channels.values() if c.type == GUILD_TEXT and c.guild_id == guild_id)
        ch = Channel(id=self.ids.next(), type=GUILD_TEXT, name=name, guild_id=guild_id, position=position)
        self.channels[ch.id] = ch
        return ch

    def add_guild(self, name: str, channel: str, *, shard: tuple[int, int] | None = None) -> Channel:
        """Another guild with one text channel (named ``channel``; channel names stay unique across guilds),
        on shard ``(id, count)`` when given. Returns the channel; its ``guild_id`` is the new guild."""
        guild_id = self.ids.on_shard(*shard) if shard is not None else self.ids.next()
        self.guilds[guild_id] = name
        self._add_guild_roles(guild_id)
        return self.add_text_channel(channel, guild_id)

    def _add_guild_roles(self, guild_id: int) -> None:
        """@everyone (id == guild id) and the bot's managed role, as a guild has them once the bot is in."""
        self.roles[guild_id] = Role(id=guild_id, guild_id=guild_id, name="@everyone", permissions=EVERYONE_DEFAULT)
        self.give_role(self.bot, self.add_role(self.bot.name, BOT_INVITE, guild_id=guild_id, bot_id=self.bot.id))

    def guild_name_of(self, guild_id: int | None) -> str:
        return self.guilds.get(guild_id or self.guild_id, self.guild_name)

    def add_thread(
        self, parent: Channel, name: str, owner: User, *, private: bool = False, starter: Message | None = None
    ) -> Channel:
        thread_id = starter.id if starter is not None else self.ids.next()
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        th = Channel(id=thread_id, type=kind, name=name, guild_id=parent.guild_id, parent_id=parent.id,
                     owner_id=owner.id)
        th.member_ids.add(owner.id)
        self.channels[th.id] = th
        if starter is not None:
            starter.thread_id = th.id
        return th

    def dm_channel(self, user: User, *, create: bool = True) -> Channel | None:
        for ch in self.channels.values():
            if ch.is_dm and ch.recipient_id == user.id:
                return ch
        if not create:
            return None
        ch = Channel(id=self.ids.next(), type=DM, name="", recipient_id=user.id)
        self.channels[ch.id] = ch
        return ch

    def add_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        msg = Message(id=self.ids.next(), channel_id=channel.id, author_id=author.id, **fields)
        channel.messages.append(msg)
        self.messages[msg.id] = msg
        return msg

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        channel = self.channels.get(msg.channel_id)
        if channel is not None and msg in channel.messages:
            channel.messages.remove(msg)

    # -- roles and permissions ------------------------------------------------------------------------
    def add_role(self, name: str, permissions: int = 0, *, guild_id: int | None = None, mentionable: bool = False,
                 bot_id: int | None = None) -> Role:  # fmt: skip
        """A new role above the guild's others (Discord puts a new role at the bottom; order does not matter
        here: the fake has no role hierarchy checks)."""
        guild_id = guild_id or self.guild_id
        position = max((r.position for r in self.guild_roles(guild_id)), default=0) + 1
        role = Role(id=self.ids.next(), guild_id=guild_id, name=name, permissions=permissions, position=position,
                    mentionable=mentionable, bot_id=bot_id)
        self.roles[role.id] = role
        return role

    def guild_roles(self, guild_id: int | None = None) -> list[Role]:
        """The guild's roles, @everyone first, by position."""
        guild_id = guild_id or self.guild_id
        return sorted((r for r in self.roles.values() if r.guild_id == guild_id), key=lambda r: (r.position, r.id))

    def everyone(self, guild_id: int | None = None) -> Role:
        return self.roles[guild_id or self.guild_id]

    def role(self, name_or_id: str | int | Role, guild_id: int | None = None) -> Role:
        """A role of the guild by id, name, or ``everyone``/``@everyone``; KeyError if it has none such."""
        guild_id = guild_id or self.guild_id
        if isinstance(name_or_id, Role):
            name_or_id = name_or_id.id
        if name_or_id in ("everyone", "@everyone"):
            return self.everyone(guild_id)
        for role in self.guild_roles(guild_id):
            if role.id == name_or_id or role.name == name_or_id or str(role.id) == name_or_id:
                return role
        names = [r.name for r in self.guild_roles(guild_id)]
        raise KeyError(f"guild {guild_id} has no role {name_or_id!r}; has {names}")

    def member_roles(self, user: User, guild_id: int | None = None) -> list[Role]:
        """The member's roles in the guild, without @everyone (as in a member object's ``roles``)."""
        return [r for r in self.guild_roles(guild_id) if r.id in user.role_ids]

    def give_role(self, user: User, role: Role) -> None:
        if role.is_everyone:
            raise ValueError("every member has @everyone; it cannot be given")
        user.role_ids.add(role.id)

    def take_role(self, user: User, role: Role) -> None:
        user.role_ids.discard(role.id)

    def permissions_of(self, user: User, guild_id: int | None = None) -> int:
        """The member's guild-wide permission bits, as Discord computes them (``user.permissions`` overrides)."""
        if user.permissions is not None:
            return int(user.permissions)
        guild_id = guild_id or self.guild_id
        return combined(self.everyone(guild_id), self.member_roles(user, guild_id), owner=user.id == self.owner.id)

    def user(self, name_or_id: str | int) -> User:
        for u in self.users.values():
            if u.name == name_or_id or u.id == name_or_id:
                return u
        raise KeyError(f"no user {name_or_id!r}")

    def channel(self, name_or_id: str | int) -> Channel:
        for c in self.channels.values():
            if c.id == name_or_id or (c.name == name_or_id and not c.is_dm):
                return c
        raise KeyError(f"no channel {name_or_id!r}")

    @property
    def general(self) -> Channel:
        return self.channel("general")

    def text_channels(self, guild_id: int | None = None) -> list[Channel]:
        """Text channels of one guild, or of every guild."""
        return [c for c in self.channels.values() if c.type == GUILD_TEXT and guild_id in (None, c.guild_id)]

    def threads(self, guild_id: int | None = None) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread and guild_id in (None, c.guild_id)]
