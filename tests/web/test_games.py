"""Every game's page data through the API: each ply, every target of the viewer's picks has a hotspot on the
image of that same view, and a move walked from the picks is accepted; played to the end or a ply cap. Zodiac's
secret choices too: each player's own options in their own view only, played from the page."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engines
from tests.web.site import ALICE, BOB, board_site

MAX_PLIES = 60


@pytest.mark.parametrize("name", sorted(engines.GAMES))
async def test_a_game_played_from_the_pages_picks(tmp_path: Path, name: str) -> None:
    rng, by_page, secrets = random.Random(name), 0, 0
    async with board_site(tmp_path, game=name) as site:
        for _ in range(MAX_PLIES):
            views = {u: await (await site.client.get(f"/api/games/{site.game_id}/view", headers=site.auth(u))).json()
                     for u in (ALICE, BOB)}
            if views[ALICE]["status"] != "active":
                assert views[ALICE]["result"] is not None
                break
            movers = [u for u, v in views.items() if v["picks"]]
            assert movers, views[ALICE]["observation"].get("status")
            user = movers[0]
            view = views[user]
            if view["secret"]:  # a secret choice (Zodiac's duel pick, king): only the player's own options
                assert all(m["picks"][0]["kind"] == "secret" and m["picks"][0]["target"] is None
                           for m in view["picks"])
                row, game = await site.host.session.engine_copy(site.game_id)
                assert sorted(m["move"] for m in view["picks"]) == sorted(game.legal_moves(view["seat"]))
                secrets += 1
            for move in view["picks"]:
                for pick in move["picks"]:
                    assert pick["target"] is None or pick["target"] in view["hotspots"], (move, pick)
            move = rng.choice(view["picks"])["move"]
            played = await site.client.post(f"/api/games/{site.game_id}/move", headers=site.auth(user),
                                            json={"move": move, "ply": view["ply"]})
            assert played.status == 200, await played.text()
            by_page += 1
        row, game = await site.host.session.engine_copy(site.game_id)
        assert by_page >= 10 and len(game.history) >= by_page
        assert (secrets >= 4) is (name == "zodiac"), secrets  # two duel picks and two kings at least
        print(f"{name}: {by_page} moves from the page's picks of {len(game.history)} plies, {row.status}")
