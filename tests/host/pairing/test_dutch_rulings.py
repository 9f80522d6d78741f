"""The Dutch system's differences with the reference engine (caissify-pairings), one named test per kind,
each decided by the handbook's text (FIDE C.04.3, the 2017 text, and C.04.2 D.5).

The histories are written as TRF-like blocks (``opponent``, ``w``/``b``, ``1``/``=``/``0``; ``U`` a
pairing-allocated bye); ``test_dutch_reference.py`` checks that the reference really answers as said here.
"""

from __future__ import annotations

from host.tournaments.pairing.dutch import NoLegalPairing, Player, allocate, pair_dutch, players_of
from host.tournaments.pairing.model import Bye, Game, Result, two_player


def from_blocks(text: str) -> list[Result]:
    """Results from one line per player (``me:block block ...``); each game is read from its white side.

    ``U`` a pairing-allocated bye, ``H`` a requested half-point bye, ``Z`` an absence (0); ``5w+``/``5w-`` a
    forfeit won/lost against 5 (unplayed), ``5w#`` a double forfeit (0-0).
    """
    results: list[Result] = []
    for line in text.splitlines():
        me, blocks = line.split(":")
        for round_, block in enumerate(blocks.split(), start=1):
            if block in ("U", "H", "Z"):
                results.append(Bye(round_, int(me), {"U": 1.0, "H": 0.5, "Z": 0.0}[block]))
            elif block[-2] == "w" and block[-1] == "#":
                results.append(Game(round_, (int(me), int(block[:-2])), (0.0, 0.0), forfeit=True))
            elif block[-2] == "w":
                points = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}[block[-1]]
                results.append(two_player(round_, int(me), int(block[:-2]), points, forfeit=block[-1] in "+-"))
    return results


def pairs(boards: tuple[tuple[int, int], ...]) -> set[frozenset[int]]:
    return {frozenset(b) for b in boards}


# ----- C.7: the downfloater chosen for the next bracket (ours was wrong before C.7; the reference right) ----

C7_SIX = """\
1:4w= 6b1
2:5b0 3w0
3:6w= 2b1
4:1b= 5w=
5:2w1 4b=
6:3b= 1w0"""


def test_c7_the_downfloater_is_the_one_the_next_bracket_can_pair() -> None:
    # 6 players, round 3 of 3. Scores: 1, 3 and 5 on 1½ (none has met another), 4 on 1, 6 on ½, 2 on 0.
    # The 1½ bracket pairs one pair and floats one player: 1-3, 1-5 and 3-5 are equal in C.5 and C.6 (one
    # pair, one floater), and each misses one colour wish (all three want white: C.10). C.7 ("choose the
    # set of downfloaters in order first to maximize the number of pairs and then to minimize the PSD in
    # the following bracket") decides: 4 has met 1 and 5, so only 3 floating down lets the 1-point bracket
    # make a pair (3-4). The pairing is 1-5, 3-4, 6-2 (without C.7 it was 3-5, 1 floating to 2, 4-6).
    paired = pair_dutch(list(range(1, 7)), from_blocks(C7_SIX), 3, rounds=3)
    assert pairs(paired.boards) == {frozenset({1, 5}), frozenset({3, 4}), frozenset({2, 6})}


SEVEN_TO_ROUND_3 = """\
1:4w= 6b= 7w1
2:5b0 U 6w0
3:6w= 4b1 5b0
4:1b= 3w0 U
5:2w1 7b1 3w1
6:3b= 1w= 2b1
7:U 5w0 1b0"""


