"""The aiohttp application: the page, its script, the JSON API and the WebSocket, behind a signed token.

Served by the bot process on its own event loop when ``WEB_PORT`` is set (``start_from_env``); off
otherwise. Every API answer is JSON, errors included (never a traceback); every response carries the
security headers; a request body over ``MAX_BODY`` bytes and a user over their rate are refused.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import WSMsgType, web

from host.app import Host
from web import activity, calls, tokens
from web.limits import Budget
from web.live import SWEEP, Hub

log = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
BUNDLE = HERE / "client" / "dist" / "board.js"
DISCORD_API = "https://discord.com/api/v10"
MAX_BODY = 4096
"""Bytes a request body may have: a move is a few dozen."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com; base-uri 'none'; form-action 'none'; "
       "object-src 'none'")
"""Only the page's own origin, and Discord's frame around it (an Activity)."""

HOST_KEY = web.AppKey("host", Host)
CONFIG_KEY = web.AppKey("config", "WebConfig")
HUB_KEY = web.AppKey("hub", Hub)
BUDGET_KEY = web.AppKey("budget", Budget)
NOW_KEY = web.AppKey("now", Callable[[], float])
GRANTS_KEY = web.AppKey("grants", dict[tuple[str, int], tokens.Grant])
DELIVERIES_KEY = web.AppKey("deliveries", "Deliveries")
GRANTS = 10_000
"""Tokens remembered as verified (the oldest forgotten first): a page sends the same token with every
request, and its signature need not be checked again until it expires."""


@dataclass(frozen=True)
class WebConfig:
    """``WEB_PORT`` (off when unset), ``PUBLIC_URL`` (where players reach it), ``WEB_SECRET`` (signs links)."""

    port: int
    public_url: str
    secret: bytes
    bind: str = "127.0.0.1"
    """``WEB_BIND``: the address to listen on; a reverse proxy in front of it serves HTTPS."""
    burst: float = 40.0
    per_second: float = 10.0
    client_id: str = ""
    """``DISCORD_CLIENT_ID`` (default: the bot's application id): the Activity's SDK and its OAuth2 exchange."""
    client_secret: str = field(default="", repr=False)
    """``DISCORD_CLIENT_SECRET``: without it the Activity cannot sign players in, so it is never launched."""
    discord_api: str = DISCORD_API
    """``DISCORD_API_BASE``: where the OAuth2 code is exchanged and ``/users/@me`` read (the tests' fake)."""
    bot_token: str = field(default="", repr=False)
    """The bot's token (``DISCORD_TOKEN``, passed by zbot.py): asks Discord where an Activity instance runs."""

    @property
    def activity_ready(self) -> bool:
        return bool(self.client_id and self.client_secret and self.bot_token)

    @classmethod
    def from_env(cls) -> WebConfig | None:
        port = os.environ.get("WEB_PORT", "").strip()
        if not port:
            return None
        secret = os.environ.get("WEB_SECRET", "").strip()
        if len(secret) < 16:
            raise ValueError("WEB_PORT is set, so WEB_SECRET must be too (16 characters or more): it signs "
                             "the board links.")
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"WEB_PORT must be a port number, not {port!r}")
        public = os.environ.get("PUBLIC_URL", "").strip() or f"http://localhost:{port}"
        return cls(port=int(port), public_url=public.rstrip("/"), secret=secret.encode(),
                   bind=os.environ.get("WEB_BIND", "").strip() or "127.0.0.1",
                   client_id=os.environ.get("DISCORD_CLIENT_ID", "").strip(),
                   client_secret=os.environ.get("DISCORD_CLIENT_SECRET", "").strip(),
                   discord_api=(os.environ.get("DISCORD_API_BASE", "").strip() or DISCORD_API).rstrip("/"))

    def link(self, user: int, game_id: int, now: float, ttl: float = tokens.LINK_TTL) -> str:
        """The **Open board** link for ``user`` on ``game_id``."""
        token = tokens.issue(self.secret, user, game_id, now, ttl)
        return f"{self.public_url}/g/{game_id}?t={quote(token)}"


