"""The move builder: a player builds a move by clicks, one small step at a time, never typing notation.

Every engine says how each legal move decomposes into picks (``Game.move_picks``); the picks of all moves
form a prefix tree, and the builder walks it. Its whole state is ``(game, ply, token, path)``, where
``path`` lists the child chosen at each step, so it lives in the custom ids of the builder's components
and survives a restart with no table. Each step is version-checked against the game: a builder made for
an earlier position, or superseded by a newer builder of the same player, refuses with the reason.

A step with a single choice is taken for the player (a forced landing, the only ring left), so the path
holds only what the player chose; Back undoes the last of those.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import CHANCE, Game, Pick
from host.play import bots, captions
from host.results import Board, GameRow, HostError, Report

SECRET = "secret"
"""The pick kind of a secret choice (Zodiac's king and duel): made in the DM menus, never in a builder."""
PATH_SEPARATOR = "."
GROUP_MARK = "~"
"""A path element ``~k``: the player opened group ``k`` of a step that has more choices than its menus hold."""
MAX_PATH = 24
MAX_REMEMBERED = 10_000
"""Builders whose newest token a process remembers (a few hundred bytes each); the oldest are forgotten."""
MAX_LISTED = 64
"""Positions whose picks the builder keeps listed (the newest; games being built in at once)."""


class StaleBuilder(HostError):
    """The builder belongs to an earlier position or was replaced: answered by offering a fresh one, unless
    ``reopen`` is False (the game is over: a fresh builder could only say so again)."""

    def __init__(self, text: str, *, reopen: bool = True) -> None:
        super().__init__(text)
        self.reopen = reopen


@dataclass(frozen=True)
class Choice:
    """One choice of the step shown: the path element that picks it, and what the player reads."""

    value: str
    label: str
    target: str | None
    group: str


@dataclass
class Step:
    """What a builder message shows after a press: everything the cog needs to draw it."""

    game_id: int
    ply: int
    token: str
    path: tuple[str, ...]
    title: str
    picked: list[str]
    prompt: str
    choices: list[Choice]
    groups: list[str] = field(default_factory=list)
    """Set instead of ``choices`` when one step has more choices than four menus hold: pick a group first."""
    menus: list[tuple[str, list[Choice]]] = field(default_factory=list)
    """The choices in at most four menus, whole groups packed in order, when there are too many for buttons."""
    move: str | None = None
    """The finished move (press Play), once the picks lead to exactly one."""
    offered: list[str] = field(default_factory=list)
    """Board targets the next pick may choose, when they are not ``choices`` (a group is asked first)."""
    board: Board | None = None

    @property
    def can_back(self) -> bool:
        return bool(self.path)


@dataclass
class _Node:
    """A prefix-tree node: the choices of one step by pick key, or the move a finished path makes."""

    pick: Pick | None = None
    children: dict[tuple[str, str, str | None], _Node] = field(default_factory=dict)
    move: str | None = None


def tree_of(picks: Sequence[tuple[str, tuple[Pick, ...]]]) -> _Node:
    """The prefix tree of the moves' picks, secret ones left out (they are made in DMs); children keep the
    order of the moves they first lead to."""
    root = _Node()
    for move, sequence in picks:
        if sequence[0].kind == SECRET:
            continue
        node = root
        for pick in sequence:
            node = node.children.setdefault(pick.key, _Node(pick=pick))
        node.move = move
    return root


def encode(path: Sequence[str]) -> str:
    return PATH_SEPARATOR.join(path)


def decode(text: str) -> tuple[str, ...]:
    """A path from a custom id; anything malformed is refused rather than guessed."""
    if not text:
        return ()
    parts = tuple(text.split(PATH_SEPARATOR))
    if len(parts) > MAX_PATH or not all(_valid(p) for p in parts):
        raise HostError("That move builder button is damaged: press Move under the board for a new one.")
    return parts


def _valid(part: str) -> bool:
    body = part.removeprefix(GROUP_MARK)
    return body.isascii() and body.isdigit() and len(body) <= 3


def _index(part: str) -> int:
    return int(part.removeprefix(GROUP_MARK))


def groups_of(children: list[_Node], per_menu: int = 25) -> list[tuple[str, list[int]]]:
    """The children's indexes by their pick's group, each at most ``per_menu`` (a long group is split, named
    ``group (1/2)``); the order is the children's."""
    grouped: dict[str, list[int]] = {}
    for index, child in enumerate(children):
        assert child.pick is not None
        grouped.setdefault(child.pick.group or "Choices", []).append(index)
    out: list[tuple[str, list[int]]] = []
    for name, members in grouped.items():
        chunks = [members[i:i + per_menu] for i in range(0, len(members), per_menu)]
        for n, chunk in enumerate(chunks):
            out.append((name if len(chunks) == 1 else f"{name} ({n + 1}/{len(chunks)})", chunk))
    return out


MAX_MENUS = 4
"""Selects a builder step may show at once: Discord allows five rows, and one holds Back and Cancel."""
MAX_BUTTONS = 20
"""Choices shown as buttons (four rows of five); more go into menus."""


def packed(groups: list[tuple[str, list[int]]], per_menu: int = 25) -> list[tuple[list[str], list[int]]]:
    """Whole groups packed in order into menus of at most ``per_menu`` choices (a group is never split here:
    ``groups_of`` already cut any group longer than a menu)."""
    menus: list[tuple[list[str], list[int]]] = []
    for name, members in groups:
        if not menus or len(menus[-1][1]) + len(members) > per_menu:
            menus.append(([], []))
        menus[-1][0].append(name)
        menus[-1][1].extend(members)
    return menus


def needs_group_first(children: list[_Node]) -> bool:
    """More choices than four menus hold, group by group: the player opens a group first."""
    return len(children) > MAX_BUTTONS and len(packed(groups_of(children))) > MAX_MENUS


class MoveBuilder:
    """Open, step, play: the Discord-free half of the move builder, version-checked at every press."""

    def __init__(self, *, load: Callable[[int], Awaitable[tuple[GameRow, Game]]],
                 draw: Callable[[GameRow, dict[str, Any]], Awaitable[Board]],
                 play: Callable[..., Awaitable[Report]]) -> None:
        """``load``: the row and its cached engine (never changed here); ``draw``: an observation to a board
        image, off the event loop; ``play``: the host's version-checked move."""
        self.load = load
        self.draw = draw
        self._play = play
        self.latest: dict[tuple[int, int], str] = {}
        """(game, user) -> the token of the newest builder this process opened: older ones refuse."""
        self.listed: dict[tuple[int, int, int, int], tuple[list[tuple[str, tuple[Pick, ...]]], _Node]] = {}
        """(game, version, seat, ply) -> the seat's picks and their tree: every press of one move reads the same
        position, and listing a wide one costs (50 ms for a 4-player Zarathustra on 7x7). Every change to a game
        bumps its version, so an entry never outlives its position."""

    async def open(self, game_id: int, user: int, token: str) -> Step:
        """A new builder for the user's move in the current position; it replaces any older one."""
        row, game = await self.load(game_id)
        seat, tree = self._seat(row, game, user)
        self.latest.pop((game_id, user), None)  # re-inserted last: the oldest entries go first when full
        self.latest[(game_id, user)] = token
        while len(self.latest) > MAX_REMEMBERED:
            del self.latest[next(iter(self.latest))]  # forgotten: that builder still works, checked by its ply
        return await self._step(row, game, seat, tree, token, ())

    async def show(self, game_id: int, user: int, ply: int, token: str, path: tuple[str, ...]) -> Step:
        """The builder after a pick, a Back, or a group opened: ``path`` is the whole state."""
        row, game = await self.load(game_id)
        seat, tree = self._checked(row, game, user, ply, token)
        return await self._step(row, game, seat, tree, token, path)

    async def play(self, game_id: int, user: int, ply: int, token: str, path: tuple[str, ...]) -> Report:
        """Play the finished move of ``path``, version-checked like a button (the ply it was built on)."""
        row, game = await self.load(game_id)
        _, tree = self._checked(row, game, user, ply, token)
        node, _, _ = self._walk(tree, path)
        if node.move is None:
            raise HostError("The move is not finished yet: pick the remaining steps first.")
        return await self._play(game_id, user, node.move, expected_ply=ply)

    def cancel(self, game_id: int, user: int, token: str) -> None:
        if self.latest.get((game_id, user)) == token:
            del self.latest[(game_id, user)]

    # ----- checks -------------------------------------------------------------------------

    def _seat(self, row: GameRow, game: Game, user: int) -> tuple[int, _Node]:
        """The seat the user builds a move for, and the tree of its picks (listed once a position)."""
        if row.status != "active":
            raise StaleBuilder(f"Game #{row.id} {captions.STATUS_SAID.get(row.status, row.status)}.", reopen=False)
        seats = row.seats_of(user)
        if not seats:
            raise HostError("You are not playing in this game.")
        movers = [s for s in seats if s in game.to_move() and s != CHANCE]
        if not movers:
            raise HostError(captions.not_your_turn(row, game, seats))
        seat = movers[0]
        picks, tree = self._listed(row, game, seat)
        if picks and all(seq[0].kind == SECRET for _, seq in picks):
            raise HostError("Your choice now is secret: make it in the menu the bot sent you by DM, or type "
                            f"`/{row.game} move` here (only you see it; My view shows your side).")
        return seat, tree

    def _listed(self, row: GameRow, game: Game, seat: int) -> tuple[list[tuple[str, tuple[Pick, ...]]], _Node]:
        key = (row.id, row.version, seat, len(game.history))
        found = self.listed.get(key)
        if found is None:
            picks = game.move_picks(seat)
            found = self.listed[key] = (picks, tree_of(picks))
            while len(self.listed) > MAX_LISTED:
                del self.listed[next(iter(self.listed))]  # the oldest first
        return found

    def _checked(self, row: GameRow, game: Game, user: int, ply: int,
                 token: str) -> tuple[int, _Node]:
        if row.status != "active":  # refused by _seat before "already moved": the last mover is told the game ended
            return self._seat(row, game, user)
        if len(game.history) > ply and game.history[ply][0] in row.seats_of(user):
            raise StaleBuilder("You have already moved from this position: see the newest board. "
                               "Nothing more was played.")
        if len(game.history) != ply:
            raise StaleBuilder("This move builder is out of date: the position changed since you opened it. "
                               "Nothing was played.")
        latest = self.latest.get((row.id, user))
        if latest is not None and latest != token:
            raise StaleBuilder("A newer move builder is open for this game: use that one. Nothing was played.")
        return self._seat(row, game, user)

    # ----- the tree -------------------------------------------------------------------------

    @staticmethod
    def _descend(node: _Node, trail: list[Pick]) -> _Node:
        """Take every step that has one choice only."""
        while node.move is None and len(node.children) == 1:
            node = next(iter(node.children.values()))
            assert node.pick is not None
            trail.append(node.pick)
        return node

    def _walk(self, root: _Node, path: tuple[str, ...]) -> tuple[_Node, list[Pick], int | None]:
        """The node a path leads to, the picks on the way, and an opened group (``~k`` last in the path)."""
        trail: list[Pick] = []
        node = self._descend(root, trail)
        group: int | None = None
        for n, part in enumerate(path):
            children = list(node.children.values())
            if part.startswith(GROUP_MARK):
                if n != len(path) - 1 or _index(part) >= len(groups_of(children)):
                    raise StaleBuilder("That move builder button no longer fits the position. Nothing was played.")
                group = _index(part)
                break
            index = _index(part)
            if node.move is not None or index >= len(children):
                raise StaleBuilder("That move builder button no longer fits the position. Nothing was played.")
            node = children[index]
            assert node.pick is not None
            trail.append(node.pick)
            node = self._descend(node, trail)
        return node, trail, group

    async def _step(self, row: GameRow, game: Game, seat: int, tree: _Node, token: str,
                    path: tuple[str, ...]) -> Step:
        node, trail, group = self._walk(tree, path)
        title = f"**{game.title}** #{row.id}: your move as {game.seat_name(seat)}"
        step = Step(game_id=row.id, ply=len(game.history), token=token, path=path, title=title,
                    picked=[p.label for p in trail], prompt="", choices=[])
        if node.move is not None:
            step.move = node.move
            step.prompt = (f"Your move: `{node.move}` ({captions.clip(game.describe(seat, node.move), 200)}). "
                           "Press **Play** to make it.")
        else:
            children = list(node.children.values())
            kind = children[0].pick.kind if children[0].pick else "move"
            step.prompt = game.pick_prompt(kind)
            menus = groups_of(children)
            indexes = list(range(len(children)))
            if group is not None:
                indexes = menus[group][1]
                step.prompt += f" ({menus[group][0]})"
            elif needs_group_first(children):
                step.groups = [name for name, _ in menus][:25]  # a menu's most; no board has that many rows
                step.prompt += " First choose where:"
                step.offered = [c.pick.target for c in children if c.pick is not None and c.pick.target]
            prefix = tuple(p for p in path if not p.startswith(GROUP_MARK))
            if not step.groups:
                for i in indexes:
                    pick = children[i].pick
                    assert pick is not None
                    step.choices.append(Choice(encode((*prefix, str(i))), pick.label, pick.target, pick.group))
                if len(step.choices) > MAX_BUTTONS:
                    shown = [(name, [n for n, i in enumerate(indexes) if i in set(members)])
                             for name, members in menus if set(members) & set(indexes)]
                    step.menus = [(", ".join(names), [step.choices[n] for n in members])
                                  for names, members in packed(shown)]
        step.board = await self.draw(row, self._observation(game, seat, node, trail, step))
        return step

    @staticmethod
    def _observation(game: Game, seat: int, node: _Node, trail: list[Pick], step: Step) -> dict[str, Any]:
        """What the step's image shows: the partial move marked on the board, and where the next pick may go.

        A finished move of a perfect-information game is shown as the position it makes; in a game with
        hidden information the position after the move could betray a secret (a captured king ends the
        game), so it stays marked on the current board instead.
        """
        picked = [p.target for p in trail if p.target]
        if node.move is not None and not game.hidden_information:
            after = game.clone()
            after.play(seat, node.move)
            obs = after.observation(seat)
        else:
            obs = game.observation(seat)
        offered = step.offered or [c.target for c in step.choices if c.target]
        obs["highlights"] = {"picked": picked, "offered": offered}
        return obs


def presses(game: Game, seat: int, move: str) -> int:
    """How many presses the builder needs for ``move``: one per step with a real choice (two where a group
    must be opened first), not counting Move and Play. For the bench and the tests of its steps."""
    picks = game.move_picks(seat)
    node = tree_of(picks)
    target = dict(picks)[move]
    count = 0
    for pick in target:
        children = list(node.children.values())
        if len(children) > 1:
            count += 2 if needs_group_first(children) else 1
        node = node.children[pick.key]
    return count


def wants_builder(row: GameRow, game: Game) -> bool:
    """Whether the board should carry a Move button: someone who is not an AI has a move to build."""
    if row.status != "active" or game.outcome() is not None:
        return False
    return any(s != CHANCE and not bots.is_ai(row.user_at(s)) for s in game.to_move())