def test_c7_counts_the_pairs_the_next_bracket_can_make_with_the_round_completed() -> None:
    # 7 players, round 4 of 6. 5 (3 points) floats into the 2-point bracket {1, 6} (1 and 6 have met):
    # 5-1 floats 6, 5-6 floats 1. 5 and 1 both want black (C.10 prefers 5-6). The next bracket is {3, 4}
    # on 1½, and the bye must go to 3 (2, 4 and 7 have had one; the lowest score it can go to is 1½).
    # - 6 floating: 6-4 is a pair there (6 has met 3), 3 takes the bye, 2-7 below: one pair.
    # - 1 floating: 1 has met 4, and 1-3 would take the bye's only player, leaving 4 with 2 and 7 (all
    #   had a bye): the round could not be completed, so the next bracket pairs nobody (1-2, 4-7 below).
    # C.7 (most pairs in the following bracket) ranks above C.10: 5-1, then 6-4, 7-2 and the bye to 3.
    # Counting the next bracket's pairs without C.4 (1-3 "possible") had made it 5-6; the reference agrees
    # with the completed reading, as does bbpPairings, which weighs the next bracket inside one matching
    # of the whole round.
    paired = pair_dutch(list(range(1, 8)), from_blocks(SEVEN_TO_ROUND_3), 4, rounds=6)
    assert pairs(paired.boards) == {frozenset({1, 5}), frozenset({4, 6}), frozenset({2, 7})}
    assert paired.bye == 3


# ----- equal on every criterion: the first candidate in the D order (the reference takes a later one) ------

ELEVEN_TO_ROUND_3 = """\
1:6w= 8b1 9w1
2:7b1 5w0 3b1
3:8w0 6b= 2w0
4:9b1 11w1 5b0
5:10w1 2b1 4w1
6:1b= 3w= 11b1
7:2w0 10b1 8w0
8:3b1 1w0 7b1
9:4w0 U 1b0
10:5b0 7w0 U
11:U 4b0 6w0"""


def test_when_candidates_tie_on_every_criterion_the_first_in_the_handbook_order_is_taken() -> None:
    # 11 players, round 4 of 4. The 1-point bracket is {7, 9, 10, 11} (homogeneous; 3 on ½ takes the bye).
    # S1 = {7, 9}, S2 = {10, 11}: 7-10 met, so the first transposition is 7-11, 9-10. The reference pairs
    # the exchange 7-9, 10-11. Both are complete and rematch-free, both miss one colour wish (7 and 11 both
    # want black; 10 and 11 both want black) and no strong one, and nobody floats: equal from C.5 to C.19.
    # C.04.3 B/D: the candidates are tried in the D order (transpositions of S2 before any exchange) and the
    # first one that is best is taken, so 7-11, 9-10 it is.
    paired = pair_dutch(list(range(1, 12)), from_blocks(ELEVEN_TO_ROUND_3), 4, rounds=4)
    assert frozenset({7, 11}) in pairs(paired.boards) and frozenset({9, 10}) in pairs(paired.boards)
    assert paired.bye == 3


# ----- C.3: two non-topscorers with the same absolute colour wish never meet (the reference pairs them) -----

NINE_TO_ROUND_6 = """\
1:5w0 7b1 6w1 9b1 8w1 3b=
2:6b1 8w= 3b= 5b0 U 4w1
3:7w0 4b1 2w= 8w1 5b1 1w=
4:8b0 3w0 U 6b0 9w1 2b0
5:1b1 9w1 8b= 2w1 3w0 7b1
6:2w0 U 1b0 4w1 7b0 9w0
7:3b1 1w0 9b0 U 6w1 5w0
8:4w1 2b= 5w= 3b0 1b0 U
9:U 5b0 7w1 1w0 4b0 6b1"""


