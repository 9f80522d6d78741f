"""The Discord Activity: its page at ``/`` and its sign-in, ``POST /api/activity/token``.

Discord opens the Activity at the root of its URL mapping (``PUBLIC_URL``) with ``frame_id``,
``instance_id`` and ``channel_id`` in the query. The page's Embedded App SDK asks the Discord client for an
OAuth2 ``authorize`` code and posts it here with its instance id; the server exchanges the code at Discord's
token endpoint with the application's client id and secret (the secret never leaves the server), reads
the user from ``/users/@me``, asks Discord (with the bot's token) which channel that instance runs in and
whether the user is in it, finds that channel's game through the host, and answers with a session token
for that user and game (the same signed token as a board link) and the user's access token, which the SDK's
``authenticate`` needs. A code for another application, a used or unknown code, an instance the user is not
in, and a channel without a game are refused with a JSON reason.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from host.app import Host
from web import calls, tokens
from web.limits import Budget

if TYPE_CHECKING:
    from web.app import WebConfig

EXCHANGE_TIMEOUT = aiohttp.ClientTimeout(total=10)
SCOPES = ("identify",)
"""What the Activity asks the user for: who they are, nothing more."""


@dataclass
class Activity:
    """The sign-in's state: the server's config, the host, a clock, one HTTP client to Discord, a budget."""

    host: Host
    config: WebConfig
    now: Callable[[], float]
    budget: Budget
    http: aiohttp.ClientSession | None = None


ACTIVITY_KEY = web.AppKey("activity", Activity)


class SignInError(tokens.TokenError):
    """Discord did not accept the sign-in (a bad code, another application's code): answered 401."""


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


async def config(request: web.Request) -> web.Response:
    """The client id the page's SDK hands to the Discord client (public: it is in the Activity's address)."""
    settings = request.app[ACTIVITY_KEY].config
    if not settings.activity_ready:
        return _error(404, "The Discord Activity is not set up on this bot: use the Open board link instead.")
    return web.json_response({"client_id": settings.client_id, "scopes": list(SCOPES)})


async def _discord(activity: Activity, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
    """One call to Discord's API, its JSON answer; a refusal raises ``SignInError`` with Discord's reason."""
    if activity.http is None:
        activity.http = aiohttp.ClientSession(timeout=EXCHANGE_TIMEOUT)
    try:
        async with activity.http.request(method, activity.config.discord_api + path, **kwargs) as response:
            body = await response.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError):
        raise web.HTTPBadGateway(reason="Discord could not be reached to sign you in; try again.") from None
    if response.status >= 400 or not isinstance(body, dict):
        reason = body.get("error_description") or body.get("error") or body.get("message") \
            if isinstance(body, dict) else None
        raise SignInError(f"Discord did not accept this sign-in ({reason or response.status}): reopen the Activity.")
    return body


async def exchange(request: web.Request) -> web.Response:
    """``{"code", "instance_id"}`` -> ``{"token", "expires_in", "game_id", "user", "access_token"}``; the page
    asks again (a fresh code, no prompt) before ``expires_in`` seconds pass."""
    activity = request.app[ACTIVITY_KEY]
    settings = activity.config
    if not settings.activity_ready:
        return _error(404, "The Discord Activity is not set up on this bot: use the Open board link instead.")
    if not activity.budget.take(hash(request.remote), time.monotonic()):
        raise web.HTTPTooManyRequests(reason="Too many sign-ins: wait a moment.")
    try:
        body: Any = await request.json()
    except ValueError:
        body = None
    code, instance_id = (body.get("code"), body.get("instance_id")) if isinstance(body, dict) else (None, None)
    if not isinstance(code, str) or not 0 < len(code) <= 200 or not isinstance(instance_id, str) \
            or not 0 < len(instance_id) <= 100 or not instance_id.replace("-", "").isalnum():
        return _error(400, 'Send {"code": <the authorize code>, "instance_id": <the Activity instance>}.')
    granted = await _discord(activity, "POST", "/oauth2/token", data={
        "client_id": settings.client_id, "client_secret": settings.client_secret,
        "grant_type": "authorization_code", "code": code})
    access = granted.get("access_token")
    if not isinstance(access, str) or "identify" not in str(granted.get("scope", "")).split():
        raise SignInError("Discord's answer did not let us see who you are: reopen the Activity.")
    me = await _discord(activity, "GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
    user = int(me["id"])
    channel = await _channel_of(activity, instance_id, user)
    game_id = await calls.game_in_channel(activity.host, channel)
    if game_id is None:
        return _error(404, "This channel has no game: start the Activity in a game's thread "
                           "(/<game> play there, or Play on the board under its board).")
    token = tokens.issue(settings.secret, user, game_id, activity.now(), tokens.SESSION_TTL)
    return web.json_response({"token": token, "expires_in": tokens.SESSION_TTL, "game_id": game_id,
                              "user": str(user), "access_token": access})


async def _channel_of(activity: Activity, instance_id: str, user: int) -> int:
    """The channel the Activity instance runs in, asked of Discord with the bot's token (the page's word is not
    taken for it), and only if ``user`` is connected to that instance."""
    settings = activity.config
    instance = await _discord(activity, "GET", f"/applications/{settings.client_id}/activity-instances/{instance_id}",
                              headers={"Authorization": f"Bot {settings.bot_token}"})
    location = instance.get("location")
    if str(user) not in instance.get("users", []) or not isinstance(location, dict):
        raise web.HTTPForbidden(reason="You are not in this Activity: open it from Discord yourself.")
    return int(location["channel_id"])


def add_routes(app: web.Application, config_: WebConfig, host: Host, now: Callable[[], float],
               page: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> None:
    """The Activity's routes on the board site: its page at ``/`` (the root of Discord's URL mapping)."""
    activity = Activity(host, config_, now, Budget(config_.burst, config_.per_second))
    app[ACTIVITY_KEY] = activity

    async def closed(_app: web.Application) -> None:
        if activity.http is not None:
            await activity.http.close()

    app.on_cleanup.append(closed)
    app.router.add_get("/", page)
    app.router.add_get("/api/activity/config", config)
    app.router.add_post("/api/activity/token", exchange)
