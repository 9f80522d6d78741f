"""The AI players' Discord side: registers the AI jobs on the job runner and posts what the AI did in the thread,
and the game reviews the host's review job finishes.

The searches run in the process pool, never on the event loop, so autocomplete and people's moves
stay fast while AIs think.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from cogs._delivery import board_file, post_report, thread_of
from host import outbox
from host.ai_players.reviews import ReviewPost, review_key
from host.ai_players.turns import Done
from host.results import GameRow

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)


class AiPlayersCog(commands.Cog):
    def __init__(self, bot: ZBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.ai.thinking = self.typing
        self.bot.ai.register(self.bot.worker, self.deliver)
        self.bot.host.reviews.deliver = self.post_review  # the review job itself is the host's (host/app.py)

    @contextlib.asynccontextmanager
    async def typing(self, row: GameRow) -> AsyncIterator[None]:
        """Discord's typing indicator in the game's thread while the AI searches (renewed until it moves).
        The indicator is a courtesy: when it cannot be shown, the AI thinks all the same."""
        channel = await thread_of(self.bot, row.thread_id) if row.thread_id else None
        if channel is None:
            yield
            return
        try:
            indicator = channel.typing()
            await indicator.__aenter__()
        except (discord.HTTPException, AttributeError) as error:
            log.info("no typing indicator for game %s: %s", row.id, error)
            yield
            return
        try:
            yield
        finally:
            await indicator.__aexit__(None, None, None)

    async def deliver(self, done: Done) -> None:
        """The AI's move (board and caption) or its answer to a draw offer, in the game's thread."""
        await self.bot.wait_until_ready()
        if done.report is not None:
            await post_report(self.bot, done.report)
            return
        channel = await thread_of(self.bot, done.row.thread_id or done.row.channel_id)
        if channel is not None and done.text:
            try:
                await channel.send(done.text[:2000], allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as error:
                log.warning("could not post the AI's answer in game %s: %s", done.row.id, error)

    async def post_review(self, post: ReviewPost) -> None:
        """A finished game review in the game's thread: the caption and the evaluation chart. A repeated post
        (the job retried after a crash) returns the first message: the nonce comes from the game."""
        await self.bot.wait_until_ready()
        channel = await thread_of(self.bot, post.row.thread_id or post.row.channel_id)
        if channel is None:
            log.warning("no thread to post the review of game %s in", post.row.id)
            return
        await channel.send(post.caption, file=board_file(post.chart), allowed_mentions=discord.AllowedMentions.none(),
                           nonce=outbox.nonce(review_key(post.row.id)))


async def setup(bot: ZBot) -> None:
    await bot.add_cog(AiPlayersCog(bot))
