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


def test_the_named_histories_are_legal_events() -> None:
    # Every history above pairs without an organiser's decision (no rematch, no second bye needed).
    cases = ((C7_SIX, 6, 3, 3), (SEVEN_TO_ROUND_3, 7, 4, 6), (ELEVEN_TO_ROUND_3, 11, 4, 4), (SIX_ROUND_1, 6, 2, 4),
             (FIVE_TO_ROUND_3, 5, 4, 4), (NINE_TO_ROUND_6, 9, 7, 7))
    for text, n, round_, rounds in cases:
        try:
            pair_dutch(list(range(1, n + 1)), from_blocks(text), round_, rounds=rounds)
        except NoLegalPairing as error:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"{text[:10]}...: {error}") from error
