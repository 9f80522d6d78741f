"""The Activity end to end in Debian's Chromium: the player to move presses **Play on the board** in the fake
Discord; the fake Discord client opens the Activity in its iframe through the discordsays proxy; the real
Embedded App SDK shakes hands, authorizes, the bot's server exchanges the code at the fake's OAuth2 endpoint,
the SDK authenticates; the page shows that player's own board, renews its short session by itself, a move
made by clicks (after the first session token ran out) is played, and the other player's reply by slash
command reaches the page by itself."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from playwright.async_api import Frame, Page, async_playwright

from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import legal_for
from tests.e2e.test_board_link import serve_pages
from tests.e2e.test_platform import challenge_and_accept, mover_name
from tests.web.bot_pages import CHROMIUM, FLAGS
from web import tokens


@asynccontextmanager
async def one_page() -> AsyncIterator[Page]:
    """A page in Debian's Chromium: the fake Discord client's window."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield await (await browser.new_context(viewport={"width": 1280, "height": 900})).new_page()
        finally:
            await browser.close()


async def activity_frame(page: Page, instance_id: str) -> Frame:
    await page.wait_for_function("() => window.fakeDiscord && window.fakeDiscord.handshakes > 0", timeout=15_000)
    frame = next(f for f in page.frames if f.url.find(f"instance_id={instance_id}") >= 0)
    await frame.wait_for_function("() => ['ready', 'error'].includes(document.body.dataset.state)", timeout=15_000)
    return frame


async def test_play_on_the_board_opens_the_activity_signed_in_and_a_click_move_is_played(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = harness.fake
    port = serve_pages(monkeypatch, harness)
    fake.activities.target = f"http://127.0.0.1:{port}"  # the Developer Portal's URL mapping for /
    monkeypatch.setattr(tokens, "SESSION_TTL", 4.0)  # the page must renew its session to move after 4 s
    async with harness.running() as bot, one_page() as page:
        game_id, first = await challenge_and_accept(harness, "zaic")
        mover = await mover_name(harness, bot, game_id)
        pressed = await fake.click(mover, first, f"za:{game_id}")
        launch = fake.activities.launch_of(pressed)
        await page.goto(fake.activities.client.url(launch, fake.user(mover)))
        frame = await activity_frame(page, launch.instance_id)
        error = await frame.locator("#error").text_content()
        assert await frame.evaluate("document.body.dataset.state") == "ready", error
        seen = await page.evaluate("window.fakeDiscord.seen")
        assert seen[:1] == ["HANDSHAKE"] and "AUTHORIZE" in seen and "AUTHENTICATE" in seen
        assert seen.index("AUTHORIZE") < seen.index("AUTHENTICATE")
        assert await frame.evaluate("document.body.dataset.user") == str(harness.user_id(mover))
        assert fake.activities.exchanges and fake.activities.exchanges[-1]["client_id"] == fake.activities.client_id
        assert f"#{game_id}" in (await frame.locator("#title").text_content() or "")
        assert "Your move" in (await frame.locator("#status").text_content() or "")
        shots = harness.database_path.parent
        await page.set_viewport_size({"width": 360, "height": 740})  # Discord mobile runs Activities
        await page.screenshot(path=str(shots / "activity-360.png"))
        assert await frame.evaluate("document.documentElement.scrollWidth") <= 360
        await page.set_viewport_size({"width": 1280, "height": 900})
        signed_in = time.monotonic()
        await frame.wait_for_function("() => Number(document.body.dataset.renewed ?? 0) >= 2", timeout=20_000)
        assert time.monotonic() - signed_in > 2.5  # renewed at 3/4 of the 4 s: the first token is spent now
        for _ in range(10):  # a Zaic move is a few clicks on glowing places
            spots = frame.locator("#overlay .spot.offered")
            if await frame.evaluate("document.body.dataset.state") != "ready" or not await spots.count():
                break
            await spots.first.click()
        await frame.wait_for_function("() => document.body.dataset.state === 'ready' && "
                                      "document.body.dataset.ply === '1'", timeout=10_000)
        assert await frame.locator("#error").is_hidden(), await frame.locator("#error").text_content()
        row, game = await bot.host.session.engine_copy(game_id)
        assert len(game.history) == 1 and game.history[0][0] == row.seat_of(harness.user_id(mover))
        await page.screenshot(path=str(shots / "activity-1280.png"))
        other = next(name for name in ("alice", "bob") if name != mover)
        reply = legal_for(harness.database_path, game_id, harness.user_id(other))[0]
        sent = time.monotonic()
        played = await fake.slash(other, "zaic move", {"move": reply}, channel=fake.thread(f"Zaic #{game_id}"))
        assert not played.ephemeral, played.original
        await frame.wait_for_function("() => document.body.dataset.ply === '2'", timeout=5_000)  # no reload
        print(f"slash move to the Activity's board: {time.monotonic() - sent:.2f} s")  # bench_web times it
