"""Points and tie-breaks held to published worked examples, plus placing points and explanations."""

from __future__ import annotations

import itertools

import pytest

from host.tournaments.pairing.model import Bye, Game, Result, forfeit, placing_points, total_points, two_player
from host.tournaments.pairing.scoring import (
    ROUND_ROBIN,
    SWISS,
    TIEBREAKS,
    buchholz_and_sb,
    explanations,
    standings,
    virtual_opponent,
)


def crosstable(rows: dict[str, str], cycles: int) -> list[Result]:
    """Results from a published crosstable: ``rows[p]`` lists p's score against each player per cycle."""
    names = list(rows)
    results: list[Result] = []
    for cycle in range(cycles):
        for a, b in itertools.combinations(names, 2):
            score = rows[a].split("|")[cycle].split()[names.index(b)]
            results.append(two_player(cycle + 1, a, b, float(score)))
    return results


def test_sonneborn_berger_matches_sensei_library_example() -> None:
    # Sensei's Library, "Sonneborn-Berger" (snapshot 2005-09-14; the same table is "Example 1" at
    # http://www.fiveinline.com/sbps.html): double round robin, 1 = win. Published: A 4 pts SB 11,
    # B 4 pts SB 9, C 3 pts SB 6, D 1 pt SB 4; A wins the tie with B on SB.
    rows = {"A": "- 1 1 1 | - 0 1 0", "B": "0 - 1 1 | 1 - 0 1", "C": "0 0 - 1 | 0 1 - 1", "D": "0 0 0 - | 1 0 0 -"}
    results = crosstable(rows, cycles=2)
    table = standings(list(rows), results, rounds=2, system=ROUND_ROBIN)
    assert [(s.entrant, s.points, s.tiebreaks[1]) for s in table] == [
        ("A", 4, 11), ("B", 4, 9), ("C", 3, 6), ("D", 1, 4)]
    assert table[0].tiebreaks[0] == table[1].tiebreaks[0] == 1.0  # head-to-head A-B 1:1 did not split them
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_sonneborn_berger_with_draws_matches_chesskids_published_double_round_robin() -> None:
    # ChessKid (chess.com) help centre, "What is a tie-break?" (support.chesskid.com, article 8863009): a
    # double round robin of three. Bob beat Mary once and John twice (3 pts), Mary beat Bob once and drew
    # with John once (1½), John beat Mary once and drew with her once (1½). Published tie-breaks:
    # Bob 4.5, Mary 3.75, John 2.25. A well-known platform's worked example, not a federation's.
    rows = {"Bob": "- 0 1 | - 1 1", "Mary": "1 - 0 | 0 - 0.5", "John": "0 1 - | 0 0.5 -"}
    table = standings(list(rows), crosstable(rows, cycles=2), rounds=4, system=ROUND_ROBIN)
    assert {s.entrant: (s.points, s.tiebreaks[1]) for s in table} == {
        "Bob": (3, 4.5), "Mary": (1.5, 3.75), "John": (1.5, 2.25)}
    assert [s.entrant for s in table] == ["Bob", "John", "Mary"]  # head-to-head (1½ to ½) before SB


