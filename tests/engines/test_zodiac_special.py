"""Zodiac Chess: the octopus (entangle, ink and shadows), tree drag, and the hidden ink square."""

from __future__ import annotations

import json

from engines.zodiac.core import DARK, LIGHT, sq_parse
from tests.engines.test_zodiac_pieces import at, board, dests, moves, play, roll


def piece(g, sq: str):
    c = g.st.cells[sq_parse(sq)]
    return c.piece or c.tree


def test_entangle_without_moving_freezes_a_diagonal_enemy_animal_3_8c() -> None:
    g = board({"c4": "L Octopus", "d5": "D Goat", "b5": "D Virus", "a8": "D Wolf"}, kings=("Octopus", "Wolf"))
    assert "Octopus c4 entangle d5" in moves(g)
    assert "Octopus c4 entangle b5" not in moves(g)  # the virus is tiny
    play(g, "Octopus c4 entangle d5")
    assert piece(g, "d5").entangled_by is not None
    assert not dests(g, "d5")
    assert "Wolf a8-b6" in moves(g)


def test_entangle_after_and_before_moving_3_8c() -> None:
    g = board({"c4": "L Octopus", "d5": "D Goat", "a8": "D Wolf", "a7": "D Crane"}, kings=("Octopus", "Wolf"))
    assert "Octopus c4-c5 entangle b6" not in moves(g)
    assert "Octopus c4-d4 entangle e5" not in moves(g)
    assert "Octopus c4 entangle d5 then b4" in moves(g)
    play(g, "Octopus c4 entangle d5 then b4")
    assert piece(g, "d5").entangled_by is not None  # made this turn, it survives this turn's move
    g2 = board({"c4": "L Octopus", "d6": "D Goat", "a8": "D Wolf"}, kings=("Octopus", "Wolf"))
    play(g2, "Octopus c4-c5 entangle d6")
    assert piece(g2, "d6").entangled_by is not None


