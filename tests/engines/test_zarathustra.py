"""Rules tests for Zarathustra: tiles, notation, every fight pairing, support, skulls, ends, scoring."""

from __future__ import annotations

import json
import random
import re

import pytest

from engines import IllegalMove
from engines.zarathustra import PLACEMENTS, START_BLANKS, TILES, Zarathustra, square_index, tile_of
from tests.engines.test_contract import check_playouts, check_resignation

EDGES = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def place(game: Zarathustra, square: str, seat: int, edges: str) -> None:
    """Put a tile straight on the board to set up a position (no turn, skull or hand rules)."""
    index = square_index(square, game.size)
    assert index is not None
    game.cells[index] = (seat, edges)


def occupied(game: Zarathustra) -> dict[str, tuple[int, str]]:
    return {sq: (cell["owner"], cell["edges"]) for sq, cell in game.observation(None)["board"].items()}


def play(game: Zarathustra, *moves: str) -> None:
    """Play moves in turn order, whoever is to move."""
    for move in moves:
        (seat,) = game.to_move()
        game.play(seat, move)


def neighbour(square: str, direction: str) -> str:
    df, dr = STEP[direction]
    return f"{chr(ord(square[0]) + df)}{int(square[1:]) + dr}"


# ----- tiles and notation ----------------------------------------------------------------


def test_seventeen_tiles_with_mirror_pairs_distinct() -> None:
    assert len(TILES) == 17
    assert START_BLANKS == 28
    for pair in (("..ox", "..xo"), (".oox", ".xoo"), (".oxx", ".xxo")):
        assert pair[0] in TILES and pair[1] in TILES
    assert all("." in t and t != "...." for t in TILES)
    assert sorted(len(p) for p in PLACEMENTS.values()) == [2, 2] + [4] * 15
    assert tile_of("oo.x") == tile_of("o.xo") == tile_of(".xoo") == tile_of("xoo.")


def test_opening_lists_every_placement_once() -> None:
    game = Zarathustra.new(2)
    moves = game.legal_moves(0)
    assert len(moves) == 25 * 64
    assert "c3 oo.x" in moves and "c3 .x.x" in moves and "c3 x.x." in moves
    assert game.legal_moves(1) == []


@pytest.mark.parametrize("text", ["c3 oo.x", "C3 OO.X", "  c3   oo.x ", "c3oo.x", "oo.x c3", "c3 oo-x"])
def test_move_text_variations_are_accepted(text: str) -> None:
    game = Zarathustra.new(2)
    assert game.play(0, text) == "c3 oo.x"
    assert game.history == [(0, "c3 oo.x")]


def test_options_board_follows_players_unless_chosen() -> None:
    assert Zarathustra.new(2).size == 5
    assert Zarathustra.new(3).size == 6
    assert Zarathustra.new(4).size == 7
    assert Zarathustra.new(4, {"board": "5"}).size == 5
    assert Zarathustra.new(2, {"board": 7}).legal_moves(0)[-1] == "g7 xxx."
    with pytest.raises(ValueError):
        Zarathustra.new(2, {"board": 8})
    assert Zarathustra.new(3).options == {"board": 6, "skulls_if_destroyed": False}


@pytest.mark.parametrize(("move", "words"), [
    ("f3 ...o", "not on the 5x5 board"),
    ("c0 ...o", "not on the 5x5 board"),
    ("c3 oooo", "no tile oooo"),
    ("c3 ....", "no tile ...."),
    ("c3 sword", "Write a move"),
    ("", "Write a move"),
])
def test_malformed_moves_are_refused_with_a_reason(move: str, words: str) -> None:
    game = Zarathustra.new(2)
    with pytest.raises(IllegalMove, match=words):
        game.play(0, move)
    assert game.history == []


def test_occupied_reused_and_skull_squares_are_refused_without_change() -> None:
    game = Zarathustra.new(2)
    play(game, "a1 ...o", "e5 ...o")
    before = json.dumps(game.to_dict()), json.dumps(game.observation(None))
    with pytest.raises(IllegalMove, match="a1 already holds Blue's tile"):
        game.play(0, "a1 ..x.")
    with pytest.raises(IllegalMove, match=re.escape("already played the tile ...o")):
        game.play(0, "c3 o...")
    with pytest.raises(IllegalMove, match="d4 is marked with a skull"):
        game.play(0, "d4 ..x.")
    with pytest.raises(IllegalMove, match="not Orange's turn"):
        game.play(1, "c1 ..x.")
    assert (json.dumps(game.to_dict()), json.dumps(game.observation(None))) == before


