"""Presses per move with the move builder, against typing the move, and the builder step's reply time.

Run: ``.venv/bin/python -m bench.bench_clicks`` (``--games N`` random games per game, default 6;
``--records N`` ZÈRTZ records, default all; ``--no-discord`` skips the reply times).

Presses: for every move of the boardspace.net ZÈRTZ records in ``../shared/zrtz-records`` and of random
games of every game, the builder's picks (steps with a real choice; a step with one choice is taken
for the player), plus Play, plus the Move press that opens the builder. Typing: the characters of the
notation and the autocomplete picks (``host.choices.narrow`` rounds until the move itself is listed).
Reply time: each builder press (image included) through the fake Discord, playing whole games.
Target (issue 21): median ≤ 3 presses in every game, p95 step reply under 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path

import engines
from bench.common import percentile
from engines import CHANCE, Game
from engines.zrtz.boardspace import move_text, parse, read_text
from host.play.builder import SECRET, presses
from host.play.choices import narrow

RECORDS = Path(__file__).resolve().parents[2] / "shared" / "zrtz-records"


def autocomplete_picks(game: Game, seat: int, move: str) -> int:
    """Autocomplete rounds a typist needs: pick the group holding the move until the move itself is listed."""
    moves = game.legal_moves(seat)
    typed, rounds = "", 0
    while rounds < 10:
        rounds += 1
        listed = narrow(moves, typed, lambda m: m)
        values = [value for _, value in listed]
        if move in values:
            return rounds
        stems = [v for v in values if move.startswith(v)]
        if not stems:
            return rounds + 1  # the typist types the rest
        typed = max(stems, key=len)
    return rounds


class Tally:
    def __init__(self) -> None:
        self.picks: list[int] = []
        self.chars: list[int] = []
        self.rounds: list[int] = []

    def add(self, game: Game, seat: int, move: str) -> None:
        if game.move_picks(seat)[0][1][0].kind == SECRET:
            return  # chosen in a DM menu, not in the builder
        self.picks.append(presses(game, seat, move))
        self.chars.append(len(move))
        self.rounds.append(autocomplete_picks(game, seat, move))

    def line(self, label: str) -> str:
        with_play = [p + 1 for p in self.picks]
        total = [p + 2 for p in self.picks]
        return (f"{label:<24} moves {len(self.picks):>5} | picks med {statistics.median(self.picks):.0f} "
                f"max {max(self.picks)} | +Play med {statistics.median(with_play):.0f} | +Move+Play med "
                f"{statistics.median(total):.0f} max {max(total)} | typed chars med "
                f"{statistics.median(self.chars):.0f} max {max(self.chars)}, autocomplete picks med "
                f"{statistics.median(self.rounds):.0f}")


def records(limit: int | None) -> Tally:
    tally = Tally()
    for path in sorted(RECORDS.glob("*.sgf"))[:limit]:
        record = parse(read_text(path))
        game = engines.get("zrtz").new(2, {"rings": record.rings})
        for turn in record.turns:
            if turn.resign or game.outcome() is not None:
                break
            move = game.clone().play(turn.player, move_text(game, turn))
            tally.add(game, turn.player, move)
            game.play(turn.player, move)
    return tally


def random_games(name: str, games: int) -> Tally:
    tally = Tally()
    cls = engines.get(name)
    for k in range(games):
        rng = random.Random(f"clicks:{name}:{k}")
        players = list(cls.players)[k % len(cls.players)]
        options = {"round_limit": 30} if name == "ziggurat" else {}
        game = cls.new(players, options)
        while game.outcome() is None and len(game.history) < 3000:
            seat = rng.choice(sorted(game.to_move()))
            if seat == CHANCE:
                texts, weights = zip(*game.chance_outcomes(), strict=True)
                game.play(CHANCE, rng.choices(texts, weights)[0])
                continue
            move = rng.choice(game.legal_moves(seat))
            tally.add(game, seat, move)
            game.play(seat, move)
    return tally


async def reply_times(games: list[str]) -> list[float]:
    """Whole games through the fake Discord by builder presses: the seconds each press took to answer."""
    from tests.e2e.builder_driver import Presses, is_builder, open_builder, play_one_move
    from tests.fakediscord import FakeDiscord, running_bot
    from zbot import Config, create_bot

    logging.getLogger("discord").setLevel(logging.CRITICAL)
    stats = Presses()
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            fake.timeout = 30
            config = Config(token="bench", database_path=Path(folder) / "bench.sqlite3", api_base=fake.api_base,
                            gateway_url=fake.gateway_url, sync=True, guild_ready_timeout=0,
                            rate_burst=0)  # the driver presses far faster than a person
            bot = create_bot(config)
            async with running_bot(fake, bot):
                for name in games:
                    rec = await fake.slash("alice", f"{name} new", {"opponent": "bob"})
                    challenge = rec.original
                    accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
                    game_id = int(accept.rsplit(":", 1)[1])
                    await fake.click("bob", challenge, accept)
                    thread = fake.thread(f"{engines.get(name).title} #{game_id}")
                    rng = random.Random(name)
                    for _ in range(40):  # the first 40 moves of each: enough samples, bounded time
                        row, state = await bot.host.session.engine_copy(game_id)
                        if row.status != "active":
                            break
                        seat = min(s for s in state.to_move() if s >= 0)
                        if state.move_picks(seat)[0][1][0].kind == SECRET:
                            break
                        user = "alice" if row.user_at(seat) == int(fake.user("alice").id) else "bob"
                        board = next(m for m in reversed(fake.messages(thread)) if f"mo:{game_id}" in m.custom_ids())
                        builder = await open_builder(fake, user, board, game_id, stats)
                        builder = await play_one_move(fake, user, builder, rng, stats)
                        while is_builder(builder):
                            builder = await play_one_move(fake, user, builder, rng, stats, opened=False)
    return stats.reply_seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--records", type=int, default=None)
    parser.add_argument("--no-discord", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    print(records(args.records).line("zrtz (boardspace records)"))
    for name in sorted(engines.GAMES):
        print(random_games(name, args.games).line(f"{name} (random games)"))
    if not args.no_discord:
        seconds = asyncio.run(reply_times(["zaic", "zrtz", "zarathustra", "ziggurat"]))
        ms = [s * 1000 for s in seconds]
        print(f"builder press reply (image included): n {len(ms)}  p50 {percentile(ms, 50):.0f} ms  "
              f"p95 {percentile(ms, 95):.0f} ms  max {max(ms):.0f} ms")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
