"""ZÈRTZ tactics: the hard level takes a win in one move, and a forced win in two, whenever one exists.

The positions come from the boardspace records in tests/data/zrtz-records (the last plies of every
game, where the wins are). A small exhaustive solver written here decides which positions hold such a
win; a position whose tree is too big for it within ``NODES`` plays is left out, so the set is the
narrow, forcing positions (capture chains) where a win must never be missed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import ai
from engines.zrtz import Zrtz
from engines.zrtz.boardspace import move_text, parse, read_text

RECORDS = Path(__file__).resolve().parent.parent / "data" / "zrtz-records"
LAST_PLIES = 6
MAX_MOVES = 40
NODES = 1500


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
    for move in game.legal_moves(seat):
        after = child(game, seat, move, left)
        if after.outcome() is None and forces_win(after, seat, left):
            return True
    return False


@cache
def tactics() -> tuple[list[Zrtz], list[Zrtz]]:
    """(positions with a win in one, positions with a forced win in two but none in one)."""
    one: list[Zrtz] = []
    two: list[Zrtz] = []
    for path in sorted(RECORDS.glob("*.sgf")):
        record = parse(read_text(path))
        game = Zrtz.new(2, {"rings": record.rings})
        seen: list[Zrtz] = []
        for turn in record.turns:
            if turn.resign or game.outcome() is not None:
                break
            seen.append(game.clone())
            game.play(turn.player, move_text(game, turn))
        for position in seen[-LAST_PLIES:]:
            seat = position.turn
            if len(position.legal_moves(seat)) > MAX_MOVES:
                continue
            left = [NODES]
            try:
                if wins_now(position, seat, left):
                    one.append(position)
                elif wins_in_two(position, seat, left):
                    two.append(position)
            except TooBig:
                continue
    return one, two


def test_hard_takes_every_win_in_one() -> None:
    one, _ = tactics()
    assert len(one) >= 10
    for position in one:
        move = ai.choose(position, position.turn, "hard", seed=1)
        assert won(child(position, position.turn, move, [1]), position.turn)


def test_hard_finds_every_forced_win_in_two() -> None:
    _, two = tactics()
    assert two, "the records hold forced wins in two"
    for position in two:
        seat = position.turn
        move = ai.choose(position, seat, "hard", seed=1)
        assert forces_win(child(position, seat, move, [1]), seat, [10**6])

