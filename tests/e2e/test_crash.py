"""A crash loses nothing: the bot process is SIGKILLed mid-game and started again.

The bot runs as ``python bot.py --sync`` in a subprocess against the fake Discord. Time passing
while it is down is simulated by moving a game's stored times into the past (its clock state,
deadline and reminder), exactly as if the wall clock had run on; nothing sleeps.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from tests.fakediscord import FakeDiscord, Message
from tests.fakediscord.world import Channel

ROOT = Path(__file__).resolve().parents[2]
HOUR = 3600.0


class BotProcess:
    """``bot.py`` in a subprocess; stderr is collected so the test can wait for "ready" and spot errors. The fake sends
    every server at once, so the bot does not wait discord.py's 2 s for more (``GUILD_READY_TIMEOUT``) at each start."""

    whole_group = False
    """Run the bot in a process group of its own and SIGKILL the whole group (its worker processes too)."""

    def __init__(self, fake: FakeDiscord, database: Path | str, env: Mapping[str, str] | None = None) -> None:
        """``database``: a SQLite file, or a ``postgresql://`` URL; ``env``: more settings (``SHARD_IDS`` ...)."""
        target = str(database)
        where = "DATABASE_URL" if target.startswith(("postgres://", "postgresql://")) else "DATABASE_PATH"
        self.env = {**os.environ, "DISCORD_TOKEN": "fake-token", where: target, "GUILD_READY_TIMEOUT": "0",
                    "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url, **(env or {})}
        self.lines: list[str] = []
        self.ready = asyncio.Event()
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.ready.clear()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "bot.py"), "--sync", cwd=ROOT, env=self.env, start_new_session=self.whole_group,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.ready.wait(), 30)

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        async for raw in self.proc.stderr:
            line = raw.decode(errors="replace").rstrip()
            self.lines.append(line)
            if "ready as" in line:
                self.ready.set()

    async def kill(self) -> None:
        assert self.proc is not None and self.reader is not None
        if self.whole_group:
            os.killpg(self.proc.pid, signal.SIGKILL)
        else:
            self.proc.kill()
        await self.proc.wait()
        await asyncio.wait_for(self.reader, 30)

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]


@asynccontextmanager
async def bot_process(fake: FakeDiscord, database: Path | str, env: Mapping[str, str] | None = None,
                      kind: type[BotProcess] | None = None) -> AsyncIterator[BotProcess]:
    """The bot running for the ``with`` block (``kind``: a BotProcess subclass); killed at its end."""
    bot = (kind or BotProcess)(fake, database, env)
    try:
        yield bot
    except BaseException:
        print("\n".join(bot.lines))  # the bot's own log explains a failure
        raise
    finally:
        if bot.proc is not None and bot.proc.returncode is None:
            await bot.kill()


def age(database: Path, game_id: int, seconds: float) -> None:
    """Move a game's stored times ``seconds`` into the past: for that game, time has run on."""
    with sqlite3.connect(database) as conn:
        clock_text, deadline, remind_at = conn.execute(
            "SELECT clock, deadline, remind_at FROM games WHERE id = ?", (game_id,)).fetchone()
        clock = json.loads(clock_text)
        clock["started"] = {seat: t - seconds for seat, t in clock["started"].items()}
        conn.execute("UPDATE games SET clock = ?, deadline = ?, remind_at = ? WHERE id = ?",
                     (json.dumps(clock), deadline - seconds, remind_at - seconds if remind_at else None, game_id))


async def start_game(fake: FakeDiscord, challenger: str, opponent: str,
                     where: Channel | None = None) -> tuple[int, Message]:
    rec = await fake.slash(challenger, "zaic new", {"opponent": opponent, "clock": "1d"}, channel=where,
                           wait="response")
    challenge = await fake.wait_until(lambda: rec.original if rec.original and rec.original.custom_ids() else None,
                                      what="the challenge")
    accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
    return int(accept.rsplit(":", 1)[1]), challenge


async def accept(fake: FakeDiscord, user: str, game_id: int, challenge: Message) -> Channel:
    """Accept the challenge; returns the game's thread once its first board is there."""
    await fake.click(user, challenge, f"zg:accept:{game_id}", wait="response")
    await fake.wait_until(lambda: any(t.name == f"Zaic #{game_id}" and t.messages for t in fake.threads()),
                          what=f"the first board of game {game_id}")
    return fake.thread(f"Zaic #{game_id}")


def mover_of(database: Path, game_id: int, fake: FakeDiscord) -> str:
    """Zaic: light (seat 0) moves on even plies."""
    with sqlite3.connect(database) as conn:
        plies = conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()[0]
        user = conn.execute("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?",
                            (game_id, plies % 2)).fetchone()[0]
    return next(u.name for u in fake.world.users.values() if int(u.id) == user)


async def first_move(fake: FakeDiscord, database: Path, game_id: int) -> None:
    thread = fake.thread(f"Zaic #{game_id}")
    played = await fake.slash(mover_of(database, game_id, fake), "zaic move", {"move": "2x2 h8"}, channel=thread,
                              wait="response")
    await fake.wait_until(lambda: len(fake.messages(thread)) >= 2 or played.ephemeral, what="the move")
    assert not played.ephemeral, played.content


def dms_about(fake: FakeDiscord, user: str, game_id: int) -> list[Message]:
    return [m for m in fake.messages(fake.user(user)) if f"#{game_id}" in m.content and "⏳" in m.content]


async def test_sigkill_mid_game_keeps_moves_buttons_deadlines_and_reminders(fake_discord: FakeDiscord,
                                                                           tmp_path: Path) -> None:
    fake, database = fake_discord, tmp_path / "crash.sqlite3"
    async with bot_process(fake, database) as bot:
        await bot.start()
        reminded, first = await start_game(fake, "alice", "bob")
        await accept(fake, "bob", reminded, first)
        await first_move(fake, database, reminded)
        timed_out, second = await start_game(fake, "carol", "dave")
        await accept(fake, "dave", timed_out, second)
        await first_move(fake, database, timed_out)  # a game nobody moved in is aborted, not lost
        pending, third = await start_game(fake, "alice", "carol")
        await bot.kill()
        assert bot.errors() == []

        age(database, reminded, 19 * HOUR)  # past the reminder (at 18 h), before the deadline (24 h)
        age(database, timed_out, 25 * HOUR)  # past the deadline
        await bot.start()
        waiting = mover_of(database, reminded, fake)
        await fake.wait_until(lambda: dms_about(fake, waiting, reminded), what="the reminder")
        await fake.wait_until(lambda: any("ran out of time" in m.content
                                          for m in fake.messages(fake.thread(f"Zaic #{timed_out}"))),
                              what="the timeout")
        await accept(fake, "carol", pending, third)  # a button from before the crash
        await first_move(fake, database, pending)
        with sqlite3.connect(database) as conn:
            assert conn.execute("SELECT COUNT(*) FROM moves WHERE game_id = ? AND seat >= 0",
                                (reminded,)).fetchone()[0] == 1
        await bot.kill()
        assert bot.errors() == []

        age(database, pending, 25 * HOUR)  # a fresh timeout proves the new process has ticked
        await bot.start()
        await fake.wait_until(lambda: any("ran out of time" in m.content
                                          for m in fake.messages(fake.thread(f"Zaic #{pending}"))),
                              what="the second timeout")
        assert len(dms_about(fake, waiting, reminded)) == 1, "the reminder is sent once, not again after a restart"
        await bot.kill()
        assert bot.errors() == []
