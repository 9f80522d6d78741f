"""Faults a test plans for the fake Discord: rate limits, server errors and refusals on chosen routes.

``fake.faults.add("POST", "/channels/{channel_id}/messages", status=429, retry_after=0.2)`` makes the
next matching request fail as Discord would; ``times`` repeats it, ``path`` narrows it to one channel.
429s carry ``retry_after`` (and the ``Via`` header discord.py checks to tell a rate limit from a
Cloudflare ban); 500s are what discord.py retries on its own; 403s carry Discord's error code
(50007 cannot DM this user, 50013 missing permissions). Every fault served is kept in ``served``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from aiohttp import web

CANNOT_DM, MISSING_PERMISSIONS = 50007, 50013


@dataclass
class Fault:
    method: str
    route: str
    status: int
    times: int = 1
    path: str | None = None
    retry_after: float = 0.1
    code: int = 0


@dataclass
class FaultPlan:
    planned: list[Fault] = field(default_factory=list)
    served: list[tuple[str, str, int]] = field(default_factory=list)

    def add(self, method: str, route: str, status: int, *, times: int = 1, path: str | None = None,
            retry_after: float = 0.1, code: int = 0) -> Fault:
        fault = Fault(method, route, status, times, path, retry_after, code)
        self.planned.append(fault)
        return fault

    def clear(self) -> None:
        self.planned.clear()

    def take(self, method: str, route: str, path: str) -> web.Response | None:
        """The response for a planned fault matching this request (using one of its ``times``), if any."""
        for fault in self.planned:
            if fault.times > 0 and fault.method == method and fault.route == route and fault.path in (None, path):
                fault.times -= 1
                self.served.append((method, path, fault.status))
                return respond(fault)
        return None


def respond(fault: Fault) -> web.Response:
    headers = {"Content-Type": "application/json"}
    if fault.status == 429:
        body: dict[str, object] = {"message": "You are being rate limited.", "retry_after": fault.retry_after,
                                   "global": False}
        headers |= {"Via": "1.1 google", "Retry-After": str(fault.retry_after), "X-RateLimit-Scope": "user"}
    elif fault.status >= 500:
        body = {"message": "500: Internal Server Error", "code": 0}
    else:
        message = {CANNOT_DM: "Cannot send messages to this user", MISSING_PERMISSIONS: "Missing Permissions"}
        body = {"message": message.get(fault.code, "Forbidden"), "code": fault.code}
    return web.Response(body=json.dumps(body).encode(), status=fault.status, headers=headers)
