"""Zodiac Chess: the regular movement and captures of all thirteen pieces (rule section 3, parts a/b)."""

from __future__ import annotations

from engines.base import CHANCE
from engines.zodiac import Zodiac
from engines.zodiac.core import DARK, DIR_NAMES, LIGHT, Piece, sq_parse
from engines.zodiac.turns import position_key


def board(spec: dict[str, str], turn: str = "L", kings: tuple[str, str] | None = None) -> Zodiac:
    """A game in the play phase with the given pieces; Light is seat 0.

    ``spec`` maps squares to stacks, bottom first, joined by '+': "L Tree + L Frog" (housed),
    "D Goat fainted + L Wolf" (standing on a fainted goat), "D Wolf + L Virus" (infected host).
    Flags after the kind: moved, fainted, shed, charged, poison, face=NE. Kings default to each side's
    first listed piece.
    """
    g = Zodiac.new(2, {"sides": "seat1"})
    st = g.st
    firsts: dict[int, str] = {}
    for sq_text, stack in spec.items():
        sq = sq_parse(sq_text)
        assert sq is not None
        for i, part in enumerate(stack.split("+")):
            words = part.split()
            side = LIGHT if words[0] == "L" else DARK
            p = Piece(st.next_pid, words[1], side, side, facing=4 if side == LIGHT else 0)
            st.next_pid += 1
            for flag in words[2:]:
                if flag.startswith("face="):
                    from engines.zodiac.core import DIR_NAMES
                    p.facing = DIR_NAMES.index(flag[5:])
                elif flag == "poison":
                    p.poison = 1
                else:
                    setattr(p, flag, True)
            if p.kind != "Virus":
                firsts.setdefault(side, p.kind)
            if i == 0:
                st.put(sq, p)
            elif p.kind == "Virus" and st.cells[sq].piece is not None:
                st.cells[sq].virus = p
            else:
                st.cells[sq].piece = p
    chosen = kings or (firsts.get(LIGHT, "Bear"), firsts.get(DARK, "Bear"))
    st.kings = list(chosen)
    g.king_pick = {0: chosen[0], 1: chosen[1]}
    g.placed = [["x"] * 5, ["x"] * 5]
    g.phase = "play"
    st.turn = LIGHT if turn == "L" else DARK
    g.reps[position_key(st)] = 1
    return g


def seat(g: Zodiac) -> int:
    return g.seat_of(g.st.turn)


def moves(g: Zodiac) -> list[str]:
    return g.legal_moves(seat(g))


def dests(g: Zodiac, frm: str, kind: str | None = None) -> set[str]:
    """Destination squares of the plain 'Kind frm-to' moves from ``frm``."""
    out = set()
    for m in moves(g):
        words = m.split()
        if len(words) == 2 and words[1].startswith(frm + "-") and (kind is None or words[0] == kind):
            out.add(words[1][3:])
    return out


def play(g: Zodiac, move: str) -> None:
    g.play(seat(g), move)


def at(g: Zodiac, sq: str) -> list[str]:
    """Kinds on a square, bottom first, with the owner's initial: ['L Tree', 'L Frog']."""
    s = sq_parse(sq)
    assert s is not None
    c = g.st.cells.get(s)
    return [f"{'LD'[p.owner]} {p.kind}" for p in c.pieces()] if c else []


def roll(g: Zodiac, n: int) -> None:
    assert g.to_move() == {CHANCE}
    g.play(CHANCE, f"roll {n}")


# ----- 3.1 general ------------------------------------------------------------------------


def test_pieces_jump_over_others_and_cannot_end_on_friends_3_1a() -> None:
    g = board({"a1": "L Crane", "a2": "L Bear", "a3": "D Goat", "e8": "D Bear"})
    d = dests(g, "a1", "Crane")
    assert "a3" in d  # over the bear, capturing the goat
    assert "a2" not in d  # own piece
    assert "c3" in d and "b2" in d


# ----- 3.2 bear ---------------------------------------------------------------------------


def test_bear_steps_one_square_any_way_3_2a() -> None:
    g = board({"c4": "L Bear", "e8": "D Wolf"})
    assert dests(g, "c4") == {"b3", "b4", "b5", "c3", "c5", "d3", "d4", "d5"}


