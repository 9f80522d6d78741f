"""Test-side reads of the world: messages per channel/thread/DM, threads, and condition waits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from . import payloads
from .gateway import GUILD_MEMBERS, GUILDS
from .roles import Role, role_payload
from .world import Channel, Message, User

if TYPE_CHECKING:
    from .gateway import Gateway
    from .sync import Notifier
    from .world import World

T = TypeVar("T")


class WorldQueries:
    world: World
    gateway: Gateway
    notifier: Notifier
    timeout: float

    def _chan(self, where: Channel | User | str | None) -> Channel:
        """A channel, a thread, a channel name, or a user (meaning the bot's DM channel with them)."""
        if where is None:
            return self.world.general
        if isinstance(where, Channel):
            return where
        if isinstance(where, User):
            ch = self.world.dm_channel(where, create=True)
            assert ch is not None
            return ch
        return self.world.channel(where)

    def user(self, name: str) -> User:
        """The user called ``name``, created (as a guild member) on first use."""
        try:
            return self.world.user(name)
        except KeyError:
            return self.world.add_user(name)

    def close_dms(self, user: User | str, closed: bool = True) -> None:
        """Make sending a DM to ``user`` fail with 403 / code 50007 (Cannot send messages to this user)."""
        (user if isinstance(user, User) else self.world.user(user)).dms_open = not closed

    def add_channel(self, name: str) -> Channel:
        """A new text channel; add it before the bot connects (GUILD_CREATE carries the channel list)."""
        return self.world.add_text_channel(name)

    async def join(self, name: str) -> User:
        """A new member joining while the bot is connected (GUILD_MEMBER_ADD, members intent only)."""
        user = self.world.add_user(name)
        data = {**payloads.member_payload(self.world, user, guild_id=self.world.guild_id),
                "guild_id": str(self.world.guild_id)}
        await self.gateway.dispatch("GUILD_MEMBER_ADD", data, GUILD_MEMBERS)
        return user

    def add_role(self, name: str, permissions: int = 0, *, members: tuple[User | str, ...] = (),
                 guild_id: int | None = None) -> Role:  # fmt: skip
        """A new role held by ``members``; add it before the bot connects (GUILD_CREATE carries the roles)."""
        role = self.world.add_role(name, permissions, guild_id=guild_id)
        for member in members:
            self.world.give_role(self._member(member), role)
        return role

    async def create_role(self, name: str, permissions: int = 0, *, guild_id: int | None = None) -> Role:
        """A new role while the bot is connected (GUILD_ROLE_CREATE, which every bot with GUILDS receives)."""
        role = self.world.add_role(name, permissions, guild_id=guild_id)
        await self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(role.guild_id), "role": role_payload(role)},
                                    GUILDS)
        return role

    async def delete_role(self, role: Role | str) -> None:
        """Delete a role while the bot is connected: its members lose it (GUILD_ROLE_DELETE)."""
        found = self.world.role(role)
        if found.is_everyone or found.bot_id is not None:
            raise ValueError(f"role {found.name!r} cannot be deleted")
        del self.world.roles[found.id]
        for user in self.world.users.values():
            user.role_ids.discard(found.id)
        await self.gateway.dispatch("GUILD_ROLE_DELETE", {"guild_id": str(found.guild_id), "role_id": str(found.id)},
                                    GUILDS)

    async def give_role(self, member: User | str, role: Role | str) -> None:
        """A moderator gives ``member`` the role (GUILD_MEMBER_UPDATE, members intent only)."""
        user, found = self._member(member), self.world.role(role)
        self.world.give_role(user, found)
        await self._member_update(user, found.guild_id)

    async def take_role(self, member: User | str, role: Role | str) -> None:
        """A moderator takes the role away (GUILD_MEMBER_UPDATE, members intent only)."""
        user, found = self._member(member), self.world.role(role)
        self.world.take_role(user, found)
        await self._member_update(user, found.guild_id)

    def _member(self, member: User | str) -> User:
        return member if isinstance(member, User) else self.user(member)

    async def _member_update(self, user: User, guild_id: int) -> None:
        data = {**payloads.member_payload(self.world, user, guild_id=guild_id), "guild_id": str(guild_id)}
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, GUILD_MEMBERS)

    async def create_channel(self, name: str) -> Channel:
        """A new text channel while the bot is connected (sends CHANNEL_CREATE)."""
        ch = self.world.add_text_channel(name)
        await self.gateway.dispatch("CHANNEL_CREATE", payloads.channel_payload(self.world, ch), GUILDS)
        return ch

    def messages(self, where: Channel | User | str | None = None, *, ephemeral: bool = False) -> list[Message]:
        """Messages of a channel/thread/DM (a User means the DM with them), oldest first.

        Ephemeral interaction responses only show up with ``ephemeral=True``.
        """
        return [m for m in self._chan(where).messages if ephemeral or not m.ephemeral]

    def last_message(self, where: Channel | User | str | None = None) -> Message:
        msgs = self.messages(where)
        if not msgs:
            raise AssertionError(f"no messages in {where!r}")
        return msgs[-1]

    def threads(self, parent: Channel | str | None = None) -> list[Channel]:
        threads = self.world.threads()
        if parent is not None:
            threads = [t for t in threads if t.parent_id == self._chan(parent).id]
        return threads

    def thread(self, name: str) -> Channel:
        for t in self.world.threads():
            if t.name == name:
                return t
        raise KeyError(f"no thread {name!r}; have {[t.name for t in self.world.threads()]}")

    async def wait_until(self, predicate: Callable[[], T], timeout: float | None = None, what: str = "condition") -> T:
        """Re-check ``predicate`` after every request/event until it is truthy; returns its value."""
        return await self.notifier.wait_until(predicate, timeout or self.timeout, what)

    async def wait_message(
        self,
        where: Channel | User | str | None = None,
        predicate: Callable[[Message], Any] | None = None,
        *,
        after: Message | int | None = None,
        timeout: float | None = None,
        ephemeral: bool = False,
    ) -> Message:
        """The first message posted in ``where`` after ``after`` (default: after the current last one)."""
        ch = self._chan(where)
        if after is None:
            after_id = ch.messages[-1].id if ch.messages else 0
        else:
            after_id = after if isinstance(after, int) else after.id

        def find() -> Message | None:
            for m in ch.messages:
                if m.id > after_id and (ephemeral or not m.ephemeral) and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_until(find, timeout, f"a new message in {ch.name or ch.id}")

    def attachment_bytes(self, where: Channel | User | str | None, filename: str) -> bytes:
        """Bytes of the newest attachment called ``filename`` in ``where``."""
        for m in reversed(self.messages(where, ephemeral=True)):
            for a in m.attachments:
                if a.filename == filename:
                    return a.data
        raise KeyError(f"no attachment {filename!r} in {where!r}")