def test_two_non_topscorers_with_the_same_absolute_colour_wish_are_not_paired() -> None:
    # 9 players, round 7 of 7 (topscorers: more than 3½). 8 (…W B B) and 9 (…B B) both must have white
    # (C.04.3 A.6: the same colour in the two latest games is an absolute preference), and both have 3
    # points: C.3 forbids 8-9 ("non-topscorers with the same absolute colour preference shall not meet").
    # 9 has met 1, 4, 5, 6 and 7 and 3 takes the bye (the only player without one), so 9 must meet 2, and
    # 1 (who has met 3, 5-9) must meet 4: 4-1, 5-6, 9-2, 8-7. The reference pairs 1-2 and then 9-8, giving
    # 8 black a third time running, against C.3; the round can be paired without that, so C.3 holds.
    paired = pair_dutch(list(range(1, 10)), from_blocks(NINE_TO_ROUND_6), 7, rounds=7)
    assert pairs(paired.boards) == {frozenset({1, 4}), frozenset({5, 6}), frozenset({2, 9}), frozenset({7, 8})}
    assert paired.bye == 3 and (8, 7) in paired.boards  # 8 white, 7 (…W W) black: both absolute wishes met


# ----- colours: E.4's "higher ranked" is score first (A.2); the reference ranks by pairing number ------

SIX_ROUND_1 = """\
1:4w0
2:5b1
3:6w=
4:1b1
5:2w0
6:3b="""


def test_e4_grants_the_wish_of_the_player_with_the_higher_score_not_the_better_pairing_number() -> None:
    # 6 players, round 2: 3 (½, had white) meets 1 (0, had white); both want black, equally (mild), and
    # their histories never differ (E.3 does not decide). E.4: "grant the colour preference of the higher
    # ranked player", and A.2 ranks by score first, then pairing number: 3 (½) outranks 1 (0), so 3 gets
    # black. The reference ranks by pairing number alone here and gives 1 black.
    results = from_blocks(SIX_ROUND_1)
    paired = pair_dutch(list(range(1, 7)), results, 2, rounds=4)
    assert (1, 3) in paired.boards
    players = {p.id: p for p in players_of(list(range(1, 7)), results, 2)}
    white, black = allocate(players[1], players[3])
    assert (white.id, black.id) == (1, 3)


def test_e4_reading_on_made_up_players() -> None:
    # The same rule without history: equal wishes, identical colours, different scores.
    high = Player(7, 7, 2.0, [1, -1, 1], {}, set(), 0, rank=0)
    low = Player(3, 3, 0.5, [1, -1, 1], {}, set(), 0, rank=5)
    assert allocate(low, high) == (low, high)  # both want black: 7 has the higher score, so 7 gets it


# ----- colours: unplayed rounds are skipped (C.04.2 D.5); the reference reads them as history -----------

FIVE_TO_ROUND_3 = """\
1:3w1 5b0 4w0
2:4b1 3w0 U
3:1b0 2b1 5w=
4:2w0 U 1b1
5:U 1w1 3b="""


def test_colour_wishes_skip_unplayed_rounds() -> None:
    # 5 players, round 4 of 4. 5 (bye in round 1, then white, black) wants white; 2 (black, white, then a
    # bye in round 3) wants black. C.04.2 D.5: "a player who did not play a round ... colour history
    # ... the round is skipped", so the preferences come from played games only and E.1 grants both:
    # 5 white, 2 black. The reference, given the histories with the unplayed rounds in place, gives 2
    # white; given the played games only, it agrees with us.
    paired = pair_dutch(list(range(1, 6)), from_blocks(FIVE_TO_ROUND_3), 4, rounds=4)
    assert (5, 2) in paired.boards and paired.bye == 1


# ----- session 7: the 2,000-event run (tests/host/pairing/reference_run.py); docs/tournaments.md ---------------

THIRTEEN_TO_ROUND_1 = """\
1:8w0
2:9b0
3:10w=
4:Z
5:11w=
6:H
7:12w=
8:1b1
9:2w1
10:3b=
11:5b=
12:7b=
13:U"""


