"""The bot: its settings (``Config``), the Discord client (``ZBot``) and ``main``, the composition root that
opens the database, builds the host, loads the cogs and starts the board pages.

``python bot.py`` starts it (``--sync`` also registers the slash commands with Discord). The bot is built by
``create_bot`` so that nothing connects on import and the end-to-end tests can start the real client against
the project's own fake Discord server.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.ext import commands
from dotenv import load_dotenv

from cogs import EXTENSIONS
from cogs._delivery import post_report
from cogs._limits import BURST, REFILL, Budget, FairTree, Ration
from cogs._tasks import stop_task
from data import preflight
from data.db import DEFAULT_PATH, Database
from host import app, shards
from host.ai_players.turns import AiPlayers, parse_turn_seconds
from host.app import Host
from host.engine_cache import ENGINE_CACHE
from host.play.lobby import CHALLENGE_TTL, MAX_OPEN_CHALLENGES
from host.play.painter import PROCESSES as BOARD_PROCESSES
from host.results import Report
from host.shards import Shards
from host.worker import Worker
from web.app import WebServer, start_from_env

log = logging.getLogger("zgames")
NO_TOKEN = """DISCORD_TOKEN is not set.
Create an application at https://discord.com/developers/applications, open Bot, press Reset Token,
and put the token in the environment or in a .env file beside bot.py:  DISCORD_TOKEN=...
The README explains how to invite the bot to your server."""


@dataclass(frozen=True)
class Config:
    token: str
    database_path: Path = DEFAULT_PATH
    database_url: str | None = None
    """``DATABASE_URL=postgresql://…``: PostgreSQL, shared by several bot processes (``DATABASE_PATH`` unused)."""
    api_base: str | None = None
    gateway_url: str | None = None
    dev_guild_id: int | None = None
    sync: bool = False
    guild_ready_timeout: float = 2.0
    """``GUILD_READY_TIMEOUT``: seconds discord.py waits after the last server arrives before it is ready (tests: 0)."""
    ai_workers: int = 1
    """Processes that run AI searches (``AI_WORKERS``); each takes one core while it thinks."""
    ai_think_delay: float = 0.0
    board_processes: int = BOARD_PROCESSES
    """``BOARD_PROCESSES``: worker processes the boards are drawn in (0: a thread of the bot; see README)."""
    ai_turn_seconds: Mapping[str, float] | None = None
    """``AI_TURN_SECONDS``: the wall-time cap of one AI turn per level (None: hard 6 s, medium 2 s, easy 0.5 s)."""
    """Test knob (``AI_THINK_DELAY``, seconds): the AI thinks this much longer, to crash the bot mid-search."""
    max_open_challenges: int = MAX_OPEN_CHALLENGES
    challenge_days: float = CHALLENGE_TTL / 86400
    shards: Shards | None = None
    """``SHARD_COUNT``/``SHARD_IDS``: connect only these shards; ``None``: one unsharded connection, as before."""
    engine_cache: int = ENGINE_CACHE
    """``ENGINE_CACHE``: games whose engine stays in memory (least recently used ones are dropped)."""
    backup_dir: Path | None = None
    """``BACKUP_DIR``: a daily online backup of the SQLite file goes there (cogs/backups.py)."""
    backup_keep: int = 7
    """``BACKUP_KEEP``: backups kept in ``backup_dir``, newest first."""
    rate_burst: float = BURST
    """``RATE_BURST``: interactions one user may send at once (0: no per-user limit)."""
    rate_per_second: float = REFILL
    """``RATE_PER_SECOND``: interactions a second one user may keep up."""

    @classmethod
    def from_env(cls, *, sync: bool = False) -> Config:
        """Read the environment (and ``.env``); a missing token is the caller's to report."""
        load_dotenv(Path(__file__).with_name(".env"))
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        workers = os.environ.get("AI_WORKERS", "").strip()
        delay = os.environ.get("AI_THINK_DELAY", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip(),
            database_path=Path(os.environ.get("DATABASE_PATH") or DEFAULT_PATH),
            database_url=_database_url(os.environ.get("DATABASE_URL", "").strip()),
            api_base=os.environ.get("DISCORD_API_BASE") or None,
            gateway_url=os.environ.get("DISCORD_GATEWAY_URL") or None,
            dev_guild_id=int(guild) if guild else None,
            sync=sync,
            guild_ready_timeout=_number(os.environ.get("GUILD_READY_TIMEOUT", "").strip(), "GUILD_READY_TIMEOUT",
                                        float, 2.0),
            ai_workers=_number(workers, "AI_WORKERS", int, 1),
            ai_think_delay=_number(delay, "AI_THINK_DELAY", float, 0.0),
            board_processes=_number(os.environ.get("BOARD_PROCESSES", "").strip(), "BOARD_PROCESSES", int,
                                    BOARD_PROCESSES, least=0),  # 0: the boards drawn in a thread of the bot
            ai_turn_seconds=parse_turn_seconds(os.environ.get("AI_TURN_SECONDS", "")),
            max_open_challenges=int(os.environ.get("MAX_OPEN_CHALLENGES") or MAX_OPEN_CHALLENGES),
            challenge_days=float(os.environ.get("CHALLENGE_DAYS") or CHALLENGE_TTL / 86400),
            shards=shards.parse(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", "")),
            engine_cache=_number(os.environ.get("ENGINE_CACHE", "").strip(), "ENGINE_CACHE", int, ENGINE_CACHE),
            backup_dir=Path(os.environ["BACKUP_DIR"]) if os.environ.get("BACKUP_DIR", "").strip() else None,
            backup_keep=_number(os.environ.get("BACKUP_KEEP", "").strip(), "BACKUP_KEEP", int, 7),
            rate_burst=_number(os.environ.get("RATE_BURST", "").strip(), "RATE_BURST", float, BURST),
            rate_per_second=_number(os.environ.get("RATE_PER_SECOND", "").strip(), "RATE_PER_SECOND", float, REFILL),
        )


def _database_url(text: str) -> str | None:
    """A PostgreSQL URL, or None for SQLite; anything else is a mistake worth saying at once."""
    if not text:
        return None
    if not text.startswith(("postgres://", "postgresql://")):
        scheme = text.split(":", 1)[0][:20]  # never echo the rest: it may hold a password
        raise ValueError(f"DATABASE_URL must be a postgresql:// URL (for SQLite set DATABASE_PATH), not {scheme}:…")
    return text


def _number(text: str, name: str, kind: type[int] | type[float], default: float, least: int | None = None) -> Any:
    """A setting that must be a number (a count at least ``least``, default 1; seconds at least 0 and finite: "nan"
    and "inf" parse as floats but no wait can last them): a clear message otherwise."""
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        value = None
    floor = (1 if least is None else least) if kind is int else 0
    if value is None or not math.isfinite(value) or value < floor:
        wanted = f"whole number of at least {floor}" if kind is int else "number of seconds"
        raise ValueError(f"{name} must be a {wanted}, not {text!r}")
    return value


def point_discord_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send discord.py's REST calls and gateway connection elsewhere (a REST proxy, or the test fake)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def intents() -> discord.Intents:
    """The gateway events the bot asks for: no message events. It reads no messages (every command is an
    interaction), and each reply and edit in a game's thread came back as a MESSAGE_CREATE or MESSAGE_UPDATE
    that discord.py parsed on the event loop for nothing (issue 24's moves a second)."""
    chosen = discord.Intents.default()
    chosen.guild_messages = False
    chosen.dm_messages = False
    return chosen


class ZBot(commands.Bot):
    """The bot: opens the database, builds the host, loads the cogs listed in ``cogs.EXTENSIONS``."""

    def __init__(self, config: Config) -> None:
        sharding: dict[str, Any] = {}
        if config.shards is not None:  # read by AutoShardedBot (ShardedZBot); a plain Bot never gets them
            sharding = {"shard_count": config.shards.count,
                        "shard_ids": list(config.shards.ids) if config.shards.ids is not None else None}
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(),
                         help_command=None, guild_ready_timeout=config.guild_ready_timeout,
                         allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
                         tree_cls=FairTree, **sharding)
        self.config = config
        self.db: Database | None = None
        self._host: Host | None = None
        self._worker_task: asyncio.Task[None] | None = None
        self._web: WebServer | None = None
        self.recovered: list[Report] = []
        """Games started by recovery at start-up, posted once the bot is connected."""
        self.freeze_start_up = False
        """Set by ``main`` (the bot's own process): after start-up, freeze what it made out of the garbage
        collector's sight. Not for a bot inside another process (the tests'), whose garbage would then live on."""
        self.hints = Ration()
        """Hints computed per user: one every few seconds (a refused hint costs nothing)."""
        self.gifs = Ration()
        """GIFs built per user: one every few seconds (a refused GIF costs nothing)."""
        self.imports = Ration()
        """Records imported per user, every game's ``import`` together (a refused import costs nothing)."""
        self.rates = Budget(config.rate_burst, config.rate_per_second) if config.rate_burst > 0 else None
        """Every user's interactions: a burst and a refill rate (cogs/_limits.py)."""

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the host is created in setup_hook")
        return self._host

    @property
    def process_name(self) -> str:
        """Names this process's job leases; the same after a restart, so it takes over what its predecessor held."""
        shards = self.config.shards
        return "bot" if shards is None or shards.ids is None else "shards-" + "-".join(map(str, shards.ids))

    @property
    def lease_scope(self) -> str | None:
        """``process_name`` when other processes share the database (some of the shards run elsewhere): a restart
        then takes back only its predecessor's job leases. None for the one process that runs everything."""
        shards = self.config.shards
        return self.process_name if shards is not None and shards.ids is not None else None

    @property
    def worker(self) -> Worker:
        """The one job runner (built by host/app.py): cogs register their Discord-side senders on it; it starts
        once connected."""
        return self.host.worker

    @property
    def ai(self) -> AiPlayers:
        return self.host.ai

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.config.database_url or self.config.database_path)
        self._host = app.build(self.db, max_open_challenges=self.config.max_open_challenges,
                               challenge_days=self.config.challenge_days, engine_cache=self.config.engine_cache,
                               ai_workers=self.config.ai_workers, ai_think_delay=self.config.ai_think_delay,
                               display_name=self.display_name, scope=self.lease_scope,
                               ai_turn_seconds=self.config.ai_turn_seconds,
                               board_processes=self.config.board_processes)
        try:  # the board workers import while the bot connects, not beside its first moves
            self._host.painter.start()
        except OSError:  # no process can be made: the boards are drawn in a thread (the painter says so)
            log.exception("cannot start the board worker processes")
        self._web = await start_from_env(self._host, client_id=str(self.application_id or ""),  # the board pages:
                                         api_base=self.config.api_base, bot_token=self.config.token)  # WEB_PORT
        if self._web is not None:  # the Open board and Play on the board buttons, and /<game> play
            web_config = self._web.config
            self._host.boards.board_link = lambda user, game_id: web_config.link(user, game_id, time.time())
            self._host.boards.activity = web_config.activity_ready
            self._host.boards.deliver = lambda report: post_report(self, report)  # a page's move, in the thread now
        self.recovered = await self._host.recover()
        if self.recovered:
            log.info("started %d game(s) that a crash had left waiting", len(self.recovered))
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.config.sync:
            await self.sync_commands()
        if self.freeze_start_up:  # the start-up's objects (modules, host, cogs) move out of the collector's sight:
            gc.collect()  # a full collection then scans what games made since, not 60 ms of CPU of code that
            gc.freeze()  # never dies

    def display_name(self, user_id: int) -> str | None:
        """A player's name for the board images, from the client's cache (no request while rendering)."""
        user = self.get_user(user_id)
        return user.display_name if user is not None else None

    async def on_ready(self) -> None:
        shards = f" ({self.config.shards.describe()})" if self.config.shards is not None else ""
        log.info("ready as %s in %d server(s)%s", self.user, len(self.guilds), shards)
        if self._worker_task is None:  # on_ready repeats after reconnects; the runner starts once
            self._worker_task = asyncio.create_task(self.worker.run(), name="zgames-jobs")

    async def sync_commands(self) -> None:
        if self.config.dev_guild_id:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands", len(synced))

    async def close(self) -> None:
        if self._web is not None:  # first: no page move is taken, drawn or posted into a closing client
            await self._web.close()
            self._web = None
        if self._host is not None:  # before the cogs and the database go: no job runs half-way into a closed db
            self._host.worker.close()
            await stop_task(self._worker_task)
            await self._host.worker.stop()
            self._host.ai.close()
            self._host.painter.close()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None


class ShardedZBot(ZBot, commands.AutoShardedBot):
    """The same bot connecting only the shards in ``config.shards`` (other processes run the rest)."""


def create_bot(config: Config) -> ZBot:
    point_discord_at(config.api_base, config.gateway_url)
    return ZBot(config) if config.shards is None else ShardedZBot(config)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Discord bot for five abstract board games.")
    parser.add_argument("--sync", action="store_true", help="register the slash commands with Discord")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env(sync=args.sync)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if not config.token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    try:
        if config.database_url is None:
            preflight.check(config.database_path)
        else:  # asyncpg is imported only when PostgreSQL is used
            from data import postgres
            asyncio.run(postgres.check(config.database_url))
    except preflight.StartupError as error:
        print(f"zgames: cannot start: {error}", file=sys.stderr)
        return 3
    discord.utils.setup_logging(level=logging.INFO)
    try:
        bot = create_bot(config)
        bot.freeze_start_up = True
        bot.run(config.token, log_handler=None)
    except Exception as error:  # one line, and exit now: a worker thread left behind must not keep us alive
        log.debug("start-up failed", exc_info=True)
        print(f"zgames: stopped: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        os._exit(1)
    return 0