def test_bear_savage_captures_a_rhino_from_the_front_3_2b() -> None:
    g = board({"c4": "L Bear", "c5": "D Rhino", "a8": "D Wolf"})
    assert "c5" in dests(g, "c4")
    g2 = board({"c4": "L Fungi", "c5": "D Rhino", "a8": "D Wolf"})
    assert "c5" not in dests(g2, "c4")


# ----- 3.3 crane --------------------------------------------------------------------------


def test_crane_moves_one_or_two_in_a_line_3_3a() -> None:
    g = board({"c4": "L Crane", "e8": "D Wolf"})
    assert dests(g, "c4") == {"b3", "b4", "b5", "c3", "c5", "d3", "d4", "d5", "a2", "a4", "a6", "c2", "c6", "e2",
                              "e4", "e6"}


def test_crane_cannot_capture_large_pieces_3_3b() -> None:
    g = board({"c4": "L Crane", "c5": "D Bear", "c6": "D Wolf", "d5": "D Goat", "a8": "D Tree"})
    d = dests(g, "c4")
    assert "c5" not in d and "c6" not in d and "d5" in d


# ----- 3.4 frog ---------------------------------------------------------------------------


def test_frog_moves_two_diagonally_3_4a() -> None:
    g = board({"c4": "L Frog moved", "e8": "D Wolf"})
    assert dests(g, "c4") == {"a2", "a6", "e2", "e6"}


def test_frog_steps_one_when_the_edge_or_a_friend_blocks_3_4b() -> None:
    g = board({"b4": "L Frog moved", "d6": "L Bear", "e8": "D Wolf"})
    assert dests(g, "b4", "Frog") == {"a3", "a5", "c5", "d2"}


def test_frog_on_a_side_wall_steps_up_or_down_3_4c() -> None:
    g = board({"a4": "L Frog moved", "a5": "D Goat", "e8": "D Wolf"})
    assert {"a3", "a5"} <= dests(g, "a4")


def test_frog_lilypad_reaches_the_first_three_ranks_once_3_4d() -> None:
    g = board({"a1": "L Frog", "e3": "D Goat", "c3": "D Rhino", "d1": "D Tree", "e8": "D Wolf"}, kings=("Frog", "Goat"))
    d = dests(g, "a1")
    assert {"e2", "b3", "e3", "d1"} <= d
    assert "c3" not in d  # not a rhino from the front
    play(g, "Frog a1-d1")
    assert at(g, "d1") == ["D Tree", "L Frog"]  # an empty enemy tree is ridden, not captured
    g2 = board({"a1": "L Frog moved", "e8": "D Wolf"})
    assert "e2" not in dests(g2, "a1")


def test_capturing_the_frog_poisons_the_captor_for_its_next_turn_3_4e() -> None:
    g = board({"c4": "L Bear", "c5": "D Frog", "a8": "D Wolf", "e8": "D Goat", "a1": "L Goat"},
              kings=("Bear", "Wolf"))
    play(g, "Bear c4-c5")
    play(g, "Wolf a8-b6")
    assert not dests(g, "c5")  # poisoned
    assert "Goat a1 faint" in moves(g)
    play(g, "Goat a1-a2")
    play(g, "Wolf b6-a8")
    assert dests(g, "c5")


def test_a_zombie_capturing_the_frog_is_poisoned_for_its_owners_next_turn_only_3_4e() -> None:
    g = board({"c4": "L Bear", "c5": "D Fungi", "c6": "L Frog", "a8": "D Wolf", "e8": "D Goat", "a1": "L Goat"},
              kings=("Goat", "Wolf"))
    play(g, "Bear c4-c5")  # the bear eats the fungi: Dark plays it next turn
    play(g, "Bear c5-c6")  # as Dark's zombie it captures Light's frog: poisoned
    assert g.st.turn == LIGHT and not dests(g, "c6")  # Light's next turn: frozen
    play(g, "Goat a1-a2")
    play(g, "Wolf a8-b6")
    assert dests(g, "c6")  # the turn after: free again (it stayed frozen for two turns before)


# ----- 3.5 fungi --------------------------------------------------------------------------


def test_fungi_steps_one_square_3_5a() -> None:
    g = board({"a1": "L Fungi", "e8": "D Wolf"})
    assert dests(g, "a1") == {"a2", "b1", "b2"}


