"""The shared engine contract, run on every registered game through seeded random playouts."""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines import CHANCE, Game, IllegalMove
from tests.engines.toy import DiceNim

ALL_GAMES: dict[str, type[Game]] = {**engines.GAMES, DiceNim.name: DiceNim}
PLAYOUTS = 200
"""Playouts of the cheapest games; a dearer game plays fewer, so that every game costs about the same."""
SIZED = {"ziggurat": 60, "zodiac": 90, "zrtz": 90, "zarathustra": 150}
"""Measured CPU per playout: ZÈRTZ, Zodiac 0.065 s, Ziggurat 0.10 s, Zarathustra 0.038 s, Zaic 0.028 s; so each
game takes about 6 s. The seeds are the first of the 200 every game had before, so this is a subset of that."""
MAX_PLIES = 3000
GARBAGE = ("", "zz99", "resign", "!!", "a0 x", "move nowhere", "ß" * 40)


def snapshot(game: Game) -> str:
    return json.dumps([game.to_dict(), [game.observation(s) for s in range(game.num_players)]], sort_keys=True)


def random_options(cls: type[Game], rng: random.Random) -> dict:
    """A random valid option set: combinations a game rejects are redrawn."""
    for _ in range(50):
        players = rng.choice(list(cls.players))
        options = {o.name: rng.choice(o.choices) for o in cls.options_spec}
        try:
            cls.check_options(players, options)
        except ValueError:
            continue
        return {"players": players, "options": options}
    return {"players": cls.players.start, "options": {}}


def step(game: Game, rng: random.Random) -> None:
    """One random step: chance sampled by probability, otherwise a random seat's random legal move."""
    movers = sorted(game.to_move())
    seat = rng.choice(movers)
    if seat == CHANCE:
        assert game.has_chance, "the dice moved in a game whose has_chance is False"
        outcomes = game.chance_outcomes()
        assert outcomes, "CHANCE is to move but offers no outcomes"
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        texts, weights = zip(*outcomes, strict=True)
        game.play(CHANCE, rng.choices(texts, weights)[0])
        return
    moves = game.legal_moves(seat)
    assert moves, f"{game.seat_name(seat)} is to move but has no legal move"
    assert moves == sorted(set(moves)), "legal moves must be sorted and unique"
    for probe in rng.sample(moves, min(3, len(moves))):
        game.clone().play(seat, probe)
    game.play(seat, rng.choice(moves))


def check_position(game: Game, rng: random.Random) -> None:
    movers = game.to_move()
    for seat in range(game.num_players):
        assert bool(game.legal_moves(seat)) == (seat in movers), f"seat {seat} legal moves vs to_move"
    before = snapshot(game)
    for seat in [*movers, *range(game.num_players)]:
        bad = rng.choice(GARBAGE)
        with pytest.raises(IllegalMove):
            game.play(seat, bad)
        assert snapshot(game) == before, f"an illegal move {bad!r} changed the game"


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_random_playouts_keep_the_contract(name: str) -> None:
    check_playouts(ALL_GAMES[name], SIZED.get(name, PLAYOUTS))


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_resigning_ranks_the_seat_last(name: str) -> None:
    check_resignation(ALL_GAMES[name])


def check_playouts(cls: type[Game], playouts: int) -> None:
    """Seeded random playouts of ``cls`` that check every rule of the contract along the way."""
    name = cls.name
    rolled = False
    for playout in range(playouts):
        rng = random.Random(f"{name}:{playout}")
        setup = random_options(cls, rng)
        game = cls.new(setup["players"], setup["options"])
        checkpoints = {rng.randrange(1, 60) for _ in range(2)}
        plies = 0
        while game.outcome() is None:
            assert plies < MAX_PLIES, f"playout {playout} did not end"
            if plies in checkpoints or plies == 0:
                check_position(game, rng)
                data = game.to_dict()
                assert cls.from_dict(json.loads(json.dumps(data))).to_dict() == data
                twin = game.clone()
                step(twin, rng)
                assert game.to_dict() == data, "playing on a clone changed the original"
            rolled = rolled or CHANCE in game.to_move()
            step(game, rng)
            plies += 1
        outcome = game.outcome()
        assert outcome is not None and game.to_move() == frozenset()
        assert len(outcome.ranks) == game.num_players and min(outcome.ranks) == 1
        assert outcome.winners == {s for s, r in enumerate(outcome.ranks) if r == 1}
        assert all(game.legal_moves(s) == [] for s in range(game.num_players))
        json.dumps(game.observation(None))
        assert cls.from_dict(game.to_dict()).outcome() == outcome
    assert rolled == cls.has_chance, f"has_chance is {cls.has_chance}; the dice moved: {rolled}"


def check_resignation(cls: type[Game]) -> None:
    """A resignation early in the game ranks the seat last, in every player count."""
    name = cls.name
    for players in cls.players:
        game = cls.new(players)
        rng = random.Random(name)
        for _ in range(6):
            if game.outcome() is None:
                step(game, rng)
        if game.outcome() is not None:
            continue
        game.eliminate(0, "resign")
        if players == 2 or len({game.teams()[s] for s in game.active_seats()}) == 1:
            outcome = game.outcome()
            assert outcome is not None and 0 not in outcome.winners
        else:
            assert game.outcome() is None and 0 not in game.to_move()
            while game.outcome() is None:
                step(game, rng)
        outcome = game.outcome()
        assert outcome is not None and outcome.ranks[0] == max(outcome.ranks)
        assert cls.from_dict(game.to_dict()).outcome() == outcome


def test_unknown_options_and_player_counts_are_refused() -> None:
    for cls in ALL_GAMES.values():
        with pytest.raises(ValueError):
            cls.new(cls.players.start, {"no_such_option": 1})
        with pytest.raises(ValueError, match=f"is played by {cls.player_count()}, not {cls.players.stop}$"):
            cls.new(cls.players.stop)


def test_player_counts_read_as_words_never_two_to_two() -> None:
    assert engines.get("zaic").player_count() == "2 players"
    assert engines.get("ziggurat").player_count() == "2-4 players"


def test_agreed_draw_ends_the_game_for_everyone() -> None:
    game = DiceNim.new(2)
    game.agree_draw(1)
    outcome = game.outcome()
    assert outcome is not None and outcome.is_draw and outcome.winners == {0, 1}
    assert DiceNim.from_dict(game.to_dict()).outcome() == outcome


def test_hidden_bids_stay_hidden_until_everyone_bid() -> None:
    game = DiceNim.new(2)
    game.play(0, "bid 3")
    assert game.observation(1)["bids"] == {}
    other = DiceNim.new(2)
    other.play(0, "bid 1")
    assert other.observation(1) == game.observation(1)
    game.play(1, "BID   2")
    assert game.observation(1)["bids"] == {"0": 3, "1": 2}
    assert game.to_move() == {CHANCE}
