"""Websocket gateway: HELLO/IDENTIFY/READY/GUILD_CREATE, heartbeats, dispatch and a processing barrier.

Frames are plain JSON text: discord.py only decompresses binary frames, so the ``compress`` query
parameter it sends can be ignored. Shards as Discord does them: a connection that IDENTIFYs with
``shard: [id, count]`` gets only the guilds with ``(guild_id >> 22) % count == id`` (GUILD_CREATE,
their events and interactions), and DMs only on shard 0; a connection without ``shard`` gets everything.
"""

from __future__ import annotations

import asyncio
import json
import traceback
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .world import Message

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, ACK = (
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11,
)  # fmt: skip
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
HEARTBEAT_INTERVAL_MS = 45000


class GatewaySession:
    """One websocket connection of one client."""

    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        self.seq = 0
        self.intents = 0
        self.token: str | None = None
        self.identified = False
        self.session_id = uuid.uuid4().hex
        self.shard: tuple[int, int] | None = None
        """``(id, count)`` from IDENTIFY; ``None``: an unsharded client, which receives every guild."""
        self.acked_seq = -1  # highest sequence the client echoed back in a heartbeat
        self.lock = asyncio.Lock()

    @property
    def alive(self) -> bool:
        return not self.ws.closed

    def serves(self, guild_id: int | None) -> bool:
        """Whether events of this guild (``None``: a DM) reach this connection."""
        if self.shard is None:
            return True
        shard, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard

    async def send(self, op: int, d: Any, t: str | None = None) -> int:
        async with self.lock:
            frame: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
            if op == DISPATCH:
                self.seq += 1
                frame["s"] = self.seq
            await self.ws.send_str(json.dumps(frame))
            return self.seq


class Gateway:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: list[GatewaySession] = []

    @property
    def world(self) -> Any:
        return self.fake.world

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions if s.alive and s.identified]

    def newest(self, guild_id: int | None = None, *, any_guild: bool = True) -> GatewaySession:
        """The newest connection (serving ``guild_id`` unless ``any_guild``; ``None`` is a DM)."""
        live = [s for s in self.live_sessions() if any_guild or s.serves(guild_id)]
        if not live:
            where = "" if any_guild else f" for the shard of {'DMs' if guild_id is None else f'guild {guild_id}'}"
            raise RuntimeError(
                f"no bot is connected to the fake gateway{where} (is the bot started and ready?)"
                + self.fake.diagnostics()
            )
        return live[-1]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws, dict(request.query))
        self.sessions.append(session)
        await session.send(HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    await self._on_frame(session, json.loads(msg.data))
                except Exception:
                    self.fake.record_error(f"fake gateway crashed on {msg.data[:200]}:\n{traceback.format_exc()}")
                self.fake.notifier.notify()
        finally:
            self.fake.notifier.notify()
        return ws

    async def _on_frame(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            session.acked_seq = max(session.acked_seq, d if isinstance(d, int) else 0)
            await session.send(ACK, None)
        elif op == IDENTIFY:
            await self._identify(session, d)
        elif op == RESUME:
            await session.send(INVALID_SESSION, False)  # no replay buffer: make the client identify afresh
        elif op == REQUEST_MEMBERS:
            guild = d.get("guild_id") or self.world.guild_id
            members = [payloads.member_payload(self.world, self.world.users[u], guild_id=int(guild))
                       for u in self.world.member_ids]
            chunk = {"guild_id": str(guild), "members": members, "chunk_index": 0, "chunk_count": 1}
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            await session.send(DISPATCH, chunk, "GUILD_MEMBERS_CHUNK")
        elif op == PRESENCE:
            pass
        else:
            self.fake.record_error(f"gateway: unhandled op {op}: {frame}")

    async def _identify(self, session: GatewaySession, d: dict[str, Any]) -> None:
        session.token = d.get("token")
        session.intents = int(d.get("intents", 0))
        shard = d.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if not 0 <= shard_id < count:
                self.fake.record_error(f"gateway: IDENTIFY with an impossible shard {shard}")
                await session.ws.close(code=4010, message=b"Invalid shard")
                return
            session.shard = (shard_id, count)
        guilds = [g for g in self.world.guilds if session.serves(g)]
        ready = payloads.ready_payload(self.world, session.session_id, self.fake.gateway_url, guilds,
                                       session.shard or (0, 1))
        await session.send(DISPATCH, ready, "READY")
        session.identified = True
        for guild_id in guilds:
            await session.send(DISPATCH, payloads.guild_create_payload(self.world, guild_id), "GUILD_CREATE")

    async def dispatch(self, event: str, data: Any, intent: int = 0) -> None:
        """Send an event to every identified session that asked for ``intent`` (0: always) and serves its guild."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        for session in self.live_sessions():
            if (intent and not session.intents & intent) or not session.serves(int(guild) if guild else None):
                continue
            await self._safe_send(session, event, data)

    async def dispatch_built(self, event: str, build: Callable[[GatewaySession], Any | None],
                             guild_id: int | None = None) -> None:
        for session in self.live_sessions():
            if not session.serves(guild_id):
                continue
            data = build(session)
            if data is not None:
                await self._safe_send(session, event, data)

    async def _safe_send(self, session: GatewaySession, event: str, data: Any) -> None:
        try:
            await session.send(DISPATCH, data, event)
        except (ConnectionError, RuntimeError):
            pass  # the client went away mid-send; it is no longer live

    async def dispatch_message(self, event: str, msg: Message) -> None:
        """MESSAGE_CREATE/UPDATE honouring the message intents; ephemeral messages are never sent."""
        if msg.ephemeral:
            return
        world = self.world
        channel = world.channels[msg.channel_id]

        def build(session: GatewaySession) -> dict[str, Any] | None:
            needed = DIRECT_MESSAGES if channel.is_dm else GUILD_MESSAGES
            if not session.intents & needed:
                return None
            privileged = session.intents & MESSAGE_CONTENT or channel.is_dm or msg.author_id == world.bot.id
            hide = not privileged and world.bot.mention not in msg.content
            return payloads.message_payload(world, msg, hide_content=hide)

        await self.dispatch_built(event, build, channel.guild_id)

    async def send_interaction(self, data: dict[str, Any]) -> GatewaySession:
        """Interactions go to the newest connected client serving their guild (as after a bot restart)."""
        guild = data.get("guild_id")
        session = self.newest(int(guild) if guild else None, any_guild=False)
        await session.send(DISPATCH, data, "INTERACTION_CREATE")
        return session

    async def barrier(self, session: GatewaySession, timeout: float) -> None:
        """Wait until the client has processed every frame sent so far.

        A server HEARTBEAT request makes discord.py answer with its last seen sequence; frames are handled
        in order, so an echo of ``seq`` proves all earlier events were parsed and dispatched.
        """
        target = session.seq
        await session.send(HEARTBEAT, None)
        await self.fake.notifier.wait_until(
            lambda: session.acked_seq >= target or not session.alive, timeout, "the bot to process gateway events"
        )