# ----- fights ----------------------------------------------------------------------------


def lone_tile(edge: int, symbol: str) -> str:
    """A real tile with ``symbol`` on ``edge`` and a shield opposite when needed to make it a tile."""
    edges = ["."] * 4
    edges[edge] = symbol
    if symbol == ".":
        edges[(edge + 2) % 4] = "o"
    return "".join(edges)


PAIRINGS = {  # (placed edge, neighbour edge) -> which tiles die: "placed", "neighbour"
    ("x", "."): {"neighbour"}, (".", "x"): {"placed"}, ("x", "x"): {"placed", "neighbour"},
    ("x", "o"): set(), ("o", "x"): set(), ("o", "o"): set(), (".", "o"): set(), ("o", "."): set(),
    (".", "."): set(),
}


@pytest.mark.parametrize("direction", EDGES)
@pytest.mark.parametrize(("mine", "theirs"), sorted(PAIRINGS))
def test_every_pairing_on_every_edge(direction: str, mine: str, theirs: str) -> None:
    game = Zarathustra.new(2)
    edge = EDGES.index(direction)
    other = neighbour("c3", direction)
    place(game, other, 1, lone_tile((edge + 2) % 4, theirs))
    placed = lone_tile(edge, mine)
    game.play(0, f"c3 {placed}")
    dead = {("placed" if d["square"] == "c3" else "neighbour") for d in game.observation(None)["last"]["destroyed"]}
    assert dead == PAIRINGS[(mine, theirs)]
    assert ("c3" in occupied(game)) == ("placed" not in dead)
    assert (other in occupied(game)) == ("neighbour" not in dead)


def test_borders_and_empty_squares_do_nothing() -> None:
    game = Zarathustra.new(2)
    game.play(0, "a1 xx.x")
    assert occupied(game) == {"a1": (0, "xx.x")}
    assert game.observation(None)["last"]["destroyed"] == []


def test_more_support_wins_sword_against_sword_with_any_owners_shields() -> None:
    game = Zarathustra.new(3)
    place(game, "b3", 1, ".x..")   # Orange attacks c3 from the left
    place(game, "c4", 2, "..o.")   # Green shield faces c3: support for Blue's placed tile
    place(game, "a3", 1, ".x..")   # Orange sword faces b3: no support for b3
    game.play(0, "c3 ...x")
    assert set(occupied(game)) == {"c3", "c4", "a3"}


def test_fewer_supports_loses_and_own_shields_do_not_count() -> None:
    game = Zarathustra.new(2)
    place(game, "b3", 1, ".xo.")   # its own shield (bottom) must not count for it
    place(game, "a3", 1, ".o..")   # shield facing b3
    place(game, "b4", 0, "..o.")   # Blue's shield also supports Orange's b3
    place(game, "c4", 1, "..o.")   # support for c3
    game.play(0, "c3 oo.x")        # c3's own shields do not count either: 1 against 2
    assert "c3" not in occupied(game) and "b3" in occupied(game)
    assert [d["square"] for d in game.observation(None)["last"]["destroyed"]] == ["c3"]


def test_equal_support_destroys_both() -> None:
    game = Zarathustra.new(2)
    place(game, "b3", 1, ".x..")
    place(game, "a3", 1, ".o..")
    place(game, "c4", 1, "..o.")
    game.play(0, "c3 ...x")
    assert set(occupied(game)) == {"a3", "c4"}


def test_own_tile_is_destroyed_and_such_moves_are_legal() -> None:
    game = Zarathustra.new(2)
    place(game, "b3", 0, "o.o.")   # Blue's own tile, blank edge towards c3
    assert "c3 ...x" in game.legal_moves(0)
    assert game.describe(0, "c3 ...x") == "c3 ...x — destroys b3 (Blue)"
    game.play(0, "c3 ...x")
    assert occupied(game) == {"c3": (0, "...x")}


def test_placed_tile_dies_and_still_kills_on_another_edge() -> None:
    game = Zarathustra.new(2)
    place(game, "c4", 1, "..x.")   # sword onto c3's blank top: c3 dies
    place(game, "d3", 1, "...o")   # shield supports c3 in the sword fight on the left
    place(game, "b3", 1, ".x..")   # sword against sword, no support: b3 dies
    place(game, "c2", 1, ".o.o")   # c3's bottom sword kills this blank
    assert game.describe(0, "c3 .oxx") == "c3 .oxx — destroys b3 (Orange), c2 (Orange); this tile dies"
    game.play(0, "c3 .oxx")
    assert set(occupied(game)) == {"c4", "d3"}
    assert {d["square"] for d in game.observation(None)["last"]["destroyed"]} == {"b3", "c2", "c3"}
    assert game.observation(None)["last"]["survived"] is False


