"""Zodiac Chess: the side duel, hidden kings, placement, the end conditions and the engine contract."""

from __future__ import annotations

import json

import pytest

from engines.base import IllegalMove
from engines.zodiac import Zodiac
from engines.zodiac.core import DARK, LIGHT
from engines.zodiac.game import BEATS, DUEL
from tests.engines.test_contract import check_playouts, check_resignation
from tests.engines.test_zodiac_pieces import at, board, moves, play


def test_contract_playouts_and_resignation() -> None:
    check_playouts(Zodiac, 25)
    check_resignation(Zodiac)


@pytest.mark.parametrize("a", DUEL)
def test_duel_table_and_the_winner_chooses_a_side_1_2(a: str) -> None:
    for b in DUEL:
        g = Zodiac.new(2)
        assert g.to_move() == {0, 1}
        g.play(0, f"pick {a}")
        g.play(1, f"pick {b}")
        if a == b:
            assert g.phase == "duel" and g.to_move() == {0, 1} and g.observation(0)["duel"]["rounds"] == [[a, a]]
            continue
        winner = 0 if b in BEATS[a] else 1
        assert (a in BEATS[b]) == (winner == 1)
        assert g.to_move() == {winner}
        g.play(winner, "dark")
        assert g.seat_name(winner) == "Dark" and g.seat_name(1 - winner) == "Light"
        assert g.phase == "king" and g.to_move() == {0, 1}


def test_a_duel_pick_stays_hidden_until_both_picked() -> None:
    views = []
    for pick in ("Tree", "Snake"):
        g = Zodiac.new(2)
        g.play(0, pick)  # the piece name alone is accepted
        views.append(json.dumps(g.observation(1), sort_keys=True))
        assert g.observation(0)["duel"]["my_pick"] == pick
    assert views[0] == views[1]


def test_fixed_sides_skip_the_duel_for_later_games_of_a_match() -> None:
    g = Zodiac.new(2, {"sides": "seat2"})
    assert g.phase == "king" and g.seat_name(1) == "Light"


def start(kings: tuple[str, str], placements: list[str]) -> Zodiac:
    g = Zodiac.new(2, {"sides": "seat1"})
    g.play(0, f"king {kings[0]}")
    g.play(1, f"king {kings[1]}")
    for i, text in enumerate(placements):
        g.play(i % 2, text)
    return g


PLACEMENTS = ["Penguin a1", "Snake a8", "Rhino b1", "Goat b8", "Snake c1", "Frog c8", "Goat d1", "Wolf d8",
              "Bear e1", "Bear e8"]


def test_the_king_stays_hidden_from_the_opponent_until_the_end_1_3() -> None:
    views = []
    for dark_king in ("Snake", "Goat", "Bear"):
        g = start(("Rhino", dark_king), PLACEMENTS[:6])
        views.append(json.dumps([g.observation(0), g.observation(None), g.legal_moves(0), g.status()],
                                sort_keys=True))
        assert g.observation(1)["my_king"] == dark_king
    assert views[0] == views[1] == views[2]
    assert "Virus" not in " ".join(Zodiac.new(2, {"sides": "seat1"}).legal_moves(0))


def test_placement_alternates_on_the_own_back_rank_without_duplicates_1_4() -> None:
    g = start(("Rhino", "Bear"), ["Rhino c1"])
    assert g.to_move() == {1}
    ms = g.legal_moves(1)
    assert ms and all(m.endswith("8") for m in ms)
    with pytest.raises(IllegalMove):
        g.play(1, "Rhino c1")
    g.play(1, "Rhino c8")
    assert not [m for m in g.legal_moves(0) if m.startswith("Rhino")]


def test_the_last_placement_must_be_the_king_1_4f() -> None:
    g = start(("Bear", "Bear"), ["Wolf a1", "Wolf a8", "Goat b1", "Goat b8", "Crane c1", "Crane c8", "Frog d1",
                                 "Frog d8"])
    assert g.legal_moves(0) == ["Bear e1"]


