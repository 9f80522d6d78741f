"""The board API through aiohttp's test client on a real SQLite host: views, image, moves, push, limits."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from aiohttp import WSMsgType

from tests.web.site import ALICE, BOB, CAROL, SECRET, board_site
from web import tokens


async def test_a_player_sees_their_seat_and_their_moves_picks_with_hotspots(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        row, game = await site.host.session.engine_copy(site.game_id)
        mover = row.user_at(min(game.to_move()))
        response = await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(mover))
        assert response.status == 200
        view = await response.json()
        assert view["seat"] == row.seat_of(mover) and view["ply"] == 0 and view["status"] == "active"
        assert sorted(p["move"] for p in view["picks"]) == sorted(game.legal_moves(view["seat"]))
        targets = {p["target"] for move in view["picks"] for p in move["picks"] if p["target"]}
        assert targets and targets <= set(view["hotspots"])
        waiting = BOB if mover == ALICE else ALICE
        other = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(waiting))).json()
        assert other["seat"] == row.seat_of(waiting) and other["picks"] == []


async def test_a_spectator_gets_the_public_view_and_cannot_move(tmp_path: Path) -> None:
    async with board_site(tmp_path, game="zodiac") as site:
        _row, game = await site.host.session.engine_copy(site.game_id)
        view = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(CAROL))).json()
        assert view["seat"] is None and view["picks"] == []
        public = game.observation(None)
        assert {k: v for k, v in view["observation"].items() if k != "player_names"} == json.loads(json.dumps(public))
        own = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(ALICE))).json()
        assert own["observation"] != view["observation"]  # Alice's own view holds her secret, Carol's does not
        move = game.legal_moves(min(game.to_move()))[0]
        refused = await site.client.post(f"/api/games/{site.game_id}/move", headers=site.auth(CAROL),
                                         json={"move": move, "ply": 0})
        assert refused.status == 409 and "not playing" in (await refused.json())["error"]
        assert len((await site.host.session.engine_copy(site.game_id))[1].history) == 0


async def test_a_move_is_played_once_and_a_stale_ply_is_refused_as_json(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        row, game = await site.host.session.engine_copy(site.game_id)
        mover = row.user_at(min(game.to_move()))
        move = game.legal_moves(min(game.to_move()))[0]
        url = f"/api/games/{site.game_id}/move"
        played = await site.client.post(url, headers=site.auth(mover), json={"move": move, "ply": 0})
        assert played.status == 200 and await played.json() == {"ok": True}
        again = await site.client.post(url, headers=site.auth(mover), json={"move": move, "ply": 0})
        assert again.status == 409 and "earlier position" in (await again.json())["error"]
        assert len((await site.host.session.engine_copy(site.game_id))[1].history) == 1
        for body in ("not json", json.dumps({"move": move}), json.dumps({"move": 3, "ply": 1}), "[]"):
            bad = await site.client.post(url, headers=site.auth(mover), data=body)
            assert bad.status == 400 and "JSON" in (await bad.json())["error"]
        huge = await site.client.post(url, headers=site.auth(mover), data="x" * 10_000)
        assert huge.status == 413 and "too large" in (await huge.json())["error"]
        illegal = await site.client.post(url, headers=site.auth(BOB if mover == ALICE else ALICE),
                                         json={"move": "nonsense", "ply": 1})
        assert illegal.status == 409 and "Traceback" not in (await illegal.text())


async def test_every_refused_token_is_a_clear_401(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        view = f"/api/games/{site.game_id}/view"
        assert (await site.client.get(view)).status == 401
        expired = tokens.issue(SECRET, ALICE, site.game_id, 0.0, ttl=10)
        other_game = site.token(ALICE, game_id=site.game_id + 1)
        forged = tokens.issue(b"not the site's secret at all", ALICE, site.game_id, 1_800_000_000.0)
        for token, reason in ((expired, "expired"), (other_game, "another game"), (forged, "not valid")):
            response = await site.client.get(view, headers={"Authorization": f"Bearer {token}"})
            assert response.status == 401 and reason in (await response.json())["error"]
            image = await site.client.get(f"/api/games/{site.game_id}/board.png", params={"t": token})
            assert image.status == 401
        socket = await site.client.get(f"/api/games/{site.game_id}/live", params={"t": forged})
        assert socket.status == 401


async def test_the_image_belongs_to_the_ply_asked_for(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        url = f"/api/games/{site.game_id}/board.png"
        image = await site.client.get(url, params={"t": site.token(ALICE), "ply": "0"})
        assert image.status == 200 and image.content_type == "image/png"
        assert (await image.read()).startswith(b"\x89PNG")
        stale = await site.client.get(url, params={"t": site.token(ALICE), "ply": "5"})
        assert stale.status == 409 and "moved on" in (await stale.json())["error"]


async def test_security_headers_allow_discords_frame_and_nothing_else(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        for path in (site.url(ALICE), f"/api/games/{site.game_id}/view", "/api/games/x/view"):
            response = await site.client.get(path)
            csp = response.headers["Content-Security-Policy"]
            assert "frame-ancestors 'self' https://discord.com https://*.discord.com" in csp
            assert "default-src 'self'" in csp and "unsafe" not in csp
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert "Access-Control-Allow-Origin" not in response.headers
        assert (await site.client.get("/api/games/x/view")).status == 404


async def test_a_user_over_their_rate_is_refused_and_others_are_not(tmp_path: Path) -> None:
    async with board_site(tmp_path, burst=3, per_second=0.001) as site:
        view = f"/api/games/{site.game_id}/view"
        statuses = [(await site.client.get(view, headers=site.auth(ALICE))).status for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        assert "Too many" in (await (await site.client.get(view, headers=site.auth(ALICE))).json())["error"]
        assert (await site.client.get(view, headers=site.auth(BOB))).status == 200


async def test_a_move_made_anywhere_reaches_every_open_page_within_a_second(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        sockets = [await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(u)})
                   for u in (ALICE, BOB, CAROL)]
        row, game = await site.host.session.engine_copy(site.game_id)
        seat = min(game.to_move())
        started = time.monotonic()
        await site.host.turns.play(site.game_id, row.user_at(seat), game.legal_moves(seat)[0])  # like a slash command
        for socket in sockets:
            message = await asyncio.wait_for(socket.receive(), timeout=1.0)
            assert message.type == WSMsgType.TEXT
            assert json.loads(message.data)["type"] == "changed"
        assert time.monotonic() - started < 1.0
        view = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(CAROL))).json()
        assert view["ply"] == 1  # announced after the commit: the page's reload sees the move
        for socket in sockets:
            await socket.close()


async def test_a_change_without_the_hook_reaches_open_pages_by_the_sweep(tmp_path: Path) -> None:
    async with board_site(tmp_path, sweep=0.2) as site:
        socket = await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(CAROL)})
        await asyncio.sleep(0.3)
        await site.host.turns.abort(site.game_id, ALICE)  # no change hook runs for an abort
        message = await asyncio.wait_for(socket.receive(), timeout=1.0)
        assert json.loads(message.data)["type"] == "changed"
        view = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(CAROL))).json()
        assert view["status"] == "aborted"
        with pytest.raises(asyncio.TimeoutError):  # announced once, not at every sweep
            await asyncio.wait_for(socket.receive(), timeout=0.5)
        await socket.close()


async def test_a_failure_inside_is_a_json_500_without_a_traceback(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        await site.host.db.close()  # the database is gone: every read fails inside the host
        site.host.session.engines.clear()
        response = await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(ALICE))
        assert response.status == 500
        assert await response.json() == {"error": "Something went wrong on our side; try again."}