def test_sonneborn_berger_follows_fides_definition_in_a_crosstable_worked_by_hand() -> None:
    """No federation handbook or pairing program's manual we could reach publishes a crosstable with SB
    values (FIDE C.07 defines SB without a worked table), so this one is worked by hand from FIDE's
    definition (Tie-Break Regulations 2023/2024, Sonneborn-Berger: the sum, over a participant's
    opponents, of the opponent's final score times the points the participant scored against them).

    Single round robin of five; row = the player's score against each column::

             A  B  C  D  E   pts
        A    -  1  ½  1  0   2½
        B    0  -  1  ½  1   2½
        C    ½  0  -  1  ½   2
        D    0  ½  0  -  1   1½
        E    1  0  ½  0  -   1½

        SB(A) = 1·2½ (B) + ½·2 (C) + 1·1½ (D) + 0·1½ (E) = 2½ + 1 + 1½     = 5
        SB(B) = 0·2½ (A) + 1·2 (C) + ½·1½ (D) + 1·1½ (E) = 2 + ¾ + 1½      = 4¼
        SB(C) = ½·2½ (A) + 0·2½ (B) + 1·1½ (D) + ½·1½ (E) = 1¼ + 1½ + ¾    = 3½
        SB(D) = 0·2½ (A) + ½·2½ (B) + 0·2 (C) + 1·1½ (E)  = 1¼ + 1½        = 2¾
        SB(E) = 1·2½ (A) + 0·2½ (B) + ½·2 (C) + 0·1½ (D)  = 2½ + 1         = 3½

    Ranks for round robin: points, then head-to-head, then SB. A beat B, so A is first; D beat E, so D
    is fourth although E's SB is higher. With every game played, a Swiss ranking (Buchholz, SB) finds
    the same SB values: no unplayed game brings in a virtual opponent.
    """
    rows = {"A": "- 1 0.5 1 0", "B": "0 - 1 0.5 1", "C": "0.5 0 - 1 0.5", "D": "0 0.5 0 - 1", "E": "1 0 0.5 0 -"}
    results = crosstable(rows, cycles=1)
    table = standings(list(rows), results, rounds=4, system=ROUND_ROBIN)
    assert [(s.entrant, s.points, s.tiebreaks[1]) for s in table] == [
        ("A", 2.5, 5.0), ("B", 2.5, 4.25), ("C", 2.0, 3.5), ("D", 1.5, 2.75), ("E", 1.5, 3.5)]
    swiss = buchholz_and_sb(list(rows), results, rounds=4, system=SWISS)
    assert {name: values[1] for name, values in swiss.items()} == {
        "A": 5.0, "B": 4.25, "C": 3.5, "D": 2.75, "E": 3.5}


def test_players_equal_on_everything_share_the_place_as_in_fiveinline_example_two() -> None:
    # http://www.fiveinline.com/sbps.html "Example 2": A, B and D on 4 points and SB 8 are all winners.
    rows = {"A": "- 1 1 0 | - 1 1 0", "B": "0 - 1 1 | 0 - 1 1", "C": "0 0 - 0 | 0 0 - 0", "D": "1 0 1 - | 1 0 1 -"}
    table = standings(list(rows), crosstable(rows, cycles=2), rounds=2, system=ROUND_ROBIN)
    assert [(s.entrant, s.rank, s.points, s.tiebreaks) for s in table] == [
        ("A", 1, 4, (2, 8)), ("B", 1, 4, (2, 8)), ("D", 1, 4, (2, 8)), ("C", 4, 0, (0, 0))]


def test_sonneborn_berger_with_draws_matches_the_lippstadt_2003_worked_example() -> None:
    # Ricardo Gibert on CCC (stmintz.com/ccc id 311435), Abit AG Open Lippstadt 2003: Maiwald beat
    # opponents who finished on 10, 9 and 4 points (A = 23) and drew with opponents on 14, 12, 11, 9 and 3
    # (B = 24½): SB = 47½. We rebuild his games and give each opponent enough other wins to reach the
    # published final score, then let the scorer add it up.
    beaten, drawn = [10, 9, 4], [14, 12, 11, 9, 3]
    results: list[Result] = []
    filler = itertools.count(1000)
    for index, (final, mine) in enumerate([(s, 1.0) for s in beaten] + [(s, 0.5) for s in drawn]):
        opponent = f"opp{index}"
        results.append(two_player(1, "Maiwald", opponent, mine))
        remaining = final - (1.0 - mine)
        for _ in range(int(remaining)):
            results.append(two_player(2, opponent, next(filler), 1.0))
        if remaining % 1:
            results.append(two_player(2, opponent, next(filler), 0.5))
    entrants = sorted({e for r in results if isinstance(r, Game) for e in r.seats}, key=str)
    scores = total_points(results, entrants)
    assert [scores[f"opp{i}"] for i in range(8)] == beaten + drawn
    assert buchholz_and_sb(entrants, results, rounds=2, system=ROUND_ROBIN)["Maiwald"][1] == 47.5


def test_virtual_opponent_matches_the_fide_examples() -> None:
    # FIDE Handbook C.07 Tie-Break Regulations (2022 text, "a player who has no opponent will be
    # considered as having played against a virtual opponent"), quoted at chesspub.com thread 1671648811:
    # Example 1: round 3 of 9, player absent (forfeit 0) on 1.5 points -> 2.5 after round 3, 5.5 at the end.
    assert virtual_opponent(1.5, 0.0, rounds=3, round_=3) == 2.5
    assert virtual_opponent(1.5, 0.0, rounds=9, round_=3) == 5.5
    # Example 2: round 6 of 9, the opponent does not show (forfeit win) on 3.5 points -> 3.5, then 5.0.
    assert virtual_opponent(3.5, 1.0, rounds=6, round_=6) == 3.5
    assert virtual_opponent(3.5, 1.0, rounds=9, round_=6) == 5.0


