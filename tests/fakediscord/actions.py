"""Test-side API: what human users do (slash commands, autocomplete, clicks, selects, modals, messages)."""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any, Literal

from . import payloads as P
from .commands import Invoker, build_command, build_context_menu
from .records import InteractionRecord
from .roles import role_payload
from .sync import handler_tasks, wait_handlers_idle
from .world import Channel, Message, User, walk_components

if TYPE_CHECKING:
    from .gateway import Gateway, GatewaySession
    from .messages import MessageOps
    from .sync import Notifier
    from .world import World

Wait = Literal["idle", "response", "none"]
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


class UserActions:
    """Mixed into FakeDiscord; every action returns once the bot has handled it (see ``wait``).

    ``wait="idle"`` (default): the bot processed the gateway event and all of discord.py's handler tasks
    (command, view, dynamic item, modal) finished; raises if it never answered the interaction.
    ``wait="response"``: return as soon as the initial callback arrived. ``wait="none"``: fire and forget.
    """

    world: World
    gateway: Gateway
    notifier: Notifier
    messages_ops: MessageOps
    interactions: dict[str, InteractionRecord]
    timeout: float
    extra_idle_prefixes: tuple[str, ...]

    # -- helpers --------------------------------------------------------------------------------------
    def _u(self, user: User | str) -> User:
        return user if isinstance(user, User) else self.user(user)  # type: ignore[attr-defined]

    def _c(self, channel: Channel | User | str | None) -> Channel:
        """A channel/thread, its name, or a User meaning the bot's DM channel with that user."""
        if channel is None:
            return self.world.general
        if isinstance(channel, User):
            dm = self.world.dm_channel(channel)
            assert dm is not None
            return dm
        return channel if isinstance(channel, Channel) else self.world.channel(channel)

    def _new_record(self, kind: int, user: User, channel: Channel, data: dict[str, Any], name: str,
                    message: Message | None = None, locale: str = "en-US") -> InteractionRecord:  # fmt: skip
        world = self.world
        iid, token = world.ids.next(), "tok_" + secrets.token_urlsafe(24)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(world.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": P.interaction_channel_payload(world, channel, user),
            "locale": locale,
            "app_permissions": P.ALL_PERMISSIONS if channel.guild_id is None
            else str(world.permissions_of(world.bot, channel.guild_id)),
            "entitlements": [],
            "attachment_size_limit": P.ATTACHMENT_SIZE_LIMIT,
        }
        if channel.guild_id is not None:
            payload.update(
                guild_id=str(channel.guild_id),
                guild_locale="en-US",
                guild={"id": str(channel.guild_id), "locale": "en-US", "features": []},
                member=P.member_payload(world, user, permissions=True, guild_id=channel.guild_id),
                authorizing_integration_owners={"0": str(channel.guild_id)},
                context=0,
            )
        else:
            payload.update(user=P.user_payload(user), authorizing_integration_owners={"1": str(user.id)}, context=1)
        if message is not None:
            payload["message"] = P.message_payload(world, message)
        rec = InteractionRecord(iid, token, kind, user, channel, payload, fake=self, name=name, message=message)  # type: ignore[arg-type]
        self.interactions[token] = rec
        return rec

    async def _deliver(self, rec: InteractionRecord, wait: Wait, timeout: float | None) -> InteractionRecord:
        before = handler_tasks(self.extra_idle_prefixes) if wait == "idle" else set()  # all the loop's tasks
        session = await self.gateway.send_interaction(rec.payload)
        timeout = timeout or self.timeout
        if wait == "response":
            return await rec.wait_response(timeout)
        if wait == "idle":
            await self.wait_idle(session, timeout, ignore=before)
            if not rec.responded:
                details = self.diagnostics()  # type: ignore[attr-defined]
                raise AssertionError(f"the bot finished handling {rec.describe()} without responding{details}")
        return rec

    async def wait_idle(self, session: GatewaySession | None = None, timeout: float | None = None,
                        ignore: set[asyncio.Task[object]] | None = None) -> None:  # fmt: skip
        """Wait until the bot processed every gateway event sent so far and its handler tasks are done.

        Only sees handler tasks of a bot running in this event loop (not a bot in a subprocess).
        """
        timeout = timeout or self.timeout
        await self.gateway.barrier(session or self.gateway.newest(), timeout)
        await wait_handlers_idle(timeout, self.extra_idle_prefixes, ignore or set())

    # -- application commands -------------------------------------------------------------------------
    async def slash(self, user: User | str, command: str, options: dict[str, Any] | None = None, *,
                    channel: Channel | User | str | None = None, wait: Wait = "idle", timeout: float | None = None,
                    locale: str = "en-US") -> InteractionRecord:  # fmt: skip
        """Run ``/command`` (space-separated group/subcommand path) with option values by name."""
        user, ch = self._u(user), self._c(channel)
        built = build_command(self, command, options or {}, by=Invoker(user, ch.guild_id))  # type: ignore[arg-type]
        rec = self._new_record(APPLICATION_COMMAND, user, ch, built.data, command, locale=locale)
        return await self._deliver(rec, wait, timeout)

    async def context_menu(self, user: User | str, name: str, target: User | Message | str, *,
                           channel: Channel | User | str | None = None, wait: Wait = "idle",
                           timeout: float | None = None) -> InteractionRecord:  # fmt: skip
        """Use the user/message context-menu command ``name`` on ``target`` (a User, user name or Message)."""
        if isinstance(target, str):
            target = self._u(target)
        if channel is None and isinstance(target, Message):
            channel = self.world.channels[target.channel_id]
        user, ch = self._u(user), self._c(channel)
        built = build_context_menu(self, name, target, by=Invoker(user, ch.guild_id))  # type: ignore[arg-type]
        rec = self._new_record(APPLICATION_COMMAND, user, ch, built.data, name)
        return await self._deliver(rec, wait, timeout)

    async def autocomplete(self, user: User | str, command: str, *, focused: str, value: str = "",
                           options: dict[str, Any] | None = None, channel: Channel | User | str | None = None,
                           timeout: float | None = None) -> list[dict[str, Any]]:  # fmt: skip
        """Type ``value`` into option ``focused``; returns the choices the bot offered."""
        user, ch = self._u(user), self._c(channel)
        values = {**(options or {}), focused: value}
        built = build_command(self, command, values, by=Invoker(user, ch.guild_id), focused=focused)  # type: ignore[arg-type]
        rec = self._new_record(AUTOCOMPLETE, user, ch, built.data, f"{command} [{focused}]")
        await self._deliver(rec, "idle", timeout)
        return rec.choices

    # -- components -----------------------------------------------------------------------------------
    def _component(self, message: Message, custom_id: str, kinds: tuple[int, ...]) -> dict[str, Any]:
        msg = self.world.messages.get(message.id, message)
        comp = msg.component(custom_id)
        if comp is None:
            raise LookupError(f"message {msg.id} has no component {custom_id!r}; has {msg.custom_ids()}")
        if comp.get("type") not in kinds:
            raise LookupError(f"component {custom_id!r} has type {comp.get('type')}, expected {kinds}")
        if comp.get("disabled"):
            raise AssertionError(f"component {custom_id!r} is disabled; a user cannot use it")
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        return comp

    async def click(self, user: User | str, message: Message, custom_id: str, *, wait: Wait = "idle",
                    timeout: float | None = None) -> InteractionRecord:  # fmt: skip
        """Press the button ``custom_id`` on ``message``."""
        self._component(message, custom_id, (2,))
        data = {"custom_id": custom_id, "component_type": 2}
        msg = self.world.messages[message.id]
        rec = self._new_record(MESSAGE_COMPONENT, self._u(user), self.world.channels[msg.channel_id], data,
                               custom_id, message=msg)  # fmt: skip
        return await self._deliver(rec, wait, timeout)

    async def select(self, user: User | str, message: Message, custom_id: str, values: list[Any], *,
                     wait: Wait = "idle", timeout: float | None = None) -> InteractionRecord:  # fmt: skip
        """Pick ``values`` in the select menu ``custom_id`` (option values, or users for a user select)."""
        comp = self._component(message, custom_id, (3, 5, 6, 7, 8))
        kind = comp["type"]
        if not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise ValueError(f"select {custom_id!r} takes {comp.get('min_values', 1)}..{comp.get('max_values', 1)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            if bad := [v for v in values if v not in allowed]:
                raise ValueError(f"select {custom_id!r} has no option(s) {bad}; has {allowed}")
            data["values"] = list(values)
        elif kind == 5:
            users = [self._u(v) for v in values]
            data["values"] = [str(u.id) for u in users]
            guild_id = self.world.channels[message.channel_id].guild_id
            data["resolved"] = {
                "users": {str(u.id): P.user_payload(u) for u in users},
                "members": {str(u.id): P.member_payload(self.world, u, with_user=False, guild_id=guild_id)
                            for u in users},
            }
        elif kind == 6:  # a role select: Discord resolves the picked roles
            roles = [self.world.role(v, self.world.channels[message.channel_id].guild_id) for v in values]
            data["values"] = [str(r.id) for r in roles]
            data["resolved"] = {"roles": {str(r.id): role_payload(r) for r in roles}}
        else:
            data["values"] = [str(getattr(v, "id", v)) for v in values]
        msg = self.world.messages[message.id]
        rec = self._new_record(MESSAGE_COMPONENT, self._u(user), self.world.channels[msg.channel_id], data,
                               custom_id, message=msg)  # fmt: skip
        return await self._deliver(rec, wait, timeout)

    async def submit_modal(self, user: User | str, shown: InteractionRecord, values: dict[str, str], *,
                           wait: Wait = "idle", timeout: float | None = None) -> InteractionRecord:  # fmt: skip
        """Fill the modal the bot answered ``shown`` with, by text-input custom_id, and submit it."""
        modal = shown.modal
        if modal is None:
            raise AssertionError(f"{shown.describe()} was not answered with a modal")
        inputs = [c["custom_id"] for c in walk_components(modal["components"]) if c.get("type") == 4]
        if unknown := set(values) - set(inputs):
            raise LookupError(f"modal has no text input(s) {sorted(unknown)}; has {inputs}")

        def answer(comp: dict[str, Any]) -> dict[str, Any]:
            if comp.get("type") == 1:
                return {"type": 1, "components": [answer(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "component": answer(comp["component"])}
            cid = comp.get("custom_id", "")
            return {"type": comp.get("type"), "custom_id": cid, "value": values.get(cid, "")}

        data = {"custom_id": modal["custom_id"], "components": [answer(c) for c in modal["components"]]}
        rec = self._new_record(MODAL_SUBMIT, self._u(user), shown.channel, data, modal["custom_id"],
                               message=shown.message)  # fmt: skip
        return await self._deliver(rec, wait, timeout)

    # -- plain messages -------------------------------------------------------------------------------
    async def say(self, user: User | str, content: str, *, channel: Channel | User | str | None = None,
                  wait: Wait = "idle", timeout: float | None = None) -> Message:  # fmt: skip
        """A user posts a message (MESSAGE_CREATE to the bot, honouring its intents)."""
        before = handler_tasks(self.extra_idle_prefixes)
        where = self._c(channel)
        msg = self.world.add_message(where, self._u(user), content=content)
        await self.gateway.dispatch_message("MESSAGE_CREATE", msg)
        self.notifier.notify()
        if wait == "idle":  # the connection of the message's shard (any connection when unsharded)
            await self.wait_idle(self.gateway.newest(where.guild_id, any_guild=False), timeout=timeout, ignore=before)
        return msg
