"""Our Dutch system against the reference engine (caissify-pairings) on many random events, every
differing round classified by the criterion that decides it.

    nice -n 19 .venv/bin/python -m tests.host.pairing.reference_run --events 2000 [--first 0] [--show 3]

Each event (4-16 players and 2-8 rounds by default) has draws, forfeits (one side absent, now and then both),
withdrawals, requested half-point byes and zero-point absences. Every round is paired by both engines from
the same standings; the event goes on with our pairing. A round whose pairs or bye differ is classified at
the first bracket (in our order, from the top) where the reference's choice is not ours:

- ``bye score``: the reference gives the bye to another score than the lowest one that completes the round;
- ``ref breaks C.1``/``C.2``/``C.3``: the reference pairs a rematch, gives a second bye (or one after a
  forfeit win), or pairs two non-topscorers with the same absolute colour wish, where we find a legal
  pairing (``forbidden`` is not used here);
- ``ref fails C.4``: the reference leaves more than one player unpaired, or its choice in that bracket
  leaves the players below unpairable by our check;
- ``C.5`` ... ``C.19`` (and the 2025 text's C.9 on the bye): the first quality criterion on which the two
  choices differ, with who is better by it (``ours better``: the reference missed it; ``ref better``: ours
  missed it, a bug; ``ref better (search bound)``: our bracket stopped at ``MAX_CANDIDATES``);
- ``equal``: the two choices tie on every criterion (the handbook takes the first in the D order).

Boards of rounds with the same pairs are checked colour by colour: ``same``, ``higher ranked`` (E.4/E.5 read
with the pairing number instead of the A.2 rank, as the reference does), else ``colour other``.
The reference is given the played games only as colour history (C.04.2 D.5), unless ``--unplayed``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field

import caissify_pairings as caissify

from host.tournaments.pairing.dutch import (
    NoLegalPairing,
    Player,
    _Bracket,
    allocate,
    pair_dutch,
    players_of,
)
from host.tournaments.pairing.model import Bye, Game, Result, forfeit, two_player

Boards = set[tuple[int, int]]
CRITERIA = ("C.1", "C.2", "C.5", "C.6", "C.7", "C.9 (2025: bye unplayed)",
            "C.8", "C.9", "C.10", "C.11", "C.12", "C.13", "C.14", "C.15",
            "C.16", "C.17", "C.18", "C.19")
"""The names of ``_Bracket.quality``'s fields, in its order."""