def nine_rounds(player: str, scores: list[float | str]) -> list[Result]:
    """``player``'s nine rounds against fresh opponents; "+"/"-" are forfeit wins/losses."""
    results: list[Result] = []
    for round_, score in enumerate(scores, start=1):
        opponent = f"{player}-opp{round_}"
        if score == "+":
            results.append(forfeit(round_, player, opponent, absent=opponent))
        elif score == "-":
            results.append(forfeit(round_, player, opponent, absent=player))
        else:
            results.append(two_player(round_, player, opponent, float(score)))
    return results


def test_unplayed_games_match_vegas_worked_examples() -> None:
    # Vega manual 2016, Appendix I (FIDE Congress 2009 rule). 1: in a 9-round Swiss A scores 6 with a
    # default win in round 3, on 2 points after round 2: round 3 adds 2 + 0 + 6 x 0.5 = 5 to A's own
    # Buchholz, and A counts 5.5 in the Buchholz of A's opponents.
    results = nine_rounds("A", [1, 1, "+", 1, 1, 1, 0, 0, 0])
    entrants = ["A"] + [f"A-opp{r}" for r in range(1, 10)]
    values = buchholz_and_sb(entrants, results, rounds=9, system=SWISS)
    played_opponents = 0 + 0 + 0 + 0 + 0 + 1 + 1 + 1  # what A's real opponents scored (their only game)
    assert values["A"][0] == played_opponents + 5
    assert values["A-opp1"][0] == 5.5
    # 2: B is absent in round 7 with 4 points after round 6 and ends on 6: round 7 adds 4 + 1 + 2 x 0.5 = 6,
    # and B counts 6.5 for B's opponents.
    results = nine_rounds("B", [1, 1, 1, 1, 0, 0, "-", 1, 1])
    entrants = ["B"] + [f"B-opp{r}" for r in range(1, 10)]
    values = buchholz_and_sb(entrants, results, rounds=9, system=SWISS)
    assert values["B"][0] == (0 * 4 + 1 + 1 + 0 + 0) + 6
    assert values["B-opp1"][0] == 6.5


def test_a_small_swiss_worked_by_hand() -> None:
    # R1: 1 beats 3, 2 draws 4. R2: 1 beats 2, 3 beats 4. R3: 1 draws 4, 2 beats 3.
    # Points: 1: 2½, 2: 1½, 3: 1, 4: 1.
    # Buchholz: 1: 1+1½+1 = 3½; 2: 1+2½+1 = 4½; 3: 2½+1+1½ = 5; 4: 1½+1+2½ = 5.
    # SB: 1: 1 + 1½ + ½·1 = 3; 2: ½·1 + 1 = 1½; 3: 1; 4: ½·1½ + ½·2½ = 2. 3 and 4 tie on Buchholz; SB puts 4 first.
    results = [two_player(1, 1, 3, 1), two_player(1, 2, 4, 0.5), two_player(2, 1, 2, 1), two_player(2, 3, 4, 1),
               two_player(3, 1, 4, 0.5), two_player(3, 2, 3, 1)]
    table = standings([1, 2, 3, 4], results, rounds=3, system=SWISS)
    assert [(s.entrant, s.points, s.tiebreaks) for s in table] == [
        (1, 2.5, (3.5, 3.0)), (2, 1.5, (4.5, 1.5)), (4, 1.0, (5.0, 2.0)), (3, 1.0, (5.0, 1.0))]


def test_a_bye_is_a_win_and_a_withdrawn_players_absence_counts_as_draws_for_others() -> None:
    results: list[Result] = [two_player(1, 1, 2, 1), Bye(1, 3), two_player(2, 3, 1, 0.5)]
    # 2 withdrew after round 1 and was not paired in round 2.
    table = standings([1, 2, 3], results, rounds=2, system=SWISS, withdrawn={2})
    points = {s.entrant: s.points for s in table}
    assert points == {1: 1.5, 2: 0.0, 3: 1.5}
    by = {s.entrant: s for s in table}
    # 1's Buchholz: opponent 2 (0 played + absence as a draw = ½) + opponent 3 (1½, bye counted as a draw: 1).
    assert by[1].tiebreaks[0] == 0.5 + 1.0
    # 3's Buchholz: virtual opponent for the round-1 bye (0 + (1-1) + ½·1 = ½) + opponent 1 (1½).
    assert by[3].tiebreaks[0] == 0.5 + 1.5
    assert by[2].withdrawn and by[2].games == 1 and by[3].games == 1


