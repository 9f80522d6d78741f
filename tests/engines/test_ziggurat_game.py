"""Ziggurat turns, dice, variants and their win conditions, Queens, notation and replay."""

from __future__ import annotations

import json
import random

import pytest

from engines import CHANCE, IllegalMove
from engines.ziggurat import Ziggurat
from engines.ziggurat.board import LAYOUT, POSITION, STATIONS, name, on_board, xy
from tests.engines.test_ziggurat_helpers import position, stacks


def test_dice_outcomes_follow_the_faces() -> None:
    game = Ziggurat.new(4)
    outcomes = dict(game.chance_outcomes())
    assert len(outcomes) == 64 and abs(sum(outcomes.values()) - 1) < 1e-12 and "roll 8 redo" in outcomes
    small = Ziggurat.new(2, {"movement_die": "d6", "action_die": "treehouse"})
    texts = {t for t, _ in small.chance_outcomes()}
    assert len(texts) == 36 and "roll 7 wild" in texts and "roll 1 tip" not in texts
    assert not any(t.endswith(("leap", "redo")) for t in texts)


def test_turns_go_clockwise_and_end_is_always_offered() -> None:
    game = Ziggurat.new(4)
    order = []
    for _ in range(5):
        order.append(game.observation(None)["turn"]["colour"])
        game.play(CHANCE, "roll 3 dig")
        assert "end" in game.legal_moves(game.observation(None)["turn"]["seat"])
        game.play(game.observation(None)["turn"]["seat"], "end")
    assert order == ["Blue", "Orange", "Green", "Purple", "Blue"]
    assert game.round == 2


def test_the_turn_ends_by_itself_when_both_dice_are_used() -> None:
    game = Ziggurat.new(2)
    assert game.seat_name(1) == "Green"
    game.play(CHANCE, "roll 5 tip")
    game.play(0, "tip start")
    game.play(0, "move a1")
    assert game.to_move() == {CHANCE} and game.observation(None)["turn"]["colour"] == "Green"
    assert stacks(game)["f1"] == "B" and game.observation(None)["last_turn"]["moves"] == ["tip start", "move a1"]


def test_player_counts_and_modes_pick_the_colours() -> None:
    assert Ziggurat.new(3).colours == (0, 1, 2)
    assert Ziggurat.new(2).colours == (0, 2)
    double = Ziggurat.new(2, {"mode": "double"})
    assert [double.owner[c] for c in double.colours] == [0, 1, 0, 1]
    assert double.seat_name(0) == "Blue & Green"
    with pytest.raises(ValueError):
        Ziggurat.new(3, {"mode": "partners"})
    with pytest.raises(ValueError):
        Ziggurat.new(4, {"mode": "double"})


def test_first_colour_home_wins() -> None:
    game = position({"c4": "B", "d4": "BB", "e5": "GG", "f5": "G"}, movement=2, action="hop", players=2)
    game.play(0, "hop c4")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {0} and "Blue" in outcome.reason


def test_double_mode_either_colour_wins() -> None:
    game = position({"e5": "GG", "f5": "G"}, movement=1, action="hop", colour="G", players=2, mode="double")
    game.play(0, "hop f5")
    assert game.outcome() is not None and game.outcome().winners == {0}


def test_partners_need_both_colours_and_a_finished_partner_rolls_only_the_action() -> None:
    base = {"d4": "BBB", "e5": "GG", "f5": "G", "start:O": "OOO", "start:P": "PPP"}
    game = position({**base, "c3": "O"}, colour="P", players=4, mode="partners")
    assert game.teams() == (0, 1, 0, 1) and game.outcome() is None
    game.play(3, "end")
    assert game.observation(None)["turn"]["colour"] == "Blue"
    assert {t for t, _ in game.chance_outcomes()} == {f"roll {a}" for a in
                                                      ("tip", "swap", "hop", "dig", "aim", "wild", "leap", "redo")}
    game.play(CHANCE, "roll tip")
    assert game.legal_moves(0) == ["end", "tip c3 sw"]
    skipped = position(base, colour="P", players=4, mode="partners")
    skipped.play(3, "end")
    assert skipped.observation(None)["turn"]["colour"] == "Orange"
    won = position(base, movement=1, action="hop", colour="G", players=4, mode="partners")
    won.play(2, "hop f5")
    assert won.outcome() is not None and won.outcome().winners == {0, 2}


