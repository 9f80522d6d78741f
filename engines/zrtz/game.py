"""ZÈRTZ rules: placements with ring removal, compulsory capture chains, isolation, the shrinking board.

The rulings follow the official GIPF rules and, where they are silent, boardspace.net (see
``docs/rules/zrtz.md``). Cell contents are one list of ints: ``NO_RING``, ``VACANT`` or a colour 0-2.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any, Self

from engines.base import Game, IllegalMove, Option, Outcome, Pick
from engines.text import quote
from engines.zrtz.board import Board, board

NO_RING = -2
VACANT = -1
COLOURS = "wgb"
COLOUR_NAMES = ("white", "grey", "black")
SEAT_NAMES = ("Blue", "Orange")
# (marbles in the pool, goal per colour, goal of each colour): standard and Blitz.
STANDARD: tuple[tuple[int, int, int], tuple[int, int, int], int] = ((6, 8, 10), (4, 5, 6), 3)
BLITZ: tuple[tuple[int, int, int], tuple[int, int, int], int] = ((5, 7, 9), (3, 4, 5), 2)

NO_REMOVAL = Pick("remove", "No free ring to remove")
CELL = r"[a-i][0-9]{1,2}"
PLACEMENT_RE = re.compile(rf"^([wgb])\s*({CELL})(?:\s*[\s,;/-]?\s*({CELL}))?$")
CAPTURE_RE = re.compile(rf"^{CELL}(?:\s*[x\s:,-]\s*{CELL})+$")

HELP = """\
**ZÈRTZ** is played on a hexagon of rings that shrinks every turn. The marbles in the pool (white, grey, \
black) belong to nobody: both players use them.

**Your turn** is either a *capture* or a *placement*. If any marble can jump an adjacent marble onto a vacant \
ring right behind it, you must capture (choose which); the jumping marble must keep jumping while it can, and \
the whole chain is one move, written like `c3xe5xg5`. Otherwise place any colour from the pool on any vacant \
ring, then remove one *free* ring (vacant, and slidable out: two neighbouring positions next to each other \
are empty), written like `wd4 a1`. If no ring is free you remove none (`wd4`).

**Isolation:** when rings get cut off from the rest and none of them is vacant, you take those rings and \
their marbles. Once the pool is empty you place marbles you captured yourself.

