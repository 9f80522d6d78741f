"""A tiny dice game that exercises every part of the engine contract before the real games exist.

Dice Nim: first every seat secretly bids 1-3 (simultaneous, hidden); the highest bid starts (ties:
lowest seat). Then each turn a die says how many stones the mover may take at most; whoever takes
the last stone wins.
"""

from __future__ import annotations

from typing import Any

from engines.base import CHANCE, Game, IllegalMove, Option, Outcome


class DiceNim(Game):
    name = "dicenim"
    title = "Dice Nim"
    players = range(2, 4)
    options_spec = (Option("stones", 9, (5, 9, 15), "stones in the pile"),)
    help = "Take stones; the die caps how many. Whoever takes the last stone wins."
    has_chance = True

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.stones: int = options["stones"]
        self.bids: dict[int, int] = {}
        self.turn: int | None = None
        self.cap: int | None = None
        self.winner: int | None = None

    def _to_move(self) -> frozenset[int]:
        if self.turn is None:
            return frozenset(s for s in range(self.num_players) if s not in self.bids)
        return frozenset({CHANCE}) if self.cap is None else frozenset({self.turn})

    def _legal_moves(self, seat: int) -> list[str]:
        if seat == CHANCE:
            return [text for text, _ in self._chance_outcomes()]
        if self.turn is None:
            return [f"bid {n}" for n in (1, 2, 3)]
        assert self.cap is not None
        return [f"take {n}" for n in range(1, min(self.cap, self.stones) + 1)]

    def _chance_outcomes(self) -> list[tuple[str, float]]:
        return [(f"roll {n}", 1 / 3) for n in (1, 2, 3)]

    def _play(self, seat: int, text: str) -> str:
        canonical = " ".join(text.lower().split())
        if canonical not in self._legal_moves(seat):
            raise IllegalMove(f"{text!r} is not a legal move here.")
        number = int(canonical.split()[1])
        if seat == CHANCE:
            self.cap = number
        elif self.turn is None:
            self.bids[seat] = number
            if len(self.bids) == self.num_players:
                self.turn = max(self.bids, key=lambda s: (self.bids[s], -s))
        else:
            self.stones -= number
            self.cap = None
            if self.stones == 0:
                self.winner = seat
            else:
                self._advance()
        return canonical

    def _advance(self) -> None:
        assert self.turn is not None
        for step in range(1, self.num_players + 1):
            nxt = (self.turn + step) % self.num_players
            if nxt not in self.eliminated:
                self.turn = nxt
                return

    def _skip_seat(self, seat: int) -> None:
        self.bids.setdefault(seat, 0)
        if self.turn is None and len(self.bids) == self.num_players:
            self.turn = max(self.active_seats(), key=lambda s: (self.bids[s], -s))
        elif self.turn == seat:
            self.cap = None
            self._advance()

    def _outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome.win(self.winner, self.num_players, f"{self.seat_name(self.winner)} took the last stone")

    def _observation(self, seat: int | None) -> dict[str, Any]:
        everyone_bid = self.turn is not None
        bids = {str(s): b for s, b in self.bids.items() if everyone_bid or s == seat}
        return {"stones": self.stones, "bids": bids, "cap": self.cap, "turn": self.turn}
