"""One real browser (Debian's Chromium through Playwright): two users play a whole Zaic game by clicks on the
board only, each seeing the other's move within a second; a spectator's page cannot move.

Needs ``/usr/bin/chromium`` (``make chromium``) and the page's script (``make web-client``); ``make test``
provides both.
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import BrowserContext, Page, async_playwright

from tests.web.site import ALICE, BOB, CAROL, Site, board_site
from web.app import BUNDLE

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
MAX_PLIES = 200
SHOTS = os.environ.get("WEB_SHOTS")
"""A folder to copy the screenshots to, to look at them (they are always written under the test's tmp_path)."""


@asynccontextmanager
async def browser_pages(count: int) -> AsyncIterator[list[BrowserContext]]:
    """``count`` separate Chromium profiles (a temp ``--user-data-dir`` each), so each page is its own user."""
    assert Path(CHROMIUM).exists(), "Chromium is missing: run `make chromium`"
    assert BUNDLE.exists(), "the page's script is not built: run `make web-client`"
    folders = [tempfile.mkdtemp(prefix="zgames-chromium-") for _ in range(count)]
    try:
        async with async_playwright() as playwright:
            contexts = [await playwright.chromium.launch_persistent_context(
                folder, executable_path=CHROMIUM, headless=True, args=FLAGS,
                viewport={"width": 1280, "height": 900}) for folder in folders]
            try:
                yield contexts
            finally:
                for context in contexts:
                    await context.close()
    finally:
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)


async def ready_at(page: Page, ply: int) -> None:
    await page.wait_for_function(  # a function, not a string: the page's CSP forbids eval
        "(ply) => document.body.dataset.state === 'ready' && document.body.dataset.ply === ply", arg=str(ply),
        timeout=10_000)


async def shoot(page: Page, folder: Path, name: str) -> None:
    for width in (1280, 360):
        await page.set_viewport_size({"width": width, "height": 900})
        await page.wait_for_timeout(100)
        path = folder / f"{name}-{width}.png"
        await page.screenshot(path=str(path), full_page=True)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(SHOTS) / path.name)
        width_seen = await page.evaluate("document.documentElement.scrollWidth")
        assert width_seen <= width, f"the page is wider than {width} px ({width_seen})"
    await page.set_viewport_size({"width": 1280, "height": 900})


async def play_by_clicks(site: Site, pages: dict[int, Page], rng: random.Random,
                         shots: Path) -> tuple[int, list[float]]:
    """Plays until the game ends, each move by clicks on glowing board places of the mover's page; returns
    the plies played and, per move, the milliseconds from the final click to the other player's page."""
    latencies: list[float] = []
    for _ in range(MAX_PLIES):
        row, game = await site.host.session.engine_copy(site.game_id)
        ply = len(game.history)
        if row.status != "active":
            return ply, latencies
        mover = row.user_at(min(game.to_move()))
        other = BOB if mover == ALICE else ALICE
        page = pages[mover]
        for user in (ALICE, BOB, CAROL):
            await ready_at(pages[user], ply)
        assert await pages[other].locator("#overlay .spot.offered").count() == 0
        assert await pages[CAROL].locator("#overlay .spot.offered").count() == 0
        if ply == 2:  # Back undoes a pick: the first step's places glow again
            first = sorted(await page.locator("#overlay .spot.offered").evaluate_all(
                "(spots) => spots.map((s) => s.dataset.target)"))
            await page.locator("#overlay .spot.offered").first.click()
            assert await page.locator("#overlay .spot.picked").count() == 1
            await page.locator("#back").click()
            again = sorted(await page.locator("#overlay .spot.offered").evaluate_all(
                "(spots) => spots.map((s) => s.dataset.target)"))
            assert again == first and await page.locator("#overlay .spot.picked").count() == 0
            assert await page.locator("#back").is_hidden()
        for _ in range(10):  # a move is a few clicks; each click walks one step of the picks
            spots = page.locator("#overlay .spot.offered")
            count = await spots.count()
            assert count, f"ply {ply}: no glowing place to click: {await page.locator('#status').text_content()}"
            await spots.nth(rng.randrange(count)).click()
            if ply == 6 and await page.evaluate("document.body.dataset.state") == "ready" and \
                    await page.locator("#overlay .spot.picked").count():
                await shoot(page, shots, "zaic-picking")  # a pick made (yellow), the next ones offered (green)
            if await page.evaluate("document.body.dataset.state") != "ready" or \
                    await page.locator("#overlay .spot.offered").count() == 0:
                break
        await ready_at(pages[other], ply + 1)
        clicked = int(await page.evaluate("document.body.dataset.clicked"))
        shown = int(await pages[other].evaluate("document.body.dataset.shown"))
        latencies.append(shown - clicked)
        assert await page.locator("#error").is_hidden(), await page.locator("#error").text_content()
    raise AssertionError(f"no end after {MAX_PLIES} plies")


async def test_two_pages_play_a_whole_zaic_game_by_clicks_and_a_spectator_cannot_move(tmp_path: Path) -> None:
    async with board_site(tmp_path, game="zaic") as site, browser_pages(3) as contexts:
        base = str(site.client.make_url("")).rstrip("/")
        pages: dict[int, Page] = {}
        for user, context in zip((ALICE, BOB, CAROL), contexts, strict=True):
            pages[user] = context.pages[0] if context.pages else await context.new_page()
            await pages[user].goto(base + site.url(user))
        await ready_at(pages[CAROL], 0)
        await shoot(pages[ALICE], tmp_path, "zaic-start-alice")
        # the first move by slash command: the pages follow
        row, game = await site.host.session.engine_copy(site.game_id)
        typed = time.monotonic()
        await site.host.turns.play(site.game_id, row.user_at(0), game.legal_moves(0)[0])
        for user in (ALICE, BOB, CAROL):
            await ready_at(pages[user], 1)
        assert time.monotonic() - typed < 1.0
        started = time.monotonic()
        plies, latencies = await play_by_clicks(site, pages, random.Random(22), tmp_path)
        elapsed = time.monotonic() - started
        row, game = await site.host.session.engine_copy(site.game_id)
        assert row.status == "finished" and game.outcome() is not None and plies == len(game.history)
        for user in (ALICE, BOB, CAROL):
            await ready_at(pages[user], plies)
            assert "Game over" in (await pages[user].locator("#status").text_content() or "")
        assert max(latencies) < 1000, latencies
        await shoot(pages[BOB], tmp_path, "zaic-end-bob")
        await shoot(pages[CAROL], tmp_path, "zaic-end-spectator")
        assert await pages[CAROL].locator("#status").text_content()
        refused = await pages[CAROL].evaluate(
            """async () => { const t = new URLSearchParams(location.search).get('t');
                 const r = await fetch(location.pathname.replace('/g/', '/api/games/') + '/move', {method: 'POST',
                   headers: {'Authorization': 'Bearer ' + t, 'Content-Type': 'application/json'},
                   body: JSON.stringify({move: 'x', ply: 0})});
                 return [r.status, (await r.json()).error]; }""")
        assert refused[0] == 409, refused
        p95 = statistics.quantiles(latencies, n=20)[-1]
        print(f"\n{plies} plies by clicks in {elapsed:.1f} s; click to the other page: "
              f"p50 {statistics.median(latencies):.0f} ms, p95 {p95:.0f} ms, max {max(latencies):.0f} ms")