**Win** by capturing 4 white, or 5 grey, or 6 black, or 3 of each (Blitz: 3/4/5 or 2 of each). Filling the \
last vacant ring also wins. Coordinates are boardspace's: column letter, ring number from the column's bottom.\
"""


class Zrtz(Game):
    """ZÈRTZ by Kris Burm (GIPF project) for two players on 37, 48 or 61 rings."""

    name = "zrtz"
    title = "ZÈRTZ"
    players = range(2, 3)
    options_spec = (
        Option("rings", 37, (37, 48, 61), "board size: 37 rings, 48 (ZÈRTZ+11, tournament) or 61 (ZÈRTZ+24)"),
        Option("blitz", False, (False, True), "Blitz (37 rings only): 5/7/9 marbles, win with 3/4/5 or 2 of each"),
    )
    help = HELP

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.board: Board = board(options["rings"])
        marbles, self.goal, self.each = BLITZ if options["blitz"] else STANDARD
        self.cells: list[int] = [VACANT] * len(self.board.names)
        self.pool: list[int] = list(marbles)
        self.captured: list[list[int]] = [[0, 0, 0], [0, 0, 0]]
        self.turn = 0
        self.passes = 0
        self.result: Outcome | None = None
        self.last: dict[str, Any] | None = None
        self.seen: dict[tuple[int, ...], int] = {self._key(): 1}

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Blitz is the old basic game: its marble counts were made for 37 rings only."""
        checked = super().check_options(players, options)
        if checked["blitz"] and checked["rings"] != 37:
            raise ValueError("Blitz is played on 37 rings only")
        return checked

    def clone(self) -> Self:
        """Copy only the mutable lists; the board layout is shared and immutable."""
        twin = self._shallow_copy()
        twin.cells = list(self.cells)
        twin.pool = list(self.pool)
        twin.captured = [list(c) for c in self.captured]
        twin.seen = dict(self.seen)
        return twin

    # ----- presentation -----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def status(self) -> str:
        def marbles(counts: list[int]) -> str:
            return " ".join(f"{n}{c.upper()}" for n, c in zip(counts, COLOURS, strict=True))

        goal = "/".join(str(g) for g in self.goal)
        return (f"{SEAT_NAMES[0]} {marbles(self.captured[0])} · {SEAT_NAMES[1]} {marbles(self.captured[1])}"
                f" · pool {marbles(self.pool)} · goal {goal} or {self.each} each")

    def describe(self, seat: int, move: str) -> str:
        """Say what a move does, including marbles it would win by isolation."""
        if move == "pass":
            return "Pass: no capture and no marble to place"
        trial = self.clone()
        try:
            trial._play(seat, move)
        except IllegalMove:
            return move
        last = trial.last or {}
        claimed = last.get("claimed", [])
        if last.get("kind") == "capture":
            jumped = ", ".join(COLOUR_NAMES[c] for _, c in last["jumped"])
            text = f"{move}: capture {jumped}"
        else:
            colour = COLOUR_NAMES[COLOURS.index(move[0])].capitalize()
            text = f"{colour} on {last['at']}" + (f", remove {last['removed']}" if last.get("removed") else "")
        if claimed:
            text += f", isolates {len(claimed)} marble{'s' if len(claimed) > 1 else ''}"
        if trial.result is not None and seat in trial.result.winners:
            text += " (wins)"
        return text[:100]

    # ----- state helpers ----------------------------------------------------------------

    def _key(self) -> tuple[int, ...]:
        return (*self.cells, *self.pool, *self.captured[0], *self.captured[1], self.turn)

    def _is_free(self, cells: list[int], ring: int) -> bool:
        """A vacant ring that slides out: two cyclically adjacent neighbour positions are empty."""
        if cells[ring] != VACANT:
            return False
        nbs = self.board.neighbours[ring]
        gone = [n < 0 or cells[n] == NO_RING for n in nbs]
        return any(gone[d] and gone[(d + 1) % 6] for d in range(6))

    def _free_rings(self, cells: list[int]) -> list[int]:
        return [r for r in range(len(cells)) if self._is_free(cells, r)]

    def _source(self, seat: int) -> list[int]:
        """Where placed marbles come from: the pool, or once it is wholly empty the mover's captures."""
        return self.pool if any(self.pool) else self.captured[seat]

    def _hops(self, cells: list[int], at: int, jumped: set[int]) -> list[tuple[int, int]]:
        """(jumped ring, landing ring) pairs for a marble on ``at``; jumped marbles stay until the chain ends."""
        out = []
        neighbours = self.board.neighbours
        for d in range(6):
            over = neighbours[at][d]
            if over < 0 or cells[over] < 0 or over in jumped:
                continue
            land = neighbours[over][d]
            if land >= 0 and cells[land] == VACANT:
                out.append((over, land))
        return out

    def _any_capture(self) -> bool:
        cells = self.cells
        return any(cells[c] >= 0 and self._hops(cells, c, set()) for c in range(len(cells)))

    def _capture_paths(self) -> list[list[int]]:
        """Every complete chain (a marble must keep jumping while it can) as the rings it lands on."""
        paths: list[list[int]] = []
        cells = self.cells
        for start in range(len(cells)):
            colour = cells[start]
            if colour < 0 or not self._hops(cells, start, set()):
                continue
            cells[start] = VACANT
            try:
                self._extend([start], set(), paths)
            finally:
                cells[start] = colour
        return paths

    def _extend(self, path: list[int], jumped: set[int], out: list[list[int]]) -> None:
        hops = self._hops(self.cells, path[-1], jumped)
        if not hops:
            out.append(list(path))
            return
        for over, land in hops:
            jumped.add(over)
            path.append(land)
            self._extend(path, jumped, out)
            path.pop()
            jumped.discard(over)

    def _claimed_after(self, cells: list[int]) -> tuple[list[int], bool]:
        """Rings of every group without a vacant ring (to be claimed), and whether the board is full."""
        if VACANT not in cells:
            return [r for r in range(len(cells)) if cells[r] >= 0], True
        neighbours = self.board.neighbours
        seen = [False] * len(cells)
        claimed: list[int] = []
        for start in range(len(cells)):
            if cells[start] == NO_RING or seen[start]:
                continue
            group, stack, vacant = [], [start], False
            seen[start] = True
            while stack:
                ring = stack.pop()
                group.append(ring)
                vacant = vacant or cells[ring] == VACANT
                for n in neighbours[ring]:
                    if n >= 0 and not seen[n] and cells[n] != NO_RING:
                        seen[n] = True
                        stack.append(n)
            if not vacant:
                claimed.extend(group)
        return claimed, False

    def _winning_set(self, seat: int) -> str:
        got = self.captured[seat]
        for colour, (n, goal) in enumerate(zip(got, self.goal, strict=True)):
            if n >= goal:
                return f"{n} {COLOUR_NAMES[colour]} marbles"
        return f"{self.each} marbles of each colour"

    def _won(self, seat: int) -> bool:
        got = self.captured[seat]
        return any(n >= g for n, g in zip(got, self.goal, strict=True)) or min(got) >= self.each

    # ----- contract hooks ---------------------------------------------------------------

    def _to_move(self) -> frozenset[int]:
        return frozenset({self.turn})

    def _outcome(self) -> Outcome | None:
        return self.result

    def _legal_moves(self, seat: int) -> list[str]:
        names = self.board.names
        paths = self._capture_paths()
        if paths:
            return ["x".join(names[c] for c in path) for path in paths]
        source = self._source(seat)
        colours = [COLOURS[c] for c in range(3) if source[c] > 0]
        if not colours:
            return ["pass"]
        vacant = [names[r] for r in range(len(self.cells)) if self.cells[r] == VACANT]
        free = [names[r] for r in self._free_rings(self.cells)]
        targets: list[str] = []
        for at in vacant:
            removals = [r for r in free if r != at]
            if removals:
                targets.extend(f"{at} {r}" for r in removals)
            else:
                targets.append(at)
        return [c + t for c in colours for t in targets]

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """A placement is colour → ring → ring to remove; a capture is the jumping marble → each landing.

        Built from the same data as ``_legal_moves`` (no replays), so a builder press costs about as much.
        A capture needs no "capture" step: when one is possible only captures are legal.
        """
        names = self.board.names
        cells = self.cells
        paths = self._capture_paths()
        if paths:
            neighbours = self.board.neighbours
            out: list[tuple[str, tuple[Pick, ...]]] = []
            for path in paths:
                start = names[path[0]]
                picks = [Pick("marble", f"{COLOUR_NAMES[cells[path[0]]].capitalize()} marble on {start}", start,
                              _file(start))]
                for at, to in itertools.pairwise(path):
                    # The jumped ring lies between: the neighbour of ``at`` that ``to`` also borders in line.
                    over = next(n for d, n in enumerate(neighbours[at]) if n >= 0 and neighbours[n][d] == to)
                    land = names[to]
                    picks.append(Pick("jump", f"Jump to {land}, taking {COLOUR_NAMES[cells[over]]} {names[over]}",
                                      land, _file(land)))
                out.append(("x".join(names[c] for c in path), tuple(picks)))
            return out
        source = self._source(seat)
        colours = [c for c in range(3) if source[c] > 0]
        if not colours:
            return [("pass", (Pick("action", "Pass: no marble to place"),))]
        from_pool = source is self.pool
        vacant = [names[r] for r in range(len(cells)) if cells[r] == VACANT]
        free = [names[r] for r in self._free_rings(cells)]
        removes = [(r, Pick("remove", f"Remove {r}", r, _file(r))) for r in free]  # built once, shared by moves
        rings = [(at, Pick("ring", f"Ring {at}", at, _file(at))) for at in vacant]
        out = []
        for c in colours:
            letter = COLOURS[c]
            colour = (Pick("colour", f"{COLOUR_NAMES[c].capitalize()} marble", f"supply:{letter}") if from_pool
                      else Pick("colour", f"{COLOUR_NAMES[c].capitalize()} marble from your captures",
                                f"captured:{seat}:{letter}"))
            for at, ring in rings:
                placed = letter + at
                if not any(r != at for r in free):
                    out.append((placed, (colour, ring, NO_REMOVAL)))
                out.extend((f"{placed} {r}", (colour, ring, remove)) for r, remove in removes if r != at)
        return out

    def _play(self, seat: int, text: str) -> str:
        move = " ".join(text.strip().lower().split())
        if move == "pass":
            return self._play_pass(seat)
        if (match := PLACEMENT_RE.match(move)) is not None:
            return self._play_placement(seat, match.group(1), match.group(2), match.group(3))
        if CAPTURE_RE.match(move):
            return self._play_capture(seat, re.findall(CELL, move))
        raise IllegalMove(f"I can't read {quote(text, 60)}: write a placement like `wd4 a1` "
                          f"(colour, ring, removed ring) or a capture like `c3xe5`.")

    def _ring(self, name: str) -> int:
        ring = self.board.cell(name)
        if ring < 0:
            raise IllegalMove(f"There is no ring {name} on the {self.board.rings}-ring board.")
        if self.cells[ring] == NO_RING:
            raise IllegalMove(f"Ring {name} has been removed.")
        return ring

    def _play_pass(self, seat: int) -> str:
        if self._any_capture():
            raise IllegalMove("You cannot pass: a capture is compulsory.")
        if any(self._source(seat)):
            raise IllegalMove("You cannot pass while you have a marble to place.")
        self.passes += 1
        self.last = {"kind": "pass", "seat": seat}
        self._end_turn(seat, full=False)
        if self.passes >= 2 and self.result is None:
            self.result = Outcome.draw(2, "neither player can move", self._scores())
        return "pass"

    def _play_placement(self, seat: int, colour_letter: str, at_name: str, removed_name: str | None) -> str:
        names = self.board.names
        at = self._ring(at_name)
        if self.cells[at] != VACANT:
            raise IllegalMove(f"Ring {at_name} already holds a {COLOUR_NAMES[self.cells[at]]} marble.")
        colour = COLOURS.index(colour_letter)
        source = self._source(seat)
        if source[colour] == 0:
            where = "in the pool" if source is self.pool else "among your captured marbles (the pool is empty)"
            raise IllegalMove(f"There is no {COLOUR_NAMES[colour]} marble {where}.")
        if self._any_capture():
            example = "x".join(names[c] for c in self._capture_paths()[0])
            raise IllegalMove(f"A capture is compulsory, for example `{example}`.")
        cells = list(self.cells)
        cells[at] = colour
        free = self._free_rings(cells)
        removed = -1
        if removed_name is not None:
            removed = self._ring(removed_name)
            if removed == at:
                raise IllegalMove(f"You cannot remove {removed_name}: you just placed the marble on it.")
            if removed not in free:
                why = "it holds a marble" if cells[removed] >= 0 else "it cannot slide out without moving others"
                raise IllegalMove(f"Ring {removed_name} is not free: {why}.")
            cells[removed] = NO_RING
        elif free:
            options = ", ".join(names[r] for r in free[:6])
            raise IllegalMove(f"You must also remove a free ring, e.g. `{colour_letter}{at_name} {names[free[0]]}`"
                              f" (free: {options}{'…' if len(free) > 6 else ''}).")
        claimed, full = self._claimed_after(cells)
        source[colour] -= 1
        for ring in claimed:
            self.captured[seat][cells[ring]] += 1
        self.last = {"kind": "place", "seat": seat, "colour": COLOURS[colour], "at": names[at],
                     "removed": names[removed] if removed >= 0 else None,
                     "claimed": [[names[r], cells[r]] for r in claimed]}
        for ring in claimed:
            cells[ring] = NO_RING
        self.cells = cells
        self.passes = 0
        self._end_turn(seat, full)
        canonical = f"{colour_letter}{names[at]}"
        return canonical + (f" {names[removed]}" if removed >= 0 else "")

    def _play_capture(self, seat: int, path_names: list[str]) -> str:
        names = self.board.names
        path = [self._ring(n) for n in path_names]
        start = path[0]
        if self.cells[start] < 0:
            raise IllegalMove(f"There is no marble on {path_names[0]} to jump with.")
        cells = list(self.cells)
        cells[start] = VACANT
        jumped: list[int] = []
        for at, to in itertools.pairwise(path):
            hop = next((over for over, land in self._hops(cells, at, set(jumped)) if land == to), -1)
            if hop < 0:
                raise IllegalMove(f"The marble cannot jump from {names[at]} to {names[to]}: it must jump over an "
                                  f"adjacent marble onto the vacant ring right behind it.")
            jumped.append(hop)
        more = self._hops(cells, path[-1], set(jumped))
        if more:
            raise IllegalMove(f"The marble must keep jumping from {names[path[-1]]}, "
                              f"e.g. `{'x'.join(path_names)}x{names[more[0][1]]}`.")
        colour = self.cells[start]
        self.last = {"kind": "capture", "seat": seat, "path": [names[c] for c in path],
                     "jumped": [[names[r], cells[r]] for r in jumped], "claimed": []}
        for ring in jumped:
            self.captured[seat][cells[ring]] += 1
            cells[ring] = VACANT
        cells[path[-1]] = colour
        self.cells = cells
        self.passes = 0
        self._end_turn(seat, full=False)
        return "x".join(names[c] for c in path)

    def _scores(self) -> tuple[float, float]:
        return (float(sum(self.captured[0])), float(sum(self.captured[1])))

    def _end_turn(self, seat: int, full: bool) -> None:
        """Check the mover's win (only the mover can gain marbles), pass the turn, count repetitions."""
        if full:
            self.result = Outcome.win(seat, 2, f"{SEAT_NAMES[seat]} filled the last vacant ring", self._scores())
        elif self._won(seat):
            self.result = Outcome.win(seat, 2, f"{SEAT_NAMES[seat]} captured {self._winning_set(seat)}",
                                      self._scores())
        self.turn = 1 - seat
        key = self._key()
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.result is None and self.seen[key] >= 3:
            self.result = Outcome.draw(2, "the same position occurred three times", self._scores())

    def _observation(self, seat: int | None) -> dict[str, Any]:
        symbols = {NO_RING: "x", VACANT: ".", 0: "w", 1: "g", 2: "b"}
        return {
            "rings": self.board.rings,
            "names": list(self.board.names),
            "cells": "".join(symbols[c] for c in self.cells),
            "pool": dict(zip(COLOURS, self.pool, strict=True)),
            "captured": [dict(zip(COLOURS, c, strict=True)) for c in self.captured],
            "goal": dict(zip(COLOURS, self.goal, strict=True)) | {"each": self.each},
            "turn": self.turn,
            "free": [self.board.names[r] for r in self._free_rings(self.cells)],
            "capture_pending": self.result is None and self._any_capture(),
            "last": self.last,
            "status": self.status(),
        }


def _file(ring: str) -> str:
    """The menu group of a ring: its column, as the notation's letter (at most 9 rings a file)."""
    return f"File {ring[0]}"