# ----- the two worked examples of the rules text, built by legal moves -------------------


def test_worked_example_1() -> None:
    """The text's Green is Blue (seat 0), its Red is Orange (seat 1): Red's c3 kills only the left tile."""
    game = Zarathustra.new(2)
    play(game,
         "b3 .x..",   # Green: sword facing c3
         "e1 ..oo",   # Red: out of the way
         "d3 ...o",   # Green: shield facing c3
         "a5 .o.o",   # Red
         "e5 ..oo",   # Green
         "c4 ..x.",   # Red: sword facing down onto c3
         "c1 .o.o")   # Green: its skulls cover c2
    assert "c2" in game.observation(None)["skulls"] and "c3" not in game.observation(None)["skulls"]
    with pytest.raises(IllegalMove, match="skull"):
        game.play(1, "c2 ...x")
    before = occupied(game)
    assert game.describe(1, "c3 oo.x") == "c3 oo.x — destroys b3 (Blue)"
    game.play(1, "c3 oo.x")
    after = occupied(game)
    del before["b3"]
    before["c3"] = (1, "oo.x")
    assert after == before


def test_worked_example_2() -> None:
    """Red = Orange, Green = Green, Blue = Blue, Black = Purple: Red's d4 kills e4 and dies to d3."""
    game = Zarathustra.new(4)
    play(game,
         "e3 o..o", "e5 ..oo", "c4 .x..", "g1 ...o",   # Blue, Red, Green, Black
         "c3 .o..", "e4 o...", "a7 ...o", "d3 x...",
         "d6 ...x")                                    # Blue: its skulls cover d5
    assert "d5" in game.observation(None)["skulls"]
    before = occupied(game)
    assert before["e4"] == (1, "o...") and before["d3"] == (3, "x...")
    assert game.describe(1, "d4 .xxo") == "d4 .xxo — destroys e4 (Orange); this tile dies"
    game.play(1, "d4 .xxo")
    del before["e4"]
    assert occupied(game) == before
    # The placed tile died, so by default it leaves no skulls for Green.
    assert game.observation(None)["skulls"] == []
    restored = Zarathustra.from_dict(json.loads(json.dumps(game.to_dict())))
    assert occupied(restored) == before


# ----- skulls ----------------------------------------------------------------------------


def test_skulls_block_the_ring_for_the_next_player_only() -> None:
    game = Zarathustra.new(2)
    game.play(0, "c3 ...o")
    assert game.observation(None)["skulls"] == ["b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"]
    assert not any(m[:2] in {"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4", "c3"} for m in game.legal_moves(1))
    assert len(game.legal_moves(1)) == 16 * 64
    game.play(1, "a1 ...o")
    assert game.observation(None)["skulls"] == ["a2", "b1", "b2"]
    game.play(0, "d4 ...x")  # allowed again: the c3 skulls lifted
    assert "d4" in occupied(game)


def test_skulls_cover_squares_emptied_by_the_move() -> None:
    game = Zarathustra.new(2)
    place(game, "b3", 1, "o.o.")
    game.play(0, "c3 ...x")
    assert "b3" in game.observation(None)["skulls"]


@pytest.mark.parametrize("option", [False, True])
def test_skulls_after_the_placed_tile_died_follow_the_option(option: bool) -> None:
    game = Zarathustra.new(2, {"skulls_if_destroyed": option})
    place(game, "c4", 1, "..x.")
    game.play(0, "c3 .o.o")  # its blank top meets a sword
    assert "c3" not in occupied(game)
    skulls = game.observation(None)["skulls"]
    if option:
        assert skulls == ["b2", "b3", "b4", "c2", "c3", "d2", "d3", "d4"]
        with pytest.raises(IllegalMove, match="skull"):
            game.play(1, "c3 ...o")
    else:
        assert skulls == []
        game.play(1, "c3 ...o")


# ----- ends and scoring ------------------------------------------------------------------


