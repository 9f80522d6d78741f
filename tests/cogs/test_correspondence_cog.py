"""The scheduler loop's delivery: DMs, the thread fallback when DMs are closed (50007), timeouts with the board."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.correspondence import Correspondence
from host.app import Host
from host.correspondence.clocks import DAY
from host.correspondence.scheduler import Tick
from host.correspondence.service import Digest, Reminder
from tests.conftest import FakeClock

ALICE, BOB = 101, 202
THREAD = 9001


class FakeThread(discord.abc.Messageable):
    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def _get_channel(self) -> Any:
        return self

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:  # type: ignore[override]
        self.sent.append((content or "", kwargs.get("file")))
        return SimpleNamespace(id=len(self.sent), channel=SimpleNamespace(id=THREAD))


class FakeUser:
    def __init__(self, closed: bool) -> None:
        self.closed = closed
        self.dms: list[str] = []

    async def send(self, text: str, **kwargs: Any) -> None:  # kwargs: the nonce
        if self.closed:
            response = SimpleNamespace(status=403, reason="Forbidden")
            raise discord.Forbidden(response, {"code": 50007, "message": "Cannot send messages to this user"})
        self.dms.append(text)


class FakeBot:
    def __init__(self, host: Host, closed: set[int]) -> None:
        self.host = host
        self.thread = FakeThread()
        self.users = {u: FakeUser(u in closed) for u in (ALICE, BOB)}
        self.dispatched: list[str] = []

    def get_user(self, user_id: int) -> FakeUser | None:
        return self.users.get(user_id)

    async def fetch_user(self, user_id: int) -> FakeUser:
        return self.users[user_id]

    def get_channel(self, channel_id: int) -> FakeThread | None:
        return self.thread if channel_id == THREAD else None

    def dispatch(self, event: str, *args: object) -> None:
        self.dispatched.append(event)

    def get_cog(self, name: str) -> None:
        """No dispatcher here: what the cog hands it (an ended game's closing) stays owed."""
        return None


def reminder(user: int, dm: bool = True) -> Reminder:
    return Reminder(user, 1, 0, THREAD, f"⏳ <@{user}>, it is your move", dm)


async def test_reminders_go_by_dm_and_fall_back_to_the_thread_when_dms_are_closed(host: Host) -> None:
    bot = FakeBot(host, closed={BOB})
    cog = Correspondence(bot)  # type: ignore[arg-type]
    await cog.deliver(Tick(reminders=[reminder(ALICE), reminder(BOB), reminder(ALICE, dm=False)]))
    assert bot.users[ALICE].dms == [f"⏳ <@{ALICE}>, it is your move"]
    assert [text for text, _ in bot.thread.sent] == [f"⏳ <@{BOB}>, it is your move",
                                                     f"⏳ <@{ALICE}>, it is your move"]


async def test_digests_are_dms_only(host: Host) -> None:
    bot = FakeBot(host, closed={BOB})
    cog = Correspondence(bot)  # type: ignore[arg-type]
    await cog.deliver(Tick(digests=[Digest(ALICE, "📬 one game"), Digest(BOB, "📬 two games")]))
    assert bot.users[ALICE].dms == ["📬 one game"] and bot.thread.sent == []


async def test_run_once_posts_a_timeout_with_the_board_in_the_thread(host: Host, clock: FakeClock) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"clock": "1d"},
                                 guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    await host.turns.set_thread(lobby.row.id, THREAD)
    await host.turns.play(lobby.row.id, ALICE, "bid 2")
    clock.advance(DAY)
    bot = FakeBot(host, closed=set())
    done = await Correspondence(bot).run_once()  # type: ignore[arg-type]
    assert len(done.timeouts) == 1
    [(caption, file)] = bot.thread.sent
    assert f"<@{BOB}>) ran out of time (1 day per move)" in caption and isinstance(file, discord.File)
    assert bot.dispatched == ["game_report"]


async def test_run_once_posts_an_abandoned_game_in_the_thread(host: Host, clock: FakeClock) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"clock": "2d"})
    await host.lobby.accept(lobby.row.id, BOB)
    await host.turns.set_thread(lobby.row.id, THREAD)
    clock.advance(2 * DAY)
    bot = FakeBot(host, closed=set())
    done = await Correspondence(bot).run_once()  # type: ignore[arg-type]
    assert done.timeouts == [] and len(done.aborted) == 1
    assert [text for text, _ in bot.thread.sent] == [
        f"⏰ Dice Nim #{lobby.row.id} is aborted: nobody moved before the clock ran out (2 days per move)."]
