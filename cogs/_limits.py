"""Limits for expensive commands: a per-user ration, and deferring with private refusals.

An expensive command (hint, GIF, import) has a ``Ration`` on the bot: each user is served once per
``COOLDOWN`` seconds, and only a use that was served spends it, so a refusal (a mistyped game number, the
wrong file) says what was wrong and the corrected retry is served at once.
A command whose work may take over a second defers first (``interaction.response.defer``);
``refuse_after_defer`` then turns the public "thinking…" placeholder into a private refusal.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import discord
from discord import app_commands

from host.results import HostError

log = logging.getLogger(__name__)
COOLDOWN = 10.0
"""Seconds between two expensive commands of one user."""


BUSY_WORK = "This command is busy work for the bot"
"""Why a GIF or an import waits (a hint says its own reason)."""


MAX_ERROR = 1900
"""Characters of a refusal shown to a user (Discord's limit is 2,000); a longer one is cut and logged whole."""


def capped(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` within ``limit`` characters; a cut text ends in "…" and is logged whole."""
    if len(text) <= limit:
        return text
    log.info("refusal cut from %d characters: %s", len(text), text)
    return text[:limit - 1] + "…"


async def refuse_after_defer(interaction: discord.Interaction, text: str) -> None:
    """The deferred placeholder is public: remove it and tell only the user why."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        pass
    await interaction.followup.send(capped(text), ephemeral=True)




@dataclass
class Ticket:
    """One admitted use of a ``Ration``: the user's turn, taken at ``taken`` over their ``previous`` use."""

    user_id: int
    taken: float
    previous: float | None
    served: bool = False
    """Set once the use was served: a ticket left unserved is refunded when its ``Ration.turn`` ends."""


class Ration:
    """A per-user cooldown that only served uses spend (a hint refused as 'not your turn', or a GIF of a game
    that does not exist, costs nothing): discord.py's own cooldown charges every use, refusals included.
    The turn is taken on admission and given back when the use is not served, so two commands sent together
    are never both served (a GIF takes seconds: spending only after it would let a burst of them through)."""

    def __init__(self, seconds: float = COOLDOWN, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.last: dict[int, float] = {}

    def wait(self, user_id: int) -> float:
        """Seconds the user must still wait; 0 when they may go ahead."""
        since = self.clock() - self.last.get(user_id, float("-inf"))
        return max(0.0, self.seconds - since)

    def admit(self, user_id: int, why: str = BUSY_WORK) -> Ticket:
        """Refuse (``HostError``) a user who must still wait, ``why`` saying what the wait is for; else take
        the user's turn now."""
        if (wait := self.wait(user_id)) > 0:
            raise HostError(f"{why}: try again in {max(wait, 1):.0f} s.")
        ticket = Ticket(user_id, self.clock(), self.last.get(user_id))
        self.last[user_id] = ticket.taken
        return ticket

    def refund(self, ticket: Ticket) -> None:
        """The admitted use was not served: it costs nothing, unless a later use has taken the turn since (a
        refund then would free a third use while that one runs)."""
        if self.last.get(ticket.user_id) != ticket.taken:
            return
        if ticket.previous is None:
            del self.last[ticket.user_id]
        else:
            self.last[ticket.user_id] = ticket.previous

    @contextmanager
    def turn(self, user_id: int, why: str = BUSY_WORK) -> Iterator[Ticket]:
        """``admit`` for a block that sets ``ticket.served`` once it served the use: any other way out of the
        block (a refusal, Discord failing the deferral) refunds it."""
        ticket = self.admit(user_id, why)
        try:
            yield ticket
        finally:
            if not ticket.served:
                self.refund(ticket)


BURST = 10
"""Interactions one user may send at once (a builder's bursts of 3-4 presses fit twice over)."""
REFILL = 1.5
"""Interactions a second one user may keep up (a builder at about one press a second never waits)."""


class Budget:
    """A token bucket per user over every interaction: ``burst`` at once, refilled at ``rate`` a second.

    Checked in memory before any database work (``app_commands`` via ``FairTree``, buttons and menus via
    ``guarded``); a refusal is a private "slow down". Users whose bucket is full again are forgotten."""

    def __init__(self, burst: float = BURST, rate: float = REFILL, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = float(burst), float(rate), clock
        self.buckets: dict[int, tuple[float, float]] = {}
        """user -> (tokens, when counted)"""

    def take(self, user_id: int) -> float:
        """Spend one interaction: 0 when the user may go ahead, else the seconds until they may."""
        now = self.clock()
        tokens, then = self.buckets.get(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self.buckets[user_id] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self.buckets[user_id] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:
            self._forget(now)
        return 0.0

    def _forget(self, now: float) -> None:
        full = [u for u, (t, then) in self.buckets.items() if t + (now - then) * self.rate >= self.burst]
        for user in full:
            del self.buckets[user]


def slow_down_text(wait: float) -> str:
    return f"Slow down: you are sending more than the bot serves one player. Try again in {max(wait, 1):.0f} s."


async def admitted(interaction: discord.Interaction) -> bool:
    """Within the user's budget (the client's ``rates``, when it has one); else answered privately, False."""
    budget: Budget | None = getattr(interaction.client, "rates", None)
    if budget is None:
        return True
    wait = budget.take(interaction.user.id)
    if wait <= 0:
        return True
    log.info("user %s slowed down (%.1f s)", interaction.user.id, wait)
    try:
        await interaction.response.send_message(slow_down_text(wait), ephemeral=True)
    except discord.HTTPException:
        pass
    return False


class FairTree(app_commands.CommandTree):  # type: ignore[type-arg]
    """The command tree: every slash command within its user's budget; autocomplete always answered (it never
    writes, and costs nothing of the budget)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        return await admitted(interaction)
