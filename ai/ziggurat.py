"""Ziggurat hard: expectimax over the mover's whole turn, every end of turn valued after the opponent's whole turn.

Why (issue 27): the tree search with random rollouts lost to the classical baseline (two die uses of alpha-beta,
expectimax over the dice). A Ziggurat turn is a roll and then up to two or three die uses, so a position's value
is decided by the best *combination* of them (move then tip, tip then move), and the random rollouts blur the
exact race arithmetic. This search lists every way the mover can finish its turn (a Redo's reroll is a chance
node: the average over its faces), and values each end of turn by the opponent's next roll, averaged over all
its faces, and its best whole turn against it (``Reply``: a move that lines a piece up and the tip that sends the
seat's piece home). The value is the race itself: squares travelled by the seat's colours minus the best
opponent's (``ai.evaluate``'s Ziggurat scores), a win or loss far outside it.

Fixed work (``nodes`` positions made), so the move is the same for a seed; with a deadline it stops by the clock.
Two passes: first each end of turn after the opponent's best single die use (session 9's search, cheap), then
after its whole turn; each value bounds the next (the opponent may always end its turn), so the ends of turn are
valued best first and most are never replied to. When the work runs out in the second pass the first pass's
move stands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ai import clock
from ai.evaluate import ziggurat_scores
from engines import CHANCE, Game
from engines.ziggurat import rules
from engines.ziggurat.board import GOALS, POSITION

WIN = 10_000.0
"""Above any race difference (three pieces home travel 183 squares)."""

CLOCK_EVERY = 16
"""With a deadline, read the clock every this many positions made."""

ROLL_INDEPENDENT = ("tip", "swap", "dig", "leap")
"""Die uses whose result does not depend on the movement die (their position is shared by the rolls)."""


class OutOfWork(Exception):
    """The positions or the clock ran out."""


@dataclass
class Turn:
    """A position inside the mover's turn: ``children`` empty at an end of turn."""

    game: Game
    upper: float = 0.0
    """Expectimax of the value before any reply: an upper bound of the value after the reply."""
    chance: bool = False
    children: list[tuple[str, float, Turn]] = field(default_factory=list)
    """(move or roll, its probability at a chance node, the position after it)."""


