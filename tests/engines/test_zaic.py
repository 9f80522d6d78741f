"""Zaic rules: every placement rule, the 8x8 limit, the end of the game and scoring with tie-breaks."""

from __future__ import annotations

import json
import random

import pytest

from engines.base import IllegalMove
from engines.zaic import SHAPES, Zaic, compare_groups, groups, square_index
from tests.engines.test_contract import check_playouts, check_resignation

COLS = "abcdefghijklmno"


def game_after(*moves: str, diagonal: bool = False) -> Zaic:
    """A game after the given moves, Light and Dark alternating from Light."""
    game = Zaic.new(2, {"diagonal_touch": diagonal})
    for ply, move in enumerate(moves):
        game.play(ply % 2, move)
    return game


def refused(game: Zaic, move: str) -> str:
    """Play ``move`` for the seat to move, expect a refusal that changes nothing, return its message."""
    seat = game.turn
    before = json.dumps([game.to_dict(), game.observation(None)], sort_keys=True)
    assert move not in game.legal_moves(seat)
    with pytest.raises(IllegalMove) as err:
        game.play(seat, move)
    assert json.dumps([game.to_dict(), game.observation(None)], sort_keys=True) == before
    return str(err.value)


def allowed(game: Zaic, move: str) -> bool:
    return move in game.legal_moves(game.turn)


# ----- a reference written straight from the rule text, with plain stacks and no bit tricks ----------


