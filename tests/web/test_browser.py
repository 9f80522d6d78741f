"""One real browser (Debian's Chromium through Playwright) for the module: two users play a whole game of each
of the five games by clicks in the page, each seeing the other's move within a second; a spectator's page
follows and cannot move; a move made by command midway reaches every page; the replay steps back and returns
to the live game; the clocks count down; at 360 px nothing scrolls sideways. Zodiac's pages never receive the
other side's secret pick or king (every JSON answer and the DOM are checked).

Needs ``/usr/bin/chromium`` (``make chromium``) and the page's script (``make web-client``); ``make test``
provides both. ``WEB_SHOTS=<folder>`` copies the screenshots there (docs/img/web holds the ones looked at).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import statistics
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, Response, async_playwright

from engines import CHANCE, Game
from tests.web.site import ALICE, BOB, CAROL, Site, board_site
from web.app import BUNDLE

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-background-timer-throttling",
         "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"]
"""Three pages side by side, none of them in front: none may have its timers slowed as a background tab."""
MAX_PLIES = 400
SHORT = {"zarathustra": ({"board": 5}, "5m"), "zaic": ({}, "10m+5s"), "zrtz": ({"blitz": True}, "5m"),
         "zodiac": ({}, "1d"), "ziggurat": ({"round_limit": 30}, "30m")}
"""Each game's shortest variant offered, and a clock (live or per move) for the page to count down."""
SHOTS = os.environ.get("WEB_SHOTS")
LIMIT_MS = 1000.0
"""A move reaches the other page within a second: the median of a game's moves, and all but one in eight (two at
least: the slow ones a shared 2-core machine at load 20-30 makes, up to 4 s seen); every number is printed."""
USERS = (ALICE, BOB, CAROL)


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """One Chromium per test (about a second to start): a browser shared by the module needs a module-scoped
    event loop, whose closing hung under pytest-xdist's work stealing."""
    assert Path(CHROMIUM).exists(), "Chromium is missing: run `make chromium`"
    assert BUNDLE.exists(), "the page's script is not built: run `make web-client`"
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        await launched.close()


@dataclass
class Pages:
    """One page per user (each its own browser context, so nothing is shared), and what each page received."""

    site: Site
    page: dict[int, Page]
    bodies: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)
    pending: list[asyncio.Task[None]] = field(default_factory=list)

    def listen(self, user: int) -> None:
        """Keep every JSON answer ``user``'s page receives (their network traffic)."""
        self.bodies[user] = []

        async def keep(response: Response) -> None:
            if ("/view" in response.url or "/replay" in response.url) and response.ok:
                try:
                    text = await asyncio.wait_for(response.text(), 5)
                except Exception:  # a page closed while reading: nothing to keep
                    return
                self.bodies[user].append((response.url, json.loads(text)))

        self.page[user].on("response", lambda r: self.pending.append(asyncio.ensure_future(keep(r))))

    async def received(self, user: int) -> list[tuple[str, Any]]:
        if self.pending:
            await asyncio.wait(self.pending, timeout=10)
        return self.bodies[user]


async def open_pages(browser: Browser, site: Site) -> Pages:
    pages = Pages(site, {})
    base = str(site.client.make_url("")).rstrip("/")
    for user in USERS:
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        pages.page[user] = await context.new_page()
        pages.listen(user)
        await pages.page[user].goto(base + site.url(user))
    return pages


async def close_pages(pages: Pages) -> None:
    for page in pages.page.values():
        await page.context.close()


async def ready_at(page: Page, ply: int) -> None:
    await page.wait_for_function(  # a function, not a string: the page's CSP forbids eval
        "(ply) => document.body.dataset.state === 'ready' && document.body.dataset.ply === ply", arg=str(ply),
        timeout=10_000)


async def ready_past(page: Page, ply: int) -> None:
    await page.wait_for_function(
        "(ply) => document.body.dataset.state === 'ready' && Number(document.body.dataset.ply) > ply", arg=ply,
        timeout=10_000)


