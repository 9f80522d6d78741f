"""The board API through aiohttp's test client on a real SQLite host: views, image, moves, push, limits."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from host import outbox
from host.play.clickable import Images
from host.play.painter import Painter
from host.results import Report
from tests.web.site import ALICE, BOB, CAROL, NOW, SECRET, Site, board_site
from web import tokens
from web.app import create_app


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
        refusal = (await again.json())["error"]
        assert again.status == 409 and "moved on" in refusal and "button" not in refusal  # the page has no buttons
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


async def test_a_token_verified_once_is_still_refused_once_it_expires(tmp_path: Path) -> None:
    """Verified tokens are remembered (a page sends its token with every request), never past their expiry."""
    async with board_site(tmp_path) as site:
        clock = [NOW]
        client = TestClient(TestServer(create_app(site.host, site.config, now=lambda: clock[0]), host="127.0.0.1"))
        await client.start_server()
        try:
            view, headers = f"/api/games/{site.game_id}/view", site.auth(ALICE)  # valid for 600 s from NOW
            assert (await client.get(view, headers=headers)).status == 200
            assert (await client.get(view, headers=headers)).status == 200
            clock[0] = NOW + 601
            late = await client.get(view, headers=headers)
            assert late.status == 401 and "expired" in (await late.json())["error"]
            other = await client.get(f"/api/games/{site.game_id + 1}/view", headers=headers)
            assert other.status == 401  # remembered for its own game only
        finally:
            await client.close()


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
            pushed = json.loads(message.data)
            assert pushed["type"] == "changed" and pushed["ply"] == 1  # the page fetches that board, no guess
        assert time.monotonic() - started < 1.0
        view = await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(CAROL))).json()
        assert view["ply"] == 1  # announced after the commit: the page's reload sees the move
        for socket in sockets:
            await socket.close()


async def test_a_change_without_the_hook_reaches_open_pages_by_the_sweep(tmp_path: Path) -> None:
    async with board_site(tmp_path, sweep=0.2) as site:
        socket = await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(CAROL)})
        await asyncio.sleep(0.3)
        row = await site.host.session.row(site.game_id)
        await site.host.session.store.update(row, now=NOW, status="aborted")  # a bare write: no commit hook runs
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


async def _view(site: Site, user: int, game_id: int | None = None) -> dict[str, Any]:
    token = site.token(user, game_id)
    game = site.game_id if game_id is None else game_id
    response = await site.client.get(f"/api/games/{game}/view", headers={"Authorization": f"Bearer {token}"})
    assert response.status == 200, await response.text()
    return dict(await response.json())


def _kings_seen(observation: dict[str, Any]) -> set[str]:
    """The sides whose king this observation marks on the board."""
    return {piece["side"] for cell in observation["board"] for piece in cell["stack"] if piece.get("king")}


async def test_zodiacs_secret_choices_are_offered_to_their_player_only(tmp_path: Path) -> None:
    async with board_site(tmp_path, game="zodiac") as site:
        url = f"/api/games/{site.game_id}/move"
        chosen: dict[int, str] = {}
        for phase in ("duel", "side", "king"):  # the duel may repeat on a tie; the side is a public choice
            for _ in range(12):
                views = {u: await _view(site, u) for u in (ALICE, BOB)}
                if views[ALICE]["observation"]["phase"] != phase:
                    break
                assert (await _view(site, CAROL))["picks"] == []
                for user, view in views.items():
                    if not view["picks"]:
                        continue
                    secret = phase != "side"
                    assert view["secret"] is secret
                    assert all((p["picks"][0]["kind"] == "secret") is secret for p in view["picks"])
                    move = view["picks"][-1]["move"] if user == ALICE else view["picks"][0]["move"]
                    played = await site.client.post(url, headers=site.auth(user), json={"move": move,
                                                                                        "ply": view["ply"]})
                    assert played.status == 200, await played.text()
                    chosen[user] = move
                    other = BOB if user == ALICE else ALICE
                    seen = await _view(site, other)  # the other side's page: that a choice was made, not which
                    assert seen["observation"]["duel"]["my_pick"] in (None, chosen.get(other, "").split(" ")[-1])
                    assert seen["observation"]["my_king"] in (None, chosen.get(other, "").split(" ")[-1])
        row, game = await site.host.session.engine_copy(site.game_id)
        assert game.phase == "place", game.phase
        kings = {u: game.king_pick[row.seat_of(u)] for u in (ALICE, BOB)}
        for user in (ALICE, BOB):
            view = await _view(site, user)
            assert view["observation"]["my_king"] == kings[user] and view["observation"]["kings"] is None
            other = BOB if user == ALICE else ALICE
            assert kings[other] not in json.dumps(view["observation"]["my_king"])
        spectator = await _view(site, CAROL)
        assert spectator["observation"]["my_king"] is None and spectator["observation"]["duel"]["my_pick"] is None
        # the replay of each ply: a player reads their own secret move, the other's only as the channel does
        secrets = [(ply, seat, text) for ply, (seat, text) in enumerate(game.history, 1) if text.startswith("king ")]
        assert len(secrets) == 2
        for ply, seat, text in secrets:
            for user in (ALICE, BOB, CAROL):
                step = await site.client.get(f"/api/games/{site.game_id}/replay", params={"ply": str(ply)},
                                             headers=site.auth(user))
                label = (await step.json())["label"]
                own = row.seat_of(user) == seat
                assert (text in label) is own and ("a secret king choice" in label) is not own, (user, label)
                replayed = await site.host.clickable.replay_step(site.game_id, user, len(game.history))
                assert replayed.observation["my_king"] == (kings[user] if user != CAROL else None)
                assert all(side == replayed.observation["my_side"] for side in _kings_seen(replayed.observation))


async def test_the_replay_steps_through_every_ply_and_refuses_beyond(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        for _ in range(3):
            row, game = await site.host.session.engine_copy(site.game_id)
            seat = min(game.to_move())
            await site.host.turns.play(site.game_id, row.user_at(seat), game.legal_moves(seat)[0])
        _row, game = await site.host.session.engine_copy(site.game_id)
        url = f"/api/games/{site.game_id}/replay"
        pngs = set()
        for ply in range(4):
            step = await (await site.client.get(url, params={"ply": str(ply)}, headers=site.auth(CAROL))).json()
            assert step["ply"] == ply and step["last"] == 3
            assert step["label"] == ("Start" if ply == 0 else f"{game.seat_name(game.history[ply - 1][0])}: "
                                     f"{game.history[ply - 1][1]}")
            image = await site.client.get(f"/api/games/{site.game_id}/board.png",
                                          params={"at": str(ply), "t": site.token(CAROL)})
            assert image.status == 200 and image.content_type == "image/png"
            pngs.add(await image.read())
        assert len(pngs) == 4  # each ply its own board
        now = await site.client.get(f"/api/games/{site.game_id}/board.png", params={"t": site.token(CAROL)})
        assert await now.read() in pngs
        beyond = await site.client.get(url, params={"ply": "4"}, headers=site.auth(CAROL))
        assert beyond.status == 409 and "plies 0 to 3" in (await beyond.json())["error"]
        assert (await site.client.get(url, headers=site.auth(CAROL))).status == 400
        # a digit to str.isdigit that int() refuses: no ply asked, never a server failure
        assert (await site.client.get(url, params={"ply": "²"}, headers=site.auth(CAROL))).status == 400
        odd = await site.client.get(f"/api/games/{site.game_id}/board.png", params={"ply": "²", "t": site.token(CAROL)})
        assert odd.status == 200 and await odd.read() in pngs


@pytest.mark.parametrize(("control", "kind", "limit"), [("5m", "live", 300.0), ("2d", "days", 2 * 86400.0)])
async def test_the_view_holds_each_seats_clock(tmp_path: Path, control: str, kind: str, limit: float) -> None:
    async with board_site(tmp_path) as site:
        assert (await _view(site, ALICE))["clocks"] == []  # no clock: nothing to count down
        lobby = await site.host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1,
                                                channel_id=2, settings={"clock": control})
        await site.host.lobby.accept(lobby.row.id, BOB)
        row, game = await site.host.session.engine_copy(lobby.row.id)
        mover = min(game.to_move())
        clocks = (await _view(site, CAROL, lobby.row.id))["clocks"]
        assert [c["seat"] for c in clocks] == [0, 1] and {c["kind"] for c in clocks} == {kind}
        assert [c["running"] for c in clocks] == [s == mover for s in (0, 1)]
        assert clocks[mover]["left"] == limit
        assert clocks[1 - mover]["left"] == (limit if kind == "live" else None)
        site.host.now = lambda: NOW + 40  # forty seconds thinking, then the move
        await site.host.turns.play(lobby.row.id, row.user_at(mover), game.legal_moves(mover)[0])
        site.host.now = lambda: NOW + 50
        after = {c["seat"]: c for c in (await _view(site, ALICE, lobby.row.id))["clocks"]}
        assert after[mover]["running"] is False and after[1 - mover]["running"] is True
        assert after[1 - mover]["left"] == limit - 10
        assert after[mover]["left"] == (limit - 40 if kind == "live" else None)


async def test_a_secret_choice_overtaken_by_the_other_sides_is_played_but_not_after_its_own_move(
        tmp_path: Path) -> None:
    async with board_site(tmp_path, game="zodiac") as site:
        row, game = await site.host.session.engine_copy(site.game_id)
        assert game.phase == "duel" and len(game.to_move()) == 2
        url = f"/api/games/{site.game_id}/move"
        alice, bob = await _view(site, ALICE), await _view(site, BOB)
        same = alice["picks"][0]["move"]
        assert same == bob["picks"][0]["move"]
        first = await site.client.post(url, headers=site.auth(ALICE), json={"move": same, "ply": 0})
        assert first.status == 200
        late = await site.client.post(url, headers=site.auth(BOB), json={"move": same, "ply": 0})
        assert late.status == 200, await late.text()  # Bob's page was at ply 0: his choice was still his to make
        _row, game = await site.host.session.engine_copy(site.game_id)
        assert game.phase == "duel" and len(game.history) == 2  # a tie: a new round of the duel
        again = await site.client.post(url, headers=site.auth(ALICE), json={"move": same, "ply": 0})
        assert again.status == 409 and "moved on" in (await again.json())["error"]
        assert [seat for seat, _ in game.history] == [row.seat_of(ALICE), row.seat_of(BOB)]


async def test_pages_that_see_the_same_share_one_drawing(tmp_path: Path) -> None:
    drawn: list[dict[str, Any]] = []

    def draw(observation: dict[str, Any]) -> bytes:
        drawn.append(observation)
        time.sleep(0.05)
        return json.dumps(observation, sort_keys=True).encode()

    images = Images(Painter(draw).draw, size=2)
    same = [{"seat": seat, "board": [1, 2]} for seat in (0, 1, None)]
    pngs = await asyncio.gather(*(images.image(o) for o in same))  # asked for at once: drawn once
    assert len(drawn) == 1 and len(set(pngs)) == 1 and "seat" not in drawn[0]
    await images.image({"seat": 0, "board": [3]})
    await images.image({"seat": 0, "board": [4]})
    await images.image({"seat": 1, "board": [1, 2]})  # the oldest of three was let go: drawn again
    assert len(drawn) == 4


async def test_a_pages_move_is_delivered_to_discord_after_the_push_in_order_and_a_failure_stays_owed(
        tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        socket = await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(CAROL)})
        delivered: list[tuple[int, bool]] = []
        gate = asyncio.Event()

        async def deliver(report: Report) -> None:
            delivered.append((report.ply, pushed.done()))
            if report.ply == 1:
                await gate.wait()  # Discord is slow: the next move's report waits for this one
                raise RuntimeError("Discord refused it")

        site.host.boards.deliver = deliver
        pushed = asyncio.ensure_future(socket.receive())
        url = f"/api/games/{site.game_id}/move"
        for ply in (0, 1):
            row, game = await site.host.session.engine_copy(site.game_id)
            seat = min(game.to_move())
            answer = await site.client.post(url, headers=site.auth(row.user_at(seat)),
                                            json={"move": game.legal_moves(seat)[0], "ply": ply})
            assert answer.status == 200  # answered without waiting for Discord
            await asyncio.sleep(0.05)
        assert delivered == [(1, True)]  # the push left before the report was handed to Discord
        gate.set()
        deadline = time.monotonic() + 2.0
        while len(delivered) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert [ply for ply, _ in delivered] == [1, 2]  # in order, and a failure does not stop the next
        owed = {job.dedupe for job in await site.host.outbox.pending()}
        assert outbox.post_key(site.game_id, 1) in owed  # still owed: the dispatcher posts it
        assert outbox.post_key(site.game_id, 2) in owed  # no one marked it done either (this fake posts nothing)
        await socket.close()


async def test_a_pages_move_reaches_discord_once_the_players_pages_have_their_new_view(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        sockets = [await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(u)})
                   for u in (ALICE, BOB, CAROL)]
        await asyncio.sleep(0.05)  # the pages have joined
        delivered, mover = await _first_move_delivered_to(site)
        for socket in sockets:
            assert json.loads((await asyncio.wait_for(socket.receive(), 1.0)).data)["ply"] == 1
        view = f"/api/games/{site.game_id}/view"
        for user in (CAROL, mover):  # a spectator's reload does not count; one player is not enough
            assert (await site.client.get(view, headers=site.auth(user))).status == 200
            await asyncio.sleep(0.1)
            assert delivered == []
        other = BOB if mover == ALICE else ALICE
        assert (await site.client.get(view, headers=site.auth(other))).status == 200
        await asyncio.sleep(0.05)
        assert delivered == [1]
        for socket in sockets:
            await socket.close()


async def test_a_player_who_closes_their_page_is_not_waited_for(tmp_path: Path) -> None:
    async with board_site(tmp_path) as site:
        sockets = {u: await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(u)})
                   for u in (ALICE, BOB)}
        await asyncio.sleep(0.05)  # the pages have joined
        delivered, mover = await _first_move_delivered_to(site)
        other = BOB if mover == ALICE else ALICE
        assert (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(mover))).status == 200
        await asyncio.sleep(0.1)
        assert delivered == []  # the other player's page has not reloaded yet
        await sockets[other].close()  # ... and now never will: the post goes at once, not after the 2 s wait
        deadline = time.monotonic() + 1.0
        while not delivered and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert delivered == [1]
        await sockets[mover].close()


async def _first_move_delivered_to(site: Any) -> tuple[list[int], int]:
    """Record the plies handed to Discord, play the first move from the mover's page; (the record, the mover)."""
    delivered: list[int] = []

    async def deliver(report: Report) -> None:
        delivered.append(report.ply)

    site.host.boards.deliver = deliver
    row, game = await site.host.session.engine_copy(site.game_id)
    seat = min(game.to_move())
    mover = row.user_at(seat)
    answer = await site.client.post(f"/api/games/{site.game_id}/move", headers=site.auth(mover),
                                    json={"move": game.legal_moves(seat)[0], "ply": 0})
    assert answer.status == 200
    return delivered, mover
