"""ZÈRTZ on 61 rings: hard finds a forced win in two and defends against one, in positions of boardspace records.

On 61 rings the root has up to ~2900 moves, so the search completes fewer placement turns there than on 37;
these positions (the Zertz+24 games of tests/data/zrtz-records, found by trying every position) check that
the forced-win search and the defence still work at hard's real work. Each claim is checked here with the
search's move maker (itself checked against the engine in test_zertz_search.py), trying every move.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import ai
from ai import zertz
from engines.zrtz import Zrtz
from engines.zrtz.boardspace import move_text, parse, read_text

RECORDS = Path(__file__).resolve().parent.parent / "data" / "zrtz-records"

ATTACK = [("T_Z24-bluedog-eduardo86-2015-11-09-1935.sgf", 24), ("U_Z24-guest-Dumbot-2010-11-26-1356.sgf", 45),
          ("Z24-t1M0t8yk-Dumbot-2008-10-28-0200.sgf", 26), ("Z24-versaglobe-eratos-2013-10-14-2120.sgf", 25)]
"""(record, ply): the side to move has a forced win in two and no win in one."""

DEFENCE = [("T_Z24-superqwert-bluedog-2022-11-27-1416.sgf", 29), ("Z24-Dumbot-bluedog-2005-12-13-0003.sgf", 13),
           ("Z24-t1M0t8yk-Dumbot-2008-10-28-0200.sgf", 25)]
"""(record, ply): were the side to move to pass, the opponent would have a forced win in two."""


@cache
def position(name: str, ply: int) -> Zrtz:
    record = parse(read_text(RECORDS / name))
    game = Zrtz.new(2, {"rings": record.rings})
    for turn in record.turns[:ply]:
        game.play(turn.player, move_text(game, turn))
    return game


def wins_within_two(rules: zertz.Rules, pos: zertz.Pos) -> bool:
    """The side to move in ``pos`` wins in one, or has a move after which every reply leaves it a win in one."""
    me = pos.turn
    if rules.wins_in_one(pos):
        return True
    for move in rules.legal(pos):
        child = rules.play(pos, move)
        if child.winner is not None:
            continue
        if all(_won(rules, rules.play(child, reply), me) for reply in rules.legal(child)):
            return True
    return False


def _won(rules: zertz.Rules, pos: zertz.Pos, me: int) -> bool:
    if pos.winner is not None:
        return pos.winner == me
    return rules.wins_in_one(pos)


@pytest.mark.parametrize(("name", "ply"), ATTACK)
def test_hard_finds_a_forced_win_in_two_on_61_rings(name: str, ply: int) -> None:
    game = position(name, ply)
    rules = zertz.rules_for(game)
    pos = rules.from_game(game)
    assert rules.n == 61 and not rules.wins_in_one(pos)
    move = ai.choose(game, game.turn, "hard", seed=1)
    after = rules.play(pos, rules.parse(move))
    assert after.winner is None
    assert all(_won(rules, rules.play(after, reply), pos.turn) for reply in rules.legal(after))


@pytest.mark.parametrize(("name", "ply"), DEFENCE)
def test_hard_defends_against_a_forced_win_in_two_on_61_rings(name: str, ply: int) -> None:
    game = position(name, ply)
    rules = zertz.rules_for(game)
    pos = rules.from_game(game)
    assert rules.n == 61 and wins_within_two(rules, pos.copy_turn())  # the threat
    sample = rules.legal(pos)[::50]
    assert sum(wins_within_two(rules, rules.play(pos, m)) for m in sample) > len(sample) // 2  # most moves lose
    move = ai.choose(game, game.turn, "hard", seed=1)
    assert not wins_within_two(rules, rules.play(pos, rules.parse(move)))