class Deliveries:
    """Each page move's report into Discord, in the background and in order per game: the mover's page gets its
    answer and the other pages their push without waiting for Discord, and the thread shows the move at once
    instead of when the outbox's dispatcher finds it owed (a minute later, all of a game's moves in one burst)."""

    def __init__(self) -> None:
        self.last: dict[int, asyncio.Task[None]] = {}
        self.running: set[asyncio.Task[None]] = set()
        """Every delivery not finished, the earlier ones of a game included (``close`` waits for them all)."""

    def add(self, game_id: int, work: Callable[[], Awaitable[None]],
            after: Callable[[], Awaitable[None]] | None = None) -> None:
        """``work`` once the game's earlier deliveries are done and ``after`` returned (the players' pages have
        their new board: the next move waits on those reloads, not on Discord)."""
        before = self.last.get(game_id)

        async def run() -> None:
            try:
                if after is not None:
                    await after()
                if before is not None:
                    await asyncio.wait([before])
                await work()
            except Exception:  # still owed: the outbox's dispatcher posts it
                log.exception("posting a board page's move of game %s failed", game_id)

        task = asyncio.get_running_loop().create_task(run())
        self.last[game_id] = task
        self.running.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self.running.discard(finished)
            if self.last.get(game_id) is finished:
                del self.last[game_id]

        task.add_done_callback(done)

    async def close(self) -> None:
        """Cancel what is not posted yet, every game's whole chain, and wait for it to stop (what was not posted
        stays owed, so the dispatcher posts it)."""
        tasks = list(self.running)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.last.clear()
        self.running.clear()


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


@web.middleware
async def errors(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                 ) -> web.StreamResponse:
    """Every failure as ``{"error": ...}`` with a fitting status; nothing of the server's insides leaks."""
    try:
        return await handler(request)
    except tokens.TokenError as error:
        return _error(401, str(error))
    except calls.HostError as error:
        return _error(409, str(error))
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"The request is too large (at most {MAX_BODY} bytes).")
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _error(error.status, error.reason)
    except Exception:
        log.exception("web request %s %s failed", request.method, request.path)
        return _error(500, "Something went wrong on our side; try again.")


async def _headers(_request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"  # the page's address holds its token
    response.headers.setdefault("Cache-Control", "no-store")


def _game_id(request: web.Request) -> int:
    text = request.match_info["game_id"]
    if not text.isdigit() or len(text) > 18:
        raise web.HTTPNotFound(reason="No such game.")
    return int(text)


def _grant(request: web.Request) -> tokens.Grant:
    """The caller's grant for this game, from ``Authorization: Bearer`` or the ``t`` query; then their rate."""
    header = request.headers.get("Authorization", "")
    token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else request.query.get("t", "")
    game_id, now, verified = _game_id(request), request.app[NOW_KEY](), request.app[GRANTS_KEY]
    grant = verified.get((token, game_id))
    if grant is None or grant.expires <= now:  # checked in full: a bad or expired token says why, and is not kept
        grant = tokens.verify(request.app[CONFIG_KEY].secret, token, game_id, now)
        verified[(token, game_id)] = grant
        if len(verified) > GRANTS:
            del verified[next(iter(verified))]
    if not request.app[BUDGET_KEY].take(grant.user, time.monotonic()):
        raise web.HTTPTooManyRequests(reason="Too many requests: wait a moment.")
    return grant


async def page(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "board.html")


async def script(_request: web.Request) -> web.StreamResponse:
    if not BUNDLE.exists():
        return _error(503, "The page's script is not built: run `make web-client`.")
    return web.FileResponse(BUNDLE)


async def style(_request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "board.css")


async def view(request: web.Request) -> web.Response:
    grant = _grant(request)
    known = request.app[HUB_KEY].seen.get(grant.game_id)  # committed and announced: what a push reloads for
    body = await calls.board_view(request.app[HOST_KEY], grant.game_id, grant.user, known)
    if known is not None:
        request.app[HUB_KEY].viewed(grant.game_id, grant.user, known)
    return web.Response(body=body, content_type="application/json")


def _number(request: web.Request, name: str) -> int | None:
    text = request.query.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 9 else None  # "²" is a digit to isdigit


async def image(request: web.Request) -> web.Response:
    """The board now (``ply``: of the view the page holds), or as the viewer saw ply ``at`` (the replay)."""
    grant = _grant(request)
    ply, at, version = _number(request, "ply"), _number(request, "at"), _number(request, "v")
    host = request.app[HOST_KEY]
    png = (await calls.replay_image(host, grant.game_id, grant.user, at) if at is not None
           else await calls.board_image(host, grant.game_id, grant.user, ply, version))
    cached = ("private, max-age=3600, immutable" if ply is not None and version is not None  # that version's, ever
              else "private, max-age=3600" if ply is not None or at is not None else "no-store")
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cached})


async def replay(request: web.Request) -> web.Response:
    grant = _grant(request)
    ply = _number(request, "ply")
    if ply is None:
        return _error(400, "Say which ply: ?ply=N.")
    return web.json_response(await calls.replay_step(request.app[HOST_KEY], grant.game_id, grant.user, ply))


