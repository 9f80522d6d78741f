"""A change reloads every page on a game at once (bench_web): the pages share one render per (game, version,
seat), and the players' pages are told first, so their reloads do not queue behind a crowd of spectators'."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from aiohttp import WSMsgType

import render
from data.db import Database
from host.app import Host
from host.play.clickable import VACATIONS_FOR
from host.play.shared_renders import SharedRenders
from tests.web.site import ALICE, BOB, CAROL, NOW, board_site
from web.app import HUB_KEY

SPECTATORS = [10**15 + i for i in range(12)]


class CountingRenderer:
    """The real renderer, counting its calls (it runs in threads)."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.lock = threading.Lock()

    def __call__(self, observation: dict[str, Any]) -> bytes:
        with self.lock:
            self.calls.append(1)
        return render.render(observation)


async def zaic_host(tmp_path: Path) -> tuple[Host, CountingRenderer, int]:
    renderer = CountingRenderer()
    host = Host(await Database.open(tmp_path / "renders.sqlite3"), now=lambda: NOW, renderer=renderer)
    lobby = await host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert len(renderer.calls) == 1  # the start's own board (the thread's)
    return host, renderer, lobby.row.id


async def test_a_dozen_pages_at_once_share_one_render_per_seat_and_a_move_renders_again(tmp_path: Path) -> None:
    host, renderer, game_id = await zaic_host(tmp_path)
    try:
        viewers = [*SPECTATORS, ALICE, BOB]
        views = [json.loads(body) for body in
                 await asyncio.gather(*(host.clickable.view_json(game_id, user) for user in viewers))]
        images = await asyncio.gather(*(host.clickable.board_image(game_id, user, 0) for user in viewers))
        assert host.clickable.drawn.made == 3  # the public view and each seat's
        pictures = {json.dumps({k: v for k, v in view["observation"].items() if k != "seat"}, sort_keys=True)
                    for view in views}
        assert len(pictures) == 1 and len(renderer.calls) == 1  # the start's board was that one picture: shared
        assert len({images[i] for i in range(len(SPECTATORS))}) == 1
        assert images[0] == await asyncio.to_thread(render.render, views[0]["observation"])
        row, game = await host.session.engine_copy(game_id)
        for user in (ALICE, BOB):
            own = views[viewers.index(user)]
            assert own["seat"] == row.seat_of(user) is not None
            assert {k: v for k, v in own["observation"].items() if k != "player_names"} == json.loads(
                json.dumps(game.observation(own["seat"])))  # as the page receives it
        mover = min(game.to_move())
        renderer.calls.clear()
        report = await host.turns.play(game_id, row.user_at(mover), game.legal_moves(mover)[0])
        after = await asyncio.gather(*(host.clickable.board_image(game_id, user, 1) for user in SPECTATORS))
        assert len(renderer.calls) == 1 and after[0] != images[0]  # the report's drawing is the pages' image
        assert report.board is not None and report.board.image == after[0]
        moved = json.loads(await host.clickable.view_json(game_id, SPECTATORS[0]))
        assert moved["ply"] == 1 and moved["version"] == views[0]["version"] + 1
    finally:
        await host.db.close()


async def test_a_failed_render_is_not_kept_and_a_page_that_gives_up_cancels_no_one() -> None:
    shared: SharedRenders[str] = SharedRenders(size=2)
    attempts: list[int] = []
    gate = asyncio.Event()

    async def failing() -> str:
        attempts.append(1)
        raise ValueError("no")

    async def slow() -> str:
        attempts.append(2)
        await gate.wait()
        return "drawn"

    with pytest.raises(ValueError):
        await shared.get((1, 1, None), failing)
    gate.set()
    assert await shared.get((1, 1, None), slow) == "drawn" and attempts == [1, 2]  # tried again
    gate.clear()
    impatient = asyncio.create_task(shared.get((1, 2, None), slow))
    patient = asyncio.create_task(shared.get((1, 2, None), slow))
    await asyncio.sleep(0.01)
    impatient.cancel()
    gate.set()
    assert await patient == "drawn" and attempts == [1, 2, 2]
    await shared.get((1, 3, 0), slow)
    await shared.get((1, 4, 0), slow)
    assert shared.made == 5 and attempts == [1, 2, 2, 2, 2]
    gate.clear()  # bounded to 2: the newest two are kept (a hit waits for nothing), (1, 1) renders again
    assert await shared.get((1, 4, 0), slow) == "drawn" and attempts == [1, 2, 2, 2, 2]
    gate.set()
    await shared.get((1, 1, None), slow)
    assert attempts == [1, 2, 2, 2, 2, 2]


