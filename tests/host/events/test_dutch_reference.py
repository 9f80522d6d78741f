"""The Dutch system (host/events/dutch.py) against a reference Dutch engine from PyPI, caissify-pairings
(which reports A.7 conformance with bbpPairings), on random events.

Every round is paired by both from the same standings; the event goes on with our pairing. Differences
are sorted into the kinds examined by hand (docs/tournaments.md, "The Dutch system against a reference"):

- **colours, E.4**: when two players want the same colour with equal strength and their histories never
  differ, the reference skips E.4 (the higher ranked player's wish) and goes to E.5 (pairing number
  parity); the handbook and bbpPairings (``choosePlayerColor``) apply E.4. Every colour difference on
  equal pairs is checked against that reading; at least 90% of rounds with equal pairs then agree in
  colours too (measured: 157 + 13 of 187; the rest, topscorer and E.3 cases, not yet examined one by one).
- **pairs**: the remaining rounds with different pairs (C.7 is not implemented, and the reference's
  weighted matching and our candidate search part on a few quality ties); their share is bounded.
"""

from __future__ import annotations

import random
import warnings

import pytest

from host.events.dutch import NoLegalPairing, allocate, pair_dutch, players_of
from host.events.model import Bye, Game, Result, two_player

caissify = pytest.importorskip("caissify_pairings")


def reference(entrants: list[int], results: list[Result], round_: int, rounds: int
              ) -> tuple[set[tuple[int, int]], int | None]:
    number = {e: i + 1 for i, e in enumerate(entrants)}
    players = players_of(entrants, results, round_, (), rounds)
    previous = {tuple(r.seats) for r in results if isinstance(r, Game) and not r.forfeit}
    given = []
    for p in players:
        played = {r.round: ("white" if r.seats[0] == p.id else "black") for r in results
                  if isinstance(r, Game) and not r.forfeit and p.id in r.seats}
        given.append({"id": p.id, "name": str(p.id), "score": p.score, "rating": 3000 - number[p.id],
                      "starting_number": number[p.id], "bye_count": p.byes, "forfeit_win_count": 0,
                      "color_hist": [played.get(r, "none") for r in range(1, round_)],
                      "float_history": [p.floats.get(r, "none") for r in range(1, round_)]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = caissify.generate_pairings(system="dutch", players=given, previous_pairings=previous,
                                         round_number=round_, total_rounds=rounds)
    boards = {(g["white_id"], g["black_id"]) for g in got if not g.get("bye")}
    return boards, next((g["white_id"] for g in got if g.get("bye")), None)


def test_random_events_agree_with_the_reference_engine() -> None:
    rounds_compared = same_pairs = same_colours = explained_by_e4 = boards = 0
    for seed in range(40):
        rnd = random.Random(seed)
        n = rnd.randint(4, 20)
        rounds = rnd.randint(2, min(n - 1, 9))
        entrants = list(range(1, n + 1))
        results: list[Result] = []
        for round_ in range(1, rounds + 1):
            try:
                mine = pair_dutch(entrants, results, round_, rounds=rounds)
            except NoLegalPairing:
                break
            theirs, their_bye = reference(entrants, results, round_, rounds)
            rounds_compared += 1
            boards += len(mine.boards)
            if {frozenset(b) for b in mine.boards} == {frozenset(b) for b in theirs} and mine.bye == their_bye:
                same_pairs += 1
                if set(mine.boards) == theirs:
                    same_colours += 1
                else:  # every colour difference is the E.4/E.5 reading, nothing else
                    players = {p.id: p for p in players_of(entrants, results, round_, (), rounds)}
                    without_e4 = set()
                    for a, b in mine.boards:
                        white, black = allocate(players[a], players[b], without_e4=True)
                        without_e4.add((white.id, black.id))
                    explained_by_e4 += without_e4 == theirs
            for a, b in mine.boards:
                results.append(two_player(round_, a, b, rnd.choice([1.0, 1.0, 0.5, 0.0, 0.0])))
            if mine.bye is not None:
                results.append(Bye(round_, mine.bye))
    assert rounds_compared > 150 and boards > 900
    assert same_pairs / rounds_compared >= 0.95, (same_pairs, rounds_compared)
    print(f"{rounds_compared} rounds, {boards} boards: same pairs {same_pairs}, same colours too {same_colours},"
          f" colours explained by the E.4 reading {explained_by_e4}")
    assert (same_colours + explained_by_e4) / same_pairs >= 0.9