class Search:
    """One turn search's budget (positions made, or the clock) and its table of the opponent's best replies."""

    def __init__(self, seat: int, nodes: int | None, deadline: float | None) -> None:
        self.seat = seat
        self.nodes = nodes
        self.deadline = deadline
        self.made = 0
        self.replies: dict[tuple[object, ...], float] = {}
        self.answers: dict[tuple[object, ...], float] = {}
        self.whole = False
        """Whether ends of turn are valued after the opponent's whole turn (else its single die use)."""

    def count(self) -> None:
        self.made += 1
        if self.nodes is not None and self.made > self.nodes:
            raise OutOfWork
        if self.deadline is not None and self.made % CLOCK_EVERY == 0 and clock.now() >= self.deadline:
            raise OutOfWork

    def after(self, game: Game, who: int, move: str) -> Game:
        self.count()
        twin = game.clone()
        twin.play(who, move)
        return twin

    def static(self, game: Game) -> float:
        """The race for the seat: its squares travelled minus the best opposing seat's; a finished game far outside."""
        outcome = game.outcome()
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return WIN if self.seat in outcome.winners else -WIN
        scores = ziggurat_scores(game) or [0.0] * game.num_players
        teams = game.teams()
        rivals = [scores[s] for s in range(game.num_players) if teams[s] != teams[self.seat]]
        return scores[self.seat] - (max(rivals) if rivals else 0.0)

    def build(self, game: Game, turn: tuple[int, int]) -> Turn:
        """The rest of the mover's turn as a tree, each node with its value before the reply (``upper``)."""
        node = Turn(game)
        movers = game.to_move()
        if not movers or (game.round, game.index) != turn:  # type: ignore[attr-defined]
            node.upper = self.static(game)
            return node
        if CHANCE in movers:  # a Redo's reroll inside the turn
            node.chance = True
            for text, p in game.chance_outcomes():
                node.children.append((text, p, self.build(self.after(game, CHANCE, text), turn)))
            node.upper = sum(p * child.upper for _, p, child in node.children)
            return node
        who = min(movers)
        for move in game.legal_moves(who):
            node.children.append((move, 1.0, self.build(self.after(game, who, move), turn)))
        node.upper = max(child.upper for _, _, child in node.children)
        return node

    def value(self, node: Turn, alpha: float = -WIN * 2) -> float:
        """The value after the reply, or a bound at most ``alpha`` when it cannot beat ``alpha``.

        The reply is the opponent's single die use (``reply``), or with ``whole`` its whole turn (``answer``): the
        value before the reply bounds the first, which bounds the second. Best first with the bounds at choices;
        at a Redo's reroll the faces not yet valued count with their bounds, so a reroll that cannot beat
        ``alpha`` stops early.
        """
        if not node.children:
            glance = self.reply(node.game)
            return glance if glance <= alpha or not self.whole else self.answer(node.game)
        if node.chance:
            rest = sum(p * child.upper for _, p, child in node.children)
            done = 0.0
            for _, p, child in node.children:
                rest -= p * child.upper
                done += p * self.value(child, (alpha - done - rest) / p)
                if done + rest <= alpha:
                    return done + rest
            return done
        best = -WIN * 2
        for _, _, child in sorted(node.children, key=lambda c: c[2].upper, reverse=True):
            if child.upper <= max(best, alpha):
                break
            best = max(best, self.value(child, max(best, alpha)))
        return best

    def answer(self, game: Game) -> float:
        """The average over the next roll of the next mover's best whole turn (``Reply``).

        In the last round the single die use instead: ``Reply`` values bare boards and never sees the round limit
        end the game, where ``reply`` scores a roll that ends it by the game's own result (and stays the bound
        the search prunes with)."""
        last_round = game.round >= game.options["round_limit"]  # type: ignore[attr-defined]
        if game.to_move() != {CHANCE} or game.roll_kind != "both" or last_round:  # type: ignore[attr-defined]
            return self.reply(game)
        key = (tuple(map(tuple, game.board)), game.index, game.round)  # type: ignore[attr-defined]
        if key not in self.answers:
            reply = Reply(self, game)
            total = 0.0
            for text, p in game.chance_outcomes():
                _, m, face = text.split()
                total += p * reply.roll(int(m), face)
            self.answers[key] = total
        return self.answers[key]

    def reply(self, game: Game) -> float:
        """The average over the next roll of the next mover's best single die use (its worst for the seat)."""
        movers = game.to_move()
        if not movers or movers != {CHANCE}:
            return self.static(game)
        key = (tuple(map(tuple, game.board)), game.index, game.round)  # type: ignore[attr-defined]
        if key in self.replies:
            return self.replies[key]
        stay = self.static(game)
        done: dict[tuple[str, int | None], float] = {}
        total = 0.0
        for text, p in game.chance_outcomes():
            rolled = self.after(game, CHANCE, text)
            movers = rolled.to_move()
            if not movers or CHANCE in movers:
                total += p * self.static(rolled)
                continue
            who = min(movers)
            friend = game.teams()[who] == game.teams()[self.seat]
            best = stay
            for move in rolled.legal_moves(who):
                verb = move.split()[0]
                if verb in ("end", "redo"):
                    continue
                key2 = (move, None if verb in ROLL_INDEPENDENT else rolled.movement)  # type: ignore[attr-defined]
                v = done.get(key2)
                if v is None:
                    v = done[key2] = self.static(self.after(rolled, who, move))
                best = max(best, v) if friend else min(best, v)
            total += p * best
        self.replies[key] = total
        return total


