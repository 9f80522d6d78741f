"""Every call web/ makes into the host, in one place: when the host's services move, only this file changes.

The services used: ``host.turns.play`` (version-checked by ``expected_ply``), ``host.boards.deliver`` (its report
into Discord), ``host.session.row`` (the row, for its version), ``host.session.on_committed`` (the commit hook,
told after each committed write),
``host.boards.game_in_thread`` (an Activity's channel to its game), ``host.changes`` (committed changes of every
process) and ``host.clickable`` (the viewer's view, PNG, hotspots, picks and clocks, and the replay of each ply).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.app import Host
from host.play.feed import ChangeFeed
from host.results import HostError, Report, StalePosition

__all__ = ["HostError", "board_image", "board_view", "deliver", "feed", "game_in_channel", "on_committed", "play",
           "replay_image", "replay_step", "seated", "version"]


async def board_view(host: Host, game_id: int, user: int, known: int | None = None) -> bytes:
    """The JSON view of ``game_id`` for ``user`` (their seat's view if seated, else the public one), encoded;
    ``known``: the newest committed version the pages were told of (a spectator's view of it reads no row)."""
    return await host.clickable.view_json(game_id, user, known)


async def board_image(host: Host, game_id: int, user: int, ply: int | None, version: int | None = None) -> bytes:
    """The viewer's PNG of ``ply``; ``version`` (the view's) lets the host serve it without reading the row."""
    return await host.clickable.board_image(game_id, user, ply, version)


async def replay_step(host: Host, game_id: int, user: int, ply: int) -> dict[str, Any]:
    """Ply ``ply`` as ``user`` saw it then: the move that led there, as they may read it."""
    return (await host.clickable.replay_step(game_id, user, ply)).to_json()


async def replay_image(host: Host, game_id: int, user: int, ply: int) -> bytes:
    return await host.clickable.replay_image(game_id, user, ply)


async def play(host: Host, game_id: int, user: int, move: str, ply: int) -> Report:
    """Play ``move`` for ``user`` on the position of ``ply``: refused (``HostError``) on any other position,
    except a secret choice the other side's simultaneous choice overtook (see ``Clickable.expected_ply``)."""
    try:
        return await host.turns.play(game_id, user, move,
                                     expected_ply=await host.clickable.expected_ply(game_id, user, ply))
    except StalePosition:  # the host's words name Discord's buttons, which the page has not
        raise HostError(STALE_PAGE) from None


STALE_PAGE = "The game moved on before your move arrived: the board now shows the newest position; play from it."


async def deliver(host: Host, report: Report) -> None:
    """Put a page's move in the game's thread now (``host.boards.deliver``, set by the bot); without it the
    outbox's dispatcher posts it after its grace."""
    if host.boards.deliver is not None:
        await host.boards.deliver(report)


async def game_in_channel(host: Host, channel_id: int) -> int | None:
    """The game whose thread ``channel_id`` is (where an Activity was launched), else ``None``."""
    row = await host.boards.game_in_thread(channel_id)
    return None if row is None else int(row.id)


async def seated(host: Host, game_id: int, user: int) -> bool:
    """Whether ``user`` plays in ``game_id`` (their page is told of a change before the spectators')."""
    return (await host.session.row(game_id)).seat_of(user) is not None


async def version(host: Host, game_id: int) -> int:
    """The game row's version: it grows with every committed write."""
    return int((await host.session.row(game_id)).version)


def on_committed(host: Host, hook: Callable[[int, int, int | None], None]) -> None:
    """Call ``hook(game_id, version, ply)`` right after every committed write of a game in this process (``ply``
    None when the write did not carry the game), before the host goes on to draw the move's report."""
    host.session.on_committed.append(hook)


def feed(host: Host) -> ChangeFeed:
    """Committed changes of every process on the database (``subscribe``; ``live`` while they arrive)."""
    return host.changes
