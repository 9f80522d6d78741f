"""The engine cache: bounded (least recently used dropped), and never stale when another process moved."""

from __future__ import annotations

import engines
from data.db import Database
from engines import CHANCE
from host.app import Host
from host.engine_cache import EngineCache, estimate, extend
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim

ALICE, BOB = 101, 202
GAMES = {**engines.GAMES, DiceNim.name: DiceNim}


def test_the_cache_drops_the_least_recently_used_game() -> None:
    cache = EngineCache(2)
    one, two, three = (DiceNim.new(2, {}) for _ in range(3))
    cache[1] = (1, one)
    cache[2] = (1, two)
    assert cache.get(1) == (1, one)  # 1 is now the most recently used
    cache[3] = (1, three)
    assert 2 not in cache and 1 in cache and 3 in cache and len(cache) == 2
    cache[1] = (2, one)  # replacing an entry does not grow the cache
    assert len(cache) == 2 and cache.get(1) == (2, one)
    assert cache.pop(1) == (2, one) and cache.pop(1) is None


def test_a_stale_engine_is_extended_from_the_log_or_rebuilt() -> None:
    game = DiceNim.new(2, {})
    game.play(0, "bid 1")
    cached = game.clone()
    game.play(1, "bid 3")
    game.play(CHANCE, "roll 2")
    log = list(game.history)
    grown = extend(cached, log)
    assert grown is not None and grown.history == log and grown.to_move() == game.to_move()
    assert cached.history == log[:1], "the cached engine itself is never changed"
    assert extend(grown, log[:2]) is None  # built at a newer version than this log
    assert extend(cached, [(0, "bid 2"), *log[1:]]) is None  # not a prefix: replay instead
    assert extend(None, log) is None


async def test_hosts_of_two_processes_playing_alternately_never_move_on_a_stale_engine(shared: str) -> None:
    """Each move goes through the other process than the last one: a cached engine that ignored the other's
    moves would offer illegal moves or write a ply twice."""
    clock = FakeClock()
    first, second = await Database.open(shared), await Database.open(shared)
    try:
        a = Host(first, games=GAMES, renderer=text_renderer, now=clock)
        b = Host(second, games=GAMES, renderer=text_renderer, now=clock, engine_cache=1)
        lobby = await a.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
        game_id = (await b.lobby.accept(lobby.row.id, BOB)).row.id
        turn = 0
        while True:
            host = (a, b)[turn % 2]
            row, game = await host.session.engine_copy(game_id)  # this process's view: must include the other's moves
            if game.outcome() is not None or turn == 40:
                break
            seat = next(s for s in game.to_move() if s != CHANCE)
            user = row.user_at(seat)
            assert user is not None
            move = sorted(game.legal_moves(seat))[turn % len(game.legal_moves(seat))]
            await host.turns.play(game_id, user, move)
            turn += 1
        stored = [(m.seat, m.text) for m in await a.store.moves(game_id)]
        assert len(stored) == turn >= 10
        for host in (a, b):
            _, seen = await host.session.engine_copy(game_id)
            assert seen.history == stored
        replayed = engines.GAMES["zaic"].new(2, row.options)
        for seat, text in stored:  # every stored ply was legal where it was played
            replayed.apply_record(seat, text)
    finally:
        await first.close()
        await second.close()


async def test_a_small_cache_still_serves_every_game(db: Database, clock: FakeClock) -> None:
    host = Host(db, games=GAMES, renderer=text_renderer, now=clock, engine_cache=1)
    ids = []
    for creator in (1, 2, 3):
        lobby = await host.lobby.challenge(game="zaic", creator=creator, opponents=[creator + 10])
        ids.append((await host.lobby.accept(lobby.row.id, creator + 10)).row.id)
    for game_id in ids:  # each read evicts the one before; each is rebuilt from its log
        row, game = await host.session.engine_copy(game_id)
        seat = next(iter(game.to_move()))
        user = row.user_at(seat)
        assert user is not None
        await host.turns.play(game_id, user, sorted(game.legal_moves(seat))[0])
    games = await host.session.cached_engines(await host.store.get_many(ids))
    assert [len(g.history) for g in games] == [1, 1, 1]


def test_the_cache_is_bounded_by_estimated_bytes_with_the_count_as_fallback() -> None:
    long_game = engines.GAMES["ziggurat"].new(2, {})
    long_game.history = [(0, "x")] * 400  # only its length counts in the estimate
    short_game = engines.GAMES["zaic"].new(2, {})
    each = estimate(long_game)
    cache = EngineCache(size=2000, budget=10 * each)
    for game_id in range(50):
        cache[game_id] = (1, long_game)
    assert len(cache) == 10 and cache.bytes <= 10 * each and 49 in cache and 39 not in cache
    cache.pop(49)
    cache[48] = (2, long_game)  # replacing an entry counts it once
    assert len(cache) == 9 and cache.bytes == 9 * each
    by_count = EngineCache(size=3)
    for game_id in range(5):
        by_count[game_id] = (1, short_game)
    assert len(by_count) == 3
    cache.clear()
    assert cache.bytes == 0 and len(cache) == 0
