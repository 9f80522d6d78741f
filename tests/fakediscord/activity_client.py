"""The fake Discord client and the discordsays proxy, on their own port (``FakeDiscord.activities.client``).

The proxy forwards every path, WebSocket upgrades included, to the URL mapping's target
(``activities.target``: the bot's ``PUBLIC_URL``), like ``<app id>.discordsays.com``. The client page,
``/.fakediscord/activity/<instance>?user=<id>`` (``url(launch, user)``), frames the Activity with the query
Discord gives it (``frame_id``, ``instance_id``, ``platform``, ``guild_id``, ``channel_id``, ``location_id``)
and answers the Embedded App SDK's ``postMessage`` RPC as the Discord client does: the HANDSHAKE (checked:
``v`` 1, ``json``, this client id and frame) with the READY dispatch, ``AUTHORIZE`` with a code for the page's
user (checked: this client id, ``response_type`` ``code``, known scopes), ``AUTHENTICATE`` with the token's
user, any other command with an empty reply. The client page and the proxied Activity share the proxy's
origin (real Discord: discord.com framing discordsays.com); the SDK accepts its own origin, so the messages
are the same.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import WSMsgType, web

from .http_util import error_response, json_response

if TYPE_CHECKING:
    from .activities import Activities, Launch
    from .world import User

KNOWN_SCOPES = {"identify", "guilds", "guilds.members.read", "rpc.activities.write", "applications.commands"}
HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
       "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}
INTERNAL = "/.fakediscord/"


class ActivityClient:
    """The proxy and the client page over the Activities' state."""

    def __init__(self, activities: Activities) -> None:
        self.activities = activities
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._http: aiohttp.ClientSession | None = None

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

    def url(self, launch: Launch, user: User | int) -> str:
        """The fake Discord client showing ``launch`` to ``user`` (who joins the instance)."""
        uid = user if isinstance(user, int) else user.id
        if uid not in launch.users:
            launch.users.append(uid)
        return f"{self.proxy_base}{INTERNAL}activity/{launch.instance_id}?user={uid}"

    def _launch(self, instance_id: str) -> Launch:
        found = next((lnch for lnch in self.activities.launches.values() if lnch.instance_id == instance_id), None)
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
        config = {"client_id": self.activities.client_id, "frame_id": frame_id, "user": str(user),
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
        if args.get("client_id") != self.activities.client_id:
            return json_response({"code": 4007, "message": "Invalid client id"}, 400)
        scopes = args.get("scope")
        if args.get("response_type", "code") != "code" or not isinstance(scopes, list) or not scopes \
                or not set(scopes) <= KNOWN_SCOPES:
            return json_response({"code": 4000, "message": f"Invalid payload: {args}"}, 400)
        return json_response({"code": self.activities.issue_code(user, self.activities.client_id, scopes)})

    async def authenticate(self, request: web.Request) -> web.Response:
        """AUTHENTICATE: the token's user and scopes, as the SDK's schema has them."""
        body = await request.json()
        held = self.activities.tokens.get(str((body.get("args") or {}).get("access_token")))
        if held is None:
            return json_response({"code": 4009, "message": "Invalid token"}, 400)
        user = self.activities.world.users[held[0]]
        return json_response({
            "access_token": body["args"]["access_token"],
            "user": {"username": user.name, "discriminator": "0", "id": str(user.id), "avatar": None,
                     "public_flags": 0, "global_name": user.name},
            "scopes": held[1], "expires": "2099-01-01T00:00:00.000Z",
            "application": {"description": "", "icon": None, "id": self.activities.client_id,
                            "name": self.activities.world.bot.name}})

    async def proxy(self, request: web.Request) -> web.StreamResponse:
        """The URL mapping ``/`` -> ``target``: the request as it came, WebSocket upgrades included."""
        if self.activities.target is None:
            return error_response(404, 0, "this application has no URL mapping")
        if self._http is None:
            self._http = aiohttp.ClientSession(auto_decompress=False)
        url = self.activities.target.rstrip("/") + request.path_qs
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
