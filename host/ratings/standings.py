"""The rating boards as the commands show them: ``/leaderboard``'s image, ``/profile``'s lines and chart, seasons.

The host reads the boards (``host.ratings``), draws them (``render``) and words them; the cog only parses
the interaction and sends. Discord-free: a display name comes through a callback, since server nicknames
are a Discord matter, and the permission check takes anything shaped like ``discord.Permissions``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from data.db import Database
from engines import Game
from host.play import bots
from host.play.captions import mention
from host.ratings import seasons
from host.ratings import service as ratings
from host.ratings.seasons import GuildPermissions
from host.ratings.service import ALL_TIME, GLOBAL, MIN_GAMES, PROVISIONAL_GAMES
from host.results import HostError
from render.leaderboard import BoardLine, render_leaderboard
from render.profile import Series, render_rating_chart

NameOf = Callable[[int], Awaitable[str]]
"""A person's display name for an image or a title (AI levels are named here, never asked for)."""
RESULT_MARKS = {"win": "✅ Win", "loss": "❌ Loss", "draw": "🤝 Draw"}
CHART_FILENAME = "rating-history.png"
PROFILE_GAMES = 24
"""An embed holds 25 fields: one game each, and one for the recent results."""


@dataclass(frozen=True)
class BoardRequest:
    """A checked ``/leaderboard`` request: which board of which game. Checked before the slow part starts."""

    game: str
    title: str
    scope: str
    season: int


@dataclass(frozen=True)
class Picture:
    text: str
    image: bytes
    filename: str


@dataclass(frozen=True)
class Field:
    name: str
    value: str
    inline: bool = True


@dataclass(frozen=True)
class ProfilePage:
    """``/profile`` as an embed: a title, one field per game and recent results, and the rating chart."""

    title: str
    description: str | None = None
    fields: list[Field] = field(default_factory=list)
    footer: str | None = None
    chart: bytes | None = None
    """PNG, named ``CHART_FILENAME``; ``None`` when there is nothing to chart."""