def play_out(game: Zarathustra, seed: int) -> None:
    rng = random.Random(seed)
    while game.outcome() is None:
        (seat,) = game.to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_when_every_tile_is_played_and_blanks_score(players: int) -> None:
    game = Zarathustra.new(players)
    play_out(game, players)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason.startswith("every tile has been played")
    assert len(game.history) == 17 * players and all(not h for h in game.hands)
    counted = [0] * players
    for cell in game.observation(None)["board"].values():
        counted[cell["owner"]] += cell["edges"].count(".")
    assert list(outcome.scores) == counted
    best = max(counted)
    assert outcome.winners == {s for s in range(players) if counted[s] == best}


def test_game_ends_when_every_empty_square_is_under_a_skull() -> None:
    game = Zarathustra.new(2)
    empty = {"a1", "a2", "b1", "b2"}
    for f in "abcde":
        for r in range(1, 6):
            if f"{f}{r}" not in empty:
                place(game, f"{f}{r}", 1 if f in "cd" else 0, ".o.o" if r % 2 else "o.o.")
    game.play(0, "b2 oo..")
    outcome = game.outcome()
    assert outcome is not None and outcome.reason.startswith("no open square is left")
    assert game.to_move() == frozenset() and game.legal_moves(1) == []
    blues = 2 * sum(1 for sq, (o, _) in occupied(game).items() if o == 0)
    oranges = 2 * sum(1 for sq, (o, _) in occupied(game).items() if o == 1)
    assert outcome.scores == (blues, oranges) and outcome.winners == {0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_last_tiles_decide_and_tied_leaders_share_the_win(players: int) -> None:
    game = Zarathustra.new(players)
    for seat in range(players):
        game.hands[seat] = {"...o"}
    moves = ["a1 o...", "c1 o...", "e1 o...", "g1 o..."][:players]
    play(game, *moves)
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == tuple(3.0 for _ in range(players))
    assert outcome.winners == set(range(players)) and "share the win" in outcome.reason


def test_higher_score_wins_alone() -> None:
    game = Zarathustra.new(3)
    game.hands = [{"...o"}, {".xxx"}, {"..oo"}]
    play(game, "a1 o...", "f6 x.xx", "a6 oo..")
    outcome = game.outcome()
    assert outcome is not None and outcome.scores == (3.0, 1.0, 2.0) and outcome.ranks == (1, 3, 2)
    assert outcome.reason == "every tile has been played: Blue wins with 3"
    assert game.status() == "Blue 3 pts, 0 tiles left · Orange 1 pts, 0 tiles left · Green 2 pts, 0 tiles left"


# ----- leaving players -------------------------------------------------------------------


def test_departed_players_tiles_stay_and_their_turn_passes() -> None:
    game = Zarathustra.new(3)
    play(game, "a1 ...x", "f6 ...o")
    game.eliminate(2, "resign")
    assert game.to_move() == {0}
    play(game, "c3 .o.o")
    assert game.to_move() == {1}
    assert occupied(game)["a1"] == (0, "...x")
    game.eliminate(1, "timeout")
    outcome = game.outcome()
    assert outcome is not None and outcome.ranks == (1, 2, 3)
    assert "f6" in occupied(game)


def test_departed_players_tiles_keep_fighting() -> None:
    game = Zarathustra.new(3)
    play(game, "a1 ...x")
    game.eliminate(1, "resign")
    assert game.to_move() == {2}
    play(game, "f6 ...o", "a3 .o.o")
    place(game, "d4", 1, "o.o.")   # a departed seat's tile on the board
    play(game, "e4 ...x")
    assert "d4" not in occupied(game)
    play_out(game, 7)
    outcome = game.outcome()
    assert outcome is not None and outcome.ranks[1] == 3


def test_observation_has_board_hands_skulls_scores_and_last_move() -> None:
    game = Zarathustra.new(2)
    place(game, "b3", 1, "o.o.")
    game.play(0, "c3 ...x")
    obs = game.observation(1)
    json.dumps(obs)
    assert obs["board"] == {"c3": {"owner": 0, "edges": "...x"}}
    assert len(obs["hands"][0]) == 16 and "...x" not in obs["hands"][0] and len(obs["hands"][1]) == 17
    assert obs["scores"] == [3, 0] and obs["turn"] == 1 and obs["size"] == 5
    assert obs["last"] == {"seat": 0, "square": "c3", "edges": "...x", "survived": True,
                           "destroyed": [{"square": "b3", "owner": 1, "edges": "o.o."}]}


def test_contract_playouts_and_resignation() -> None:
    check_playouts(Zarathustra, 20)
    check_resignation(Zarathustra)