def test_initial_statuses_1_4h_to_1_4k() -> None:
    g = start(("Rhino", "Bear"), PLACEMENTS)
    assert g.phase == "play" and g.to_move() == {0}
    penguin = g.st.top(0)
    assert penguin is not None and penguin.facing == 4  # hibernating, facing its own back edge
    snake = g.st.top(2)
    rhino = g.st.top(1)
    goat = g.st.top(3)
    assert snake and not snake.shed and rhino and not rhino.charged and goat and not goat.fainted


def test_capturing_the_king_wins_2_2c() -> None:
    g = board({"c3": "L Bear", "c4": "D Goat", "a8": "D Wolf"}, kings=("Bear", "Goat"))
    play(g, "Bear c3-c4")
    out = g.outcome()
    assert out is not None and out.winners == {0} and "Goat" in out.reason
    assert g.observation(1)["kings"] == ["Bear", "Goat"]


def test_capturing_a_piece_that_is_not_the_king_goes_on() -> None:
    g = board({"c3": "L Bear", "c4": "D Goat", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Bear c3-c4")
    assert g.outcome() is None and g.observation(0)["kings"] is None


def test_the_king_reaching_the_far_rank_wins_2_2b() -> None:
    g = board({"c7": "L Goat", "a1": "L Bear", "e1": "D Wolf"}, kings=("Goat", "Wolf"))
    play(g, "Goat c7-c8")
    assert g.outcome() is not None and g.outcome().winners == {0}  # type: ignore[union-attr]
    g2 = board({"c7": "L Goat", "a1": "L Bear", "e1": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g2, "Goat c7-c8")
    assert g2.outcome() is None


def test_both_kings_captured_in_one_turn_the_capturer_wins_2_2d() -> None:
    g = board({"c3": "L Rhino", "c4": "L Goat", "c5": "D Crane", "a8": "D Wolf", "a1": "L Bear"},
              kings=("Goat", "Crane"))
    play(g, "Rhino c3-c5")
    out = g.outcome()
    assert out is not None and out.winners == {0} and "both" in out.reason


def test_trampling_your_own_king_loses() -> None:
    g = board({"c3": "L Rhino", "c4": "L Goat", "a8": "D Wolf", "a1": "L Bear"}, kings=("Goat", "Wolf"))
    play(g, "Rhino c3-c5")
    assert g.outcome() is not None and g.outcome().winners == {1}  # type: ignore[union-attr]


def test_threefold_repetition_draws_2_3a() -> None:
    g = board({"a1": "L Bear moved", "e8": "D Bear moved"})
    for lap in range(2):
        play(g, "Bear a1-a2")
        play(g, "Bear e8-e7")
        play(g, "Bear a2-a1")
        assert g.outcome() is None
        play(g, "Bear e7-e8")
        assert (g.outcome() is None) == (lap == 0)
    out = g.outcome()
    assert out is not None and out.is_draw and "three" in out.reason


def test_no_legal_move_draws_2_3b() -> None:
    g = board({"a1": "L Bear", "c4": "L Octopus", "d5": "D Crane", "a8": "D Frog"}, kings=("Bear", "Crane"))
    g.st.top(35).poison = 3  # type: ignore[union-attr]
    play(g, "Octopus c4 entangle d5")
    out = g.outcome()
    assert out is not None and out.is_draw and "no legal move" in out.reason
    g2 = board({"a1": "L Bear", "c4": "L Octopus", "d5": "D Goat", "a8": "D Frog"}, kings=("Bear", "Goat"))
    g2.st.top(35).poison = 3  # type: ignore[union-attr]
    play(g2, "Octopus c4 entangle d5")
    assert g2.outcome() is None and moves(g2) == ["Goat d5 faint"]  # an entangled goat can still faint


def test_moves_accept_variations_and_explain_refusals() -> None:
    g = board({"b1": "L Wolf", "a1": "L Bear", "e8": "D Bear"})
    assert g.play(0, "  wolf B1-C3 ".lower()) == "Wolf b1-c3"
    g2 = board({"b1": "L Wolf", "a1": "L Bear", "e8": "D Bear"})
    assert g2.play(0, "b1xc3") == "Wolf b1-c3"
    with pytest.raises(IllegalMove, match="no piece on c5"):
        g2.play(1, "Bear c5-c4")
    with pytest.raises(IllegalMove, match="e8"):
        g2.play(1, "Bear e8-e6")


def test_describe_names_the_piece_and_what_it_does() -> None:
    g = board({"c3": "L Bear", "c4": "D Goat", "a8": "D Wolf", "a1": "L Octopus"})
    assert g.describe(0, "Bear c3-c4") == "Bear c3-c4 (takes Goat)"
    assert g.describe(0, "Octopus a1 ink a2").startswith("Octopus a1 ink a2")


def test_a_replayed_history_rebuilds_the_same_game() -> None:
    g = start(("Rhino", "Bear"), PLACEMENTS)
    for text in ("Rhino b1-b3", "Goat b8-b7", "Goat d1 faint"):
        g.play(g.seat_of(g.st.turn), text)
    again = Zodiac.from_dict(json.loads(json.dumps(g.to_dict())))
    assert again.observation(0) == g.observation(0) and at(again, "d1") == ["L Goat"]
    assert again.st.turn == DARK and LIGHT == 0
    assert moves(again) == moves(g)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_never_show_the_dark_king_to_light(seed: int) -> None:
    """Replay one random game with another dark king: Light's view is the same until the game ends."""
    import random

    rng = random.Random(seed)
    game = Zodiac.new(2, {"sides": "seat1"})
    texts: list[tuple[int, str]] = []
    while game.outcome() is None and len(texts) < 120:
        seat = rng.choice(sorted(game.to_move()))
        text = rng.choice(game.legal_moves(seat))
        game.play(seat, text)
        texts.append((seat, text))
    placed = [t.split()[0] for s, t in texts[2:12] if s == 1]
    other = next(k for k in placed if k not in (game.king_pick[1], "Virus"))
    twin = Zodiac.new(2, {"sides": "seat1"})
    for seat, text in texts:
        if twin.outcome() is not None:
            break
        if text.startswith("king") and seat == 1:
            text = f"king {other}"
        twin.play(seat, text)
        reference = Zodiac.from_dict({**game.to_dict(), "history": [list(h) for h in game.history[:len(twin.history)]]})
        if twin.outcome() is None and reference.outcome() is None:
            assert json.dumps(twin.observation(0), sort_keys=True) == json.dumps(reference.observation(0),
                                                                                 sort_keys=True)


def test_refusals_say_why_a_piece_cannot_move() -> None:
    g = board({"c4": "L Bear poison", "a1": "L Goat", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    with pytest.raises(IllegalMove, match="Bear on c4 is poisoned"):
        g.play(0, "Bear c4-c5")
    g.st.top(17).poison, g.st.top(17).entangled_by = 0, 7  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="entangled"):
        g.play(0, "Bear c4-c5")
    with pytest.raises(IllegalMove, match="The piece on a1 is your Goat, not a Wolf"):
        g.play(0, "Wolf a1-b3")
    with pytest.raises(IllegalMove, match="Goat on a1 cannot make the move 'Goat a1-a3'"):
        g.play(0, "Goat a1-a3")
    with pytest.raises(IllegalMove) as refused:
        g.play(0, "Goat")
    assert str(refused.value) == ("'Goat' is not a legal move. "
                                  "Goat moves now: Goat a1 faint, Goat a1-a2, Goat a1-b1, Goat a1-b2.")
    with pytest.raises(IllegalMove, match="no Wolf of yours can move now"):
        g.play(0, "Wolf")
    with pytest.raises(IllegalMove, match="none is under way"):
        g.play(0, " STOP ")


def test_describe_warns_about_monkey_dice() -> None:
    g = board({"a1": "L Monkey", "a2": "D Crane", "b2": "D Bear", "e1": "L Bear", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    assert g.describe(0, "Monkey a1-a3") == "Monkey a1-a3 (leap, danger 1: needs a roll of 2+)"
    assert g.describe(0, "Monkey a1-b2") == "Monkey a1-b2 (takes Bear, needs a roll of 5+)"


def test_announcements_keep_duel_picks_kings_and_ink_squares_secret() -> None:
    from engines.zodiac import Zodiac

    game = Zodiac.new(2)
    assert game.announce(0, "pick Tree") == "a secret duel pick"
    assert game.announce(1, "king Bear") == "a secret king choice"
    assert game.announce(0, "Octopus c3 ink c4") == "Octopus c3 ink"
    assert game.announce(0, "Wolf b1-c3") == "Wolf b1-c3"