def reference(players: list[Player], results: list[Result], round_: int, rounds: int, *, unplayed: bool = False
              ) -> tuple[Boards, int | None]:
    """The reference's (white, black) boards and bye for these active players."""
    previous = {tuple(r.seats) for r in results if isinstance(r, Game) and not r.forfeit}
    given = []
    for p in players:
        played = {r.round: ("white" if r.seats[0] == p.id else "black") for r in results
                  if isinstance(r, Game) and not r.forfeit and p.id in r.seats}
        colours = [played.get(r, "none") for r in range(1, round_)]
        given.append({"id": p.id, "name": str(p.id), "score": p.score, "rating": 3000 - p.number,
                      "starting_number": p.number, "pairing_number": p.number,  # fixed, absentees too (E.5)
                      "bye_count": p.byes, "forfeit_win_count": 0,
                      "color_hist": colours if unplayed else [c for c in colours if c != "none"],
                      "float_history": [p.floats.get(r, "none") for r in range(1, round_)]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = caissify.generate_pairings(system="dutch", players=given, previous_pairings=previous,
                                         round_number=round_, total_rounds=rounds)
    boards = {(g["white_id"], g["black_id"]) for g in got if not g.get("bye")}
    return boards, next((g["white_id"] for g in got if g.get("bye")), None)


def by_pairing_number(a: Player, b: Player) -> tuple[int, int]:
    """E.1-E.5 as the reference reads them: "higher ranked" is the better pairing number, score aside."""
    white, black = allocate(dataclasses.replace(a, rank=a.number), dataclasses.replace(b, rank=b.number))
    return white.id, black.id


@dataclass
class Difference:
    kind: str
    event: int
    round: int
    detail: str


@dataclass
class Tally:
    events: int = 0
    rounds: int = 0
    boards: int = 0
    same_pairs: int = 0
    stopped: int = 0
    classes: Counter[str] = field(default_factory=Counter)
    colours: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[Difference]] = field(default_factory=dict)


def classify(players: list[Player], steps: list[tuple[_Bracket, list, list]], theirs: Boards,
             their_bye: int | None, our_bye: int | None) -> tuple[str, str]:
    """The kind of a differing round and a line describing the deciding bracket."""
    partner: dict[int, int | None] = {}
    for a, b in theirs:
        partner[a], partner[b] = b, a
    if their_bye is not None:
        partner[their_bye] = None
    by_id = {p.id: p for p in players}
    rules = steps[0][0].rules
    for a, b in theirs:
        if b in by_id[a].met:
            return "ref breaks C.1", f"{a}-{b} have met"
        if not rules.compatible(by_id[a], by_id[b]):
            return "ref breaks C.3", f"{a}-{b}: the same absolute colour preference"
    if their_bye is not None and by_id[their_bye].byes and not (our_bye is not None and by_id[our_bye].byes):
        return "ref breaks C.2", f"a second bye (or a bye after a forfeit win) to {their_bye}"
    unpaired = {p.id for p in players} - {e for board in theirs for e in board} - {their_bye}
    if unpaired:
        return "ref fails C.4", f"{sorted(unpaired)} left unpaired"
    if their_bye is not None and our_bye is not None and by_id[their_bye].score != by_id[our_bye].score:
        return "bye score", f"ours {our_bye} ({by_id[our_bye].score}), ref {their_bye} ({by_id[their_bye].score})"
    for bracket, chosen, carried in steps:
        members = {p.id for p in bracket.mdps + bracket.residents}
        ref_pairs = [(by_id[a], by_id[b]) for a in sorted(members) if (b := partner.get(a)) is not None
                     and b in members and a < b]
        ref_floaters = sorted((by_id[a] for a in members if partner.get(a) is None or partner[a] not in members),
                              key=lambda p: p.rank)
        ours = {frozenset((a.id, b.id)) for a, b in chosen}
        if ours == {frozenset((a.id, b.id)) for a, b in ref_pairs} and \
                {p.id for p in carried} == {p.id for p in ref_floaters}:
            continue
        where = (f"bracket {bracket.residents[0].score} mdps {[p.id for p in bracket.mdps]} "
                 f"residents {[p.id for p in bracket.residents]}: ours {sorted(tuple(sorted(x)) for x in ours)} "
                 f"down {[p.id for p in carried]}; ref {[(a.id, b.id) for a, b in ref_pairs]} "
                 f"down {[p.id for p in ref_floaters]}")
        for a, b in ref_pairs:
            if b.id in a.met:
                return "ref breaks C.1", where
            if not bracket.rules.compatible(a, b):
                return "ref breaks C.3", where
        if not bracket.completes(ref_pairs, ref_floaters):
            return "ref fails C.4", where
        mine, its = bracket.quality(chosen, carried), bracket.quality(ref_pairs, ref_floaters)
        for name, x, y in zip(CRITERIA, mine, its, strict=True):
            if x != y:
                better = "ours better" if x < y else "ref better (search bound)" if bracket.bounded \
                    else "ref better"
                return f"{name} {better}", f"{where}; {name} ours {x} ref {y}"
        return "equal", where
    return "unlocated", "every bracket agrees, yet the round differs"


def play_event(seed: int, tally: Tally, show: int, unplayed: bool, most: tuple[int, int] = (16, 8)) -> None:
    """One random event (4 to ``most`` players and 2 to ``most`` rounds), compared round by round."""
    rnd = random.Random(seed)
    n = rnd.randint(4, most[0])
    rounds = rnd.randint(2, min(n - 1, most[1]))
    entrants = list(range(1, n + 1))
    results: list[Result] = []
    withdrawn: set[int] = set()
    half_byes: Counter[int] = Counter()
    for round_ in range(1, rounds + 1):
        if round_ > 1:
            withdrawn |= {e for e in entrants if e not in withdrawn and rnd.random() < 0.02}
        resting = set()
        for e in entrants:
            if e in withdrawn:
                continue
            if round_ < rounds and half_byes[e] < 2 and rnd.random() < 0.03:
                resting.add(e)
                half_byes[e] += 1
                results.append(Bye(round_, e, 0.5))
            elif rnd.random() < 0.01:  # an absence (e.g. a late entry): zero points, not a pairing bye
                resting.add(e)
                results.append(Bye(round_, e, 0.0))
        away = withdrawn | resting
        if len(entrants) - len(away) < 2:
            break
        steps: list[tuple[_Bracket, list, list]] = []

        def observe(bracket: _Bracket, chosen: list, carried: list, steps: list = steps) -> None:
            if not bracket.mdps and bracket.residents and bracket.residents[0].rank == 0:
                steps.clear()  # a new attempt at the round (a larger rematch budget) starts from the top
            steps.append((bracket, chosen, carried))

        try:
            mine = pair_dutch(entrants, results, round_, away, rounds, observe=observe)
        except NoLegalPairing:
            tally.stopped += 1
            break
        players = players_of(entrants, results, round_, away, rounds)
        theirs, their_bye = reference(players, results, round_, rounds, unplayed=unplayed)
        tally.rounds += 1
        tally.boards += len(mine.boards)
        if {frozenset(b) for b in mine.boards} == {frozenset(b) for b in theirs} and mine.bye == their_bye:
            tally.same_pairs += 1
            by_id = {p.id: p for p in players}
            for a, b in mine.boards:
                if (a, b) in theirs:
                    tally.colours["same"] += 1
                elif by_pairing_number(by_id[a], by_id[b]) in theirs:
                    tally.colours["higher ranked"] += 1
                else:
                    tally.colours["colour other"] += 1
                    _keep(tally, Difference("colour other", seed, round_, f"ours {(a, b)}"), show)
        else:
            kind, detail = classify(players, steps, theirs, their_bye, mine.bye)
            tally.classes[kind] += 1
            _keep(tally, Difference(kind, seed, round_, detail), show)
        for a, b in mine.boards:
            roll = rnd.random()
            if roll < 0.03:
                results.append(forfeit(round_, a, b, rnd.choice((a, b))))
            elif roll < 0.035:
                results.append(Game(round_, (a, b), (0.0, 0.0), forfeit=True))
            else:
                results.append(two_player(round_, a, b, rnd.choice([1.0, 1.0, 0.5, 0.0, 0.0])))
        if mine.bye is not None:
            results.append(Bye(round_, mine.bye))
    tally.events += 1


def _keep(tally: Tally, difference: Difference, show: int) -> None:
    if show:
        print(f"[{difference.kind}] event {difference.event} round {difference.round}: {difference.detail}",
              file=sys.stderr, flush=True)
    kept = tally.examples.setdefault(difference.kind, [])
    if len(kept) < show:
        kept.append(difference)


def report(tally: Tally, seconds: float) -> str:
    lines = [f"{tally.events} events, {tally.rounds} rounds, {tally.boards} boards in {seconds:.0f} s; "
             f"same pairs and bye: {tally.same_pairs} ({100 * tally.same_pairs / max(tally.rounds, 1):.1f}%); "
             f"stopped at a round without a legal pairing: {tally.stopped}",
             f"differing rounds: {sum(tally.classes.values())}"]
    lines += [f"  {kind}: {count}" for kind, count in tally.classes.most_common()]
    lines.append(f"boards of the same rounds: {dict(tally.colours)}")
    for kind, kept in sorted(tally.examples.items()):
        for d in kept:
            lines.append(f"[{kind}] event {d.event} round {d.round}: {d.detail}")
    return "\n".join(lines)


def run(events: int, first: int = 0, show: int = 3, unplayed: bool = False, most: tuple[int, int] = (16, 8)
        ) -> Tally:
    tally = Tally()
    for seed in range(first, first + events):
        play_event(seed, tally, show, unplayed, most)
        if (seed - first + 1) % 100 == 0:
            print(f"{seed - first + 1} events: {tally.rounds} rounds, differing {dict(tally.classes)}",
                  file=sys.stderr, flush=True)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first event's seed")
    parser.add_argument("--show", type=int, default=3, help="examples kept per kind")
    parser.add_argument("--unplayed", action="store_true", help="give the reference unplayed rounds as history")
    parser.add_argument("--players", type=int, default=16, help="the most players an event has")
    parser.add_argument("--rounds", type=int, default=8, help="the most rounds an event has")
    args = parser.parse_args()
    start = time.process_time()
    tally = run(args.events, args.first, args.show, args.unplayed, (args.players, args.rounds))
    print(report(tally, time.process_time() - start))


if __name__ == "__main__":
    main()
