"""ZÈRTZ tactics: the hard level takes a win in one move, and a forced win in two, whenever one exists.

The positions come from the boardspace records in tests/data/zrtz-records: the last ``LAST_PLIES``
plies of every game (where the wins are), every position there with at most ``MAX_MOVES`` legal moves
(an exhaustive solver over all 1062 positions of the records would take minutes: ~1M plays for the
wins in one alone). A small solver written here (independent of ai/solve.py) decides which of them
hold such a win; it tries its own moves most forcing first (fewest replies: captures are compulsory)
and gives up on a position past ``NODES`` plays, which only ever leaves out positions it could not
decide (10 of 142). The three forced wins hard missed before its solver ordered moves (issue 12) must be
in the set.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import ai
import engines
from engines.zrtz import Zrtz
from engines.zrtz.boardspace import move_text, parse, read_text
from tests.once import once

RECORDS = Path(__file__).resolve().parent.parent / "data" / "zrtz-records"
LAST_PLIES = 6
MAX_MOVES = 400
NODES = 6000
MISSED_BEFORE = {("T_Z11-Raccoons-SOLFAREMI-2023-10-19-1206.sgf", 36), ("Z-Dumbot-guest-2019-08-19-0753.sgf", 33),
                 ("Z-t1M0t8yk-Dumbot-2010-01-01-1452.sgf", 38)}
"""(record, ply) of forced wins in two that hard missed before its solver tried forcing moves first (issue 12)."""


class TooBig(Exception):
    pass


def won(game: Zrtz, seat: int) -> bool:
    outcome = game.outcome()
    return outcome is not None and seat in outcome.winners and not outcome.is_draw


def child(game: Zrtz, seat: int, move: str, left: list[int]) -> Zrtz:
    left[0] -= 1
    if left[0] < 0:
        raise TooBig
    twin = game.clone()
    twin.play(seat, move)
    return twin


def wins_now(game: Zrtz, seat: int, left: list[int]) -> bool:
    return any(won(child(game, seat, m, left), seat) for m in game.legal_moves(seat))


def forces_win(game: Zrtz, seat: int, left: list[int]) -> bool:
    """``game`` has the opponent to move: every reply leaves ``seat`` a win in one (or loses at once)."""
    opp = 1 - seat
    for reply in game.legal_moves(opp):
        after = child(game, opp, reply, left)
        if after.outcome() is not None:
            if not won(after, seat):
                return False
        elif not wins_now(after, seat, left):
            return False
    return True


def wins_in_two(game: Zrtz, seat: int, left: list[int]) -> bool:
    """Some move of ``seat`` (not winning at once) forces a win in one after every reply."""
    candidates = []
    for move in game.legal_moves(seat):
        after = child(game, seat, move, left)
        if after.outcome() is None:
            left[0] -= 3  # reading the replies costs about as much as a few plays
            candidates.append((len(after.legal_moves(1 - seat)), after))
    candidates.sort(key=lambda c: c[0])
    return any(forces_win(after, seat, left) for _, after in candidates)


def tactics() -> tuple[list[Zrtz], list[Zrtz]]:
    """(positions with a win in one, positions with a forced win in two but none in one)."""
    one, two, _ = tactics_where()
    return one, two


@cache
def tactics_where() -> tuple[list[Zrtz], list[Zrtz], set[tuple[str, int]]]:
    """``tactics()`` and the (record, ply) of each forced win in two. Solving takes 18 s of CPU, so it runs once,
    and again only when the records, the engines or this file change (tests/once.py); every worker rebuilds the
    positions by replaying the records."""
    inputs = (RECORDS, Path(__file__), Path(engines.__file__).parent)
    found = {(name, ply): kind for name, ply, kind in once("zrtz-tactics", solve_tactics, inputs)}
    one: list[Zrtz] = []
    two: list[Zrtz] = []
    for name, ply, position in record_positions():
        kind = found.get((name, ply))
        if kind is not None:
            (one if kind == "one" else two).append(position)
    return one, two, {key for key, kind in found.items() if kind == "two"}


def record_positions() -> Iterator[tuple[str, int, Zrtz]]:
    """(record, ply, position) of the last ``LAST_PLIES`` plies of every record, in order."""
    for path in sorted(RECORDS.glob("*.sgf")):
        record = parse(read_text(path))
        game = Zrtz.new(2, {"rings": record.rings})
        seen: list[Zrtz] = []
        for turn in record.turns:
            if turn.resign or game.outcome() is not None:
                break
            seen.append(game.clone())
            game.play(turn.player, move_text(game, turn))
        for ply in range(max(0, len(seen) - LAST_PLIES), len(seen)):
            yield path.name, ply, seen[ply]


def solve_tactics() -> list[tuple[str, int, str]]:
    """(record, ply, "one" or "two") of every position with a win in one, or a forced win in two but none in one."""
    found = []
    for name, ply, position in record_positions():
        seat = position.turn
        if len(position.legal_moves(seat)) > MAX_MOVES:
            continue
        left = [NODES]
        try:
            if wins_now(position, seat, left):
                found.append((name, ply, "one"))
            elif wins_in_two(position, seat, left):
                found.append((name, ply, "two"))
        except TooBig:
            continue
    return found


def test_hard_takes_every_win_in_one() -> None:
    one, _ = tactics()
    assert len(one) >= 20
    for position in one:
        move = ai.choose(position, position.turn, "hard", seed=1)
        assert won(child(position, position.turn, move, [1]), position.turn)


def test_hard_finds_every_forced_win_in_two() -> None:
    _, two, where = tactics_where()
    assert MISSED_BEFORE <= where
    assert len(two) >= 8
    for position in two:
        seat = position.turn
        move = ai.choose(position, seat, "hard", seed=1)
        assert forces_win(child(position, seat, move, [1]), seat, [10**6])

