"""Two users play a whole game of each of the five games by clicks in Debian's Chromium, through the real bot
process (``bot.py`` with ``WEB_PORT``) and the fake Discord: the games are started with ``/<game> new`` and
Accept, every page is opened from the private link **Open board** answers, each player sees the other's move
within a second (every move, no tolerance), a spectator's page follows and cannot move, one move midway is
typed as ``/<game> move`` in the game's thread and every page follows it, the replay steps back and returns to
the live game, the clocks count down, and at 360 px nothing scrolls sideways. Zodiac's pages never receive the
other side's secret pick or king (every JSON answer, every WebSocket message and the DOM are checked). A
forged, expired or other game's token is refused, and so is a move from the wrong user's token. A page whose
link expired after it opened says so once the bot restarts and stops reconnecting; a valid link's page follows on.

One bot process and one Chromium serve the whole module (``tests/web/bot_pages.py``). Needs
``/usr/bin/chromium`` (``make chromium``) and the page's script (``make web-client``); ``make test`` provides
both. ``WEB_SHOTS=<folder>`` copies the screenshots there (docs/img/web holds the ones looked at).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, Response, WebSocket

from engines import CHANCE, Game
from tests.web.bot_pages import SECRET, BotWorld, Table
from web import tokens

MAX_PLIES = 400
SHORT = {"zarathustra": ({"board": 5}, "5m"), "zaic": ({}, "10m+5s"), "zrtz": ({"blitz": True}, "5m"),
         "zodiac": ({}, "1d"), "ziggurat": ({"round_limit": 30}, "30m")}
"""Each game's shortest variant offered (Ziggurat's lowest round limit), and a clock (live or per move) for the
page to count down."""
SHOTS = os.environ.get("WEB_SHOTS")
LIMIT_MS = 1000.0
"""A move reaches the other player's page, and a typed move every page, within a second: every move (the bot
runs in a session of its own, tests/web/bot_pages.py says why)."""
USERS = ("alice", "bob", "carol")
"""Two players and a spectator."""
COMMAND_TURN = 5
"""The first turn from which one move is typed as ``/<game> move`` instead of clicked (a secret choice is not)."""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotWorld]:
    """The bot process, the fake Discord and Chromium, once for the module."""
    started = BotWorld(tmp_path_factory.mktemp("bot"))
    try:
        started.start()
        yield started
    finally:
        started.close()


@dataclass
class Pages:
    """One page per user (each its own browser context, so nothing is shared), and what each page received:
    every JSON answer of the view and the replay, and every WebSocket message (their network traffic)."""

    world: BotWorld
    table: Table
    page: dict[str, Page]
    bodies: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    frames: dict[str, list[str]] = field(default_factory=dict)
    refused: dict[str, list[str]] = field(default_factory=dict)
    log: dict[str, list[str]] = field(default_factory=dict)
    """Each page's requests the server refused (a 409 when the game moved on while it loaded, a 429 ...)."""
    pending: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def game_id(self) -> int:
        return self.table.game_id

    def listen(self, user: str) -> None:
        self.bodies[user], self.frames[user], self.refused[user] = [], [], []

        async def keep(response: Response) -> None:
            if not response.ok:
                self.refused[user].append(f"{response.status} {response.url.split('?')[0].rsplit('/', 1)[-1]}")
            self.log.setdefault(user, []).append(f"{time.time() * 1000 % 100000:.0f} {response.status} "
                                                 f"{response.url.rsplit('/', 1)[-1].split('&t=')[0]}")
            if ("/view" in response.url or "/replay" in response.url) and response.ok:
                try:
                    text = await asyncio.wait_for(response.text(), 5)
                except Exception:  # a page closed while reading: nothing to keep
                    return
                self.bodies[user].append((response.url, json.loads(text)))

        def socket(ws: WebSocket) -> None:
            ws.on("framereceived", lambda payload: self.frames[user].append(str(payload)))

        self.page[user].on("response", lambda r: self.pending.append(asyncio.ensure_future(keep(r))))
        self.page[user].on("websocket", socket)

    async def received(self, user: str) -> list[tuple[str, Any]]:
        if self.pending:
            await asyncio.wait(self.pending, timeout=10)
        return self.bodies[user]


