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
* ``client`` (``activity_client.py``): the discordsays proxy to ``target`` and the fake Discord client page
  that frames the Activity and answers the Embedded App SDK.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from aiohttp import web

from . import payloads as P
from .activity_client import ActivityClient
from .http_util import error_response, json_response

if TYPE_CHECKING:
    from .records import InteractionRecord
    from .server import FakeDiscord
    from .world import User

LAUNCH_ACTIVITY = 12


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
        self.client = ActivityClient(self)
        """The discordsays proxy and the fake Discord client page, on their own port."""

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