async def shoot(page: Page, folder: Path, name: str) -> None:
    """Screenshots at 1280 and 360 px; at 360 nothing may scroll sideways and every button must be in view."""
    for width in (1280, 360):
        await page.set_viewport_size({"width": width, "height": 900 if width > 400 else 760})
        await page.wait_for_timeout(150)
        path = folder / f"{name}-{width}.png"
        await page.screenshot(path=str(path), full_page=True)
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(SHOTS) / path.name)
        wide = await page.evaluate("""() => [document.documentElement.scrollWidth,
            Math.max(...[...document.querySelectorAll('#board, button:not([hidden]), #clocks .clock')]
              .map((e) => e.getBoundingClientRect().right))]""")
        assert wide[0] <= width and wide[1] <= width, f"{name} at {width} px is {wide} px wide"
    await page.set_viewport_size({"width": 1280, "height": 900})


def choose(game: Game, seat: int, rng: random.Random) -> str:
    """A move that wins at once if there is one (games stay short), else a random one."""
    moves = game.legal_moves(seat)
    for move in moves:
        after = game.clone()
        after.play(seat, move)
        outcome = after.outcome()
        if outcome is not None and seat in outcome.winners:
            return move
    return rng.choice(moves)


async def click_move(page: Page, game: Game, seat: int, move: str) -> None:
    """Walk ``move``'s picks by clicks: a glowing place for a pick on the board, a button for one that is not
    (the page takes steps with one choice for the player, as the move builder does)."""
    picks = next(sequence for text, sequence in game.move_picks(seat) if text == move)
    at, ply = 0, len(game.history)
    for _ in range(2 * len(picks) + 2):
        if at == len(picks):
            return  # every pick clicked: the last one posted the move
        state, shown, offered, buttons = await page.evaluate("""() => [document.body.dataset.state,
            Number(document.body.dataset.ply),
            [...document.querySelectorAll('#overlay .spot.offered')].map((s) => [s.dataset.target, s.textContent]),
            [...document.querySelectorAll('#choices button')].map((b) => b.textContent)]""")
        if state != "ready" or shown != ply:
            return  # the final click posted the move (and the page may show the next position already)
        targets = {target: title for target, title in offered}
        for index in range(at, len(picks)):
            pick = picks[index]
            if pick.target is not None and pick.target in targets:
                await page.locator(f'#overlay .spot.offered[data-target="{pick.target}"]').click()
                if " / " in targets[pick.target]:  # several picks on one place: the page asks which
                    labels = await page.locator("#choices button").all_text_contents()
                    await page.locator("#choices button").nth(labels.index(pick.label)).click()
                break
            if pick.target is None and pick.label in buttons:
                await page.locator("#choices button").nth(buttons.index(pick.label)).click()
                break
        else:
            played = [b for b in buttons if b.startswith("Play ")]
            assert played, f"{move}: nothing of {picks[at:]} offered ({list(targets)}, {buttons})"
            await page.locator("#choices button").nth(buttons.index(played[0])).click()
            return
        at = index + 1
    raise AssertionError(f"{move}: the page never played it")


async def back_undoes_a_pick(page: Page) -> None:
    """A pick made (yellow) and taken back: the first step's places glow again, and Back hides."""
    spots = page.locator("#overlay .spot.offered")
    first = sorted(await spots.evaluate_all("(spots) => spots.map((s) => s.dataset.target)"))
    await spots.first.click()
    assert await page.locator("#overlay .spot.picked").count() == 1
    await page.locator("#back").click()
    again = sorted(await spots.evaluate_all("(spots) => spots.map((s) => s.dataset.target)"))
    assert again == first and await page.locator("#overlay .spot.picked").count() == 0
    assert await page.locator("#back").is_hidden()


@dataclass
class Played:
    plies: int = 0
    latencies: list[float] = field(default_factory=list)
    by_command: int = 0
    by_command_ms: float = 0.0
    """From the command's move to all three pages showing it."""
    seconds: float = 0.0


async def zodiac_dom_keeps_secrets(pages: Pages, game: Game) -> None:
    """Once both kings are chosen, no page's DOM names the other side's king (its label or its move)."""
    picked = getattr(game, "king_pick", {})
    if game.name != "zodiac" or len(picked) < 2 or game.outcome() is not None:
        return
    row = await pages.site.host.session.row(pages.site.game_id)
    for user in USERS:
        seat = row.seat_of(user)
        html = await pages.page[user].content()
        for other, king in picked.items():
            if other != seat and king != picked.get(seat):
                assert f"King: {king}" not in html and f"king {king}" not in html, (user, king)