async def open_pages(world: BotWorld, table: Table) -> Pages:
    """Each user's page, opened from the link the bot gave them."""
    pages = Pages(world, table, {})
    for user in USERS:
        context = await world.browser.new_context(viewport={"width": 1280, "height": 900})
        pages.page[user] = await context.new_page()
        pages.listen(user)
        await pages.page[user].goto(table.links[user])
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
        await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
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
    slow: list[str] = field(default_factory=list)
    """Where the time of each move over the limit went: the push, the view, the image."""
    by_command_ms: float = 0.0
    """From typing the command to all three pages showing its move."""
    seconds: float = 0.0


def is_secret(game: Game, seat: int, move: str) -> bool:
    picks = next(sequence for text, sequence in game.move_picks(seat) if text == move)
    return picks[0].kind == "secret"


async def zodiac_dom_keeps_secrets(pages: Pages, game: Game) -> None:
    """Once both kings are chosen, no page's DOM names the other side's king (its label or its move)."""
    picked = getattr(game, "king_pick", {})
    if game.name != "zodiac" or len(picked) < 2 or game.outcome() is not None:
        return
    row = await pages.world.host.session.row(pages.game_id)
    for user in USERS:
        seat = row.seat_of(pages.world.user_id(user))
        html = await pages.page[user].content()
        for other, king in picked.items():
            if other != seat and king != picked.get(seat):
                assert f"King: {king}" not in html and f"king {king}" not in html, (user, king)


async def by_command(pages: Pages, name: str, mover: str, move: str, ply: int) -> float:
    """``/<game> move`` typed by ``mover`` in the game's thread: ms until the last of the pages shows the move (the
    pages' clock, which is the machine's: not how long the bot takes to answer the interaction besides)."""
    typed = time.time() * 1000
    answer, *_ = await asyncio.gather(
        pages.world.fake.slash(mover, f"{name} move", {"move": move}, channel=pages.table.thread, wait="response"),
        *(ready_past(pages.page[u], ply) for u in USERS), return_exceptions=True)
    if isinstance(answer, BaseException) or not all(await asyncio.gather(*(
            pages.page[u].evaluate("(ply) => Number(document.body.dataset.ply) > ply", ply) for u in USERS))):
        raise AssertionError(f"/{name} move {move}: the pages did not follow ({answer!r})")
    shown = [int(await pages.page[u].evaluate("document.body.dataset.shown")) for u in USERS]
    return max(shown) - typed


async def play_whole_game(pages: Pages, rng: random.Random, shots: Path, name: str) -> Played:
    """Plays to the end by clicks, each move chosen by ``choose`` and clicked on the mover's page; one move from
    ``COMMAND_TURN`` on is typed as a slash command instead. Checks at every ply that the spectator and the
    waiting player are offered nothing."""
    world, out, started = pages.world, Played(), time.monotonic()
    for turn in range(MAX_PLIES):
        row, game = await world.host.session.engine_copy(pages.game_id)
        ply = len(game.history)
        if row.status != "active":
            break
        movers = sorted(s for s in game.to_move() if s != CHANCE)
        seat = movers[0]
        mover = world.name_of(row.user_at(seat))
        other = "bob" if mover == "alice" else "alice"
        await asyncio.gather(*(ready_at(pages.page[u], ply) for u in USERS))
        await zodiac_dom_keeps_secrets(pages, game)
        assert await pages.page["carol"].locator("#overlay .spot.offered, #choices button").count() == 0
        if len(movers) == 1:
            assert await pages.page[other].locator("#overlay .spot.offered").count() == 0
        move = choose(game, seat, rng)
        if not out.by_command_ms and turn >= COMMAND_TURN and not is_secret(game, seat, move):
            out.by_command_ms = await by_command(pages, name, mover, move, ply)
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
        if shown - clicked >= LIMIT_MS:
            out.slow.append(f"ply {ply}: push {heard - clicked} ms, view {viewed - clicked} ms, "
                            f"shown {shown - clicked} ms after the click; {clicked % 100000} {pages.log[other][-8:]}")
            out.slow.extend(world.bot.lines[-25:])
        assert await pages.page[mover].locator("#error").is_hidden(), \
            await pages.page[mover].locator("#error").text_content()
    else:
        raise AssertionError(f"{name}: no end after {MAX_PLIES} plies")
    row, game = await world.host.session.engine_copy(pages.game_id)
    out.plies, out.seconds = len(game.history), time.monotonic() - started
    assert row.status == "finished" and game.outcome() is not None
    assert out.by_command_ms, f"{name}: no move was typed"
    return out