async def move(request: web.Request) -> web.Response:
    grant = _grant(request)
    try:
        body: Any = await request.json()
    except ValueError:
        return _error(400, "Send the move as JSON: {\"move\": ..., \"ply\": ...}.")
    if not isinstance(body, dict) or not isinstance(body.get("move"), str) or type(body.get("ply")) is not int:
        return _error(400, "Send the move as JSON: {\"move\": ..., \"ply\": ...}.")
    host, hub = request.app[HOST_KEY], request.app[HUB_KEY]
    report = await calls.play(host, grant.game_id, grant.user, body["move"], body["ply"])
    request.app[DELIVERIES_KEY].add(grant.game_id, lambda: calls.deliver(host, report),
                                    after=lambda: hub.players_reloaded(grant.game_id, report.row.version))
    return web.json_response({"ok": True})


async def live(request: web.Request) -> web.WebSocketResponse:
    grant = _grant(request)
    socket = web.WebSocketResponse(heartbeat=30, max_msg_size=1024)
    await socket.prepare(request)
    hub = request.app[HUB_KEY]
    seated = await calls.seated(request.app[HOST_KEY], grant.game_id, grant.user)
    await hub.join(grant.game_id, socket, player=grant.user if seated else None)
    try:
        async for message in socket:  # the page only listens; anything it sends is ignored
            if message.type == WSMsgType.ERROR:
                break
    finally:
        hub.leave(grant.game_id, socket)
    return socket


def create_app(host: Host, config: WebConfig, *, now: Callable[[], float] = time.time,
               sweep: float = SWEEP) -> web.Application:
    """The application over ``host``; its hub hears every committed change through the host's change feed (any
    process, PostgreSQL) or change hook (this process), and finds any other within ``sweep`` seconds."""
    app = web.Application(middlewares=[errors], client_max_size=MAX_BODY)
    app[HOST_KEY] = host
    app[CONFIG_KEY] = config
    app[NOW_KEY] = now
    app[BUDGET_KEY] = Budget(config.burst, config.per_second)
    app[GRANTS_KEY] = {}
    deliveries = app[DELIVERIES_KEY] = Deliveries()
    hub = Hub(lambda game_id: calls.version(host, game_id), calls.feed(host))
    app[HUB_KEY] = hub
    calls.on_committed(host, hub.committed)
    app.on_response_prepare.append(_headers)

    async def started(_app: web.Application) -> None:
        hub.start(sweep)

    app.on_startup.append(started)
    app.on_shutdown.append(lambda _app: hub.close())
    app.on_shutdown.append(lambda _app: deliveries.close())
    app.router.add_get("/g/{game_id}", page)
    app.router.add_get("/static/board.js", script)
    app.router.add_get("/static/board.css", style)
    app.router.add_get("/api/games/{game_id}/view", view)
    app.router.add_get("/api/games/{game_id}/board.png", image)
    app.router.add_get("/api/games/{game_id}/replay", replay)
    app.router.add_post("/api/games/{game_id}/move", move)
    app.router.add_get("/api/games/{game_id}/live", live)
    activity.add_routes(app, config, host, now, page)  # the Discord Activity: its page at /, its sign-in
    return app


class WebServer:
    """The running site: ``close`` stops it (the bot's ``close``)."""

    def __init__(self, runner: web.AppRunner, config: WebConfig) -> None:
        self.runner = runner
        self.config = config

    async def close(self) -> None:
        await self.runner.cleanup()


async def start(host: Host, config: WebConfig) -> WebServer:
    runner = web.AppRunner(create_app(host, config), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, config.bind, config.port).start()
    log.info("board pages served on %s:%d (%s)", config.bind, config.port, config.public_url)
    return WebServer(runner, config)


async def start_from_env(host: Host, *, client_id: str = "", api_base: str | None = None,
                         bot_token: str = "") -> WebServer | None:
    """The site when ``WEB_PORT`` is set, else ``None`` (the bot works exactly as without it). The bot passes
    its application id (the Activity's client id unless ``DISCORD_CLIENT_ID`` says otherwise), its REST base
    (the OAuth2 exchange goes where its other REST calls go) and its token (to look up Activity instances)."""
    config = WebConfig.from_env()
    if config is None:
        return None
    config = replace(config, client_id=config.client_id or client_id, bot_token=bot_token,
                     discord_api=api_base.rstrip("/") if api_base else config.discord_api)
    return await start(host, config)