def test_resigning_in_partners_takes_the_team_out() -> None:
    game = Ziggurat.new(4, {"mode": "partners"})
    game.eliminate(2)
    assert game.outcome() is not None and game.outcome().winners == {1, 3}


def test_an_eliminated_seat_is_skipped_in_three_player_games() -> None:
    game = Ziggurat.new(3)
    game.play(CHANCE, "roll 3 tip")
    game.eliminate(0)
    assert game.outcome() is None and game.observation(None)["turn"]["colour"] == "Orange"
    game.play(CHANCE, "roll 3 tip")
    game.play(1, "end")
    game.play(CHANCE, "roll 3 tip")
    game.play(2, "end")
    assert game.observation(None)["turn"]["colour"] == "Orange"


def test_round_limit_ends_with_the_colour_closest_to_home() -> None:
    game = position({"c4": "G", "b1": "B", "start:B": "BB", "start:G": "GG"}, colour="G", players=2, round_limit=30)
    game.round = 30
    game.play(1, "end")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {1} and "round limit" in outcome.reason
    c4 = POSITION[2][34]
    assert c4 > 40 and outcome.scores == (2.0, float(c4))


# ----- Queen Ziggurat -------------------------------------------------------------------------


def test_queens_are_placed_in_the_start_stack_first() -> None:
    game = Ziggurat.new(2, {"queen": True})
    assert game.to_move() == {0} and game.legal_moves(0) == ["queen 1", "queen 2", "queen 3", "queen 4"]
    game.play(0, "queen 4")
    game.play(1, "Queen 1")
    assert stacks(game) == {"start:B": "BBBb", "start:G": "gGGG"} and game.to_move() == {CHANCE}


def test_queen_pays_two_points_a_square_and_rides_over_stacks() -> None:
    game = position({"b1": "b", "c1": "OO"}, movement=5, action="aim", queen=True)
    assert "move b1" in game.legal_moves(0)
    game.clone().play(0, "move b1")
    one = game.clone()
    one.play(0, "move b1")
    assert stacks(one) == {"c1": "OO", "d1": "b"}
    stop = position({"b1": "b", "c1": "OO"}, movement=2, queen=True)
    stop.play(0, "move b1")
    assert stacks(stop) == {"c1": "OOb"}
    assert "move b1" not in position({"b1": "b"}, movement=1, queen=True).legal_moves(0)
    aimed = position({"b1": "b"}, movement=1, action="aim", queen=True)
    aimed.play(0, "aim b1")
    assert stacks(aimed) == {"c1": "b"}


def test_queens_block_drones_and_carry_them() -> None:
    game = position({"b1": "B", "d1": "o"}, movement=6, queen=True)
    game.play(0, "move b1")
    assert stacks(game)["c1"] == "B"
    carry = position({"b1": "bO"}, movement=4, queen=True)
    assert "move b1 q" in carry.legal_moves(0) and "move b1" not in carry.legal_moves(0)
    carry.play(0, "move b1 queen")
    assert stacks(carry) == {"d1": "bO"}


def test_a_queen_under_another_queen_stays_and_no_foreign_drones_reach_home() -> None:
    assert "move b1 q" not in position({"b1": "bo"}, movement=4, queen=True).legal_moves(0)
    assert "move c4 q" not in position({"c4": "bO"}, movement=4, queen=True).legal_moves(0)
    home = position({"c4": "bB", "d4": "BB"}, movement=4, queen=True)
    home.play(0, "move c4 q")
    assert home.outcome() is not None and home.outcome().winners == {0}


def test_queen_variant_needs_all_four_home() -> None:
    game = position({"c4": "B", "d4": "BB", "start:B": "b"}, movement=1, action="hop", queen=True, players=2)
    game.play(0, "hop c4")
    assert game.outcome() is None and game.observation(None)["home"]["Blue"] == 3