def test_c9_2025_the_bye_goes_to_the_player_with_the_fewest_unplayed_games() -> None:
    # 13 players, round 2 of 2. The 0-point bracket is {1, 2, 4} and takes the bye (13 has had it). 1 and 2
    # lost their games; 4 was absent in round 1 (an unplayed round, 0 points). The 2025 text's C.9 ("minimize
    # the number of unplayed games of the bye assignee", bbpPairings and the reference alike) ranks above the
    # colour criteria: the bye goes to 2 (one game played), not 4 (none), and 1 meets 4. Before, we took the
    # first candidate in the D order, 1-2, and gave 4 the bye: a second round without a game.
    paired = pair_dutch(list(range(1, 14)), from_blocks(THIRTEEN_TO_ROUND_1), 2, rounds=2)
    assert paired.bye == 2 and frozenset({1, 4}) in pairs(paired.boards)


FIFTEEN_TO_ROUND_5 = """\
1:8w1 14b0 15w= 13b1 12w1
2:9b= 13w= 10b1 5w0 15w=
3:10w1 15b1 14w0 12b1 11w1
4:11b= 5w0 7b0 6w= U
5:12w= 4b1 13w1 2b1 14b=
6:13b0 11w0 H 4b= 10w1
7:14w0 8b= 4w1 15b0 9w1
8:1b0 7w= H 10b= 13w=
9:2w= 12b0 U 11w0 7b0
10:3b0 U 2w0 8w= 6b0
11:4w= 6b1 12w0 9b1 3b0
12:5b= 9w1 11b1 3w0 1b0
13:6w1 2b= 5b0 1w0 8b=
14:7b1 1w1 3b1 H 5w=
15:U 3w0 1b= 7w1 2b="""


def test_c9_2025_also_decides_the_downfloater_who_is_the_only_one_left_for_the_bye() -> None:
    # 15 players, round 6 of 7. Everyone below 2 points (9, 10) has had a bye, so the bye goes to a 2-point
    # player (4 has had one): 6, 8 or 13. The 2-point bracket (7 moved down, 4, 6, 8, 13) floats exactly one
    # player, and he takes the bye. 6 had a half-point bye in round 3 (one unplayed game), 8 too, 13 none: C.9
    # (2025) ranks above the colour criteria and gives the bye to 13; 7-6 and 4-8 are paired. We applied it
    # in the last bracket only, where the choice was already made (bbpPairings: "isSingleDownfloaterTheBye-
    # Assignee").
    paired = pair_dutch(list(range(1, 16)), from_blocks(FIFTEEN_TO_ROUND_5), 6, rounds=7)
    assert paired.bye == 13
    assert {frozenset({6, 7}), frozenset({4, 8})} <= pairs(paired.boards)


NINETEEN_TO_ROUND_6 = """\
1:11w0 15b0 18w= 2b0 12b0 4w0
2:12b0 6w0 3b= 1w1 4b1 14w0
3:13w0 17b= 2w= 14b0 18w1 5b1
4:14b0 18w1 10w0 13b= 2w0 1b1
5:15w= 10b0 17w0 18b0 U 3w0
6:16b0 2b1 13w1 15w0 7b0 12w0
7:17w1 12b1 9w0 19b0 6w1 15b1
8:18b1 14w1 16b= 10w0 15b1 19w1
9:19w1 13b1 7b1 16w1 Z Z
10:H 5w1 4b1 8b1 19w0 16w1
11:1b1 16w0 14b1 Z Z Z
12:2w1 7w0 19b0 17b0 1w1 6b1
13:3b1 9w0 6b0 4w= 14w1 17b1
14:4w1 8b0 11w0 3w1 13b0 2b1
15:5b= 1w1 H 6b1 8w0 7w0
16:6w1 11b1 8w= 9b0 17w1 10b0
17:7b0 3w= 5b1 12w1 16b0 13w0
18:8w0 4b0 1b= 5w1 3b0 Z
19:9b0 U 12w1 7w1 10b1 8b0"""
AWAY_IN_ROUND_7 = (5, 9, 11, 14, 18)


