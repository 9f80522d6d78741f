"""REST routes for login, users, the guild, channels, messages, threads and DMs."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads as P
from .gateway import GUILDS
from .http_util import empty_response, error_response, invalid_form, json_response, read_body
from .roles import role_payload
from .validate import thread_problems
from .world import Channel, Message, User

if TYPE_CHECKING:
    from .server import FakeDiscord

UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, UNKNOWN_USER, UNKNOWN_MEMBER, UNKNOWN_ROLE = 10003, 10008, 10013, 10007, 10011
CANNOT_DM, THREAD_LOCKED = 50007, 50083
NONCE_WINDOW = 300.0
"""Seconds within which Discord answers a repeated ``enforce_nonce`` send with the first message."""


class NotFoundError(Exception):
    def __init__(self, code: int, what: str) -> None:
        super().__init__(what)
        self.code = code
        self.what = what


class ChannelRoutes:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world

    def add_to(self, r: web.UrlDispatcher, api: str) -> None:
        routes = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("POST", "/users/@me/channels", self.open_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/roles/{role_id}", self.get_role),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("PATCH", "/channels/{channel_id}", self.edit_channel),
            ("DELETE", "/channels/{channel_id}", self.delete_channel),
            ("POST", "/channels/{channel_id}/typing", self.no_content),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.send_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.add_reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.remove_reaction),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self.unpin),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self.pin),
            ("DELETE", "/channels/{channel_id}/pins/{message_id}", self.unpin),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("GET", "/channels/{channel_id}/thread-members", self.list_thread_members),
            ("GET", "/channels/{channel_id}/thread-members/{user_id}", self.get_thread_member),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member),
        ]
        for method, path, handler in routes:
            r.add_route(method, api + path, self._guard(handler))

    def _guard(self, handler: Any) -> Any:
        async def wrapped(request: web.Request) -> web.StreamResponse:
            try:
                return await handler(request)
            except NotFoundError as exc:
                return error_response(404, exc.code, f"Unknown {exc.what}")

        return wrapped

    # -- lookups --------------------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> Channel:
        ch = self.world.channels.get(int(request.match_info["channel_id"]))
        if ch is None:
            raise NotFoundError(UNKNOWN_CHANNEL, "Channel")
        return ch

    def _message(self, request: web.Request, channel: Channel) -> Message:
        msg = self.world.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel.id:
            raise NotFoundError(UNKNOWN_MESSAGE, "Message")
        return msg

    def _user(self, raw: str) -> User:
        user = self.world.bot if raw == "@me" else self.world.users.get(int(raw))
        if user is None:
            raise NotFoundError(UNKNOWN_USER, "User")
        return user

    def _msg(self, msg: Message) -> dict[str, Any]:
        return P.message_payload(self.world, msg)

    # -- login / users / guild ------------------------------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        if (oauth := self.fake.activities.bearer_user(request)) is not None:  # an OAuth2 user's token
            return oauth
        return json_response({**P.user_payload(self.world.bot), "verified": True, "mfa_enabled": False})

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(P.application_payload(self.world))

    async def get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.fake.gateway_url, "shards": self.fake.shard_count,
                              "session_start_limit": limit})

    async def no_content(self, request: web.Request) -> web.Response:
        self._channel(request)
        return empty_response()

    async def open_dm(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        user = self._user(str(body.json["recipient_id"]))
        ch = self.world.dm_channel(user)
        assert ch is not None
        return json_response(P.channel_payload(self.world, ch))

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(P.user_payload(self._user(request.match_info["user_id"])))

    def _guild_id(self, request: web.Request) -> int:
        guild_id = int(request.match_info["guild_id"])
        if guild_id not in self.world.guilds:
            raise NotFoundError(10004, "Guild")
        return guild_id

    async def get_guild(self, request: web.Request) -> web.Response:
        data = P.guild_payload(self.world, self._guild_id(request))
        data.update(approximate_member_count=len(self.world.member_ids), approximate_presence_count=0)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response([P.channel_payload(self.world, c)
                              for c in self.world.text_channels(self._guild_id(request))])

    async def get_roles(self, request: web.Request) -> web.Response:
        return json_response(P.roles_payload(self.world, self._guild_id(request)))

    async def get_role(self, request: web.Request) -> web.Response:
        try:
            role = self.world.role(int(request.match_info["role_id"]), self._guild_id(request))
        except (KeyError, ValueError):
            raise NotFoundError(UNKNOWN_ROLE, "Role") from None
        return json_response(role_payload(role))

    async def get_member(self, request: web.Request) -> web.Response:
        user = self._user(request.match_info["user_id"])
        if user.id not in self.world.member_ids:
            raise NotFoundError(UNKNOWN_MEMBER, "Member")
        return json_response(P.member_payload(self.world, user, guild_id=self._guild_id(request)))

    # -- channels -------------------------------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(P.channel_payload(self.world, self._channel(request)))

    async def edit_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body = (await read_body(request)).json or {}
        for key in ("name", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in body:
                setattr(ch, key, body[key])
        data = P.channel_payload(self.world, ch)
        await self.fake.gateway.dispatch("THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE", data, GUILDS)
        return json_response(data)

    async def delete_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        data = P.channel_payload(self.world, ch)
        del self.world.channels[ch.id]
        await self.fake.gateway.dispatch("THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE", data, GUILDS)
        return json_response(data)

    # -- messages -------------------------------------------------------------------------------------
    async def list_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msgs = [m for m in ch.messages if not m.ephemeral]
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        msgs = sorted(msgs, key=lambda m: m.id, reverse=True)[: int(q.get("limit", 50))]
        return json_response([self._msg(m) for m in msgs])

    async def send_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body = await read_body(request)
        payload = body.json or {}
        if ch.is_dm and not self.world.users[ch.recipient_id or 0].dms_open:
            return error_response(403, CANNOT_DM, "Cannot send messages to this user")
        if ch.is_thread and ch.locked:
            return error_response(400, THREAD_LOCKED, "Thread is locked")
        if problems := self.fake.messages_ops.problems(payload, body.files):
            self.fake.record_error(f"rejected message to #{ch.name or ch.id}: {problems}")
            return invalid_form(problems)
        nonce = str(payload["nonce"]) if payload.get("nonce") is not None else None
        if nonce is not None and payload.get("enforce_nonce"):  # Discord: the same nonce within minutes
            seen = self.fake.nonces.get((ch.id, nonce))  # returns the message it already created
            earlier = next((m for m in ch.messages if seen and m.id == seen[1] and not m.deleted), None)
            if seen and earlier is not None and time.monotonic() - seen[0] < NONCE_WINDOW:
                return json_response(self._msg(earlier))
        msg = await self.fake.messages_ops.create(ch, self.world.bot, payload, body.files)
        if nonce is not None and payload.get("enforce_nonce"):
            self.fake.nonces[(ch.id, nonce)] = (time.monotonic(), msg.id)
        return json_response(self._msg(msg))

    async def get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        return json_response(self._msg(self._message(request, ch)))

    async def edit_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(request, ch)
        body = await read_body(request)
        payload = body.json or {}
        if problems := self.fake.messages_ops.problems(payload, body.files, is_edit=True):
            self.fake.record_error(f"rejected edit of message {msg.id}: {problems}")
            return invalid_form(problems)
        await self.fake.messages_ops.edit(msg, payload, body.files)
        return json_response(self._msg(msg))

    async def delete_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        await self.fake.messages_ops.delete(self._message(request, ch))
        return empty_response()

    async def add_reaction(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        msg.reactions.setdefault(request.match_info["emoji"], set()).add(self.world.bot.id)
        return empty_response()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        msg = self._message(request, self._channel(request))
        msg.reactions.get(request.match_info["emoji"], set()).discard(self.world.bot.id)
        return empty_response()

    async def pin(self, request: web.Request) -> web.Response:
        self._message(request, self._channel(request)).pinned = True
        return empty_response()

    async def unpin(self, request: web.Request) -> web.Response:
        self._message(request, self._channel(request)).pinned = False
        return empty_response()

    # -- threads --------------------------------------------------------------------------------------
    async def _create_thread(self, parent: Channel, body: dict[str, Any], starter: Message | None) -> web.Response:
        if parent.type != 0:
            return error_response(400, 50024, "Cannot execute action on this channel type")
        if problems := thread_problems(body):
            self.fake.record_error(f"rejected thread in #{parent.name or parent.id}: {problems}")
            return invalid_form(problems)
        private = body.get("type") == 12 and starter is None
        th = self.world.add_thread(parent, body["name"], self.world.bot, private=private, starter=starter)
        th.auto_archive_duration = body.get("auto_archive_duration") or 1440
        th.invitable = body.get("invitable", True)
        data = P.channel_payload(self.world, th)
        await self.fake.gateway.dispatch("THREAD_CREATE", {**data, "newly_created": True}, GUILDS)
        return json_response(data, 201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        starter = self._message(request, parent)
        if starter.thread_id is not None:
            return error_response(400, 160004, "A thread has already been created for this message")
        return await self._create_thread(parent, (await read_body(request)).json or {}, starter)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        return await self._create_thread(self._channel(request), (await read_body(request)).json or {}, None)

    def _thread_member(self, th: Channel, user_id: int) -> dict[str, Any]:
        return {"id": str(th.id), "user_id": str(user_id), "join_timestamp": P.now_iso(), "flags": 0}

    async def list_thread_members(self, request: web.Request) -> web.Response:
        th = self._channel(request)
        return json_response([self._thread_member(th, u) for u in sorted(th.member_ids)])

    async def get_thread_member(self, request: web.Request) -> web.Response:
        th = self._channel(request)
        user = self._user(request.match_info["user_id"])
        if user.id not in th.member_ids:
            raise NotFoundError(UNKNOWN_MEMBER, "Member")
        return json_response(self._thread_member(th, user.id))

    async def add_thread_member(self, request: web.Request) -> web.Response:
        th = self._channel(request)
        th.member_ids.add(self._user(request.match_info["user_id"]).id)
        return empty_response()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        th = self._channel(request)
        th.member_ids.discard(self._user(request.match_info["user_id"]).id)
        return empty_response()