class Standings:
    """Leaderboards, profiles and seasons over one database, exposed by the ``Host`` as ``host.standings``."""

    def __init__(self, db: Database, games: Mapping[str, type[Game]], now: Callable[[], float]) -> None:
        self.db = db
        self.games = games
        self.now = now

    def title(self, game: str) -> str:
        cls = self.games.get(game)
        if cls is None:
            raise HostError(f"There is no game called {game[:40]!r}; the games are {', '.join(self.games)}.")
        return cls.title

    @staticmethod
    def scope(guild_id: int | None, scope: str | None) -> str:
        """``scope`` is ``"server"``, ``"global"`` or unset (the server's board, or the global one in a DM)."""
        if scope == "global" or (scope is None and guild_id is None):
            return GLOBAL
        if guild_id is None:
            raise HostError("Server boards live in a server; use scope: global here.")
        return str(guild_id)

    async def board_request(self, game: str, guild_id: int | None, scope: str | None,
                            season: int | None) -> BoardRequest:
        """Refuses an unknown game, a server board outside a server, or a season that has not started."""
        title = self.title(game)
        board_scope = self.scope(guild_id, scope)
        if season is not None:
            if board_scope == GLOBAL or guild_id is None:
                raise HostError("Seasons belong to a server; the global board is all-time.")
            current = await seasons.current_season(self.db, guild_id)
            if season > current:
                raise HostError(f"Season {season} has not started; this server is in season {current}.")
        return BoardRequest(game, title, board_scope, season or ALL_TIME)

    async def leaderboard(self, request: BoardRequest, user_id: int, *, include_bots: bool, server_name: str,
                          name_of: NameOf) -> Picture:
        """The top of the board as an image, with the caller's own place in words."""
        board = await ratings.leaderboard(self.db, request.game, request.scope, request.season, user_id,
                                          bots_too=include_bots)
        everyone = [*board.rows, *([board.me] if board.me else [])]
        names = await asyncio.gather(*(self._name(s.user_id, name_of) for s in everyone))
        lines = [BoardLine(s.rank, name, s.shown, s.games, s.win_rate, me=s.user_id == user_id)
                 for s, name in zip(everyone, names, strict=True)]
        me = lines.pop() if board.me else None
        where = "all servers" if request.scope == GLOBAL else server_name
        period = (f"Season {request.season}" if request.season else "All-time") + \
            ("" if include_bots else " · people only")
        subtitle = f"{period} · {board.players} ranked · ? = provisional (under {PROVISIONAL_GAMES} games)"
        image = await asyncio.to_thread(render_leaderboard, f"{request.title} · {where}", subtitle, lines, me,
                                        f"A place (#) takes {MIN_GAMES} rated games in the period; before that"
                                        " a player is listed below the ranked ones, unranked (–).")
        text = my_place(board, user_id)
        if board.bots:  # the AI levels in their own section, never among the people's places
            shown = " · ".join(f"{bots.name(s.user_id)} {s.shown} ({s.games} games)" for s in board.bots)
            text = "\n".join(t for t in (text, f"AI levels (not ranked among people; `bots: True` ranks them): {shown}")
                              if t)
        return Picture(text, image, f"leaderboard-{request.game}.png")

    async def profile(self, user_id: int, guild_id: int | None, name_of: NameOf) -> ProfilePage:
        """A player's ratings on this server's all-time boards (the global ones in a DM)."""
        scope = self.scope(guild_id, None)
        is_ai = bots.is_ai(user_id)  # an AI level has a place only where the AI levels are ranked (``bots: True``)
        data = await ratings.profile(self.db, user_id, scope, bots_too=is_ai)
        name = await self._name(user_id, name_of)
        title = f"{name} · ratings on {'all servers' if scope == GLOBAL else 'this server'}"
        if not data.games:
            return ProfilePage(title, description="No rated games yet.")
        fields = []
        for record in data.games[:PROFILE_GAMES]:
            s = record.standing
            place = f"#{s.rank} of {record.players}" if s.rank else f"unranked ({s.games}/{MIN_GAMES} games)"
            if s.rank and is_ai:
                place += ", people and AI levels"
            lines = [f"**{s.shown}** · {place}", f"{s.wins}W {s.losses}L {s.draws}D"]
            if record.best_win:
                lines.append(f"Best win: {mention(record.best_win[0])} ({record.best_win[1]})")
            fields.append(Field(self.title(record.game), "\n".join(lines)))
        recent = [f"{RESULT_MARKS[r.result]} · {self.title(r.game)} #{r.game_id} · {r.change:+d} · <t:{int(r.at)}:R>"
                  for r in data.recent]
        if recent:
            fields.append(Field("Recent results", "\n".join(recent)[:1024], inline=False))
        series = [Series(self.title(r.game), [rating for _, rating in r.history]) for r in data.games]
        chart = await asyncio.to_thread(render_rating_chart, f"{name} · rating history", series)
        return ProfilePage(title, fields=fields, footer=f"? = provisional (under {PROVISIONAL_GAMES} games)",
                           chart=chart)

    async def start_season(self, guild_id: int | None, user_id: int,
                           permissions: bool | GuildPermissions | None, season: int | None = None) -> str:
        """Only a server's admins start its next season; returns the announcement. A double submit is refused
        with a private line (``seasons.start_season``); ``season`` names the one to begin."""
        if guild_id is None:
            raise HostError("Seasons belong to a server.")
        if not seasons.may_start_season(permissions):
            raise HostError("Only members with the Manage Server permission can start a season.")
        number = await seasons.start_season(self.db, guild_id, user_id, self.now(), season)
        return (f"🏁 Season {number} begins on this server: its season boards start fresh; all-time boards stay. "
                f"See them with `/leaderboard season:{number}`.")

    @staticmethod
    async def _name(user_id: int, name_of: NameOf) -> str:
        if bots.is_ai(user_id):
            return bots.plain_name(user_id)  # drawn in images, whose fonts have no emoji
        return await name_of(user_id)


def my_place(board: ratings.Leaderboard, user_id: int) -> str:
    """The caller's place in words, sent with the board image."""
    mine = board.me or next((s for s in board.rows if s.user_id == user_id), None)
    if mine is None:
        return "" if board.rows or board.bots else "Nobody is ranked yet."
    if mine.rank is None and bots.is_ai(user_id):
        return ""
    if mine.rank is None:
        listed = "listed, unranked, with a provisional ?" if mine in board.rows else "not ranked yet"
        return f"You have {mine.games} rated game(s) here: {listed}; {MIN_GAMES} give you a place."
    return f"You are #{mine.rank} of {board.players}."