def reference_moves(game: Zaic, seat: int) -> set[str]:
    """Legal moves recomputed naively from the observation: the engine's bitboards must agree."""
    obs = game.observation(None)
    diagonal = obs["options"]["diagonal_touch"]
    stacks: dict[tuple[int, int], list[int]] = {}
    owners = [t["owner"] for t in obs["tiles"]]
    for t, tile in enumerate(obs["tiles"]):
        for sq in tile["squares"]:
            stacks.setdefault(divmod(square_index(sq), 15), []).append(t)

    def top_owner(rc: tuple[int, int]) -> int | None:
        return owners[stacks[rc][-1]] if rc in stacks else None

    moves = set()
    for shape in SHAPES:
        if not obs["supply"][seat][shape.kind]:
            continue
        for row in range(15):
            for col in range(15):
                cells = [(row + dr, col + dc) for dr, dc in shape.offsets]
                if any(r >= 15 or c >= 15 for r, c in cells):
                    continue
                text = f"{shape.kind} {COLS[col]}{row + 1}" + (f" {shape.orientation}" if shape.orientation else "")
                if not stacks:
                    if (row, col) == (7, 7):
                        moves.add(text)
                    continue
                heights = {len(stacks.get(rc, [])) for rc in cells}
                if len(heights) != 1:
                    continue
                if heights == {0}:
                    everything = list(stacks) + cells
                    rows = [r for r, _ in everything]
                    cols = [c for _, c in everything]
                    if max(rows) - min(rows) >= 8 or max(cols) - min(cols) >= 8:
                        continue
                    near = [(r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
                    if not any(rc in stacks for rc in near):
                        continue
                    if diagonal:
                        near += [(r + dr, c + dc) for r, c in cells for dr in (-1, 1) for dc in (-1, 1)]
                    if any(top_owner(rc) == seat for rc in near):
                        continue
                else:
                    if not any(top_owner(rc) == 1 - seat for rc in cells):
                        continue
                    still_seen = {stacks[rc][-1] for rc in stacks if rc not in cells}
                    if any(t not in still_seen for t in {stacks[rc][-1] for rc in cells}):
                        continue
                moves.add(text)
    return moves


@pytest.mark.parametrize("diagonal", [False, True])
def test_legal_moves_match_a_naive_reading_of_the_rules(diagonal: bool) -> None:
    checked = 0
    for playout in range(12):
        rng = random.Random(f"zaic-ref:{diagonal}:{playout}")
        game = Zaic.new(2, {"diagonal_touch": diagonal})
        while True:
            seat = game.turn
            expected = reference_moves(game, seat)
            assert set(game.legal_moves(seat)) == expected
            checked += 1
            if game.outcome() is not None:
                assert expected == set()
                break
            game.play(seat, rng.choice(sorted(expected)))
    assert checked > 150


def test_contract_playouts_with_both_options() -> None:
    check_playouts(Zaic, 40)
    check_resignation(Zaic)


# ----- the first tile ------------------------------------------------------------------------------


def test_first_tile_any_size_and_orientation_but_always_on_h8() -> None:
    game = Zaic.new(2)
    assert game.to_move() == {0}
    assert game.legal_moves(0) == ["1x1 h8", "2x1 h8 h", "2x1 h8 v", "2x2 h8"]
    assert game.legal_moves(1) == []
    assert "h8" in refused(game, "2x2 c3")


# ----- tiles on the table ------------------------------------------------------------------------------


def test_a_tile_on_the_table_needs_edge_contact_with_some_tile() -> None:
    game = game_after("2x2 h8")  # Light on h8 i8 h9 i9
    assert "share an edge" in refused(game, "1x1 k8")
    assert "share an edge" in refused(game, "1x1 j10")  # corner contact with i9 is not enough
    assert allowed(game, "1x1 j8") and allowed(game, "2x1 h7 h") and allowed(game, "2x2 j9")


def test_a_tile_on_the_table_must_not_touch_its_own_colour() -> None:
    game = game_after("2x2 h8", "2x1 j8 v")  # Dark on j8 j9
    message = refused(game, "1x1 g8")
    assert "own colour" in message and "h8" in message
    assert "own colour at i8" in refused(game, "2x1 i7 h")
    assert allowed(game, "1x1 k8") and allowed(game, "2x2 k8")  # touching Dark only


def test_corner_contact_is_allowed_by_default_and_forbidden_by_the_option() -> None:
    moves = ("2x2 h8", "2x1 j8 v")
    # j7 shares an edge with Dark's j8 and only a corner with Light's i8.
    assert allowed(game_after(*moves), "1x1 j7")
    strict = game_after(*moves, diagonal=True)
    assert "own colour at i8" in refused(strict, "1x1 j7")
    assert allowed(strict, "1x1 k8")


def test_colour_next_to_a_stack_is_the_colour_of_its_top_square() -> None:
    game = game_after("2x2 h8", "2x1 h8 h")  # Dark now on top of h8 and i8
    assert allowed(game, "1x1 g8")  # next to h8: Light underneath, Dark on top
    assert "own colour at h9" in refused(game, "1x1 g9")
    game.play(0, "1x1 g8")
    # For Dark, h8 is its own colour now even though a Light tile lies under it.
    assert "own colour at h8" in refused(game, "1x1 h7")


def test_everything_must_fit_inside_8x8() -> None:
    game = game_after("2x1 h8 h", "2x1 j8 h", "2x1 l8 h", "2x1 f8 h")  # f8..m8: 8 wide
    assert "9x1" in refused(game, "1x1 e8")
    assert "10x1" in refused(game, "2x1 d8 h")
    assert allowed(game, "1x1 g7")
    # Ground moves that keep width 8 stay legal; no legal move anywhere widens the area.
    for move in game.legal_moves(game.turn):
        col = COLS.index(move.split()[1][0])
        assert 5 <= col <= 12, move
    tall = game_after("2x1 h8 v", "2x1 h10 v", "2x1 h12 v", "2x1 h6 v")  # rows 6..13
    assert "1x9" in refused(tall, "1x1 h5")
    assert "1x9" in refused(tall, "1x1 h14")


# ----- tiles on top ------------------------------------------------------------------------------


def test_a_tile_on_top_lies_flat_on_one_level() -> None:
    game = game_after("2x2 h8", "2x1 h8 h")  # h8 i8 at height 2, h9 i9 at height 1
    assert "lean" in refused(game, "2x2 h8")
    assert "lean" in refused(game, "2x1 i8 v")
    assert "lean" in refused(game, "2x1 i9 h")  # i9 at height 1, j9 on the table


def test_a_tile_on_top_may_bridge_tiles_and_must_cover_an_opponent_square() -> None:
    game = game_after("2x2 h8", "2x1 j8 v")
    assert "at least one Dark square" in refused(game, "2x1 h8 v")  # only Light under it
    assert allowed(game, "2x1 i8 h")  # Light i8 and Dark j8, both at height 1
    game.play(0, "2x1 i8 h")
    assert game.observation(None)["stacks"]["j8"] == [1, 0]
    assert game.observation(None)["tiles"][-1]["level"] == 2


def test_a_tile_on_top_may_touch_and_cover_its_own_colour() -> None:
    game = game_after("2x2 h8", "2x2 j8", "2x2 i8")  # Light's second tile lies on both 2x2s
    assert game.observation(None)["stacks"]["i8"] == [0, 0]
    # Dark on top of Light (level 3), next to Dark's own visible k9.
    assert allowed(game, "1x1 j9")
    game.play(1, "1x1 j9")
    assert game.observation(None)["stacks"]["j9"] == [1, 0, 1]


def test_no_tile_may_ever_be_covered_completely() -> None:
    game = game_after("2x2 h8", "2x2 j8")
    assert "completely cover Dark's 2x2 tile on j8-k8-j9-k9" in refused(game, "2x2 j8")
    game.play(0, "2x2 i8")  # covers i8 i9 j8 j9: both lower tiles keep two squares
    # Light's first tile only shows h8 h9 now: covering both hides it.
    assert "completely cover Light's 2x2 tile" in refused(game, "2x1 h8 v")
    assert allowed(game, "1x1 h8")
    game.play(1, "1x1 h8")
    # A 1x1 tile can never be covered: any tile over it hides it all.
    assert "completely cover Dark's 1x1 tile on h8" in refused(game, "1x1 h8")


# ----- the end of the game and scoring ------------------------------------------------------------------------


def test_the_game_ends_when_the_player_to_move_cannot_place() -> None:
    game = game_after("2x2 h8", "1x1 i9", "2x2 i10", "1x1 i10")
    outcome = game.outcome()
    assert outcome is not None and game.to_move() == frozenset()
    assert game.legal_moves(0) == [] and game.legal_moves(1) == []
    assert game.supply[0]["2x2"] == 6  # stuck with tiles still in hand
    # Light: h8 i8 h9 and j10 i11 j11 (3 and 3); Dark: i9 and i10 on level 2 joined across stacks (2).
    assert game.observation(None)["groups"] == [[3, 3], [2]]
    assert outcome.winners == {0} and outcome.scores == (3.0, 2.0)
    assert "Light cannot place" in outcome.reason
    with pytest.raises(IllegalMove):
        game.play(0, "1x1 a1")


def test_the_diagonal_option_can_end_the_game_at_once() -> None:
    game = game_after("2x2 h8", "1x1 h8", diagonal=True)
    assert game.outcome() is not None and game.outcome().winners == {0}
    assert game_after("2x2 h8", "1x1 h8").outcome() is None


def test_an_empty_supply_ends_the_game() -> None:
    game = game_after("1x1 h8", "1x1 i8", "1x1 j8", "1x1 k8", "1x1 l8", "1x1 m8")
    assert game.supply[0]["1x1"] == 0
    assert not any(m.startswith("1x1") for m in game.legal_moves(0))
    rng = random.Random(3)
    while game.outcome() is None:
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    assert len(game.history) <= 38


def top_owner_grid(rows: list[str]) -> list[int]:
    """A 15x15 top-colour grid from text rows (first row = row 1): L, D or '.'."""
    grid = [-1] * 225
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            grid[r * 15 + c] = {"L": 0, "D": 1}.get(ch, -1)
    return grid


def test_groups_are_orthogonal_and_ignore_corners() -> None:
    grid = top_owner_grid(["LL.D", "L.LD", ".L.D"])
    assert [len(g) for g in groups(grid, 0)] == [3, 1, 1]
    assert [len(g) for g in groups(grid, 1)] == [3]


def test_tie_breaks_go_down_the_group_sizes() -> None:
    assert compare_groups([5, 2], [4, 4]) == (0, 0)
    assert compare_groups([4, 2, 2], [4, 3]) == (1, 1)
    assert compare_groups([4, 3], [4, 3, 1]) == (1, 2)  # no third area counts as 0
    assert compare_groups([4, 3], [4, 3]) == (-1, 0)


def test_scoring_connects_across_levels_and_breaks_ties_on_the_second_area() -> None:
    # Light 2x2 h8; Dark 2x1 j8 v; Light 2x1 i8 h on top (level 2).
    game = game_after("2x2 h8", "2x1 j8 v", "2x1 i8 h")
    # Light's visible squares h8 h9 i9 (level 1) and i8 j8 (level 2) form one area across levels.
    assert game.observation(None)["groups"] == [[5], [1]]
    outcome = game._score()
    assert outcome.winners == {0} and "largest area, 5 to 1" in outcome.reason
    # Same largest area, Dark wins on the second one.
    tie = Zaic.new(2)
    for seat, move in ((0, "2x2 h8"), (1, "2x2 j8"), (0, "1x1 l8"), (1, "1x1 g8"), (1, "1x1 i10")):
        tie._place(seat, *tie._parse(move))
    assert tie.group_sizes() == [[4, 1], [4, 1, 1]]
    outcome = tie._score()
    assert outcome.winners == {1} and "3rd largest area, 1 to 0" in outcome.reason
    draw = Zaic.new(2)
    for seat, move in ((0, "2x2 h8"), (1, "2x2 j8")):
        draw._place(seat, *draw._parse(move))
    assert draw._score().is_draw


# ----- notation and presentation --------------------------------------------------------------------------------


def test_moves_sort_by_size_then_square_then_orientation() -> None:
    game = game_after("2x2 h8")
    moves = game.legal_moves(1)
    assert moves == sorted(moves)
    sizes = [m.split()[0] for m in moves]
    assert sizes == sorted(sizes)
    squares_2x1 = [m.split()[1] for m in moves if m.startswith("2x1")]
    # Every square's moves are contiguous, so typing size then square narrows to its orientations.
    runs = [sq for i, sq in enumerate(squares_2x1) if i == 0 or squares_2x1[i - 1] != sq]
    assert len(runs) == len(set(runs))
    assert all(len(m) <= 9 for m in moves)


def test_play_accepts_variations_and_returns_canonical_text() -> None:
    game = Zaic.new(2)
    assert game.play(0, "  2X1   H8  V ") == "2x1 h8 v"
    assert game.play(1, "2 x 2 i8") == "2x2 i8"
    assert game.play(0, "horizontal i10 2×1") == "2x1 i10 h"
    assert game.history[-1] == (0, "2x1 i10 h")
    assert "which way" in refused(game, "2x1 j10")
    assert "understand" in refused(game, "2x1 p9 h")
    assert "size" in refused(game, "h7")


def test_observation_describe_and_status() -> None:
    game = game_after("2x2 h8", "2x1 j8 v", "2x1 i8 h")
    obs = game.observation(1)
    json.dumps(obs)
    assert obs["stacks"]["i8"] == [0, 0] and obs["stacks"]["j9"] == [1]
    assert obs["top_tiles"]["j8"] == 2 and obs["last_tile"] == 2 and obs["last_move"] == "2x1 i8 h"
    assert obs["supply"][0] == {"2x2": 7, "2x1": 7, "1x1": 3}
    assert obs["turn"] == 1
    assert obs["frame"] == {"rows": [1, 14], "cols": [2, 14]}
    assert sorted(obs["largest"][0]) == ["h8", "h9", "i8", "i9", "j8"]
    for move in game.legal_moves(1):
        label = game.describe(1, move)
        assert label.startswith(move) and len(label) <= 100
    assert "level 3, covers 1 Light" in game.describe(1, "1x1 i8")
    assert "level 2" in game.describe(1, "1x1 h9") and "on the table" in game.describe(1, "2x2 k8")
    assert game.status().startswith("Largest area: Light 5, Dark 1")


def test_invariants_hold_through_random_games() -> None:
    """Whatever is played: within 8x8, every tile still shows a square, supplies and stacks add up."""
    for n in range(30):
        rng = random.Random(f"zaic-inv:{n}")
        game = Zaic.new(2, {"diagonal_touch": n % 2 == 1})
        while game.outcome() is None:
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
            obs = game.observation(None)
            rows = [square_index(sq) // 15 for sq in obs["stacks"]]
            cols = [square_index(sq) % 15 for sq in obs["stacks"]]
            assert max(rows) - min(rows) < 8 and max(cols) - min(cols) < 8
            assert set(obs["top_tiles"].values()) == set(range(len(obs["tiles"])))
            assert sum(len(s) for s in obs["stacks"].values()) == sum(len(t["squares"]) for t in obs["tiles"])
            for seat in (0, 1):
                placed = sum(1 for t in obs["tiles"] if t["owner"] == seat)
                assert placed + sum(obs["supply"][seat].values()) == 19
        assert len(game.history) <= 38
        assert game.outcome().reason.startswith(f"{game.seat_name(game.turn)} cannot place")