async def play_whole_game(pages: Pages, rng: random.Random, shots: Path, name: str) -> Played:
    """Plays to the end by clicks, each move chosen by ``choose`` and clicked on the mover's page; one move in
    the middle is made by a host call (a slash command) instead. Checks at every ply that the spectator and
    the waiting player are offered nothing."""
    site, out, started = pages.site, Played(), time.monotonic()
    for turn in range(MAX_PLIES):
        row, game = await site.host.session.engine_copy(site.game_id)
        ply = len(game.history)
        if row.status != "active":
            break
        movers = sorted(s for s in game.to_move() if s != CHANCE)
        seat = movers[0]
        mover = row.user_at(seat)
        other = BOB if mover == ALICE else ALICE
        await asyncio.gather(*(ready_at(pages.page[u], ply) for u in USERS))
        await zodiac_dom_keeps_secrets(pages, game)
        assert await pages.page[CAROL].locator("#overlay .spot.offered, #choices button").count() == 0
        if len(movers) == 1:
            assert await pages.page[other].locator("#overlay .spot.offered").count() == 0
        move = choose(game, seat, rng)
        if turn == 5:  # by command midway: every page follows within a second
            typed = time.monotonic()
            await site.host.turns.play(site.game_id, mover, move)
            await asyncio.gather(*(ready_past(pages.page[u], ply) for u in USERS))
            out.by_command_ms = 1000 * (time.monotonic() - typed)
            out.by_command += 1
            continue
        if turn == 8:
            await shoot(pages.page[mover], shots, f"{name}-playing")
        if turn == 2 and name == "zaic":
            await back_undoes_a_pick(pages.page[mover])
        if turn == 3 and name == "zaic":  # the waiting player looks back; the move only moves their counter
            await pages.page[other].locator("#prev").click()
            await pages.page[other].wait_for_function(
                "(at) => document.body.dataset.replay === at && document.body.dataset.state === 'ready'",
                arg=str(ply - 1))
            await click_move(pages.page[mover], game, seat, move)
            await pages.page[other].wait_for_function(
                "(text) => document.getElementById('at').textContent === text", arg=f"{ply - 1} / {ply + 1}")
            assert await pages.page[other].evaluate("document.body.dataset.replay") == str(ply - 1)
            await pages.page[other].locator("#last").click()
            await ready_at(pages.page[other], ply + 1)
            continue
        await click_move(pages.page[mover], game, seat, move)
        await ready_past(pages.page[other], ply)
        clicked = int(await pages.page[mover].evaluate("document.body.dataset.clicked || 0"))
        heard, viewed, shown = (int(t) for t in await pages.page[other].evaluate(
            "[document.body.dataset.heard, document.body.dataset.viewed, document.body.dataset.shown]"))
        out.latencies.append(shown - clicked)
        if shown - clicked >= LIMIT_MS:  # where the time went: the push, the view, the image
            print(f"{name} ply {ply}: push {heard - clicked} ms, view {viewed - heard} ms, image {shown - viewed} ms")
        assert await pages.page[mover].locator("#error").is_hidden(), \
            await pages.page[mover].locator("#error").text_content()
    else:
        raise AssertionError(f"{name}: no end after {MAX_PLIES} plies")
    row, game = await site.host.session.engine_copy(site.game_id)
    out.plies, out.seconds = len(game.history), time.monotonic() - started
    assert row.status == "finished" and game.outcome() is not None
    return out


async def game_site(site: Site, name: str) -> Site:
    """A second game in the site: ``name``'s shortest variant with a clock, Alice against Bob."""
    options, clock = SHORT[name]
    lobby = await site.host.lobby.challenge(game=name, creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2,
                                            options=options, settings={"clock": clock})
    assert (await site.host.lobby.accept(lobby.row.id, BOB)).started
    return replace(site, game_id=lobby.row.id)


async def check_clocks_count_down(page: Page) -> None:
    running = page.locator("#clocks .clock.running").first
    first = float(await running.get_attribute("data-left") or "nan")
    await page.wait_for_timeout(700)
    second = float(await page.locator("#clocks .clock.running").first.get_attribute("data-left") or "nan")
    assert 0.4 < first - second < 2.0, (first, second)


async def check_replay(pages: Pages, user: int) -> None:
    """First, one on (by the → key), back to the game: each the viewer's board of that ply; live again at the end."""
    page = pages.page[user]
    ply = int(await page.evaluate("document.body.dataset.ply"))
    await page.locator("#first").click()
    await page.wait_for_function("() => document.body.dataset.replay === '0' && document.body.dataset.state === "
                                 "'ready'")
    assert await page.locator("#overlay .spot").count() == 0 and await page.locator("#choices button").count() == 0
    await page.keyboard.press("ArrowRight")  # the keys step too
    await page.wait_for_function("() => document.body.dataset.replay === '1' && document.body.dataset.state === "
                                 "'ready'")
    assert (await page.locator("#replay-label").text_content() or "").strip()
    assert f"1 / {ply}" in (await page.locator("#at").text_content() or "")
    await page.locator("#last").click()
    await ready_at(page, ply)
    assert await page.evaluate("document.body.dataset.replay") == ""