def test_entanglement_breaks_when_the_octopus_moves_or_is_captured_3_8c_3_8e() -> None:
    g = board({"c4": "L Octopus", "d5": "D Goat", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c4 entangle d5")
    play(g, "Wolf a8-b6")
    play(g, "Bear a1-a2")
    assert piece(g, "d5").entangled_by is not None  # lasts while the octopus stays
    play(g, "Wolf b6-c4")  # captures the octopus
    assert piece(g, "d5").entangled_by is None
    g2 = board({"c4": "L Octopus", "d5": "D Goat", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    play(g2, "Octopus c4 entangle d5")
    play(g2, "Wolf a8-b6")
    play(g2, "Octopus c4-c3")
    assert piece(g2, "d5").entangled_by is None


def test_a_moving_tree_drags_what_its_octopus_entangles_3_8d() -> None:
    g = board({"b1": "L Tree + L Octopus", "c2": "D Goat", "a8": "D Wolf", "a7": "D Crane"}, kings=("Tree", "Wolf"))
    play(g, "Octopus b1 entangle c2")
    play(g, "Crane a7-a6")
    play(g, "Tree b1-b2")
    assert at(g, "c3") == ["D Goat"] and piece(g, "c3").entangled_by is not None
    g2 = board({"b1": "L Tree + L Octopus", "c2": "D Goat", "c3": "D Crane", "a8": "D Wolf"}, kings=("Tree", "Wolf"))
    play(g2, "Octopus b1 entangle c2")
    play(g2, "Wolf a8-b6")
    play(g2, "Tree b1-b2")
    assert at(g2, "c2") == ["D Goat"] and piece(g2, "c2").entangled_by is None  # blocked: released


def ink_game(real: str):
    g = board({"c4": "L Octopus", "a1": "L Bear", "c7": "D Crane", "a8": "D Wolf", "e6": "D Snake"},
              kings=("Bear", "Wolf"))
    play(g, f"Octopus c4 ink {real}")
    return g


def test_ink_puts_tokens_on_every_vacant_orthogonal_square_3_8f() -> None:
    g = ink_game("c5")
    assert g.st.turn == DARK
    tokens = sorted(sq for sq in ("b4", "d4", "c5", "c3") if at(g, sq) == ["L Octopus"])
    assert tokens == ["b4", "c3", "c5", "d4"] and at(g, "c4") == []
    play(g, "Wolf a8-b6")
    assert [sq for sq in ("b4", "d4", "c5", "c3") if at(g, sq)] == ["c5"]  # shadows gone after Dark's turn


def test_the_ink_square_is_hidden_from_the_opponent_3_8f() -> None:
    views = [ink_game(real) for real in ("c5", "c3", "b4", "d4")]
    for seat in (1, None):
        first = json.dumps(views[0].observation(seat), sort_keys=True)
        assert all(json.dumps(v.observation(seat), sort_keys=True) == first for v in views)
    assert [v.legal_moves(1) for v in views[1:]] == [views[0].legal_moves(1)] * 3
    assert views[0].observation(0) != views[1].observation(0)  # the owner knows


def test_capturing_a_shadow_finds_nothing_and_the_real_token_captures_the_octopus_3_8f() -> None:
    g = ink_game("c5")
    play(g, "Crane c7-c5")
    assert "Octopus" in g.st.captured[LIGHT] and at(g, "b4") == []  # the other tokens vanish too
    g2 = ink_game("c3")
    play(g2, "Crane c7-c5")
    assert g2.st.captured[LIGHT] == [] and at(g2, "c5") == ["D Crane"]
    assert at(g2, "c3") == ["L Octopus"]


def test_penguin_slides_through_a_shadow_3_8g() -> None:
    g = board({"c4": "L Octopus", "a1": "L Bear", "c8": "D Penguin face=S", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c4 ink c3")
    assert "Penguin c8-c6" in moves(g)  # Dark believes the token on c5 stops it
    play(g, "Penguin c8-c6")
    assert at(g, "c4") == ["D Penguin"]  # it went through the shadow and stopped before the octopus on c3


def test_virus_into_a_shadow_falls_there_dormant_3_8g() -> None:
    g = board({"c4": "L Octopus", "a1": "L Bear", "a5": "D Virus", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c4 ink c5")
    play(g, "Virus a5-c5")
    assert at(g, "c5") == ["L Octopus", "D Virus"]
    g2 = board({"c4": "L Octopus", "a1": "L Bear", "d6": "D Virus", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g2, "Octopus c4 ink c5")
    play(g2, "Virus d6-d4")
    assert at(g2, "d4") == ["D Virus"] and g2.st.turn == LIGHT


def test_snake_striking_a_shadow_lands_on_its_square_3_8g() -> None:
    g = board({"c2": "L Octopus", "a1": "L Bear", "c6": "D Snake", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c2 ink d2")  # tokens: d2 (real), b2, c3, c1
    play(g, "Snake c6-c3")
    assert at(g, "c3") == ["D Snake"] and g.st.captured[LIGHT] == []


def test_monkey_leaping_a_shadow_falls_into_it_3_8g() -> None:
    g = board({"c3": "L Octopus", "a1": "L Bear", "c7": "D Monkey", "c6": "D Goat", "a8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Octopus c3 ink b3")  # tokens: b3 (real), d3, c4, c2
    assert "Monkey c7-c3" in moves(g)  # over the goat, then over the c4 token
    play(g, "Monkey c7-c3")
    assert at(g, "c4") == ["D Monkey"] and at(g, "c3") == []


def test_goat_traversing_through_a_shadow_falls_into_it_3_8g() -> None:
    g = board({"c3": "L Octopus", "a1": "L Bear", "c5": "D Goat", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c3 ink c2")  # tokens: c2 (real), b3, d3, c4
    assert "Goat c5-e2" in moves(g)  # c4, d3 and c2 look like a chain
    play(g, "Goat c5-e2")
    assert at(g, "c4") == ["D Goat"] and at(g, "e2") == []  # c4 was a shadow: the goat fell in


def test_monkey_danger_counts_only_real_enemies_leaped() -> None:
    g = board({"a1": "L Monkey", "a2": "D Crane", "e1": "L Bear", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a3")
    roll(g, 2)
    assert at(g, "a3") == ["L Monkey"]


def test_monkey_swings_after_a_double_leap_3_7f() -> None:
    g = board({"a1": "L Monkey", "a2": "L Bear", "a4": "L Crane", "a5": "D Tree", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a5")
    assert at(g, "a5") == ["D Tree", "L Monkey"]  # it rides the enemy tree, capturing nothing
    assert g.st.turn == LIGHT and g.st.chain is not None and "stop" in moves(g)


def test_goat_traverse_into_an_empty_enemy_tree_is_housed_3_12e() -> None:
    g = board({"a1": "L Goat", "b2": "L Bear", "c3": "D Tree", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    play(g, "Goat a1-c3")
    assert at(g, "c3") == ["D Tree", "L Goat"]
    g2 = board({"b2": "L Goat", "c3": "D Tree", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    play(g2, "Goat b2-c3")  # a plain step captures the tree
    assert at(g2, "c3") == ["L Goat"] and g2.st.captured[DARK] == ["Tree"]


def test_a_zombie_moves_with_its_controller_forward() -> None:
    g = board({"c4": "L Rhino", "c6": "D Fungi", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    play(g, "Rhino c4-c6")  # tramples the fungi: the rhino becomes Dark's zombie for one turn
    assert g.st.turn == DARK and "Rhino c6-c4" in moves(g)
    play(g, "Rhino c6-c4")
    assert g.st.turn == LIGHT and "Rhino c4-c6" in moves(g)


def test_lilypad_onto_a_tree_it_could_reach_regularly_captures_it_3_4d() -> None:
    g = board({"a1": "L Frog", "c3": "D Tree", "e8": "D Wolf"}, kings=("Frog", "Wolf"))
    play(g, "Frog a1-c3")
    assert at(g, "c3") == ["L Frog"] and g.st.captured[DARK] == ["Tree"]


def test_an_entanglement_outlives_the_zombie_round_of_its_octopus_3_8e() -> None:
    g = board({"c3": "L Octopus", "c4": "D Fungi", "a1": "L Bear", "e8": "D Wolf", "b5": "L Goat"},
              kings=("Bear", "Wolf"))
    play(g, "Octopus c3-c4")  # captures the fungi: Dark plays this octopus next turn
    assert g.st.turn == DARK
    play(g, "Octopus c4 entangle b5")  # as Dark's zombie it entangles Light's goat
    assert g.st.turn == LIGHT and piece(g, "c4").side == LIGHT
    assert piece(g, "b5").entangled_by is not None and not dests(g, "b5")


def test_a_virus_is_no_link_of_a_goat_traverse_3_6a() -> None:
    g = board({"a1": "L Goat", "b2": "D Virus", "c3": "D Crane", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    assert dests(g, "a1", "Goat") == {"a2", "b1", "b2"}  # b2: capturing the dormant virus
    assert "Goat a1-d4" not in moves(g)


def test_a_crane_captures_the_piece_housed_in_an_enemy_tree_3_12e() -> None:
    g = board({"c2": "L Crane", "c3": "D Tree + D Frog", "a1": "L Bear", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Crane c2-c3")
    assert at(g, "c3") == ["D Tree", "L Crane"] and g.st.captured[DARK] == ["Frog"]


def test_random_ink_moves_look_the_same_to_the_opponent_whatever_the_real_square() -> None:
    import random

    from engines.base import CHANCE
    from engines.zodiac import Zodiac

    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Zodiac.new(2, {"sides": "seat1"})
        while game.outcome() is None and checked < 25:
            seat = rng.choice(sorted(game.to_move()))
            options = game.legal_moves(seat)
            inks = [m for m in options if " ink " in m]
            if seat != CHANCE and inks and rng.random() < 0.5:
                prefix = inks[0].rsplit(" ", 1)[0]
                variants = []
                for text in [m for m in inks if m.startswith(prefix)]:
                    twin = game.clone()
                    twin.play(seat, text)
                    variants.append(twin)
                views = {json.dumps([v.observation(1 - seat), v.legal_moves(1 - seat), v.status()], sort_keys=True)
                         for v in variants}
                assert len(views) == 1
                checked += 1
            game.play(seat, rng.choice(options))
    assert checked >= 10


def test_a_tree_stops_at_a_token_and_capturing_a_shadow_just_moves_there_3_8g() -> None:
    g = board({"c4": "L Octopus", "a1": "L Bear", "a4": "D Tree", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Octopus c4 ink d4")  # tokens: d4 (real), b4, c5, c3
    assert "Tree a4-b4" in moves(g) and "Tree a4-c4" not in moves(g)  # it cannot pass the token on b4
    play(g, "Tree a4-b4")
    assert at(g, "b4") == ["D Tree"] and g.st.captured[LIGHT] == []


def test_the_penguin_facing_is_public_3_9f() -> None:
    g = board({"c1": "L Penguin face=NE", "a1": "L Bear", "e8": "D Bear"}, kings=("Bear", "Bear"))
    views = [e for e in g.observation(1)["board"] if e["sq"] == "c1"]
    assert views[0]["stack"][0]["facing"] == "NE"