def test_round_robin_counts_forfeits_as_played() -> None:
    results = [two_player(1, 1, 2, 1), forfeit(2, 3, 1, absent=3), two_player(3, 2, 3, 1)]
    values = buchholz_and_sb([1, 2, 3], results, rounds=3, system=ROUND_ROBIN)
    assert values[1] == (1.0 + 0.0, 1.0 + 0.0)


@pytest.mark.parametrize(
    ("ranks", "size", "expected"),
    [([1, 2, 3, 4], 4, (3, 2, 1, 0)), ([2, 1, 3], 3, (1, 2, 0)), ([1, 2, 3], 4, (3, 1.5, 0)),
     ([1, 1, 3, 4], 4, (2.5, 2.5, 1, 0)), ([1, 2], 2, (1, 0)), ([1, 1], 2, (0.5, 0.5)), ([1, 2], 4, (3, 0))],
)
def test_placing_points(ranks: list[int], size: int, expected: tuple[float, ...]) -> None:
    assert placing_points(ranks, size) == expected


def test_tables_of_four_use_mean_per_round_so_a_round_weighs_like_a_game() -> None:
    results = [Game(1, (1, 2, 3, 4), placing_points([1, 2, 3, 4], 4))]
    values = buchholz_and_sb([1, 2, 3, 4], results, rounds=1, system=SWISS, table_size=4)
    assert values[1] == ((2 + 1 + 0) / 3, (2 + 1 + 0) / 3)
    assert values[4] == ((3 + 2 + 1) / 3, 0.0)


def test_explanations_cover_every_tiebreak_and_fit_a_discord_message() -> None:
    for system in TIEBREAKS:
        lines = explanations(system)
        assert all(any(t.name.lower() in line.lower() for line in lines) for t in TIEBREAKS[system])
        assert len("\n".join(lines)) < 2000
    assert "3/2/1/0" in explanations(SWISS, table_size=4)[0]
    assert any("bye" in line for line in explanations(SWISS))


def test_a_bye_at_tables_of_four_meets_a_virtual_opponent_on_the_same_scale() -> None:
    # Round 1: 5 has the bye (a win = 3 points); round 2: 5 finishes first at a table with 1, 2 and 3.
    results: list[Result] = [Game(1, (1, 2, 3, 4), placing_points([1, 2, 3, 4], 4)), Bye(1, 5, 3.0),
                             Game(2, (5, 1, 2, 3), placing_points([1, 2, 3, 4], 4)), Bye(2, 4, 3.0)]
    values = buchholz_and_sb([1, 2, 3, 4, 5], results, rounds=2, system=SWISS, table_size=4)
    # Bye round: 0 before + (3 - 3) + 1.5 x (2 - 1) = 1.5, a full result (SB x 3/3).
    # Round 2: mean of 1 (3+2 = 5), 2 (2+1 = 3), 3 (1+0 = 1) = 3; 5 finished above all three.
    assert values[5] == (1.5 + 3.0, 1.5 + 3.0)
    # 4's bye came in round 2 on 0 points: 0 + 0 + 0 = 0.
    assert values[4][0] == (5.0 + 3.0 + 1.0) / 3 + 0.0


def double_forfeit(round_: int, first: int, second: int) -> Game:
    """Two withdrawn players still due to meet: the game is never played and neither scores (0-0)."""
    return Game(round_, (first, second), (0.0, 0.0), forfeit=True)