def test_meadow_stops_an_enemy_tree_near_the_fungi_3_5b() -> None:
    g = board({"c1": "L Tree", "a1": "L Bear", "e3": "D Fungi", "a8": "D Wolf"})
    assert dests(g, "c1", "Tree") == {"b1", "c2", "d1", "e1"}  # e3 is two squares from all of them
    g2 = board({"c1": "L Tree", "a1": "L Bear", "d3": "D Fungi", "a8": "D Wolf"})
    assert "c2" not in dests(g2, "c1", "Tree")
    g3 = board({"c1": "L Tree", "a1": "L Bear", "d2": "D Fungi", "a8": "D Wolf"})
    assert dests(g3, "c1", "Tree") == set()


def test_capturing_the_fungi_zombifies_the_captor_for_one_turn_3_5c() -> None:
    g = board({"c4": "L Bear", "c5": "D Fungi", "a8": "D Wolf", "a1": "L Goat"}, kings=("Goat", "Wolf"))
    play(g, "Bear c4-c5")
    assert g.seat_of(g.st.turn) == 1
    assert "Bear c5-c4" in moves(g)  # Dark plays the zombie bear
    play(g, "Bear c5-c4")
    assert g.st.turn == LIGHT and "Bear c4-c3" in moves(g)  # back to Light


