"""Game review end to end: a finished Zaic game, ``/zaic review`` by someone else in the server, the review with its
chart posted in the game's thread, then the same review at once from the store and its mark in the replay."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

import engines
from ai import levels
from data.reviews import Reviews
from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import AI_WAIT
from tests.e2e.test_platform import PNG
from tests.e2e.test_records import finished_zaic


async def test_a_review_is_prepared_posted_in_the_thread_and_then_answered_from_the_store(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.WORK, "hard", levels.Work(iterations=12, solve=3, solve_nodes=200, prior_visits=-1,
                                                         alphabeta=60, tactical=1, tactical_nodes=300))
    monkeypatch.setattr(levels, "ROLLOUT_DEPTH", {name: 3 for name in engines.GAMES})
    fake = harness.fake
    with ThreadPoolExecutor(1) as pool:
        async with harness.running() as bot:
            bot.host.ai.use_executor(pool)  # searches in a thread, at the scaled work
            game_id = await finished_zaic(harness, bot, moves=10)
            thread = fake.thread(f"Zaic #{game_id}")
            asked = await fake.slash("dave", "zaic review", {"game": game_id})  # not a player: a public game
            assert asked.ephemeral and "being prepared" in asked.content and f"<#{thread.id}>" in asked.content

            def posted() -> list:
                return [m for m in fake.messages(thread) if f"#{game_id} review" in m.content]

            await fake.wait_until(posted, timeout=AI_WAIT, what="the review in the game's thread")
            review = posted()[0]
            assert [a.filename for a in review.attachments] == [f"zaic-review-{game_id}.png"]
            assert review.attachments[0].data.startswith(PNG) and "judged move" in review.content
            if path := os.environ.get("REVIEW_CHART_OUT"):  # to look at the chart
                with open(path, "wb") as out:
                    out.write(review.attachments[0].data)
                with open(f"{path}.txt", "w") as out:
                    out.write(review.content)
            again = await fake.slash("bob", "zaic review", {}, channel=thread)
            assert not again.ephemeral and again.content == review.content and again.original.attachments
            assert [m.id for m in posted()] == [review.id, again.original.id]  # the job posted once
            stored = await Reviews(bot.host.db).get(game_id)
            assert stored is not None
            marked = [j for j in stored.data["judged"] if j["verdict"]]
            if marked:
                step = marked[0]["ply"] + 1
                page = await fake.slash("dave", "zaic replay", {"game": game_id, "move": step})
                assert f"better: {marked[0]['best_label']}" in page.content