async def check_clocks_count_down(page: Page) -> None:
    """A running clock loses half a second in about half a second of the page's time (waited for, not slept)."""
    read = """() => [Number(document.querySelector('#clocks .clock.running').dataset.left), performance.now()]"""
    first, since = await page.evaluate(read)
    await page.wait_for_function("(first) => Number(document.querySelector('#clocks .clock.running').dataset.left)"
                                 " <= first - 0.5", arg=first)
    second, until = await page.evaluate(read)
    waited = (until - since) / 1000  # the clock ticks every 0.25 s, so each reading may be that old
    assert 0.5 <= first - second <= waited + 0.4 and waited >= 0.2, (first, second, waited)


async def check_replay(page: Page) -> None:
    """First, one on (by the → key), back to the game: each the viewer's board of that ply; live again at the end."""
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


async def post_move(page: Page, token: str | None = None, game_id: int | None = None, move: str = "x",
                    ply: int = 0) -> list[Any]:
    """``move`` posted from ``page`` with its own token (or ``token``, to ``game_id``): [status, error]."""
    return list(await page.evaluate(
        """async ([token, game, move, ply]) => { const t = token || new URLSearchParams(location.search).get('t');
             const path = game ? `/api/games/${game}` : location.pathname.replace('/g/', '/api/games/');
             const r = await fetch(path + '/move', {method: 'POST',
               headers: {'Authorization': 'Bearer ' + t, 'Content-Type': 'application/json'},
               body: JSON.stringify({move, ply})});
             return [r.status, (await r.json()).error]; }""", [token, game_id, move, ply]))


async def whole_game(world: BotWorld, name: str, shots: Path) -> Played:
    options, clock = SHORT[name]
    table = await world.new_game(name, options, clock)
    pages = await open_pages(world, table)
    try:
        start = len((await world.host.session.engine_copy(table.game_id))[1].history)  # dice may roll first
        await asyncio.gather(*(ready_at(pages.page[u], start) for u in USERS))
        await check_clocks_count_down(pages.page["carol"])
        played = await play_whole_game(pages, random.Random(name), shots, name)
        for user in USERS:
            await ready_at(pages.page[user], played.plies)
            assert "Game over" in (await pages.page[user].locator("#status").text_content() or "")
        await world.fake.wait_until(  # the page's last move is in the thread now, not when the outbox finds it owed
            lambda: any("🏆" in m.content or "🤝 Draw" in m.content for m in world.fake.messages(table.thread)),
            timeout=20.0, what=f"the result of {name} in its thread")
        await check_replay(pages.page["bob"])
        await shoot(pages.page["carol"], shots, f"{name}-end-spectator")
        refused = await post_move(pages.page["carol"])
        assert refused[0] == 409, refused
        if name == "zodiac":
            await check_zodiac_secrets(pages)
    finally:
        await close_pages(pages)
    return played