@pytest.mark.parametrize("name", ["zaic", "zarathustra", "zrtz", "ziggurat", "zodiac"])
async def test_a_whole_game_by_clicks_in_two_pages_with_a_spectator(browser: Browser, tmp_path: Path,
                                                                    name: str) -> None:
    async with board_site(tmp_path) as first:
        site = await game_site(first, name)
        pages = await open_pages(browser, site)
        try:
            start = len((await site.host.session.engine_copy(site.game_id))[1].history)  # dice may roll first
            await asyncio.gather(*(ready_at(pages.page[u], start) for u in USERS))
            await check_clocks_count_down(pages.page[CAROL])
            played = await play_whole_game(pages, random.Random(name), tmp_path, name)
            for user in USERS:
                await ready_at(pages.page[user], played.plies)
                assert "Game over" in (await pages.page[user].locator("#status").text_content() or "")
            await check_replay(pages, BOB)
            await shoot(pages.page[CAROL], tmp_path, f"{name}-end-spectator")
            refused = await pages.page[CAROL].evaluate(
                """async () => { const t = new URLSearchParams(location.search).get('t');
                     const r = await fetch(location.pathname.replace('/g/', '/api/games/') + '/move', {method: 'POST',
                       headers: {'Authorization': 'Bearer ' + t, 'Content-Type': 'application/json'},
                       body: JSON.stringify({move: 'x', ply: 0})});
                     return [r.status, (await r.json()).error]; }""")
            assert refused[0] == 409, refused
            if name == "zodiac":
                await check_zodiac_secrets(pages)
        finally:
            await close_pages(pages)
        p95 = statistics.quantiles(played.latencies, n=20)[-1]
        # within a second; on this shared 2-core machine (load 20-30) a few moves out of a game take longer
        slow = [ms for ms in played.latencies if ms >= LIMIT_MS]
        assert statistics.median(played.latencies) < LIMIT_MS and len(slow) <= max(2, len(played.latencies) // 8), \
            played.latencies
        assert played.by_command_ms < 2 * LIMIT_MS, played.by_command_ms
        print(f"\n{name}: {played.plies} plies ({len(played.latencies)} by clicks, {played.by_command} by command) "
              f"in {played.seconds:.1f} s; click to the other page: p50 {statistics.median(played.latencies):.0f} ms, "
              f"p95 {p95:.0f} ms, max {max(played.latencies):.0f} ms; by command to all three pages "
              f"{played.by_command_ms:.0f} ms")


async def check_zodiac_secrets(pages: Pages) -> None:
    """Every JSON answer a page received holds its own duel pick and king at most, never the other side's; the
    pages' DOM neither. (The end reveals the kings: answers of the finished game are left out.)"""
    row, game = await pages.site.host.session.engine_copy(pages.site.game_id)
    kings = {u: game.king_pick[row.seat_of(u)] for u in (ALICE, BOB)}
    assert (await pages.received(CAROL)) and (await pages.received(ALICE))
    for user in USERS:
        seat = row.seat_of(user) if user != CAROL else None
        own_king = kings.get(user)
        hidden = {f"king {k}" for u, k in kings.items() if u != user}
        for url, body in await pages.received(user):
            if "/replay" in url:
                assert not any(h in body["label"] for h in hidden), body
                continue
            observation = body.get("observation") if isinstance(body, dict) else None
            if observation is None or body["status"] != "active":
                continue
            assert observation["my_king"] in (None, own_king), (user, observation["my_king"])
            assert observation["kings"] is None
            duel = observation["duel"]
            assert duel["my_pick"] is None or seat is not None
            marked = {p["side"] for cell in observation["board"] for p in cell["stack"] if p.get("king")}
            assert marked <= ({observation["my_side"]} if seat is not None else set()), (user, marked)
            last = observation.get("last") or {}
            assert not any(h in json.dumps(last) for h in hidden)
        html = await pages.page[user].content()
        assert not any(h in html for h in hidden)