async def test_the_players_pages_are_told_before_the_spectators(tmp_path: Path) -> None:
    """A crowd's reloads come after the players' (the next move waits on theirs), and still within a second."""
    async with board_site(tmp_path) as site:
        site.client.server.app[HUB_KEY].spectator_delay = 0.6
        pages = {user: await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(user)})
                 for user in (ALICE, BOB, CAROL)}
        await joined(site, 3)
        row, game = await site.host.session.engine_copy(site.game_id)
        seat = min(game.to_move())
        await site.host.turns.play(site.game_id, row.user_at(seat), game.legal_moves(seat)[0])
        for user in (ALICE, BOB):
            assert (await asyncio.wait_for(pages[user].receive(), 1.0)).type == WSMsgType.TEXT
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.shield(spectator := asyncio.ensure_future(pages[CAROL].receive())), 0.3)
        assert json.loads((await asyncio.wait_for(spectator, 1.0)).data)["type"] == "changed"
        for page in pages.values():
            await page.close()


def _picture(observation: dict[str, Any]) -> bytes:
    return render.render({k: v for k, v in observation.items() if k != "seat"})


async def test_a_cached_view_or_image_never_crosses_seats(tmp_path: Path) -> None:
    """Zodiac once a king is chosen: each player's board shows their own side, the spectator's neither, so the
    three images of one version differ; each page is served its own, whoever asked first."""
    async with board_site(tmp_path, game="zodiac") as site:
        row, game = await site.host.session.engine_copy(site.game_id)
        for _ply in range(20):  # the duel's picks differ (no tie), the side, the kings
            if len({_picture(game.observation(seat)) for seat in (0, 1, None)}) == 3:
                break
            seat = min(game.to_move())
            await site.host.turns.play(site.game_id, row.user_at(seat), game.legal_moves(seat)[-seat])
            row, game = await site.host.session.engine_copy(site.game_id)
        assert len({_picture(game.observation(seat)) for seat in (0, 1, None)}) == 3 and game.phase != "duel"
        clickable = site.host.clickable
        for order in ((CAROL, ALICE, BOB), (BOB, CAROL, ALICE)):  # first asker renders, the second is served
            views, images = {}, {}
            for user in order:
                views[user] = json.loads(await (await site.client.get(
                    f"/api/games/{site.game_id}/view", headers=site.auth(user))).read())
                response = await site.client.get(f"/api/games/{site.game_id}/board.png", params={
                    "ply": str(views[user]["ply"]), "v": str(views[user]["version"]), "t": site.token(user)})
                assert response.status == 200 and "immutable" in response.headers["Cache-Control"]
                images[user] = await response.read()
            assert [views[u]["seat"] for u in (ALICE, BOB, CAROL)] == [row.seat_of(ALICE), row.seat_of(BOB), None]
            for user in (ALICE, BOB, CAROL):
                seat = views[user]["seat"]
                expected = json.loads(json.dumps(game.observation(seat)))
                assert {k: v for k, v in views[user]["observation"].items() if k != "player_names"} == expected
                assert images[user] == await asyncio.to_thread(_picture, views[user]["observation"])
            assert len({images[u] for u in (ALICE, BOB, CAROL)}) == 3
            assert len({json.dumps(views[u]["observation"], sort_keys=True) for u in (ALICE, BOB, CAROL)}) == 3
        assert clickable.heads.made == 3 and clickable.pngs.made == 3  # the second round was served from them