def choose(game: Game, seat: int, moves: list[str], nodes: int | None, rng: random.Random,
           deadline: float | None = None) -> str | None:
    """The move starting the best turn, or None if the work ran out before one root move was valued."""
    search = Search(seat, nodes, deadline)
    noise = {m: 1e-6 * rng.random() for m in moves}  # ties at random, but reproducibly
    turn = (game.round, game.index)  # type: ignore[attr-defined]
    try:
        children = [(m, search.build(search.after(game, seat, m), turn)) for m in moves]
    except OutOfWork:
        return None
    order = sorted(children, key=lambda c: c[1].upper + noise[c[0]], reverse=True)
    bounds = {move: child.upper for move, child in children}
    best, pick = -WIN * 3, None
    try:  # first after the single die use: cheap, and an upper bound of the value after the whole turn
        for move, child in order:
            if child.upper + noise[move] <= best:
                break
            bounds[move] = v = search.value(child)
            if v + noise[move] > best:
                best, pick = v + noise[move], move
        search.whole = True
        order.sort(key=lambda c: bounds[c[0]] + noise[c[0]], reverse=True)
        best, sure = -WIN * 3, None
        for move, child in order:
            if bounds[move] + noise[move] <= best:
                break
            v = search.value(child, best - noise[move]) + noise[move]
            if v > best:
                best, sure = v, move
        pick = sure
    except OutOfWork:
        pass
    return pick


Board = list[list[int]]
Spot = tuple[Board, list[int]]
"""A bare board and the squares travelled by each colour on it (kept up to date move by move)."""

ACTS = ("tip", "swap", "dig", "leap")
"""Action faces usable without the movement die (Aim and Hop spend both dice at once)."""


