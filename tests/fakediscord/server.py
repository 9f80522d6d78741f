"""The FakeDiscord server: aiohttp REST API + websocket gateway on 127.0.0.1, plus request recording."""

from __future__ import annotations

import asyncio
import traceback
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import web

from .actions import UserActions
from .activities import Activities
from .faults import FaultPlan
from .gateway import Gateway
from .http_util import error_response, read_body
from .logs import ErrorLogCollector
from .messages import MessageOps
from .queries import WorldQueries
from .records import InteractionRecord
from .routes_channels import ChannelRoutes
from .routes_interactions import InteractionRoutes
from .sync import Notifier
from .world import World

API_PREFIX = "/api/v10"


def point_discord_py_at(api_base: str, gateway_url: str) -> tuple[Any, ...]:
    """Point discord.py's REST and gateway globals elsewhere; returns the old values for restoring.

    discord.py builds every REST URL (webhooks and interaction callbacks included) from
    ``discord.http.Route.BASE`` and a non-sharded client connects straight to
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` without asking ``/gateway`` first.
    """
    old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
           discord.gateway.GatewayRatelimiter.__init__.__defaults__)
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    # Every wait for "idle" asks the client for a heartbeat (``Gateway.barrier``), and discord.py answers
    # through its gateway send limit of 110 frames a minute: a test that presses 200 buttons a minute
    # would stall for the rest of the minute. Real Discord never asks that often, so lift the limit here.
    discord.gateway.GatewayRatelimiter.__init__.__defaults__ = (1_000_000, 60.0)
    return old


def restore_discord_py(old: tuple[Any, ...]) -> None:
    (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
     discord.gateway.GatewayRatelimiter.__init__.__defaults__) = old


@dataclass
class RecordedRequest:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any = None
    files: list[Any] = field(default_factory=list)
    status: int = 0
    route: str = ""  # matched pattern, e.g. /channels/{channel_id}/messages


class FakeDiscord(UserActions, WorldQueries):
    """A loopback Discord for end-to-end tests of a real discord.py client.

    ``async with FakeDiscord() as fake:`` then point discord.py at ``fake.api_base`` / ``fake.gateway_url``.
    """

    def __init__(self, *, bot_name: str = "FakeBot", timeout: float = 5.0, callback_deadline: float | None = 3.0):
        self.world = World(bot_name)
        self.timeout = timeout
        self.callback_deadline = callback_deadline  # Discord drops interactions not answered within 3 s
        self.notifier = Notifier()
        self.gateway = Gateway(self)
        self.messages_ops = MessageOps(self)
        self.interactions: dict[str, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []
        self.faults = FaultPlan()  # rate limits, 500s and 403s a test plans (faults.py)
        self.shard_count = 1
        """What ``/gateway/bot`` recommends; a client IDENTIFYing with ``shard: [id, count]`` gets its guilds."""
        self.nonces: dict[tuple[int, str], tuple[float, int]] = {}  # (channel, nonce) -> (when, message id)
        self.extra_idle_prefixes: tuple[str, ...] = ()
        self.activities = Activities(self)
        """The Activity: LAUNCH_ACTIVITY, OAuth2, the discordsays proxy and the fake client (activities.py)."""
        self.log_collector: ErrorLogCollector | None = None  # set by the fixture; quoted in failures
        self.bot_tasks: list[asyncio.Task[None]] = []  # set by running_bot; a dead client is reported
        self._runner: web.AppRunner | None = None
        self._port = 0

    # -- lifecycle ------------------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._record_middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        ChannelRoutes(self).add_to(app.router, API_PREFIX)
        InteractionRoutes(self).add_to(app.router, API_PREFIX)
        self.activities.add_to(app.router, API_PREFIX)
        app.router.add_route("*", "/{tail:.*}", self._unhandled)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        await self.activities.client.start()
        return self

    async def stop(self) -> None:
        for session in self.gateway.sessions:
            if not session.ws.closed:
                await session.ws.close()
        await self.activities.client.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` (env DISCORD_API_BASE)."""
        return self.http_base + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (env DISCORD_GATEWAY_URL)."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot that reads DISCORD_API_BASE / DISCORD_GATEWAY_URL (e.g. in a subprocess)."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    def diagnostics(self) -> str:
        """Recent fake errors, discord.py error logs and dead bot tasks, for failure messages."""
        lines = [f"fake error: {e}" for e in self.errors[-3:]]
        if self.log_collector is not None:
            lines += [f"log: {line}" for line in self.log_collector.formatted()[-2:]]
        for task in self.bot_tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                lines.append(f"bot task died: {task.exception()!r}")
        return "".join("\n  " + line for line in lines)

    # -- recording ------------------------------------------------------------------------------------
    def record_error(self, message: str) -> None:
        self.errors.append(message)
        self.notifier.notify()

    def check(self) -> None:
        """Raise if the bot hit an unhandled route or sent something Discord would reject."""
        if self.errors:
            raise AssertionError("fake Discord saw problems:\n  " + "\n  ".join(self.errors))

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """Recorded requests matching a method and a route pattern like ``/channels/{channel_id}/messages``."""
        return [r for r in self.requests if r.method == method and r.route == route]

    @web.middleware
    async def _record_middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        path = request.path.removeprefix(API_PREFIX)
        route = getattr(request.match_info.route.resource, "canonical", "").removeprefix(API_PREFIX)
        rec = RecordedRequest(request.method, path, dict(request.query), route=route)
        self.requests.append(rec)
        try:
            body = await read_body(request)
            rec.json, rec.files = body.json, body.files
            response = self.faults.take(request.method, route, path) or await handler(request)
        except Exception:
            self.record_error(f"fake Discord crashed on {request.method} {path}:\n{traceback.format_exc()}")
            response = error_response(400, 0, "fake Discord internal error (see FakeDiscord.errors)")
        rec.status = response.status
        self.notifier.notify()
        return response

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.record_error(f"unhandled route: {request.method} {request.path}")
        return error_response(404, 0, f"fake Discord has no route {request.method} {request.path}")

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        att = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return error_response(404, 0, "asset not found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})

    # -- world set-up ---------------------------------------------------------------------------------
    @property
    def bot_user(self) -> Any:
        return self.world.bot

    @property
    def guild_id(self) -> int:
        return self.world.guild_id

    def register_tree(self, tree: discord.app_commands.CommandTree, *, guild: bool = False) -> None:
        """Store the tree's commands as if the bot had synced them (global, or guild-scoped)."""
        store = self.world.guild_commands.setdefault(self.world.guild_id, {}) if guild else self.world.global_commands
        target = discord.Object(self.world.guild_id) if guild else None
        for cmd in tree.get_commands(guild=target):
            data = cmd.to_dict(tree)
            cmd_id = self.world.command_ids.setdefault(
                (self.world.guild_id if guild else None, data["name"], data.get("type", 1)), self.world.ids.next()
            )
            stored = {**data, "id": str(cmd_id), "application_id": str(self.world.application_id)}
            if guild:
                stored["guild_id"] = str(self.world.guild_id)
            store[data["name"]] = stored
