"""What events say and what they read: numbers with fractions, message-sized tables, options and start times.

Pure text helpers for ``host/tournaments/service.py``: no database, no Discord.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from engines import Game
from host.results import HostError

MAX_START_DAYS = 60


def number(value: float) -> str:
    """``2.5`` -> ``2½``, ``1.25`` -> ``1¼`` (SB of a draw is a quarter); other values with two decimals."""
    quarters = round(value * 4)
    if abs(quarters - value * 4) > 1e-6 or quarters < 0:
        return f"{value:.2f}"
    whole, part = divmod(quarters, 4)
    fraction = ("", "¼", "½", "¾")[part]
    return f"{whole}{fraction}" if whole or not fraction else fraction


def points_text(value: float) -> str:
    return f"{number(value)} pt{'' if value == 1 else 's'}"


def fit_table(lines: list[str], notes: list[str], limit: int = 2000) -> str:
    """The head line, as many rows as fit, then the notes; rows left out are counted (the image has them all)."""
    head, rows = lines[0], lines[1:]
    for kept_notes in (notes, notes[-1:], []):  # what the tie-breaks mean matters more than the last rows
        for shown in range(len(rows), -1, -1):
            more = [f"… and {len(rows) - shown} more (see the image)."] if shown < len(rows) else []
            text = "\n".join([head, *rows[:shown], *more, *kept_notes])
            if len(text) <= limit:
                return text
    return head[:limit]


def split_lines(text: str, limit: int = 2000) -> list[str]:
    """Messages of at most ``limit`` characters, split between lines (a long pairings list)."""
    parts: list[str] = []
    for line in text.split("\n"):
        line = line[:limit]
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def parse_options(cls: type[Game], text: str | None, sizes: Sequence[int]) -> dict[str, Any]:
    """``rings=48, blitz=true`` against the game's own options, as ``/<game> new`` offers them, for every
    table size the event may seat. Only the options given are kept: each game fills the rest for its own
    player count (Zarathustra's board grows with the players)."""
    given: dict[str, Any] = {}
    for part in re.split(r"[,\s]+", (text or "").strip()):
        if not part:
            continue
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise HostError(f"Write options as name=value, e.g. `{cls.options_spec[0].name}="
                            f"{cls.options_spec[0].default}`." if cls.options_spec else
                            f"{cls.title} has no options.")
        given[name.strip().lower()] = value.strip()
    try:
        checked = [cls.check_options(players, given) for players in sizes]
    except ValueError as error:
        raise HostError(f"Cannot use those options for {cls.title}: {error}.") from None
    return {name: checked[0][name] for name in given}


def parse_start(text: str | None, now: float) -> float | None:
    """Empty or ``manual``: the organiser starts it. ``2h``, ``30m``, ``1d`` from now, or ``YYYY-MM-DD HH:MM`` UTC."""
    cleaned = (text or "").strip().lower()
    if cleaned in ("", "manual", "by hand", "hand"):
        return None
    relative = re.fullmatch(r"(?:in\s*)?(\d+)\s*(m|min|h|d)", cleaned)
    if relative:  # any number of digits, so a delay too long is told the limit (not asked for a delay)
        unit = {"m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}[relative[2]]
        digits = relative[1].lstrip("0") or "0"
        at = now + int(digits) * unit if len(digits) <= 9 else math.inf  # a 5000-digit number is not converted
    else:
        try:
            at = datetime.strptime(cleaned.replace("t", " ").removesuffix("z").strip(), "%Y-%m-%d %H:%M") \
                .replace(tzinfo=UTC).timestamp()
        except ValueError:
            raise HostError("starts: write `manual`, a delay such as `2h` or `30m`, or a UTC time such as "
                            "`2030-05-01 18:00`.") from None
    if at <= now:
        raise HostError("starts: that time has passed; give a time in the future, or `manual`.")
    if at > now + MAX_START_DAYS * 86400:
        raise HostError(f"starts: at most {MAX_START_DAYS} days ahead.")
    return at


THREAD_NAME_LIMIT = 100
"""Discord's longest channel (thread) name."""


def thread_name(title: str, game_id: int, settings: dict[str, Any]) -> str:
    """A game thread's name: ``Zaic #5``, or for an event game ``Spring Swiss R2: Zaic #5`` (the event's name,
    else ``Event #3``, shortened so the whole fits Discord's 100 characters)."""
    plain = f"{title} #{game_id}"
    if settings.get("event") is None:
        return plain[:THREAD_NAME_LIMIT]
    event = " ".join(str(settings.get("event_name") or f"Event #{settings['event']}").split())
    round_ = settings.get("event_round")
    tail = f"{' R' + str(round_) if round_ else ''}: {plain}"
    room = THREAD_NAME_LIMIT - len(tail)
    if len(event) > room:
        event = event[:max(room - 1, 1)].rstrip() + "…"
    return (event + tail)[:THREAD_NAME_LIMIT]