def test_swap_within_the_start_stack() -> None:
    game = position({"start:B": "bBB"}, action="swap", queen=True)
    assert {m for m in game.legal_moves(0) if m.startswith("swap")} == {"swap start 1 2", "swap start 1 3"}
    game.play(0, "swap start 1 3")
    assert stacks(game) == {"start:B": "BBb"}


# ----- notation, errors, replay ---------------------------------------------------------------


def test_variations_of_notation_are_accepted() -> None:
    game = position({"b1": "B", "c2": "OG", "b2": "B"}, movement=3, action="tip")
    assert game.play(0, "  TIP  c2   East ") == "tip c2 e"
    assert game.play(0, "Move B1") == "move b1"
    other = position({"b1": "B"}, movement=3, action="redo")
    other.play(0, "move b1")
    assert other.play(0, "redo movement") == "redo move"
    assert position({"b1": "B"}, movement=3).play(0, "pass") == "end"


@pytest.mark.parametrize(("text", "words"), [
    ("move e5", "no Blue piece"), ("tip c2 w", "c2 is empty"), ("swap b1 c1", "not Swap"),
    ("dig b1 a1", "Dig"), ("zz99", "not a Ziggurat move"), ("move i9", "not a square"), ("tip z9 n", "not a square"),
])
def test_illegal_moves_explain_and_change_nothing(text: str, words: str) -> None:
    game = position({"b1": "B", "c1": "O"}, movement=3, action="tip")
    before = json.dumps(game.to_dict()), json.dumps(game.observation(0))
    with pytest.raises(IllegalMove, match=words):
        game.play(0, text)
    assert (json.dumps(game.to_dict()), json.dumps(game.observation(0))) == before


def test_garbage_gets_a_short_answer_naming_only_what_this_step_allows() -> None:
    game = position({"b1": "B", "c2": "OG"}, movement=3, action="tip")
    for text in ("junk", "x" * 500, "pass junk", "hello world"):
        with pytest.raises(IllegalMove) as refused:
            game.play(0, text)
        message = str(refused.value)
        assert len(message) < 200 and "x" * 101 not in message
        assert message.endswith("Now you can play, e.g.: move b1, tip b1 e, end.")
        assert "swap" not in message and "dig" not in message  # the action die shows Tip
    with pytest.raises(IllegalMove, match="Write just `end`"):
        game.play(0, "end junk")
    with pytest.raises(IllegalMove, match="without Queens"):
        game.play(0, "queen 1")
    with pytest.raises(IllegalMove, match=r"takes just the square, e\.g\. `move b1`"):
        game.play(0, "move b1 b1")
    swap = position({"b1": "BO"}, movement=3, action="swap")
    for text in ("swap b1 1 ²", "swap b1 ³ 1", "swap b1 1 2 2"):
        with pytest.raises(IllegalMove):
            swap.play(0, text)
    assert swap.play(0, "swap b1 2 1") == "swap b1 1 2"


def test_describe_labels_every_legal_move_briefly() -> None:
    game = position({"b1": "B", "c2": "OG", "b2": "B", "start:B": "B"}, movement=3, action="wild")
    labels = {m: game.describe(0, m) for m in game.legal_moves(0)}
    assert all(0 < len(label) <= 100 for label in labels.values())
    assert labels["move b1"] == "Move: Blue b1 → e1"
    assert "d2, e2" in labels["tip c2 e"]


def _greedy_game(seed: int, players: int, options: dict) -> Ziggurat:
    """Each player moves the piece that gets furthest; enough to finish a game quickly and reproducibly."""
    rng = random.Random(seed)
    game = Ziggurat.new(players, options)
    while game.outcome() is None:
        seat = min(game.to_move())
        if seat == CHANCE:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
            continue
        if game.phase == "setup":
            game.play(seat, f"queen {rng.randint(1, 4)}")
            continue
        def gain(move: str, colour: int = game.colour) -> int:
            effect = game.effects().get(move)
            if effect is None or effect[0] not in ("move", "leap"):
                return 0
            return POSITION[colour][effect[-2] if effect[0] == "move" else effect[2]] - POSITION[colour][effect[1]]

        moves = game.legal_moves(seat)
        best = max(moves, key=gain)
        game.play(seat, best if gain(best) > 0 else rng.choice(moves if rng.random() < 0.3 else ["end"]))
    return game