def test_a_double_forfeit_scores_nothing_in_sonneborn_berger_and_head_to_head() -> None:
    # Issue 26's worked example: a 4-player round robin (Berger table: 1-4 2-3 | 4-3 1-2 | 2-4 3-1).
    # Round 1: 1 beats 4, 2 and 3 draw. Then 1 and 2 withdraw: round 2 4-3 drawn, 1-2 forfeited 0-0;
    # round 3: 2-4 and 3-1 forfeited to 4 and 3. Points: 1: 1, 2: ½, 3: 2, 4: 1½.
    results: list[Result] = [
        two_player(1, 1, 4, 1), two_player(1, 2, 3, 0.5),
        two_player(2, 4, 3, 0.5), double_forfeit(2, 1, 2),
        forfeit(3, 2, 4, absent=2), forfeit(3, 3, 1, absent=1),
    ]
    values = buchholz_and_sb([1, 2, 3, 4], results, rounds=3, system=ROUND_ROBIN, withdrawn={1, 2})
    # SB by the definition: 1 beat 4 (1½) and lost the rest, 0-0 included: 1½. 2 drew with 3 (2): ½ x 2 = 1.
    assert values[1][1] == 1.5
    assert values[2][1] == 1.0
    # Buchholz: the 0-0 game is nobody's game, so it adds nothing (1: 4's 1½ + 3's 2; 2: 3's 2 + 4's 1½).
    assert values[1][0] == 3.5 and values[2][0] == 3.5
    # Head-to-head between 1 and 2: neither scored in their 0-0 game.
    from host.tournaments.pairing.scoring import head_to_head
    assert head_to_head(1, {1, 2}, results, 3) == 0.0 and head_to_head(2, {1, 2}, results, 3) == 0.0
    table = standings([1, 2, 3, 4], results, rounds=3, system=ROUND_ROBIN, withdrawn={1, 2})
    assert [(s.entrant, s.points) for s in table] == [(3, 2.0), (4, 1.5), (1, 1.0), (2, 0.5)]


def test_a_double_forfeit_in_a_swiss_is_an_unplayed_loss_for_both() -> None:
    # A Swiss double forfeit counts like any unplayed loss: the virtual opponent goes to Buchholz, 0 to SB.
    results: list[Result] = [two_player(1, 1, 2, 1), two_player(1, 3, 4, 1), double_forfeit(2, 1, 3),
                             two_player(2, 2, 4, 1)]
    values = buchholz_and_sb([1, 2, 3, 4], results, rounds=2, system=SWISS)
    # 1: opponent 2 (1 played, nothing unplayed) + virtual 1 + (1 - 0) + 0 = 2; SB 2's 1 x 1 + 0.
    assert values[1] == (1.0 + 2.0, 1.0)


# ----- the organiser's tie-breaks (FIDE C.07: Buchholz cut-1, median Buchholz, wins, direct encounter) --------


def _six_player_swiss() -> list[Result]:
    """Three rounds of a Swiss of six, worked by hand below (first named = first seat):

    R1: A 1-0 D, B ½-½ E, C 1-0 F;  R2: A ½-½ C, B 1-0 F, E 1-0 D;  R3: A 1-0 E, C 0-1 B, D 1-0 F.
    Scores: A 2½, B 2½, C 1½, E 1½, D 1, F 0.
    """
    return [two_player(1, "A", "D", 1), two_player(1, "B", "E", 0.5), two_player(1, "C", "F", 1),
            two_player(2, "A", "C", 0.5), two_player(2, "B", "F", 1), two_player(2, "E", "D", 1),
            two_player(3, "A", "E", 1), two_player(3, "C", "B", 0), two_player(3, "D", "F", 1)]


