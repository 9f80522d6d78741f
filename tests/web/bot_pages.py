"""The real stack for the browser tests: ``bot.py`` as its own process with ``WEB_PORT``, the fake Discord it
talks to, and one headless Chromium, all started once per module.

They live on an event loop in a thread of their own (``BotWorld.run`` hands it a coroutine), so the module's
tests share them without a module-scoped pytest-asyncio loop, whose closing hung under xdist's work stealing.
Games are started as players start them (``/<game> new``, Accept) and each page is opened from the private
link the bot answers to **Open board**. The test process reads the games through a host of its own over the
bot's SQLite file (reads only: the bot is the one writer).

The bot runs in a session of its own, as a bot does under a service manager, and Chromium runs in its own
too. Linux then shares the cores between sessions first (``sched_autogroup``), so the suite's four workers
beside this module count as one group against the bot instead of four: without it a page waited for the
bot's turn on a core, 1.1-2.2 s now and then in full runs, never run alone or beside four CPU burners.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from playwright.async_api import Browser, Playwright, async_playwright

import engines
from bench.common import cpu_seconds
from data.db import Database
from host.app import Host
from tests.e2e.test_crash import BotProcess
from tests.fakediscord import FakeDiscord, Message
from tests.fakediscord.world import Channel, walk_components
from tests.ports import free_port
from web.app import BUNDLE

T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-background-timer-throttling",
         "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows"]
"""Three pages side by side, none of them in front: none may have its timers slowed as a background tab."""
SECRET = "a browser test secret of enough length"
WAIT_S = 30.0
"""The fake's waits for the bot (a loaded 2-core machine runs the whole suite beside it)."""



@dataclass
class Table:
    """One started game: its id, its thread, its board message, and each user's Open board link."""

    game_id: int
    thread: Channel
    board: Message
    links: dict[str, str]


class BotWorld:
    """The fake Discord, the bot process serving the pages, Chromium, and a reading host, on one thread's loop."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bot-world", daemon=True)
        self.fake: FakeDiscord
        self.bot: BotProcess
        self.playwright: Playwright
        self.browser: Browser
        self.db: Database
        self.host: Host

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 900.0) -> T:
        """Run ``work`` on the world's loop and return its result (its exception is raised here)."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def start(self) -> None:
        assert Path(CHROMIUM).exists(), "Chromium is missing: run `make chromium`"
        assert BUNDLE.exists(), "the page's script is not built: run `make web-client`"
        self.thread.start()
        self.run(self._open(), 120)

    async def _open(self) -> None:
        self.fake = await FakeDiscord().start()
        self.fake.timeout = WAIT_S
        database = self.folder / "bot.sqlite3"
        env = {"WEB_PORT": str(self.port), "WEB_SECRET": SECRET, "PUBLIC_URL": self.base, "RATE_BURST": "0"}
        self.bot = BotProcess(self.fake, database, env)
        self.bot.whole_group = True  # a session of its own, as a service runs: see below
        self.playwright = await async_playwright().start()
        self.browser, _ = await asyncio.gather(
            self.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS), self.bot.start())
        self.db = await Database.open(database)
        self.host = Host(self.db)

    def close(self) -> None:
        if not self.thread.is_alive():
            return
        try:
            self.run(self._close(), 60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    async def _close(self) -> None:
        """Stops what started (all of it, unless starting failed half-way); says the bot's CPU and this
        process's (the rest of a run's CPU is Chromium's)."""
        if hasattr(self, "bot") and self.bot.proc is not None and self.bot.proc.returncode is None:
            print(f"\nbot process CPU {cpu_seconds(self.bot.proc.pid):.1f} s, test process CPU "
                  f"{time.process_time():.1f} s, load {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
        if hasattr(self, "browser"):
            await self.browser.close()
        if hasattr(self, "playwright"):
            await self.playwright.stop()
        if hasattr(self, "db"):
            await self.db.close()
        if hasattr(self, "bot") and self.bot.proc is not None and self.bot.proc.returncode is None:
            await self.bot.kill()
        if hasattr(self, "fake"):
            await self.fake.stop()

    def errors(self) -> list[str]:
        """What went wrong in the bot (its ERROR lines and tracebacks) or in what it sent the fake Discord."""
        return [*self.bot.errors(), *self.fake.errors]

    async def new_game(self, name: str, options: dict[str, Any], clock: str,
                       users: tuple[str, ...] = ("alice", "bob", "carol")) -> Table:
        """Alice challenges Bob to ``name`` (``options``, ``clock``) and Bob accepts; each of ``users`` presses
        **Open board** on the game's board and gets a private link."""
        fake = self.fake
        asked = await fake.slash("alice", f"{name} new", {"opponent": "bob", "clock": clock, **options},
                                 wait="response")
        challenge = await fake.wait_until(
            lambda: asked.original if asked.original and asked.original.custom_ids() else None, what="the challenge")
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        game_id = int(accept.rsplit(":", 1)[1])
        await fake.click("bob", challenge, accept, wait="response")
        title = f"{engines.get(name).title} #{game_id}"
        thread = await fake.wait_until(lambda: next((t for t in fake.threads() if t.name == title), None),
                                       what=f"the thread of {title}")
        board = await fake.wait_until(
            lambda: next((m for m in fake.messages(thread) if f"zb:{game_id}" in m.custom_ids()), None),
            what=f"the board of {title}")
        links = {}
        for user in users:
            answer = await fake.click(user, board, f"zb:{game_id}", wait="response")
            shown = await fake.wait_until(lambda a=answer: a.original, what="the Open board answer")
            assert answer.ephemeral, "a board link is private"
            urls = [c["url"] for c in walk_components(shown.components) if c.get("style") == 5]
            assert len(urls) == 1 and urls[0].startswith(f"{self.base}/g/{game_id}?t="), urls
            links[user] = urls[0]
        return Table(game_id, thread, board, links)

    def user_id(self, name: str) -> int:
        return int(self.fake.user(name).id)

    def name_of(self, user_id: int) -> str:
        return next(u.name for u in self.fake.world.users.values() if int(u.id) == user_id)
