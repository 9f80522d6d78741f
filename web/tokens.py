"""Signed link tokens: who may open which game's board, until when.

A token is ``payload.signature``, both base64url: the payload is ``{"u": user, "g": game, "e": expiry}``
and the signature is HMAC-SHA256 over the payload's bytes with ``WEB_SECRET``. The server keeps no table
of tokens, so a link works after a restart and expires by itself; a forged, expired or other game's token
is refused with the reason.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass

LINK_TTL = 3600.0
"""Seconds a board link stays valid: short, since anyone holding the link sees what its user sees."""
SESSION_TTL = 3600.0
"""Seconds the Activity's session token lasts: the page signs in again through Discord (no prompt) after it."""
MAX_TOKEN = 400


class TokenError(ValueError):
    """A token that does not let its bearer in: the message says why, for the page."""


@dataclass(frozen=True)
class Grant:
    user: int
    game_id: int
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()


def issue(secret: bytes, user: int, game_id: int, now: float, ttl: float = LINK_TTL) -> str:
    """A token for ``user`` on ``game_id`` that expires ``ttl`` seconds from ``now``."""
    payload = json.dumps({"u": user, "g": game_id, "e": int(now + ttl)}, separators=(",", ":")).encode()
    return f"{_b64(payload)}.{_b64(_sign(secret, payload))}"


def verify(secret: bytes, token: str, game_id: int, now: float) -> Grant:
    """The grant a token carries for ``game_id``, or ``TokenError``: checked signature first, so nothing of a
    forged token is believed."""
    if not token or len(token) > MAX_TOKEN or token.count(".") != 1:
        raise TokenError("This board link is damaged: ask the bot for a new one.")
    body, signature = token.split(".")
    try:
        payload, given = _unb64(body), _unb64(signature)
    except ValueError:
        raise TokenError("This board link is damaged: ask the bot for a new one.") from None
    if not hmac.compare_digest(given, _sign(secret, payload)):
        raise TokenError("This board link is not valid: ask the bot for a new one.")
    try:
        data = json.loads(payload)
        grant = Grant(int(data["u"]), int(data["g"]), float(data["e"]))
    except (ValueError, KeyError, TypeError):
        raise TokenError("This board link is damaged: ask the bot for a new one.") from None
    if grant.expires <= now:
        raise TokenError("This board link has expired: ask the bot for a new one.")
    if grant.game_id != game_id:
        raise TokenError("This board link is for another game.")
    return grant
