"""Seeded random positions of every game, through the engine contract only, for the image tests.

Each playout picks a player count and options, plays random legal moves (dice by their odds) and
keeps observations at a few plies: the start, the middle, the end (often finished), and sometimes
after a resignation or an agreed draw. Names of every kind (long, emoji, CJK, none) are added the
way the host adds them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engines
from engines import CHANCE, Game

NAMES = ("Ann", "Bartholomew the Magnificent of Upper Wobbleton", "Zoë 🐉🎲", "王小明", "🔥🔥🔥🔥🔥🔥", "x",
         "Ólafur Ragnar Grímsson-Þórðarson", "😀 smile")


def setup(cls: type[Game], k: int, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """Playout ``k`` cycles through the player counts and every option's values, so a few playouts
    cover every variant value; a combination the game rejects is redrawn at random."""
    counts = list(cls.players)
    players = counts[k % len(counts)]
    options = {o.name: o.choices[(k + i) % len(o.choices)] for i, o in enumerate(cls.options_spec)}
    try:
        return players, cls.check_options(players, options)
    except ValueError:
        return random_setup(cls, rng)


def random_setup(cls: type[Game], rng: random.Random) -> tuple[int, dict[str, Any]]:
    for _ in range(50):
        players = rng.choice(list(cls.players))
        options = {o.name: rng.choice(o.choices) for o in cls.options_spec}
        try:
            return players, cls.check_options(players, options)
        except ValueError:
            continue
    return cls.players.start, cls.check_options(cls.players.start, {})


def step(game: Game, rng: random.Random) -> None:
    seat = rng.choice(sorted(game.to_move()))
    if seat == CHANCE:
        texts, weights = zip(*game.chance_outcomes(), strict=True)
        game.play(CHANCE, rng.choices(texts, weights)[0])
    else:
        game.play(seat, rng.choice(game.legal_moves(seat)))


def observations(game: Game, rng: random.Random) -> Iterator[dict[str, Any]]:
    """A spectator's view and one random seat's view, with names on some of them."""
    for seat in (None, rng.randrange(game.num_players)):
        obs = game.observation(seat)
        if rng.random() < 0.7:
            obs["player_names"] = [rng.choice(NAMES) for _ in range(game.num_players)]
        yield obs


def positions(name: str, playouts: int, seed: int = 0, max_plies: int = 400) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(variant key, observation)`` pairs; the key names the player count and options."""
    cls = engines.get(name)
    for k in range(playouts):
        rng = random.Random(f"{name}:{seed}:{k}")
        players, options = setup(cls, k, rng)
        key = f"{players}p {sorted(options.items())}"
        game = cls.new(players, options)
        stops = sorted({0, rng.randrange(1, 40), rng.randrange(40, max_plies)})
        ending = rng.choice(("play", "play", "resign", "draw"))
        for target in stops:
            while len(game.history) < target and game.outcome() is None:
                step(game, rng)
            for obs in observations(game, rng):
                yield key, obs
        if game.outcome() is None:
            if ending == "resign":
                game.eliminate(rng.choice(game.active_seats()), rng.choice(("resign", "timeout")))
            elif ending == "draw":
                game.agree_draw(rng.choice(game.active_seats()))
            else:
                plies = 0
                while game.outcome() is None and plies < 3000:
                    step(game, rng)
                    plies += 1
            for obs in observations(game, rng):
                yield key, obs