@pytest.mark.parametrize(("players", "options"), [(4, {}), (2, {"queen": True, "movement_die": "d6"}),
                                                  (4, {"mode": "partners"}), (2, {"mode": "double"})])
def test_replaying_a_finished_game_gives_the_same_result(players: int, options: dict) -> None:
    game = _greedy_game(7, players, options)
    outcome = game.outcome()
    assert outcome is not None and "round limit" not in outcome.reason
    again = Ziggurat.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.outcome() == outcome
    assert again.observation(None) == game.observation(None)


@pytest.mark.parametrize(("stacks_", "text", "words"), [
    ({"b1": "bo"}, "move b1 q", "another Queen is above"),
    ({"b1": "b"}, "move b1", "2 movement points"),
    ({"c4": "bO"}, "move c4 q", "cannot take them onto your Goal"),
    ({"b1": "O"}, "move b1 q", "no Blue Queen"),
])
def test_queen_moves_refused_with_the_reason(stacks_: dict, text: str, words: str) -> None:
    game = position(stacks_, movement=1 if text == "move b1" else 4, queen=True)
    with pytest.raises(IllegalMove, match=words):
        game.play(0, text)


def test_the_round_limit_result_explains_what_closest_to_home_means() -> None:
    from engines.ziggurat.game import Ziggurat

    game = Ziggurat.new(4, {"mode": "partners", "round_limit": 30})
    game.limit_reached = True
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason.startswith("round limit 30 reached, so the team closest to home wins (pieces home first,"
                                     " then squares travelled): Blue & Green 0/6 home, ")
    assert "squares travelled" in outcome.reason.split(": ", 1)[1]


def test_the_last_turn_marks_every_square_its_die_uses_changed_not_only_the_last_use() -> None:
    """A turn of a leap then a move once showed only the move's squares: the leaping piece looked unmoved."""
    rng = random.Random(3)
    game = Ziggurat.new(3)
    turns_of_several = 0
    while game.outcome() is None and game.round < 40:
        movers = game.to_move()
        if CHANCE in movers:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
            continue
        seat, colour = min(movers), game.colour
        changed: set[int] = set()
        uses = 0
        while game.to_move() == {seat} and game.colour == colour and game.outcome() is None:
            moves = [m for m in game.legal_moves(seat) if m != "end"] or ["end"]
            before = [list(stack) for stack in game.board]
            game.play(seat, rng.choice(moves))
            changed |= {s for s in range(len(before)) if game.board[s] != before[s]}
            uses += moves != ["end"]
            if CHANCE in game.to_move():  # a Redo's reroll inside the turn
                texts, weights = zip(*game.chance_outcomes(), strict=True)
                game.play(CHANCE, rng.choices(texts, weights)[0])
        if game.outcome() is not None:
            break
        marked = set(game.observation(seat)["last_turn"]["marks"])
        named = {name(s) if on_board(*xy(s)) else "start:" + LAYOUT[STATIONS.index(s)].name for s in changed}
        assert named <= marked, (game.last_turn, named)
        turns_of_several += uses >= 2
    assert turns_of_several >= 10


def test_the_round_limit_standing_says_what_decided_it_and_the_squares_each_colour_travelled() -> None:
    """The board shows this (the reason in full is too long for its title): pieces home decide first."""
    from engines.ziggurat.board import LAYOUT

    travelled = position({"c4": "G", "b1": "B"}, players=2, round_limit=30)
    travelled.limit_reached = True
    standing = travelled.observation(None)["limit"]
    assert standing == {"round_limit": 30, "decided_by": "squares travelled",
                        "travelled": [{"colours": ["Blue"], "squares": travelled.progress(0)},
                                      {"colours": ["Green"], "squares": travelled.progress(2)}]}
    home = position({LAYOUT[0].goal: "B", "c4": "GG"}, players=2, round_limit=30)
    home.limit_reached = True
    assert home.observation(None)["limit"]["decided_by"] == "pieces home"
    assert position({}, players=2).observation(None)["limit"] is None
