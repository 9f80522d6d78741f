"""Whole games through the move builder service, for every player count and option value.

The end-to-end test plays one game of each game through Discord; here the same host service (open, pick,
Back, Play) plays Zarathustra and Ziggurat in every player count and with every option value, choosing
at random among what each step offers, so every step form is walked.

On SQLite only: the builder's steps never touch the store (host/play/builder.py), and a Play is the move any
command makes, which tests/host/test_builder.py (the builder service, Play included) and
tests/host/test_records.py (seeded games of every game, up to 25 moves then a resignation) run on PostgreSQL too;
games played to their natural end there are tests/host/test_ratings.py's and tests/host/test_ai_turns.py's. Both
backends here played every game twice for nothing new: 11 s of an idle machine's CPU.
"""

from __future__ import annotations

import random

import pytest

import engines
from data.db import Database
from host.app import Host
from host.play.builder import decode
from tests.conftest import FakeClock, text_renderer
from tests.render.positions import setup

USERS = (101, 202, 303, 404)
MAX_PLIES = 5000


def configurations(name: str) -> list[tuple[int, dict]]:
    """Enough set-ups that every player count and every option value appears (``positions.setup`` cycles them)."""
    cls = engines.get(name)
    count = max([len(cls.players), *(len(o.choices) for o in cls.options_spec)])
    found = []
    for k in range(count):
        players, options = setup(cls, k, random.Random(k))
        if "round_limit" in options:
            options["round_limit"] = 30  # the shortest race: the limit's value changes only the length
        found.append((players, options))
    return found


CASES = [(name, players, options) for name in ("zarathustra", "ziggurat") for players, options in configurations(name)]


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("name", "players", "options"), CASES,
                         ids=[f"{n}-{p}p-{'-'.join(str(v) for v in o.values())}" for n, p, o in CASES])
async def test_a_whole_game_by_builder_steps(db: Database, clock: FakeClock, name: str, players: int,
                                             options: dict) -> None:
    host = Host(db, renderer=text_renderer, now=clock)
    lobby = await host.lobby.challenge(game=name, creator=USERS[0], opponents=list(USERS[1:players]), options=options,
                                 guild_id=1, channel_id=2)
    for user in USERS[1:players]:
        lobby = await host.lobby.accept(lobby.row.id, user)
    game_id, rng, backs = lobby.row.id, random.Random(f"{name}{players}{options}"), 0
    for _ in range(MAX_PLIES):
        row, game = await host.session.engine_copy(game_id)
        if row.status != "active":
            break
        seat = min(s for s in game.to_move() if s >= 0)
        user = row.user_at(seat)
        step = await host.builder.open(game_id, user, "t")
        while step.move is None:
            path = (*step.path, f"~{rng.randrange(len(step.groups))}") if step.groups else \
                decode(rng.choice(step.choices).value)
            if step.path and (not backs or rng.random() < 0.05):
                path, backs = step.path[:-1], backs + 1  # the first chance, then now and then, Back
            step = await host.builder.show(game_id, user, step.ply, "t", path)
        await host.builder.play(game_id, user, step.ply, "t", step.path)
    row = await host.session.row(game_id)
    assert row.status == "finished", f"{name} did not end by builder steps"
    assert backs, "Back was never pressed"