def test_buchholz_cut_1_median_and_wins_follow_fides_definitions_worked_by_hand() -> None:
    """FIDE C.07 (2023/2024): Buchholz is the sum of the opponents' scores; Cut-1 drops the least significant
    (lowest) contribution; Median-1 drops the lowest and the highest; WON counts games won over the board.

    A met D (1), C (1½), E (1½): Bh 4, BhC1 4 − 1 = 3, BhM 4 − 1 − 1½ = 1½, wins 2 (D, E).
    B met E (1½), F (0), C (1½): Bh 3, BhC1 3 − 0 = 3, BhM 3 − 0 − 1½ = 1½, wins 2 (F, C).
    C met F (0), A (2½), B (2½): Bh 5, BhC1 5, BhM 2½, wins 1.  E met B (2½), D (1), A (2½): Bh 6, BhC1 5,
    BhM 2½, wins 1. SB: A = 1 + ½·1½ + 1½ = 3¼, B = ½·1½ + 0 + 1½ = 2¼, C = 0 + ½·2½ = 1¼, E = ½·2½ + 1 = 2¼.
    """
    entrants = ["A", "B", "C", "D", "E", "F"]
    table = standings(entrants, _six_player_swiss(), rounds=3, system=SWISS, order=("BhC1", "BhM", "W", "SB", "Bh"))
    by = {s.entrant: s.tiebreaks for s in table}
    assert by["A"] == (3.0, 1.5, 2.0, 3.25, 4.0)
    assert by["B"] == (3.0, 1.5, 2.0, 2.25, 3.0)
    assert by["C"] == (5.0, 2.5, 1.0, 1.25, 5.0)
    assert by["E"] == (5.0, 2.5, 1.0, 2.25, 6.0)
    # A and B tie on cut-1, median and wins: SB splits them; C and E likewise, E ahead on SB.
    assert [s.entrant for s in table][:4] == ["A", "B", "E", "C"]
    # Cut-1 then plain Buchholz: the same order, split by Bh instead.
    other = standings(entrants, _six_player_swiss(), rounds=3, system=SWISS, order=("BhC1", "Bh"))
    assert [(s.entrant, s.tiebreaks) for s in other][:4] == [
        ("A", (3.0, 4.0)), ("B", (3.0, 3.0)), ("E", (5.0, 6.0)), ("C", (5.0, 5.0))]


def test_direct_encounter_counts_only_when_every_tied_player_met_every_other() -> None:
    """FIDE C.07 direct encounter: among participants still tied, the points scored in their mutual games,
    applied only when all of them have met. A and B (2½ each) never met: DE 0 for both, and SB decides."""
    table = standings(list("ABCDEF"), _six_player_swiss(), rounds=3, system=SWISS, order=("DE", "SB"))
    assert [(s.entrant, s.tiebreaks) for s in table][:2] == [("A", (0.0, 3.25)), ("B", (0.0, 2.25))]
    # A 4-player round robin, A and B on 1½: A beat B, so DE puts A first though B has more SB
    # (A: B 1½·1 + C 1·½ = 2; B: C 1·½ + D 2·1 = 2½).
    results = [two_player(1, "A", "B", 1), two_player(1, "C", "D", 0), two_player(2, "A", "C", 0.5),
               two_player(2, "B", "D", 1), two_player(3, "A", "D", 0), two_player(3, "B", "C", 0.5)]
    rr = standings(list("ABCD"), results, rounds=3, system=ROUND_ROBIN, order=("DE", "SB"))
    assert [(s.entrant, s.points, s.tiebreaks) for s in rr] == [
        ("D", 2.0, (0.0, 2.5)), ("A", 1.5, (1.0, 2.0)), ("B", 1.5, (0.0, 2.5)), ("C", 1.0, (0.0, 1.5))]
    # Three tied players who all met and beat one another in a circle: 1 point each, DE does not split them.
    circle = [two_player(1, "A", "B", 1), two_player(2, "B", "C", 1), two_player(3, "C", "A", 1)]
    assert {s.entrant: s.tiebreaks[0] for s in standings(list("ABC"), circle, 3, ROUND_ROBIN, order=("DE",))} == {
        "A": 1.0, "B": 1.0, "C": 1.0}
    # After a tie-break that separates them, DE looks at nobody: the group is one player.
    assert all(s.tiebreaks[1] == 0.0 for s in standings(list("ABCD"), results, 3, ROUND_ROBIN, order=("SB", "DE")))


def test_a_tie_break_order_is_parsed_from_names_and_codes_and_stated_with_the_unplayed_rule() -> None:
    from host.tournaments.pairing.scoring import parse_tiebreaks
    assert parse_tiebreaks("cut1, Buchholz, median, wins, DE", SWISS) == ("BhC1", "Bh", "BhM", "W", "DE")
    assert parse_tiebreaks("", SWISS) is None
    for bad in ("Bh, bh", "elo", "Bh, BhC1, BhM, SB, W, DE"):
        with pytest.raises(ValueError):
            parse_tiebreaks(bad, SWISS)
    lines = explanations(SWISS, order=("BhC1", "W"))
    assert "Tie-breaks in order: BhC1, then W." in lines
    assert any(line.startswith("Unplayed games (FIDE's 2009 rule)") for line in lines)
    assert any(line.startswith("Unplayed games (all-play-all rule)") for line in explanations(ROUND_ROBIN))
