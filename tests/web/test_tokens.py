"""Signed link tokens: the right user and game get in; forged, expired, damaged or other-game tokens do not."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

from web import tokens

SECRET = b"a test secret of enough length"
NOW = 1_800_000_000.0


def test_a_token_grants_its_user_and_game_until_it_expires() -> None:
    token = tokens.issue(SECRET, 101, 7, NOW, ttl=60)
    grant = tokens.verify(SECRET, token, 7, NOW + 59)
    assert (grant.user, grant.game_id) == (101, 7)
    with pytest.raises(tokens.TokenError, match="expired"):
        tokens.verify(SECRET, token, 7, NOW + 60)


def test_a_token_for_another_game_is_refused() -> None:
    with pytest.raises(tokens.TokenError, match="another game"):
        tokens.verify(SECRET, tokens.issue(SECRET, 101, 7, NOW), 8, NOW)


def test_a_token_rewritten_for_another_user_is_refused() -> None:
    body, signature = tokens.issue(SECRET, 101, 7, NOW).split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["u"] = 202  # Bob's seat, with Alice's signature
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=").decode()
    with pytest.raises(tokens.TokenError, match="not valid"):
        tokens.verify(SECRET, f"{forged}.{signature}", 7, NOW)


def test_a_token_signed_with_another_secret_is_refused() -> None:
    with pytest.raises(tokens.TokenError, match="not valid"):
        tokens.verify(SECRET, tokens.issue(b"someone else's secret, long", 101, 7, NOW), 7, NOW)


@pytest.mark.parametrize("token", ["", "abc", "a.b.c", "!!!.???", "x" * 500, "e30.e30"])
def test_a_damaged_token_is_refused_with_a_reason(token: str) -> None:
    with pytest.raises(tokens.TokenError, match=r"damaged|not valid"):
        tokens.verify(SECRET, token, 7, NOW)


def test_a_validly_signed_payload_of_the_wrong_shape_is_refused() -> None:
    payload = b'{"u": "me"}'
    signature = hmac.new(SECRET, payload, hashlib.sha256).digest()
    token = ".".join(base64.urlsafe_b64encode(part).rstrip(b"=").decode() for part in (payload, signature))
    with pytest.raises(tokens.TokenError, match="damaged"):
        tokens.verify(SECRET, token, 7, NOW)
