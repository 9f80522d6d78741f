"""Discord Activities in the fake: the LAUNCH_ACTIVITY callback, OAuth2 codes and tokens, and a fake client.

Discord's side, as the Embedded App SDK and a bot's server meet it:

* An interaction answered with callback type 12 (``LAUNCH_ACTIVITY``, no data) launches the application's
  Activity in the interaction's channel, when the application has Activities enabled (``enabled``): one
  instance per channel, which later launchers join. ``launches`` records each.
* ``GET /api/v10/applications/<app>/activity-instances/<instance>`` (a bot token) answers where an instance
  runs (``location.channel_id``) and who is connected (``users``).
* ``POST /api/v10/oauth2/token`` (form: ``grant_type=authorization_code``, ``code``, ``client_id``,
  ``client_secret``, or the client in HTTP Basic) exchanges a code once, for the client it was issued to;
  ``GET /api/v10/users/@me`` with ``Authorization: Bearer <access token>`` answers that token's user.
* The **discordsays proxy** (``proxy_base``, its own port, like ``<app id>.discordsays.com``) forwards every
  path, WebSocket upgrades included, to the URL mapping's target (``target``: the bot's ``PUBLIC_URL``),
  and serves the fake Discord client at ``/.fakediscord/activity/<instance>?user=<id>``: a page that holds
  the Activity in an iframe with the query Discord gives it (``frame_id``, ``instance_id``, ``platform``,
  ``guild_id``, ``channel_id``, ``location_id``) and answers the SDK's ``postMessage`` RPC as the Discord
  client does: the HANDSHAKE (checked: ``v`` 1, ``json``, this client id and frame) with the READY
  dispatch, ``AUTHORIZE`` with a code for the page's user (checked: this client id, ``response_type``
  ``code``, known scopes), ``AUTHENTICATE`` with the token's user, any other command with an empty reply.
  The client page and the proxied Activity share the proxy's origin (real Discord: discord.com framing
  discordsays.com); the SDK accepts its own origin, so the messages are the same.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode

import aiohttp
from aiohttp import WSMsgType, web

from . import payloads as P
from .http_util import error_response, json_response

if TYPE_CHECKING:
    from .records import InteractionRecord
    from .server import FakeDiscord
    from .world import User

LAUNCH_ACTIVITY = 12
KNOWN_SCOPES = {"identify", "guilds", "guilds.members.read", "rpc.activities.write", "applications.commands"}
HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
       "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}
INTERNAL = "/.fakediscord/"


@dataclass
class Launch:
    """One Activity instance: where it runs and who is in it (the launcher first)."""

    instance_id: str
    channel_id: int
    guild_id: int | None
    users: list[int]
    interactions: list[InteractionRecord] = field(default_factory=list)

    @property
    def location_id(self) -> str:
        return f"gc-{self.guild_id}-{self.channel_id}" if self.guild_id else f"pc-{self.channel_id}"


@dataclass
class Code:
    user: int
    client_id: str
    scopes: list[str]
    used: bool = False


class Activities:
    """The application's Activity as Discord runs it; ``FakeDiscord.activities``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world
        self.enabled = True
        """The Developer Portal's Activities switch: off, a LAUNCH_ACTIVITY callback is refused."""
        self.client_secret = "fake-secret-" + secrets.token_urlsafe(12)
        self.target: str | None = None
        """The URL mapping's target for ``/`` (the bot's ``PUBLIC_URL``)."""
        self.launches: dict[int, Launch] = {}
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, tuple[int, list[str]]] = {}
        self.exchanges: list[dict[str, str]] = []
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._http: aiohttp.ClientSession | None = None

    @property
    def client_id(self) -> str:
        return str(self.world.application_id)

    # -- the interaction callback ---------------------------------------------------------------------
    def launch_problem(self, rec: InteractionRecord, data: Any) -> str | None:
        if not self.enabled:
            return "this application does not have Activities enabled (Developer Portal, Activities)"
        if data:
            return "LAUNCH_ACTIVITY takes no data"
        return None

    def launch(self, rec: InteractionRecord) -> Launch:
        """The instance in the interaction's channel (a new one, or the running one joined)."""
        running = self.instance(rec.channel.id, rec.user.id, getattr(rec.channel, "guild_id", None))
        running.interactions.append(rec)
        self.fake.notifier.notify()
        return running

    def instance(self, channel_id: int, user: int, guild_id: int | None = None) -> Launch:
        """The running instance in ``channel_id`` with ``user`` in it (started if none runs)."""
        running = self.launches.get(channel_id)
        if running is None:
            running = Launch("i-" + secrets.token_hex(8), channel_id, guild_id or self.world.guild_id, [])
            self.launches[channel_id] = running
        if user not in running.users:
            running.users.append(user)
        return running

    def launch_of(self, rec: InteractionRecord) -> Launch:
        """The instance an interaction launched; ``AssertionError`` if it did not launch one."""
        found = next((lnch for lnch in self.launches.values() if rec in lnch.interactions), None)
        if found is None:
            raise AssertionError(f"{rec.describe()} launched no Activity: {rec.callbacks} {rec.content!r}")
        return found

    # -- OAuth2 (the API port) -------------------------------------------------------------------------
    def add_to(self, r: web.UrlDispatcher, api: str) -> None:
        r.add_route("POST", api + "/oauth2/token", self.token)
        r.add_route("GET", api + "/applications/{app_id}/activity-instances/{instance_id}", self.get_instance)

    async def get_instance(self, request: web.Request) -> web.Response:
        """Get Application Activity Instance (bot token): where it runs and who is connected."""
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return error_response(401, 0, "401: Unauthorized")
        found = next((lnch for lnch in self.launches.values()
                      if lnch.instance_id == request.match_info["instance_id"]), None)
        if found is None or request.match_info["app_id"] != self.client_id:
            return error_response(404, 10001, "Unknown Activity Instance")
        location = {"id": found.location_id, "kind": "gc" if found.guild_id else "pc",
                    "channel_id": str(found.channel_id)}
        if found.guild_id:
            location["guild_id"] = str(found.guild_id)
        return json_response({"application_id": self.client_id, "instance_id": found.instance_id,
                              "launch_id": str(abs(hash(found.instance_id))), "location": location,
                              "users": [str(u) for u in found.users]})

    def issue_code(self, user: User | int, client_id: str | None = None, scopes: list[str] | None = None) -> str:
        """A code as the client's AUTHORIZE gives it (``client_id``: another application's, to test refusals)."""
        code = secrets.token_urlsafe(20)
        uid = user if isinstance(user, int) else user.id
        self.codes[code] = Code(uid, client_id or self.client_id, scopes or ["identify"])
        return code

    async def token(self, request: web.Request) -> web.Response:
        form = dict(parse_qsl(await request.text()))
        self.exchanges.append({k: v for k, v in form.items() if k != "client_secret"})
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        if request.content_type != "application/x-www-form-urlencoded":
            return json_response({"error": "invalid_request", "error_description": "form body required"}, 400)
        if client_id != self.client_id or not secrets.compare_digest(secret, self.client_secret):
            return json_response({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return json_response({"error": "unsupported_grant_type"}, 400)
        code = self.codes.get(form.get("code", ""))
        if code is None or code.used or code.client_id != client_id:
            return json_response({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400)
        code.used = True
        access = secrets.token_urlsafe(24)
        self.tokens[access] = (code.user, code.scopes)
        return json_response({"token_type": "Bearer", "access_token": access, "expires_in": 604800,
                              "refresh_token": secrets.token_urlsafe(24), "scope": " ".join(code.scopes)})

    def bearer_user(self, request: web.Request) -> web.Response | None:
        """``GET /users/@me`` with a Bearer token (a bot's token answers the bot, elsewhere)."""
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        held = self.tokens.get(header[7:])
        if held is None:
            return error_response(401, 0, "401: Unauthorized")
        return json_response({**P.user_payload(self.world.users[held[0]]), "public_flags": 0, "flags": 0})

    # -- the proxy and the client page (their own port) ------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=1024 * 1024)
        app.router.add_get(INTERNAL + "activity/{instance_id}", self.client_page)
        app.router.add_post(INTERNAL + "authorize", self.authorize)
        app.router.add_post(INTERNAL + "authenticate", self.authenticate)
        app.router.add_route("*", "/{tail:.*}", self.proxy)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._http is not None:
            await self._http.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def proxy_base(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def client_url(self, launch: Launch, user: User | int) -> str:
        """The fake Discord client showing ``launch`` to ``user`` (who joins the instance)."""
        uid = user if isinstance(user, int) else user.id
        if uid not in launch.users:
            launch.users.append(uid)
        return f"{self.proxy_base}{INTERNAL}activity/{launch.instance_id}?user={uid}"

    def _launch(self, instance_id: str) -> Launch:
        found = next((lnch for lnch in self.launches.values() if lnch.instance_id == instance_id), None)
        if found is None:
            raise web.HTTPNotFound(reason="no such Activity instance")
        return found

    async def client_page(self, request: web.Request) -> web.Response:
        launch = self._launch(request.match_info["instance_id"])
        user = int(request.query.get("user", "0"))
        if user not in launch.users:
            raise web.HTTPForbidden(reason="that user is not in this instance")
        frame_id = secrets.token_hex(8)
        query = {"instance_id": launch.instance_id, "frame_id": frame_id, "platform": "desktop",
                 "channel_id": str(launch.channel_id), "location_id": launch.location_id}
        if launch.guild_id:
            query["guild_id"] = str(launch.guild_id)
        config = {"client_id": self.client_id, "frame_id": frame_id, "user": str(user),
                  "instance_id": launch.instance_id, "src": "/?" + urlencode(query)}
        page = CLIENT_PAGE.replace("%CONFIG%", json.dumps(config).replace("</", "<\\/"))  # raw text: no entities
        return web.Response(text=page, content_type="text/html")

    async def authorize(self, request: web.Request) -> web.Response:
        """The client's side of AUTHORIZE: a code for the page's user, for the client id the SDK named."""
        body = await request.json()
        launch = self._launch(str(body.get("instance_id")))
        args = body.get("args") or {}
        user = int(body.get("user", 0))
        if user not in launch.users:
            return json_response({"code": 4010, "message": "Invalid user"}, 400)
        if args.get("client_id") != self.client_id:
            return json_response({"code": 4007, "message": "Invalid client id"}, 400)
        scopes = args.get("scope")
        if args.get("response_type", "code") != "code" or not isinstance(scopes, list) or not scopes \
                or not set(scopes) <= KNOWN_SCOPES:
            return json_response({"code": 4000, "message": f"Invalid payload: {args}"}, 400)
        return json_response({"code": self.issue_code(user, self.client_id, scopes)})

    async def authenticate(self, request: web.Request) -> web.Response:
        """AUTHENTICATE: the token's user and scopes, as the SDK's schema has them."""
        body = await request.json()
        held = self.tokens.get(str((body.get("args") or {}).get("access_token")))
        if held is None:
            return json_response({"code": 4009, "message": "Invalid token"}, 400)
        user = self.world.users[held[0]]
        return json_response({
            "access_token": body["args"]["access_token"],
            "user": {"username": user.name, "discriminator": "0", "id": str(user.id), "avatar": None,
                     "public_flags": 0, "global_name": user.name},
            "scopes": held[1], "expires": "2099-01-01T00:00:00.000Z",
            "application": {"description": "", "icon": None, "id": self.client_id, "name": self.world.bot.name}})

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        """The URL mapping ``/`` -> ``target``: the request as it came, WebSocket upgrades included."""
        if self.target is None:
            return error_response(404, 0, "this application has no URL mapping")
        if self._http is None:
            self._http = aiohttp.ClientSession(auto_decompress=False)
        url = self.target.rstrip("/") + request.path_qs
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._proxy_socket(request, url, headers)
        body = await request.read()
        async with self._http.request(request.method, url, headers=headers, data=body or None,
                                      allow_redirects=False) as answer:
            data = await answer.read()
            out = {k: v for k, v in answer.headers.items() if k.lower() not in HOP}
            if "Content-Encoding" in answer.headers:
                out["Content-Encoding"] = answer.headers["Content-Encoding"]
            return web.Response(status=answer.status, body=data, headers=out)

    async def _proxy_socket(self, request: web.Request, url: str, headers: dict[str, str]) -> web.StreamResponse:
        assert self._http is not None
        headers = {k: v for k, v in headers.items() if not k.lower().startswith("sec-websocket")}
        try:
            inner = await self._http.ws_connect(url.replace("http", "ws", 1), headers=headers)
        except aiohttp.WSServerHandshakeError as refused:  # the target's refusal, passed on
            return web.Response(status=refused.status, text=refused.message)
        outer = web.WebSocketResponse()
        await outer.prepare(request)

        async def pump(source: Any, sink: Any) -> None:
            async for message in source:
                if message.type == WSMsgType.TEXT:
                    await sink.send_str(message.data)
                elif message.type == WSMsgType.BINARY:
                    await sink.send_bytes(message.data)
                else:
                    break
            await sink.close()

        await asyncio.gather(pump(inner, outer), pump(outer, inner), return_exceptions=True)
        return outer


CLIENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Fake Discord</title>
<style>body{margin:0;background:#313338}iframe{border:0;width:100vw;height:100vh;display:block}</style></head>
<body><script type="application/json" id="config">%CONFIG%</script>
<iframe id="activity" allow="autoplay"></iframe>
<script>
// The Discord client's end of the Embedded App SDK's RPC (postMessage): opcodes 0 HANDSHAKE, 1 FRAME, 2 CLOSE.
const config = JSON.parse(document.getElementById("config").textContent);
const frame = document.getElementById("activity");
const seen = [];
window.fakeDiscord = { seen, config, handshakes: 0 };
function send(message) { frame.contentWindow.postMessage(message, location.origin); }
async function call(path, body) {
  const response = await fetch("/.fakediscord/" + path, { method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, user: config.user, instance_id: config.instance_id }) });
  return [response.ok, await response.json()];
}
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  seen.push(opcode === 1 ? payload.cmd : ["HANDSHAKE", "FRAME", "CLOSE"][opcode]);
  if (opcode === 0) {
    const good = payload.v === 1 && payload.encoding === "json" && payload.client_id === config.client_id
      && payload.frame_id === config.frame_id;
    if (!good) { send([2, { code: 4000, message: "Invalid Client ID" }]); return; }
    window.fakeDiscord.handshakes += 1;
    send([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" } } }]);
    return;
  }
  if (opcode !== 1) return;
  const { cmd, args, nonce } = payload;
  if (cmd === "AUTHORIZE" || cmd === "AUTHENTICATE") {
    const [ok, data] = await call(cmd.toLowerCase(), { args });
    send(ok ? [1, { cmd, evt: null, nonce, data }] : [1, { cmd, evt: "ERROR", nonce, data }]);
    return;
  }
  send([1, { cmd, evt: null, nonce, data: null }]);
});
frame.src = config.src;
</script></body></html>
"""