@pytest.mark.parametrize("name", ["zaic", "zarathustra", "zrtz", "ziggurat", "zodiac"])
def test_a_whole_game_by_clicks_in_two_pages_with_a_spectator(world: BotWorld, tmp_path: Path, name: str) -> None:
    errors = len(world.errors())
    played = world.run(whole_game(world, name, tmp_path))
    p95 = statistics.quantiles(played.latencies, n=20)[-1]
    print(f"\n{name}: {played.plies} plies ({len(played.latencies)} by clicks) in {played.seconds:.1f} s; click to "
          f"the other page: p50 {statistics.median(played.latencies):.0f} ms, p95 {p95:.0f} ms, max "
          f"{max(played.latencies):.0f} ms, the last move {played.latencies[-1]:.0f} ms; typed to all three pages "
          f"{played.by_command_ms:.0f} ms", *played.slow,
          sep="\n  ")
    assert max(played.latencies) < LIMIT_MS, played.slow
    assert played.by_command_ms < LIMIT_MS, played.by_command_ms
    assert world.errors()[errors:] == []


async def refusals(world: BotWorld) -> None:
    table, elsewhere = await world.new_game("zaic", {}, "1d", ("alice", "bob")), await world.new_game(
        "zaic", {}, "1d", ("alice",))
    context = await world.browser.new_context()
    try:
        page = await context.new_page()
        link = table.links["alice"]
        forged = link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB")  # the signature changed
        await page.goto(forged)
        await page.wait_for_function("() => document.body.dataset.state === 'error'")
        assert "not valid" in (await page.locator("#error").text_content() or ""), "a forged link is refused"
        row, game = await world.host.session.engine_copy(table.game_id)
        mover = world.name_of(row.user_at(min(game.to_move())))
        waiting = "bob" if mover == "alice" else "alice"
        await page.goto(table.links[waiting])  # the page of the player who is not to move
        await ready_at(page, 0)
        expired = tokens.issue(SECRET.encode(), world.user_id(mover), table.game_id, time.time() - 7200, 600)
        other_game = elsewhere.links["alice"].split("?t=")[1]
        move = game.legal_moves(min(game.to_move()))[0]
        assert await post_move(page, expired, table.game_id, move) == [401, tokens_said("expired")]
        assert await post_move(page, other_game, table.game_id, move) == [401, tokens_said("another game")]
        theirs = await post_move(page, move=move)  # a legal move of the mover's, sent with the other's token
        _row, game = await world.host.session.engine_copy(table.game_id)
        assert theirs[0] == 409 and len(game.history) == 0, theirs
    finally:
        await context.close()


def tokens_said(what: str) -> str:
    return {"expired": "This board link has expired: ask the bot for a new one.",
            "another game": "This board link is for another game."}[what]


def test_forged_expired_and_other_games_tokens_are_refused(world: BotWorld) -> None:
    errors = len(world.errors())
    world.run(refusals(world))
    assert world.errors()[errors:] == []


async def check_zodiac_secrets(pages: Pages) -> None:
    """Every JSON answer and WebSocket message a page received holds its own duel pick and king at most, never
    the other side's; the pages' DOM neither. (The end reveals the kings: answers of the finished game are left
    out.)"""
    row, game = await pages.world.host.session.engine_copy(pages.game_id)
    kings = {u: game.king_pick[row.seat_of(pages.world.user_id(u))] for u in ("alice", "bob")}
    assert (await pages.received("carol")) and (await pages.received("alice"))
    for user in USERS:
        seat = row.seat_of(pages.world.user_id(user)) if user != "carol" else None
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
        assert pages.frames[user] and not any("king" in frame.lower() for frame in pages.frames[user])
        html = await pages.page[user].content()
        assert not any(h in html for h in hidden)