def test_a_zombie_penguin_turns_first_and_then_slides_the_new_way_3_5d() -> None:
    g = board({"c4": "L Penguin face=N", "c5": "D Fungi", "e1": "L Bear", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Penguin c4-c5")  # eats the fungi: Dark plays the penguin next turn
    assert g.st.turn == DARK
    zombie = [m for m in moves(g) if m.startswith("Penguin")]
    slides = {m for m in zombie if "face" not in m}
    assert {"Penguin c5-a5", "Penguin c5-e5", "Penguin c5-c1", "Penguin c5-a7", "Penguin c5-c8"} <= slides
    assert not any("-" in m and "face" in m for m in zombie)  # no rotation after the slide
    assert "Penguin c5 face E" in zombie  # turning alone is still a move
    play(g, "Penguin c5-a5")
    p = g.st.top(sq_parse("a5"))
    assert p is not None and p.facing == DIR_NAMES.index("W") and g.st.turn == LIGHT
    assert "Penguin a5-e5" not in moves(g)  # back with Light: it slides only the way it faces
    assert "Penguin a5-a8 face E" not in moves(g) and "Penguin a5 face N" in moves(g)


# ----- 3.6 goat ---------------------------------------------------------------------------


def test_goat_steps_and_cannot_capture_predators_3_6a_3_6f() -> None:
    g = board({"c4": "L Goat", "c5": "D Bear", "b5": "D Wolf", "d5": "D Crane"})
    d = dests(g, "c4", "Goat")
    assert "c5" not in d and "b5" not in d and "d5" in d


def test_goat_traverses_along_a_chain_of_pieces_3_6a() -> None:
    g = board({"a1": "L Goat", "b2": "L Bear", "c3": "D Crane", "d4": "D Wolf", "e8": "D Virus"},
              kings=("Goat", "Wolf"))
    d = dests(g, "a1", "Goat")
    assert {"e5", "e3", "c5", "d3"} <= d
    assert "d4" not in d and "c3" not in d  # a traverse captures nothing
    play(g, "Goat a1-e5")
    assert at(g, "e5") == ["L Goat"]


def test_goat_faint_clears_statuses_and_leaves_the_virus_dormant_3_6b() -> None:
    g = board({"c4": "L Goat poison + D Virus", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    g.st.cells[sq_parse("c4")].piece.entangled_by = 99  # type: ignore[union-attr]
    play(g, "Goat c4 faint")
    goat = g.st.cells[sq_parse("c4")].floor  # type: ignore[union-attr]
    assert goat is not None and goat.fainted and goat.poison == 0 and goat.entangled_by is None
    assert g.st.cells[sq_parse("c4")].piece.kind == "Virus"  # type: ignore[union-attr]
    assert g.st.cells[sq_parse("c4")].virus is None  # type: ignore[union-attr]


def test_goat_leaving_a_tree_lands_fainted_3_6c() -> None:
    g = board({"c4": "L Tree + L Goat", "a8": "D Wolf"}, kings=("Tree", "Wolf"))
    assert "Goat c4 faint" not in moves(g)
    play(g, "Goat c4-c5")
    assert g.st.cells[sq_parse("c5")].floor is not None  # type: ignore[union-attr]


def test_fainted_goat_counts_as_empty_but_trees_crush_it_3_6d() -> None:
    g = board({"c4": "L Bear", "c5": "D Goat fainted", "a8": "D Wolf", "b1": "L Tree"})
    play(g, "Bear c4-c5")
    assert at(g, "c5") == ["D Goat", "L Bear"]
    g2 = board({"b1": "L Tree", "c1": "D Goat fainted", "a8": "D Wolf"})
    play(g2, "Tree b1-c1")
    assert at(g2, "c1") == ["L Tree"] and g2.st.captured[DARK] == ["Goat"]


def test_a_tree_never_crushes_its_own_fainted_goat_even_under_an_enemy_3_1a_3_12c() -> None:
    """Its own fainted goat blocks a tree (ruling), also with an enemy standing on it: the tree would crush the goat
    with the enemy, and lose its own king there (the reviewer's position). A rhino's trample takes friends (3.10f)."""
    g = board({"d3": "L Goat fainted + D Crane", "a8": "D Bear", "b3": "L Tree"}, kings=("Goat", "Bear"))
    assert "d3" not in dests(g, "b3", "Tree")
    assert at(g, "d3") == ["L Goat", "D Crane"] and g.outcome() is None
    g2 = board({"d1": "L Rhino", "d3": "L Goat fainted + D Crane", "a8": "D Bear", "a1": "L Bear"})
    play(g2, "Rhino d1-d3")
    assert at(g2, "d3") == ["L Rhino"] and g2.st.captured[DARK] == ["Crane"] and g2.st.captured[LIGHT] == ["Goat"]


def test_a_tree_ending_on_an_enemy_over_an_enemy_fainted_goat_takes_both_3_12c() -> None:
    """Ruling: the crush comes with any step onto a fainted goat (3.6d, 3.12c), the one exception to one capture a
    turn (3.1a) besides the trample; the move's label and its builder step say so before it is played."""
    g = board({"d3": "D Goat fainted + D Crane", "a8": "D Bear", "b3": "L Tree", "a1": "L Bear"})
    assert g.describe(0, "Tree b3-d3") == "Tree b3-d3 (takes Crane, crushes the fainted Goat)"
    play(g, "Tree b3-d3")
    assert at(g, "d3") == ["L Tree"] and sorted(g.st.captured[DARK]) == ["Crane", "Goat"]


def test_fainted_goat_gets_up_and_moves_unless_covered_3_6e() -> None:
    g = board({"c4": "L Goat fainted", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    assert "Goat c4-c5" in moves(g) and "Goat c4 wake" in moves(g)
    play(g, "Goat c4-c5")
    assert not g.st.cells[sq_parse("c5")].piece.fainted  # type: ignore[union-attr]
    g2 = board({"c4": "L Goat fainted + D Virus", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    assert not [m for m in moves(g2) if m.startswith("Goat")]


# ----- 3.7 monkey -------------------------------------------------------------------------


def test_monkey_steps_one_square_3_7a() -> None:
    g = board({"c4": "L Monkey", "e8": "D Wolf"})
    assert len(dests(g, "c4")) == 8


def test_monkey_leaps_over_spaced_pieces_but_not_a_virus_3_7b() -> None:
    g = board({"a1": "L Monkey", "a2": "L Bear", "a4": "L Crane", "b2": "D Virus", "e8": "D Wolf"})
    d = dests(g, "a1", "Monkey")
    assert "a3" in d and "a5" in d and "c3" not in d


def test_monkey_danger_roll_must_beat_the_enemies_leaped_3_7c() -> None:
    g = board({"a1": "L Monkey", "a2": "D Crane", "a4": "D Goat", "e8": "D Wolf", "e1": "L Bear"},
              kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a5")
    assert g.st.pending is not None and g.st.pending["need"] == 3
    roll(g, 2)
    assert at(g, "a1") == [] and at(g, "a5") == [] and "Monkey" in g.st.captured[LIGHT]
    g2 = board({"a1": "L Monkey", "a2": "D Crane", "a4": "D Goat", "e8": "D Wolf", "e1": "L Bear"},
               kings=("Bear", "Wolf"))
    play(g2, "Monkey a1-a5")
    roll(g2, 3)
    assert at(g2, "a5") == ["L Monkey"] and at(g2, "a2") == ["D Crane"]


def test_monkey_swing_into_a_tree_gives_an_extra_turn_but_not_twice_the_same_way_3_7d_3_7e() -> None:
    g = board({"a1": "L Monkey", "a2": "L Bear", "a3": "L Tree", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a3")
    assert g.st.turn == LIGHT and g.st.chain is not None
    assert "stop" in moves(g) and not [m for m in moves(g) if m.startswith("Bear")]
    play(g, "Monkey a3-a4")
    assert g.st.turn == DARK


def test_monkey_swing_restriction_same_tree_same_direction_3_7e() -> None:
    g = board({"a1": "L Monkey", "a2": "L Bear", "a3": "L Tree", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a3")
    g.st.chain["swings"].append([g.st.top(sq_parse("a3")).pid, 0])  # type: ignore[index, union-attr]
    assert "Monkey a3-a5" not in moves(g)


def test_monkey_consumes_fungi_for_an_extra_turn_and_transcends_after_two_3_7g_3_7k() -> None:
    g = board({"c3": "L Monkey", "c4": "L Fungi", "c6": "D Fungi", "a1": "L Bear", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Monkey c3-c4")
    assert g.st.chain is not None and g.st.turn == LIGHT
    play(g, "Monkey c4-c5")
    assert g.st.turn == DARK


def test_monkey_transcendence_after_two_fungi_3_7k() -> None:
    g = board({"c3": "L Monkey", "c4": "L Fungi", "c5": "D Fungi", "a1": "L Bear", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Monkey c3-c4")
    play(g, "Monkey c4-c5")
    assert g.st.chain is not None and g.st.chain["fungi"] == 2
    assert "Monkey c5-e8" in moves(g) and "Monkey c5-a8" in moves(g)
    play(g, "Monkey c5-e8")
    assert g.outcome() is not None and g.outcome().winners == {0}  # type: ignore[union-attr]


def test_friendly_fungi_king_lives_in_the_monkey_until_the_extra_turns_end_3_7h() -> None:
    g = board({"c6": "L Monkey", "c7": "L Fungi", "a1": "L Bear", "e1": "D Wolf"}, kings=("Fungi", "Wolf"))
    play(g, "Monkey c6-c7")
    assert g.outcome() is None
    play(g, "Monkey c7-c8")  # the fungi king inside the monkey reaches the far rank
    assert g.outcome() is not None and g.outcome().winners == {0}  # type: ignore[union-attr]
    g2 = board({"c3": "L Monkey", "c4": "L Fungi", "a1": "L Bear", "e8": "D Wolf"}, kings=("Fungi", "Wolf"))
    play(g2, "Monkey c3-c4")
    play(g2, "stop")
    assert g2.outcome() is not None and g2.outcome().winners == {1}  # type: ignore[union-attr]


def test_enemy_fungi_king_lives_in_the_zombie_until_its_round_ends_3_7i() -> None:
    g = board({"c2": "L Monkey", "a1": "L Bear", "c1": "D Fungi", "e8": "D Wolf"}, kings=("Bear", "Fungi"))
    play(g, "Monkey c2-c1")
    assert g.outcome() is None and g.st.chain is not None
    play(g, "stop")
    assert g.outcome() is None and g.st.turn == DARK
    play(g, "Monkey c1-b1")  # Dark moves its fungi king inside the zombie monkey to rank 1
    assert g.outcome() is not None and g.outcome().winners == {1}  # type: ignore[union-attr]


def test_monkey_attacking_the_bear_needs_five_or_six_3_7l() -> None:
    g = board({"c3": "L Monkey", "c4": "D Bear", "a1": "L Goat", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    play(g, "Monkey c3-c4")
    roll(g, 4)
    assert at(g, "c4") == ["D Bear"] and at(g, "c3") == []
    g2 = board({"c3": "L Monkey", "c4": "D Bear", "a1": "L Goat", "e8": "D Wolf"}, kings=("Goat", "Wolf"))
    play(g2, "Monkey c3-c4")
    roll(g2, 5)
    assert at(g2, "c4") == ["L Monkey"]


# ----- 3.8 octopus ------------------------------------------------------------------------


def test_octopus_steps_any_way_but_captures_only_orthogonally_3_8a_3_8b() -> None:
    g = board({"c4": "L Octopus", "d5": "D Goat", "c5": "D Crane", "a8": "D Wolf"})
    d = dests(g, "c4", "Octopus")
    assert "c5" in d and "d5" not in d and "b5" in d


# ----- 3.9 penguin ------------------------------------------------------------------------


def test_penguin_starts_hibernating_and_rotates_3_9a_1_4h() -> None:
    g = board({"c1": "L Penguin", "e8": "D Wolf"})
    assert g.st.top(sq_parse("c1")).facing == 4  # type: ignore[union-attr, arg-type]
    ms = [m for m in moves(g) if m.startswith("Penguin")]
    assert ms == sorted(f"Penguin c1 face {d}" for d in ("N", "NE", "E", "SE", "SW", "W", "NW"))


def test_penguin_slides_to_the_farthest_square_then_may_rotate_3_9b() -> None:
    g = board({"c1": "L Penguin face=N", "c6": "D Crane", "a8": "D Wolf"})
    assert "Penguin c1-c5" in moves(g) and "Penguin c1-c5 face E" in moves(g)
    assert "Penguin c1-c4" not in moves(g)
    play(g, "Penguin c1-c5 face E")
    p = g.st.top(sq_parse("c5"))  # type: ignore[arg-type]
    assert p is not None and p.facing == 2


def test_penguin_captures_one_square_and_slides_through_fainted_goats_and_dormant_viruses_3_9c() -> None:
    g = board({"c1": "L Penguin face=N", "c2": "D Crane", "a8": "D Wolf"})
    assert "Penguin c1-c2" in moves(g) and "Penguin c1-c2 face W" in moves(g)
    g2 = board({"c1": "L Penguin face=N", "c3": "D Goat fainted", "c8": "D Virus", "a8": "D Wolf"})
    play(g2, "Penguin c1-c8")
    assert at(g2, "c8") == ["L Penguin"] and "Virus" in g2.st.captured[DARK]


def test_penguin_cannot_climb_trees_or_capture_large_3_9d_3_9e() -> None:
    g = board({"c2": "L Penguin", "c3": "L Tree", "b3": "D Wolf", "d3": "D Tree", "a8": "D Bear"},
              kings=("Penguin", "Bear"))
    assert not dests(g, "c2", "Penguin") & {"c3", "b3", "d3"}


# ----- 3.10 rhino -------------------------------------------------------------------------


def test_rhino_moves_two_forward_or_one_back_diagonal_3_10a_3_10b() -> None:
    g = board({"c3": "L Rhino", "e8": "D Wolf"})
    assert dests(g, "c3") == {"c5", "b2", "d2"}
    g2 = board({"c6": "D Rhino", "a1": "L Wolf"}, turn="D")
    assert dests(g2, "c6") == {"c4", "b7", "d7"}


def test_rhino_tramples_friend_and_foe_3_10f() -> None:
    g = board({"c3": "L Rhino", "c4": "L Crane", "c5": "D Goat", "a1": "L Bear", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Rhino c3-c5")
    assert at(g, "c4") == [] and at(g, "c5") == ["L Rhino"]
    assert g.st.captured == [["Crane"], ["Goat"]]


def test_rhino_lane_swaps_with_an_unmoved_piece_on_its_rank_3_10c() -> None:
    g = board({"c1": "L Rhino", "a1": "L Bear", "e1": "L Crane moved", "e8": "D Wolf"})
    assert "Rhino c1 lane a1" in moves(g) and "Rhino c1 lane e1" not in moves(g)
    play(g, "Rhino c1 lane a1")
    assert at(g, "a1") == ["L Rhino"] and at(g, "c1") == ["L Bear"]
    assert "Rhino a1 lane c1" not in moves(g)


def test_rhino_charge_three_forward_once_if_an_animal_is_ahead_3_10d() -> None:
    g = board({"c1": "L Rhino", "c3": "D Goat", "a1": "L Bear", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    assert "Rhino c1-c4" in moves(g)
    play(g, "Rhino c1-c4")
    assert g.st.top(sq_parse("c4")).charged  # type: ignore[union-attr, arg-type]
    g2 = board({"c1": "L Rhino", "a1": "L Bear", "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    assert "Rhino c1-c4" not in moves(g2)


def test_rhino_defence_only_same_rank_attackers_bears_and_wolves_3_10e() -> None:
    g = board({"c4": "D Rhino", "c3": "L Goat", "b4": "L Fungi", "a2": "L Crane", "b2": "L Wolf", "e8": "D Bear"},
              kings=("Goat", "Bear"))
    assert "c4" not in dests(g, "c3")
    assert "c4" in dests(g, "b4")
    assert "c4" in dests(g, "b2")


# ----- 3.11 snake -------------------------------------------------------------------------


def test_snake_moves_two_orthogonally_3_11a() -> None:
    g = board({"c4": "L Snake", "e8": "D Wolf"})
    assert dests(g, "c4") == {"c2", "c6", "a4", "e4"}


def test_snake_moves_one_when_the_edge_or_a_friend_blocks_3_11b() -> None:
    g = board({"b1": "L Snake", "b3": "L Bear", "e8": "D Wolf"})
    assert dests(g, "b1", "Snake") == {"b2", "d1", "a1"}


def test_snake_strike_three_forward_onto_an_enemy_animal_3_11c() -> None:
    g = board({"c1": "L Snake", "c4": "D Goat", "c2": "D Goat fainted", "e8": "D Wolf"}, kings=("Snake", "Wolf"))
    assert "c4" in dests(g, "c1")
    g2 = board({"c1": "L Snake", "c4": "D Goat", "c2": "L Bear", "e8": "D Wolf"})
    assert "c4" not in dests(g2, "c1")


def test_snake_sheds_once_back_to_its_back_rank_3_11d() -> None:
    g = board({"c4": "L Snake", "c5": "D Bear", "a8": "D Wolf", "a1": "L Goat"}, turn="D", kings=("Snake", "Wolf"))
    play(g, "Bear c5-c4")
    assert at(g, "c1") == ["L Snake"] and g.st.top(sq_parse("c1")).shed  # type: ignore[union-attr, arg-type]
    assert g.outcome() is None  # a snake king that sheds is not lost
    g.st.turn = DARK
    g.st.cells[sq_parse("c2")] = g.st.cells.pop(sq_parse("c4"))  # type: ignore[arg-type]
    play(g, "Bear c2-c1")
    assert g.outcome() is not None and g.outcome().winners == {1}  # type: ignore[union-attr]


# ----- 3.12 tree --------------------------------------------------------------------------


def test_tree_steps_forward_or_slides_sideways_capturing_the_first_enemy_3_12a_3_12b() -> None:
    g = board({"c1": "L Tree", "a1": "D Goat", "e1": "L Bear", "e8": "D Wolf"})
    assert dests(g, "c1", "Tree") == {"c2", "b1", "a1", "d1"}


def test_tree_houses_climbers_and_carries_them_3_12d() -> None:
    g = board({"c1": "L Tree", "c2": "L Crane", "e8": "D Wolf", "e7": "D Goat", "a1": "L Wolf"},
              kings=("Tree", "Wolf"))
    play(g, "Crane c2-c1")
    assert at(g, "c1") == ["L Tree", "L Crane"]
    play(g, "Wolf e8-d6")
    play(g, "Tree c1-c2")
    assert at(g, "c2") == ["L Tree", "L Crane"]
    assert "a1" not in dests(g, "a1")  # the wolf cannot climb
    assert "Wolf a1-c2" not in moves(g)


def test_enemy_entering_a_tree_captures_the_tree_or_only_its_housed_piece_3_12e() -> None:
    g = board({"c4": "D Bear", "c3": "L Tree", "b2": "L Crane", "e8": "D Wolf"}, turn="D", kings=("Crane", "Wolf"))
    assert "c3" in dests(g, "c4")
    g2 = board({"c4": "D Bear", "c3": "L Tree + L Crane", "e8": "D Wolf"}, turn="D", kings=("Tree", "Wolf"))
    play(g2, "Bear c4-c3")
    assert at(g2, "c3") == ["L Tree", "D Bear"]
    g3 = board({"c4": "D Crane", "c3": "L Tree", "e8": "D Wolf"}, turn="D", kings=("Tree", "Crane"))
    assert "c3" not in dests(g3, "c4")


def test_trees_cannot_climb_or_capture_housing_trees_and_only_rhinos_take_them_3_12f_3_12g_3_12h() -> None:
    g = board({"c1": "L Tree", "d1": "D Tree + D Crane", "e8": "D Wolf"}, kings=("Tree", "Wolf"))
    assert "d1" not in dests(g, "c1")
    g2 = board({"c3": "L Rhino", "c5": "D Tree + D Crane", "e8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    play(g2, "Rhino c3-c5")
    assert at(g2, "c5") == ["L Rhino"] and sorted(g2.st.captured[DARK]) == ["Crane", "Tree"]


# ----- 3.13 wolf --------------------------------------------------------------------------


def test_wolf_jumps_like_a_knight_3_13a() -> None:
    g = board({"c4": "L Wolf", "a1": "L Bear", "e8": "D Bear"}, kings=("Bear", "Bear"))
    assert dests(g, "c4") == {"a3", "a5", "b2", "b6", "d2", "d6", "e3", "e5"}


def test_lone_wolf_jumps_farther_3_13b() -> None:
    g = board({"c4": "L Wolf", "a1": "L Virus", "e8": "D Bear"})
    assert dests(g, "c4", "Wolf") == {"b1", "b7", "d1", "d7"}


# ----- 3.14 virus -------------------------------------------------------------------------


def test_virus_hops_two_onto_animals_only_or_one_at_the_edge_3_14a_3_14b() -> None:
    g = board({"c3": "L Virus", "c5": "D Goat", "a3": "L Tree", "e5": "D Fungi", "e1": "D Crane", "b1": "L Bear",
               "a8": "D Wolf"})
    d = dests(g, "c3", "Virus")
    assert d == {"c5", "e1"}


def test_virus_infects_without_capturing_and_captures_the_host_it_leaves_3_14e_3_14f() -> None:
    g = board({"c3": "L Virus", "c5": "D Goat", "b1": "L Bear", "e6": "L Crane", "a8": "D Wolf", "a7": "D Fungi"},
              kings=("Bear", "Wolf"))
    play(g, "Virus c3-c5")
    assert at(g, "c5") == ["D Goat", "L Virus"] and g.st.turn == DARK
    play(g, "Goat c5-c6")  # the host carries its virus
    assert at(g, "c6") == ["D Goat", "L Virus"]
    assert "Virus c6-a6" not in moves(g)  # never onto an empty square
    play(g, "Virus c6-e6")
    assert g.st.captured[DARK] == ["Goat"] and at(g, "e6") == ["L Crane", "L Virus"]


def test_virus_chains_hops_in_one_turn_3_14g() -> None:
    g = board({"a1": "L Virus", "a3": "D Goat", "a5": "D Crane", "e1": "L Bear", "e8": "D Wolf"},
              kings=("Bear", "Wolf"))
    play(g, "Virus a1-a3")
    assert g.st.turn == LIGHT and "stop" in moves(g)
    play(g, "Virus a3-a5")
    assert g.st.captured[DARK] == ["Goat"] and g.st.turn == DARK  # no animal left in reach: the turn ends


def test_dormant_virus_captured_does_not_infect_3_14c_3_14d() -> None:
    g = board({"c3": "L Bear", "c4": "D Virus", "a8": "D Wolf"})
    play(g, "Bear c3-c4")
    assert at(g, "c4") == ["L Bear"]


def test_infected_host_captured_passes_the_virus_to_the_captor() -> None:
    g = board({"c3": "L Bear", "c4": "D Goat + D Virus", "a8": "D Wolf"})
    play(g, "Bear c3-c4")
    assert at(g, "c4") == ["L Bear", "D Virus"]


def test_virus_attacking_an_infected_piece_captures_the_enemy_virus_3_14h() -> None:
    g = board({"c3": "L Virus", "c5": "D Goat + D Virus", "b1": "L Bear", "a8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Virus c3-c5")
    assert at(g, "c5") == ["D Goat", "L Virus"] and g.st.captured[DARK] == ["Virus"]


def test_rhino_trampling_two_infected_pieces_keeps_the_first_virus_3_14h() -> None:
    g = board({"c3": "L Rhino", "c4": "L Goat + L Virus", "c5": "D Goat + D Virus", "a1": "L Bear",
               "e8": "D Wolf"}, kings=("Bear", "Wolf"))
    play(g, "Rhino c3-c5")
    assert at(g, "c5") == ["L Rhino", "L Virus"]
    assert "Virus" in g.st.captured[DARK]


def test_an_infected_goat_leaving_a_tree_lands_fainted_with_the_virus_dormant_on_it_3_6b_3_6c() -> None:
    g = board({"c4": "L Tree + L Goat + D Virus", "a8": "D Wolf", "a1": "L Bear"}, kings=("Bear", "Wolf"))
    play(g, "Goat c4-c5")
    c = g.st.cells[sq_parse("c5")]
    assert c.floor is not None and c.piece is not None and c.piece.kind == "Virus" and c.virus is None
    assert not [m for m in moves(g) if m.startswith("Goat")]  # covered by the virus: it cannot get up
