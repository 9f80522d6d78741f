"""Who sits where when the ``ai`` option is used, the AI's reserved ids, and the AI settings of the bot."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cogs._ai import seat_users
from host.play import bots
from host.results import HostError
from zbot import Config

ME = 900
MEDIUM, HARD = bots.user_of("medium"), bots.user_of("hard")


@dataclass(frozen=True)
class Someone:
    """The two fields of a Discord user that seating reads."""

    id: int
    bot: bool = False


def test_ai_ids_cannot_be_discord_accounts_and_name_their_level() -> None:
    assert all(uid < 2**22 for uid in bots.AI_USERS.values())  # below the first millisecond's snowflakes
    assert bots.name(HARD) == "🤖 AI (hard)" and bots.mention(HARD) == "🤖 AI (hard)"
    assert bots.mention(123) == "<@123>" and bots.level_of(123) is None
    with pytest.raises(ValueError, match="unknown AI level"):
        bots.user_of("grandmaster")


def test_two_player_ai_takes_the_other_seat_and_naming_the_bot_means_medium() -> None:
    assert seat_users(ME, [None], 1, "hard") == ([HARD], 0)
    assert seat_users(ME, [Someone(ME, bot=True)], 0, None) == ([MEDIUM], 0)
    assert seat_users(ME, [Someone(ME, bot=True)], 0, "hard") == ([HARD], 0)
    assert seat_users(ME, [Someone(5)], 0, None) == ([5], 0)  # no AI asked for: unchanged
    with pytest.raises(HostError, match="Other bots cannot play"):
        seat_users(ME, [Someone(77, bot=True)], 0, None)
    with pytest.raises(HostError, match="leave a seat open"):
        seat_users(ME, [Someone(5)], 0, "easy")


def test_in_team_games_named_partners_keep_their_places_and_ai_fills_the_open_ones() -> None:
    friend = Someone(5)
    # opponent2 is the challenger's partner (seats 0 and 2): the AIs take seats 1 and 3
    assert seat_users(ME, [None, friend, None], 2, "medium") == ([MEDIUM, 5, MEDIUM], 0)
    # a human with an AI partner: opponent and opponent3 named, the partner seat is the AI's
    assert seat_users(ME, [Someone(5), None, Someone(6)], 1, "easy") == ([5, bots.user_of("easy"), 6], 0)
    assert seat_users(ME, [None, None, None], 3, "hard") == ([HARD, HARD, HARD], 0)


def test_the_bot_reads_ai_workers_and_refuses_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AI_WORKERS", "3")
    monkeypatch.setenv("AI_THINK_DELAY", "0.5")
    config = Config.from_env()
    assert (config.ai_workers, config.ai_think_delay) == (3, 0.5)
    monkeypatch.delenv("AI_WORKERS")
    monkeypatch.delenv("AI_THINK_DELAY")
    assert (Config.from_env().ai_workers, Config.from_env().ai_think_delay) == (1, 0.0)
    monkeypatch.setenv("AI_WORKERS", "zero")
    with pytest.raises(ValueError, match="AI_WORKERS must be a whole number of at least 1, not 'zero'"):
        Config.from_env()
    monkeypatch.setenv("AI_WORKERS", "0")
    with pytest.raises(ValueError, match="AI_WORKERS"):
        Config.from_env()