async def open_until_expired(world: BotWorld, page: Page, game_id: int) -> float:
    """Alice's page opened from a link that expires seconds later (longer on a loaded machine, until the page was
    ready in time: its WebSocket then opened with a valid token); returns when the link expires (Unix time)."""
    for ttl in (3, 6, 12, 24):
        issued = time.time()
        short = tokens.issue(SECRET.encode(), world.user_id("alice"), game_id, issued, ttl)
        await page.goto(f"{world.base}/g/{game_id}?t={short}")
        await page.wait_for_function("() => ['ready', 'error'].includes(document.body.dataset.state)",
                                     timeout=30_000)
        if await page.evaluate("document.body.dataset.state") == "ready":
            return int(issued + ttl)  # the token's own second
    raise AssertionError("Alice's page never opened before its link expired")


async def expired_then_restarted(world: BotWorld, shots: Path) -> None:
    """Bob's page opened from his hour-long link, Alice's from one that expires seconds later; the bot restarts
    and the pages reconnect only after Alice's link ran out. The pages' timers are Playwright's clock: paused
    while the bot is down (so the restart overlaps the wait for the expiry) and run on after, so a reconnection's
    wait (up to 10 s) is fast-forwarded instead of slept."""
    table = await world.new_game("zaic", {}, "1d", ("bob",))
    pages: dict[str, Page] = {}
    sockets: dict[str, list[WebSocket]] = {}
    try:
        for user in ("bob", "alice"):
            context = await world.browser.new_context(viewport={"width": 1280, "height": 900})
            pages[user] = page = await context.new_page()
            sockets[user] = []
            page.on("websocket", lambda ws, seen=sockets[user]: seen.append(ws))
            await page.clock.install()  # time runs as usual until paused
        alice, bob = pages["alice"], pages["bob"]
        await bob.goto(table.links["bob"])
        await ready_at(bob, 0)
        expiry = await open_until_expired(world, alice, table.game_id)
        for page in pages.values():  # the reconnection after the kill waits until the clock runs again
            await page.clock.pause_at(await page.evaluate("Date.now()") / 1000 + 5)  # ahead of a slow round trip
        await world.bot.kill()
        await asyncio.gather(world.bot.start(), asyncio.sleep(max(0.0, expiry - time.time() + 0.1)))
        for page in pages.values():
            await page.clock.run_for(10_000)  # the pending reconnection, now
            await page.clock.resume()
        await alice.wait_for_function(
            "() => document.body.dataset.live === 'no' && document.body.dataset.state === 'error'", timeout=10_000)
        assert await alice.locator("#error").text_content() == tokens_said("expired")
        assert "Not live" in (await alice.locator("#status").text_content() or "")
        assert await alice.locator("#overlay .spot, #choices button").count() == 0
        await shoot(alice, shots, "zaic-expired")
        row, game = await world.host.session.engine_copy(table.game_id)
        mover = world.name_of(row.user_at(min(game.to_move())))
        await world.fake.slash(mover, "zaic move", {"move": game.legal_moves(min(game.to_move()))[0]},
                               channel=table.thread, wait="response")
        await ready_at(bob, 1)  # the control: a valid link reconnects after the restart and follows the move
        tried = len(sockets["alice"])
        await alice.clock.run_for(60_000)  # six reconnections' worth at the longest wait: none is tried
        await asyncio.sleep(0.2)  # for a socket opened meanwhile to be reported
        assert len(sockets["alice"]) == tried, "the expired page kept reconnecting"
        assert await alice.evaluate("document.body.dataset.ply") == "0"
    finally:
        for page in pages.values():
            await page.context.close()


def test_a_page_whose_link_expired_says_so_after_a_restart_and_stops(world: BotWorld, tmp_path: Path) -> None:
    """A page whose link expired after it opened and whose WebSocket then dropped (the bot restarted) used to retry
    every 10 s forever, its old board looking live; it now shows the server's reason, marks the board not live and
    stops. A page with a valid link reconnects and follows the next move as before."""
    errors = len(world.errors())
    world.run(expired_then_restarted(world, tmp_path))
    assert world.errors()[errors:] == []