def test_c18_a_player_who_floated_down_two_rounds_before_is_paired_as_high_as_he_can_be() -> None:
    # 19 players (5, 9, 11, 14, 18 away), round 7 of 9. 8 and 10 (4½, they have met) float into the 4-point
    # bracket {7, 19}, where only 7 can take one of them (19 has met both, and 7). 10 floated down in round 5, 8
    # did not. Pairing 8-7 (the first MDP in the D order) sends 10 down again, to the 3½ bracket; pairing
    # 10-7 sends 8 there. C.18 ("minimize the score differences of players who receive the same downfloat as
    # two rounds before") counts everyone the bracket moves down, MDPs too, with A.8's difference: 10 paired
    # here plays ½ down, sent on he would play at least 1 down. So 7-10 and 8-13, as the reference and
    # bbpPairings ("minimize the scores of downfloaters repeated from two rounds before", which weighs
    # every downfloater paired in the bracket). We used to count only the MDPs paired in the bracket.
    paired = pair_dutch(list(range(1, 20)), from_blocks(NINETEEN_TO_ROUND_6), 7, AWAY_IN_ROUND_7, rounds=9)
    assert {frozenset({7, 10}), frozenset({8, 13})} <= pairs(paired.boards)


def test_an_unplayed_round_is_a_downfloat_only_when_it_scored() -> None:
    # A.4 (2017: "a player who, for whatever reason, does not play in a round, also receives a downfloat");
    # bbpPairings (2025 reading, "Narrow condition for downfloat for unplayed game") gives the downfloat only
    # to an unplayed round that scored more than a loss, and never an upfloat. Round 1: 1 wins by forfeit
    # against 2; 3 and 4 both forfeit (0-0); 5 takes a requested half-point bye; 6 is absent (0); 7 has the
    # pairing-allocated bye. Round 2: 1 (1 point) loses a forfeit to 5 (½): nobody floats up.
    results = from_blocks("1:2w+ 5b\n2:1b\n3:4w#\n4:3b\n5:H 1w+\n6:Z\n7:U")
    floats = {p.id: p.floats for p in players_of(list(range(1, 8)), results, 3)}
    assert floats[1] == {1: "down"} and floats[2] == {}
    assert floats[3] == {} and floats[4] == {}
    assert floats[5] == {1: "down", 2: "down"} and floats[6] == {} and floats[7] == {1: "down"}


NINE_TO_ROUND_6_SECOND_BYE = """\
1:5w= 4b1 2w= 7b1 9b- 9b1
2:6b1 8w1 1b= 9w1 5b1 3w1
3:7w0 5b0 6w1 U 4b1 2b0
4:8b0 1w0 U 6b= 3w0 5w1
5:1b= 3w1 9b0 8w1 2w0 4b0
6:2w0 U 3b0 4w= 7b1 8w1
7:3b1 9w= 8b= 1w0 6w0 U
8:4w1 2b0 7w= 5b0 U 6b0
9:U 7b= 5w1 2b0 1w+ 1w0"""


def test_no_second_bye_while_a_player_without_one_can_take_it() -> None:
    # 9 players, round 7 of 8. Everyone on 3 points or less has had a bye or a forfeit win (9 both) but 5
    # (2½). C.2: "a player who has already received a pairing-allocated bye, or has already scored a (forfeit)
    # win due to an opponent not appearing in time, shall not receive the pairing-allocated bye". We give it
    # to 5 and pair 2-7, 1-6, 9-4, 3-8. The reference gives 8 (bye in round 5) a second one: 1-6, 2-4, 3-9,
    # 5-7; its own check of who may take the bye gives way when its search for a complete pairing fails.
    paired = pair_dutch(list(range(1, 10)), from_blocks(NINE_TO_ROUND_6_SECOND_BYE), 7, rounds=8)
    assert paired.bye == 5 and paired.second_byes == 0
    assert pairs(paired.boards) == {frozenset({2, 7}), frozenset({1, 6}), frozenset({4, 9}), frozenset({3, 8})}