class Reply:
    """The opponent's whole turn after each of its rolls, on bare boards (``rules``), its best for it.

    Why (session 10): the single die use it replaced missed the combinations that decide Ziggurat (a move that
    lines a piece up behind the seat's, then the tip that sends the seat's piece home). A first die use's boards
    do not depend on the other die (a move on the action face, a tip on the movement face), so they are made
    once per reply and shared by the rolls; a Wild is the best of the faces it stands for, a Redo the average
    over the reroll's faces. Squares travelled are updated from the squares a die use touched, not recounted.
    """

    def __init__(self, search: Search, game: Game) -> None:
        self.search = search
        self.colour: int = game.colour  # type: ignore[attr-defined]
        owner: dict[int, int] = game.owner  # type: ignore[attr-defined]
        self.mine = [c for c in game.colours if owner[c] == search.seat]  # type: ignore[attr-defined]
        self.theirs = [c for c in game.colours if owner[c] != search.seat]  # type: ignore[attr-defined]
        self.sign = -1.0 if self.colour in self.theirs else 1.0
        self.per_colour: int = game.per_colour  # type: ignore[attr-defined]
        self.bonus: int = game.bonus  # type: ignore[attr-defined]
        self.queens: bool = game.queens  # type: ignore[attr-defined]
        self.faces: tuple[str, ...] = game.faces  # type: ignore[attr-defined]
        self.wild_redo: bool = game.options["wild_redo"]
        self.numbers = sorted({int(text.split()[1]) for text, _ in game.chance_outcomes()})
        board: Board = game.board  # type: ignore[attr-defined]
        travelled = [0] * 4
        for s, stack in enumerate(board):
            for p in stack:
                travelled[p & 3] += POSITION[p & 3].get(s, 0)
        self.root: Spot = (board, travelled)
        self.moves: dict[int, list[Spot]] = {}
        self.actions: dict[str, list[Spot]] = {}
        self.then_action: dict[tuple[int, int, str], float] = {}
        self.then_move: dict[tuple[str, int, int], float] = {}
        self.rolls: dict[tuple[int, str, bool], float] = {}

    def race(self, spot: Spot) -> float:
        """``Search.static`` on a bare board: the seat's best colour's squares minus the opponent's best."""
        board, travelled = spot
        if sum(1 for p in board[GOALS[self.colour]] if p & 3 == self.colour) == self.per_colour:
            return WIN * self.sign
        return max(travelled[c] for c in self.mine) - max(travelled[c] for c in self.theirs)

    def best(self, values: list[float]) -> float:
        """The mover's choice: the opponent's is the lowest for the seat."""
        return min(values) if self.sign < 0 else max(values)

    def spots(self, spot: Spot, movement: int | None, action: str | None, verbs: tuple[str, ...]) -> list[Spot]:
        """Every board after one die use whose move starts with one of these verbs."""
        board, travelled = spot
        out = []
        actions = frozenset({action}) if action else frozenset()
        for text, effect in rules.generate(board, self.colour, movement, actions, self.bonus, self.queens).items():
            if text[:text.find(" ")] not in verbs:
                continue
            self.search.count()
            twin = list(map(list.copy, board))
            counts = travelled.copy()
            for s in set(rules.apply(twin, self.colour, effect)):  # the squares the die use changed
                for p in board[s]:
                    counts[p & 3] -= POSITION[p & 3].get(s, 0)
                for p in twin[s]:
                    counts[p & 3] += POSITION[p & 3].get(s, 0)
            out.append((twin, counts))
        return out

    def moved(self, m: int) -> list[Spot]:
        if m not in self.moves:
            self.moves[m] = self.spots(self.root, m, None, ("move",))
        return self.moves[m]

    def acted(self, face: str) -> list[Spot]:
        if face not in self.actions:
            self.actions[face] = self.spots(self.root, None, face, (face,))
        return self.actions[face]

    def one_more(self, spot: Spot, movement: int | None, action: str | None, verb: str) -> float:
        """The mover's best of stopping on ``spot`` and one more die use there (a race already won stops)."""
        v = self.race(spot)
        if abs(v) < WIN:
            v = self.best([v, *map(self.race, self.spots(spot, movement, action, (verb,)))])
        return v

    def after_move(self, m: int, i: int, face: str) -> float:
        """The best action ``face`` (one of ``ACTS``) on the i-th board after moving m (or stopping there)."""
        key = (m, i, face)
        if key not in self.then_action:
            self.then_action[key] = self.one_more(self.moved(m)[i], None, face, face)
        return self.then_action[key]

    def after_action(self, face: str, j: int, m: int) -> float:
        """The best move of m on the j-th board after the action ``face`` (or stopping there)."""
        key = (face, j, m)
        if key not in self.then_move:
            self.then_move[key] = self.one_more(self.acted(face)[j], m, None, "move")
        return self.then_move[key]

    def roll(self, m: int, face: str | None, second: bool = False) -> float:
        """The opponent's best whole turn for a roll (``face`` None: the action die is spent)."""
        key = (m, face or "", second)
        if key in self.rolls:
            return self.rolls[key]
        moved = self.moved(m)
        options = [self.race(self.root), *map(self.race, moved)]
        if face in ACTS:
            options += [self.after_move(m, i, face) for i in range(len(moved))]
            options += [self.after_action(face, j, m) for j in range(len(self.acted(face)))]
        elif face in ("aim", "hop"):
            options += map(self.race, self.spots(self.root, m, face, (face,)))
        elif face == "wild":
            pool = [f for f in self.faces if f != "wild" and (f != "redo" or (self.wild_redo and not second))]
            options += [self.roll(m, f, second) for f in pool]
        elif face == "redo" and not second:
            faces = self.faces
            options.append(sum(self.roll(m, None if f == "redo" else f, True) for f in faces) / len(faces))
            for i, spot in enumerate(moved):  # moved, then the movement die or the action die again
                stay = self.race(spot)
                again = [self.best([stay, *map(self.race, self.spots(spot, n, None, ("move",)))])
                         for n in self.numbers]
                options.append(sum(again) / len(again))
                acts = {f: self.after_move(m, i, f) for f in ACTS if f in faces}
                wild = self.best([stay, *acts.values()])
                options.append(sum(acts.get(f, wild if f == "wild" else stay) for f in faces) / len(faces))
        value = self.best(options)
        self.rolls[key] = value
        return value