async def test_an_image_named_by_its_version_reads_no_row_and_the_clocks_stay_live(tmp_path: Path) -> None:
    """A reload is one row read (the view's); the image of that version comes from what the view made, even
    once the game moved on (it still belongs to the view's hotspots). The shared view's clocks are per answer."""
    async with board_site(tmp_path) as site:
        lobby = await site.host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1,
                                                channel_id=2, settings={"clock": "5m"})
        await site.host.lobby.accept(lobby.row.id, BOB)
        game_id = lobby.row.id
        reads = counted_reads(site)
        token = site.token(CAROL, game_id=game_id)
        view = json.loads(await (await site.client.get(
            f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})).read())
        params = {"ply": str(view["ply"]), "v": str(view["version"]), "t": token}
        first = await site.client.get(f"/api/games/{game_id}/board.png", params=params)
        assert first.status == 200 and len(reads) == 1
        site.host.now = lambda: NOW + 30
        later = json.loads(await (await site.client.get(
            f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {token}"})).read())
        mover = min(view["observation"]["to_move"])
        assert view["clocks"][mover]["left"] == 300.0 and later["clocks"][mover]["left"] == 270.0
        assert {k: v for k, v in later.items() if k != "clocks"} == {k: v for k, v in view.items() if k != "clocks"}
        assert site.host.clickable.heads.made == 1  # the second view was the first's bytes, its clocks new
        row, game = await site.host.session.engine_copy(game_id)
        await site.host.turns.play(game_id, row.user_at(mover), game.legal_moves(mover)[0])
        reads.clear()
        again = await site.client.get(f"/api/games/{game_id}/board.png", params=params)
        assert again.status == 200 and await again.read() == await first.read() and reads == []
        unnamed = await site.client.get(f"/api/games/{game_id}/board.png", params={**params, "v": "999"})
        assert unnamed.status == 409 and reads == [game_id]  # a version no view was made of: the row decides


async def test_a_spectators_reload_after_a_push_reads_no_row_and_a_players_reads_one(tmp_path: Path) -> None:
    """After a change is announced, the crowd of spectators reloading at once shares one row read and one view;
    later ones read no row; a player's view is always read (their picks decide their next click)."""
    async with board_site(tmp_path) as site:
        pages = {user: await site.client.ws_connect(f"/api/games/{site.game_id}/live", params={"t": site.token(user)})
                 for user in (ALICE, CAROL)}
        await joined(site, 2)
        row, game = await site.host.session.engine_copy(site.game_id)
        seat = min(game.to_move())
        await site.host.turns.play(site.game_id, row.user_at(seat), game.legal_moves(seat)[0])
        for page in pages.values():
            assert json.loads((await asyncio.wait_for(page.receive(), 2.0)).data)["type"] == "changed"
        reads = counted_reads(site)

        async def view(user: int) -> dict[str, Any]:
            response = await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(user))
            return dict(json.loads(await response.read()))

        crowd = await asyncio.gather(*(view(user) for user in [CAROL, *SPECTATORS]))  # at once: one read shared
        assert len(reads) == 1 and all(v == crowd[0] for v in crowd) and crowd[0]["ply"] == 1
        later = [await view(user) for user in SPECTATORS[:3]]  # one by one: the kept view, no read
        assert len(reads) == 1 and all(v == crowd[0] for v in later)
        own = await view(ALICE)
        assert len(reads) == 2 and own["seat"] == row.seat_of(ALICE) and own["version"] == crowd[0]["version"]
        assert site.host.clickable.heads.made == 2  # the spectators' view of this version and Alice's
        for page in pages.values():
            await page.close()


async def test_a_vacation_reaches_the_shared_clocks_at_once_or_within_their_ten_seconds(tmp_path: Path) -> None:
    """The clocks' inputs are read once per version and ``VACATIONS_FOR`` seconds. A vacation reschedules the
    user's games (a new version), so their views show it at once; one stored without that (another process's,
    between its two writes) shows on the first view after those seconds. Every view counts from its own now."""
    async with board_site(tmp_path) as site:
        lobby = await site.host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1,
                                                channel_id=2, settings={"clock": "2d"})
        await site.host.lobby.accept(lobby.row.id, BOB)
        row, game = await site.host.session.engine_copy(lobby.row.id)
        mover = min(game.to_move())
        token = site.token(CAROL, game_id=lobby.row.id)

        async def left() -> float:
            response = await site.client.get(f"/api/games/{lobby.row.id}/view",
                                             headers={"Authorization": f"Bearer {token}"})
            return float(json.loads(await response.read())["clocks"][mover]["left"])

        day = 86400.0
        assert await left() == 2 * day
        await site.host.correspondence.vacation(row.user_at(mover), 1)
        site.host.now = lambda: NOW + 1
        assert await left() == 3 * day - 1
        # a second day continuing the first (time covered twice would pause the clock once)
        await site.host.correspondence.stored.add_vacation(row.user_at(mover), 2027, NOW + day, NOW + 2 * day, 1)
        assert await left() == 3 * day - 1  # the same version within ten seconds: counted, the new one not yet
        site.host.now = lambda: NOW + VACATIONS_FOR
        assert await left() == 4 * day - VACATIONS_FOR


async def joined(site: Any, pages: int) -> None:
    """Wait (on a loaded machine too) until the hub holds the pages: it joins a socket after its handshake."""
    hub = site.client.server.app[HUB_KEY]
    for _ in range(1000):
        if len(hub.pages.get(site.game_id, ())) >= pages:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the hub holds {len(hub.pages.get(site.game_id, ()))} of {pages} pages after 10 s")


def counted_reads(site: Any) -> list[int]:
    """The game ids the store reads from now on (each still the real read)."""
    store, reads = site.host.session.store, []
    real_get = store.get

    async def get(wanted: int) -> Any:
        reads.append(wanted)
        return await real_get(wanted)

    store.get = get
    return reads