SEVEN_TO_ROUND_4 = """\
1:4w0 U H 6w0
2:5b= 3w1 7b0 4w1
3:6w= 2b0 5b0 U
4:1b1 7w0 6b= 2b0
5:2w= 6b= 3w1 7b=
6:3b= 5w= 4w= 1b1
7:U 4b1 2w1 5w="""


def test_an_even_round_is_completed_when_it_can_be() -> None:
    # 7 players, round 5 of 6; 5 sits the round out (6 to pair). C.4: "a pairing is complete when all the
    # players have been paired (the bye assignee excluded)". We pair 6-7, 2-1, 4-3. The reference pairs
    # 2-1 and 3-7, then finds 4 and 6 (who have met) left and gives them both a bye ("Multiple forced byes").
    paired = pair_dutch(list(range(1, 8)), from_blocks(SEVEN_TO_ROUND_4), 5, (5,), rounds=6)
    assert paired.bye is None and len(paired.boards) == 3
    assert pairs(paired.boards) == {frozenset({6, 7}), frozenset({1, 2}), frozenset({3, 4})}


TEN_TO_ROUND_5 = """\
1:6w= 9b1 5w0 2b= 10w1
2:7b- 8b0 U 1w= 4b-
3:8w1 4b1 7b0 5w- 9w1
4:9b= 3w0 10b0 6b0 2w+
5:10w+ 7w0 1b1 3b+ 8w=
6:1b= H H 4w1 7w0
7:2w+ 5b1 3w1 8w= 6b1
8:3b0 2w1 9w1 7b= 5b=
9:4w= 1w0 8b0 10w0 3b0
10:5b- Z 4w1 9b1 1b0"""


def test_c5_most_pairs_in_the_bracket_before_a_smaller_score_difference() -> None:
    # 10 players, round 6 of 7. 7 (4½) and 5 (3½) have met and both float into the 3-point bracket {1, 3,
    # 8}. 7 can only meet 1 there (forfeits are not meetings: 5-3 and 7-2 were never played). Pairing
    # both MDPs (7-1, 5-3) floats 8, who must then have white (C.3) against 6 and leaves 4-9, a rematch:
    # not complete (C.4). So two pairs at most: 1-8 and 3-5, 7 floating on (10-7, 9-6, 4-2 below). The
    # reference pairs one (1-7) and floats 5, 3 and 8 for smaller score differences. C.5 ("maximize the
    # number of pairs in the current bracket") ranks above C.6 (PSD).
    paired = pair_dutch(list(range(1, 11)), from_blocks(TEN_TO_ROUND_5), 6, rounds=7)
    assert pairs(paired.boards) == {frozenset({7, 10}), frozenset({3, 5}), frozenset({1, 8}), frozenset({6, 9}),
                                    frozenset({2, 4})}


def test_the_named_histories_are_legal_events() -> None:
    # Every history above pairs without an organiser's decision (no rematch, no second bye needed).
    cases = ((C7_SIX, 6, 3, 3), (SEVEN_TO_ROUND_3, 7, 4, 6), (ELEVEN_TO_ROUND_3, 11, 4, 4), (SIX_ROUND_1, 6, 2, 4),
             (FIVE_TO_ROUND_3, 5, 4, 4), (NINE_TO_ROUND_6, 9, 7, 7), (THIRTEEN_TO_ROUND_1, 13, 2, 2),
             (FIFTEEN_TO_ROUND_5, 15, 6, 7), (NINE_TO_ROUND_6_SECOND_BYE, 9, 7, 8), (TEN_TO_ROUND_5, 10, 6, 7))
    for text, n, round_, rounds in cases:
        try:
            pair_dutch(list(range(1, n + 1)), from_blocks(text), round_, rounds=rounds)
        except NoLegalPairing as error:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"{text[:10]}...: {error}") from error
