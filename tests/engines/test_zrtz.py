"""ZÈRTZ rules: opening counts, placement and removal, compulsory chains, isolation, the ends of the game."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import IllegalMove
from engines.zrtz import Zrtz
from engines.zrtz.board import board
from engines.zrtz.game import NO_RING, VACANT
from tests.engines.test_contract import check_playouts, check_resignation

SYMBOL = {"w": 0, "g": 1, "b": 2, ".": VACANT}


def position(layout: dict[str, str], rings: int = 37, pool: tuple[int, int, int] = (6, 8, 10),
             captured: tuple[tuple[int, int, int], ...] = ((0, 0, 0), (0, 0, 0)), turn: int = 0) -> Zrtz:
    """A game whose board holds only the rings in ``layout`` (ring name -> 'w', 'g', 'b' or '.')."""
    game = Zrtz.new(2, {"rings": rings})
    game.cells = [NO_RING] * len(game.cells)
    for name, symbol in layout.items():
        game.cells[game.board.index[name]] = SYMBOL[symbol]
    game.pool = list(pool)
    game.captured = [list(c) for c in captured]
    game.turn = turn
    game.seen = {game._key(): 1}
    return game


def full_board(rings: int = 37, **marbles: str) -> dict[str, str]:
    layout = dict.fromkeys(board(rings).names, ".")
    layout.update(marbles)
    return layout


def snapshot(game: Zrtz) -> str:
    return json.dumps([game.to_dict(), game.observation(None)], sort_keys=True)


# ----- board and opening ------------------------------------------------------------------

@pytest.mark.parametrize(("rings", "moves", "free"), [(37, 1944, 18), (48, 2961, 21), (61, 4320, 24)])
def test_opening_move_counts(rings: int, moves: int, free: int) -> None:
    game = Zrtz.new(2, {"rings": rings})
    legal = game.legal_moves(0)
    assert len(legal) == moves
    assert len(game.observation(0)["free"]) == free
    assert game.legal_moves(1) == []


def test_board_shapes_follow_boardspace() -> None:
    assert board(37).heights == (4, 5, 6, 7, 6, 5, 4)
    assert board(48).heights == (5, 6, 7, 8, 7, 6, 5, 4) and board(48).columns == "abcdefgh"
    assert board(61).columns == "abcdefghi" and len(board(61).names) == 61
    b = board(37)
    # d4 is the centre: six neighbours; a1 is a corner with three.
    assert sorted(b.names[n] for n in b.neighbours[b.index["d4"]]) == ["c3", "c4", "d3", "d5", "e3", "e4"]
    assert sum(n >= 0 for n in b.neighbours[b.index["a1"]]) == 3


def test_blitz_only_on_37_rings_and_changes_goals() -> None:
    with pytest.raises(ValueError):
        Zrtz.new(2, {"rings": 48, "blitz": True})
    game = Zrtz.new(2, {"blitz": "yes"})
    assert game.pool == [5, 7, 9] and game.goal == (3, 4, 5) and game.each == 2


# ----- placements -------------------------------------------------------------------------

def test_placement_canonical_text_and_variations() -> None:
    for text in ("Wd4 A1", " w d4  a1 ", "WD4,A1", "wd4-a1", "wd4a1"):
        game = Zrtz.new(2)
        assert game.play(0, text) == "wd4 a1"
    game = Zrtz.new(2)
    game.play(0, "bd4 g4")
    assert game.pool == [6, 8, 9]
    assert game.observation(0)["cells"][game.board.index["d4"]] == "b"
    assert game.board.index["g4"] not in [i for i, c in enumerate(game.observation(0)["cells"]) if c != "x"]


@pytest.mark.parametrize(("text", "why"), [
    ("wd4", "must also remove"),
    ("wd4 d3", "not free"),
    ("wa1 a1", "just placed"),
    ("wd9 a1", "no ring d9"),
    ("xd4 a1", "can't read"),
])
def test_bad_placements_are_refused_without_change(text: str, why: str) -> None:
    game = Zrtz.new(2)
    before = snapshot(game)
    with pytest.raises(IllegalMove, match=why):
        game.play(0, text)
    assert snapshot(game) == before


def test_placing_on_an_occupied_or_removed_ring_is_refused() -> None:
    game = Zrtz.new(2)
    game.play(0, "wd4 a1")
    with pytest.raises(IllegalMove, match="already holds"):
        game.play(1, "gd4 a2")
    with pytest.raises(IllegalMove, match="removed"):
        game.play(1, "ga1 a2")


def test_no_free_ring_means_no_removal() -> None:
    # Marbles on all 18 outer rings: no inner ring can slide out, so placements remove nothing.
    b = board(37)
    outer = {b.names[r]: "b" for r in range(37) if min(b.neighbours[r]) < 0}
    game = position(full_board(**outer))
    legal = game.legal_moves(0)
    assert len(legal) == 3 * 19 and "wd4" in legal and not any(" " in m for m in legal)
    with pytest.raises(IllegalMove, match="not free"):
        game.play(0, "wd4 d5")
    assert game.play(0, "Wd4") == "wd4" and len(game.observation(1)["free"]) == 0


def test_only_ring_just_filled_was_free() -> None:
    """If the only free ring is the one the marble goes on, nothing is removed."""
    game = position({"d4": "w", "d5": ".", "e4": "w"})
    assert game.observation(0)["free"] == ["d5"]
    assert game.legal_moves(0) == ["bd5", "gd5", "wd5"]
    with pytest.raises(IllegalMove, match="just placed"):
        game.play(0, "gd5 d5")


# ----- captures ---------------------------------------------------------------------------

def test_capture_is_compulsory_and_listed_alone() -> None:
    game = position(full_board(d4="w", d5="b"))
    legal = game.legal_moves(0)
    assert legal == sorted(["d4xd6", "d5xd3"])
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="compulsory"):
        game.play(0, "wa1 a2")
    with pytest.raises(IllegalMove, match="cannot pass"):
        game.play(0, "pass")
    assert snapshot(game) == before
    assert game.play(0, "D5 x D3") == "d5xd3"
    assert game.captured[0] == [1, 0, 0]
    cells = game.observation(0)["cells"]
    assert cells[game.board.index["d3"]] == "b" and cells[game.board.index["d4"]] == "."


def test_chain_must_continue_and_player_chooses_among_captures() -> None:
    # d2 jumps d3 to d4 and must go on over d5 to d6; a1 has a three-hop chain; d3 can take d2.
    game = position(full_board(d2="g", d3="w", d5="b", a1="w", b2="w"))
    assert game.legal_moves(0) == ["a1xc3xe2xc1", "d2xd4xd6", "d3xd1"]
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="keep jumping"):
        game.play(0, "d2xd4")
    with pytest.raises(IllegalMove, match="cannot jump"):
        game.play(0, "d2xd5")
    assert snapshot(game) == before
    game.play(0, "d2xd4xd6")
    assert game.captured[0] == [1, 0, 1] and game.turn == 1
    assert game.history[-1] == (0, "d2xd4xd6")


def test_capture_that_reaches_the_goal_wins_after_the_whole_chain() -> None:
    game = position(full_board(d2="g", d3="w", d5="w"), captured=((3, 0, 0), (0, 0, 0)))
    game.play(0, "d2xd4xd6")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {0} and outcome.reason == "Blue captured 5 white marbles"
    assert game.captured[0][0] == 5
    each = position(full_board(d4="w", d5="b"), captured=((2, 3, 3), (0, 0, 0)))
    each.play(0, "d5xd3")
    assert each.outcome() is not None and each.outcome().reason == "Blue captured 3 marbles of each colour"


# ----- isolation --------------------------------------------------------------------------

def test_isolation_by_removal_gives_the_group_to_the_mover() -> None:
    # a1 (white) and a2 (black) hang on the rest of the board by b1 alone; removing b1 cuts them off.
    game = position({"a1": "w", "a2": "b", "b1": ".", "c1": ".", "c2": ".", "d1": ".", "d2": "."})
    assert "b1" in game.observation(0)["free"]
    game.play(0, "gd2 b1")
    assert game.captured[0] == [1, 0, 1] and game.outcome() is None
    cells = game.observation(0)["cells"]
    assert cells[game.board.index["a1"]] == "x" and cells[game.board.index["a2"]] == "x"
    assert cells[game.board.index["d2"]] == "g"
    assert game.last is not None and sorted(n for n, _ in game.last["claimed"]) == ["a1", "a2"]


def test_group_with_a_vacant_ring_stays_in_play_and_filling_it_captures() -> None:
    # Two islands: {a1, a2} (a1 holds white, a2 vacant) and the main part. The island stays in play.
    layout = {"a1": "w", "a2": ".", "c1": ".", "c2": ".", "c3": ".", "d1": ".", "d2": ".", "d3": "."}
    game = position(layout)
    legal = game.legal_moves(0)
    assert any(m.startswith("ga2 ") for m in legal)  # placing on the island is allowed
    assert "gc1 a2" in legal  # a free ring of the island may be removed (that isolates a1)
    game.play(0, "ga2 d3")
    assert game.captured[0] == [1, 1, 0]  # filling the island's last vacant ring claims it
    cells = game.observation(0)["cells"]
    assert cells[game.board.index["a1"]] == "x" and cells[game.board.index["a2"]] == "x"


def test_board_filled_wins_for_the_mover() -> None:
    game = position({"d4": ".", "d5": "w", "e4": "g", "e3": "b"}, captured=((0, 0, 0), (1, 1, 1)))
    game.play(0, "bd4")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {0} and "filled" in outcome.reason
    assert game.captured[0] == [1, 1, 2]


# ----- empty pool, passing, repetition ----------------------------------------------------

def test_empty_pool_uses_own_captures_only_when_the_whole_pool_is_empty() -> None:
    layout = full_board()
    game = position(layout, pool=(0, 0, 1), captured=((2, 0, 0), (0, 0, 0)))
    assert {m[0] for m in game.legal_moves(0)} == {"b"}
    with pytest.raises(IllegalMove, match="in the pool"):
        game.play(0, "wd4 a1")
    game = position(layout, pool=(0, 0, 0), captured=((2, 0, 0), (0, 3, 0)))
    assert {m[0] for m in game.legal_moves(0)} == {"w"}
    with pytest.raises(IllegalMove, match="among your captured"):
        game.play(0, "gd4 a1")
    game.play(0, "wd4 a1")
    assert game.captured[0] == [1, 0, 0] and game.pool == [0, 0, 0]
    assert {m[0] for m in game.legal_moves(1)} == {"g"}


def test_two_passes_in_a_row_draw() -> None:
    game = position(full_board(), pool=(0, 0, 0))
    assert game.legal_moves(0) == ["pass"]
    game.play(0, "pass")
    assert game.outcome() is None
    game.play(1, "PASS")
    outcome = game.outcome()
    assert outcome is not None and outcome.is_draw and "neither" in outcome.reason


def test_third_repetition_of_the_same_position_draws() -> None:
    # No ring is ever free here: d3-d4-d5 is a column hemmed in by marbles on c2-c5 and e2-e5.
    layout = {name: "b" for name in ("c2", "c3", "c4", "c5", "e2", "e3", "e4", "e5")}
    layout.update({"d3": "g", "d4": ".", "d5": "."})
    game = position(layout, pool=(0, 0, 0), captured=((1, 0, 0), (0, 0, 0)))
    cycle = ["wd4", "d3xd5", "pass", "wd4", "d5xd3", "pass"]
    for ply, move in enumerate(cycle * 2, start=1):
        assert move in game.legal_moves(game.turn)
        game.play(game.turn, move)
        assert (game.outcome() is None) == (ply < 12)
    outcome = game.outcome()
    assert outcome is not None and outcome.is_draw and "three times" in outcome.reason


# ----- contract, persistence, presentation ------------------------------------------------

def test_contract_playouts_and_resignation() -> None:
    check_playouts(Zrtz, 25)
    check_resignation(Zrtz)


def test_history_replays_to_the_same_state() -> None:
    game = Zrtz.new(2, {"rings": 48})
    for move in ("wd4 a1", "ge5 h1", "bc3 a2"):
        game.play(game.turn, move)
    again = Zrtz.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.observation(None) == game.observation(None)
    assert again.legal_moves(1) == game.legal_moves(1)


def test_describe_and_status() -> None:
    game = Zrtz.new(2)
    assert game.describe(0, "wd4 a1") == "White on d4, remove a1"
    assert "pool 6W 8G 10B" in game.status()
    capture = position(full_board(d4="w", d5="b"))
    assert capture.describe(0, "d5xd3") == "d5xd3: capture white"
    assert all(len(game.describe(0, m)) <= 100 for m in game.legal_moves(0)[:50])
    island = position({"a1": "w", "a2": "b", "b1": ".", "c1": ".", "c2": ".", "d1": ".", "d2": "."},
                      captured=((3, 0, 0), (0, 0, 0)))
    assert island.describe(0, "gd2 b1") == "Grey on d2, remove b1, isolates 2 marbles (wins)"


def test_generator_and_validator_agree_on_every_placement() -> None:
    """Every colour/ring/removal text is accepted by play exactly when legal_moves lists it."""
    rng = random.Random(3)
    game = Zrtz.new(2)
    checked = 0
    while game.outcome() is None and checked < 4:
        legal = set(game.legal_moves(game.turn))
        if not any(m.startswith(("w", "g", "b")) and "x" not in m for m in legal):
            game.play(game.turn, rng.choice(sorted(legal)))
            continue
        names = [n for n, c in zip(game.board.names, game.observation(None)["cells"], strict=True) if c != "x"]
        for colour in "wgb":
            for at in names:
                for removed in [None, *names]:
                    text = f"{colour}{at}" + (f" {removed}" if removed else "")
                    trial = game.clone()
                    try:
                        trial.play(game.turn, text)
                        accepted = True
                    except IllegalMove:
                        accepted = False
                    assert accepted == (text in legal), text
        checked += 1
        for _ in range(3):
            if game.outcome() is None:
                game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    assert checked == 4
