"""Ziggurat piece rules as pure functions of a board: movement, Leap, Tip, Dig, Swap.

The board is a list of 100 stacks indexed by ``10 * x + y`` (bottom first); the Start Stations
are the off-board indexes of ``board.STATIONS``. A piece is an int: ``colour`` for a drone,
``4 + colour`` for a Queen. Move generation returns ``{canonical text: effect}`` so playing a move
reuses the work done to list it.
"""

from __future__ import annotations

from typing import Any

from engines.ziggurat.board import (
    DIRECTIONS,
    FORWARD,
    GOALS,
    LEVEL,
    NAMES,
    NEIGHBOURS,
    PATHS,
    POSITION,
    SQUARES,
    STATIONS,
    STOPS,
    TIP_LINES,
    WALLS,
    facing,
    name,
    on_board,
    sq,
    xy,
)

Board = list[list[int]]
Effect = tuple[Any, ...]
GOAL_SET = frozenset(GOALS)
OPEN_SQUARES = tuple(s for s in SQUARES if s not in GOAL_SET)


def where(colour: int, loc: int) -> str:
    """Notation of a location: ``start`` for the mover's own Start Station, else the square."""
    return "start" if loc == STATIONS[colour] else name(loc)


def occupied(board: Board, s: int) -> bool:
    return bool(board[s])


def blocks_drone(board: Board, s: int) -> bool:
    """A stack, or (Queen Ziggurat) a Queen, stops a drone just before it, on the own Goal too:
    the text makes no exception, and a Hop still gets in (it stacks on a Goal it reaches)."""
    stack = board[s]
    return len(stack) >= 2 or any(p >= 4 for p in stack)


def run(board: Board, colour: int, loc: int, points: int, kind: str, queen: bool, foreign: bool) -> int | None:
    """Where a movement of ``points`` ends (``kind``: move, aim or hop), or None if it cannot advance.

    Normal movement stops at corners, own walls and the Goal, and just before a stack; Aim ignores
    corners and walls; Hop jumps a run of occupied squares for one step and still stops at corners
    and walls, stacking there. A Queen pays two points a step, passes over stacks, and cannot carry
    drones of another colour onto her Goal.
    """
    path = PATHS[colour]
    stops = STOPS[colour]
    last = len(path) - 1
    cost = 2 if queen else 1
    i = POSITION[colour][loc]
    start = i
    goal = GOALS[colour]
    while points >= cost and i < last:
        j = i + 1
        if kind == "hop" and occupied(board, path[j]):
            while occupied(board, path[j]) and path[j] not in stops:
                j += 1
        elif not queen and blocks_drone(board, path[j]):
            break
        if path[j] == goal and foreign:
            break
        i = j
        points -= cost
        if kind != "aim" and path[i] in stops:
            break
    return path[i] if i != start else None


def next_square(colour: int, loc: int) -> int | None:
    """The square after ``loc`` on the colour's path (None at its Goal)."""
    path = PATHS[colour]
    i = POSITION[colour][loc]
    return path[i + 1] if i + 1 < len(path) else None


def leap(board: Board, colour: int, loc: int) -> int | None:
    """Along the line over blank squares: stop at a corner or own wall, or before an occupied square."""
    path = PATHS[colour]
    i = POSITION[colour][loc]
    start = i
    while i < len(path) - 1 and path[i] not in WALLS[colour]:
        nxt = path[i + 1]
        if board[nxt]:
            break
        i += 1
        if nxt in STOPS[colour]:
            break
    return path[i] if i != start else None


def tip_allowed(origin: int, direction: str) -> bool:
    """Tips go level or downhill: the first square in the direction is not higher (off board is 0)."""
    x, y = xy(origin)
    dx, dy = DIRECTIONS[direction]
    nx, ny = x + dx, y + dy
    return not on_board(nx, ny) or LEVEL[sq(nx, ny)] <= LEVEL[origin]


def apply_tip(board: Board, origin: int, direction: str) -> list[int]:
    """Lay the pieces out from the bottom one, a square each; pieces off the board go home on top.

    Returns the squares that received pieces (for the last-move marker)."""
    x, y = xy(origin)
    dx, dy = DIRECTIONS[direction]
    pieces, board[origin] = board[origin], []
    landed = []
    for k, piece in enumerate(pieces, start=1):
        nx, ny = x + k * dx, y + k * dy
        target = sq(nx, ny) if on_board(nx, ny) else STATIONS[piece & 3]
        board[target].append(piece)
        landed.append(target)
    return landed


def movers(board: Board, colour: int, queens: bool, squares: tuple[int, ...] | list[int] = OPEN_SQUARES,
           ) -> list[tuple[int, int, str]]:
    """(location, height, suffix) of every piece the colour may move: top pieces off its Goal, and
    Queens with only drones above them (they carry those drones)."""
    found = []
    for loc in (STATIONS[colour], *squares):
        stack = board[loc]
        if not stack:
            continue
        if stack[-1] & 3 == colour:
            found.append((loc, len(stack) - 1, ""))
        if queens and stack[-1] < 4:
            for k in range(len(stack) - 2, -1, -1):
                if stack[k] >= 4:
                    if stack[k] == 4 + colour:
                        found.append((loc, k, " q"))
                    break
    return found


def generate(board: Board, colour: int, movement: int | None, actions: frozenset[str], bonus: int,
             queens: bool) -> dict[str, Effect]:
    """Every move that uses the movement die and/or one of ``actions`` (redo and end excluded)."""
    moves: dict[str, Effect] = {}
    used = [s for s in OPEN_SQUARES if board[s]]
    kinds = [k for k in ("move", "aim", "hop") if (k == "move" and movement is not None)
             or (k != "move" and k in actions and movement is not None)]
    if kinds or "leap" in actions:
        for loc, height, suffix in movers(board, colour, queens, used):
            queen = board[loc][height] >= 4
            foreign = any(p & 3 != colour for p in board[loc][height + 1:])
            here = where(colour, loc)
            for kind in kinds:
                points = movement + (bonus if kind != "move" else 0) if movement is not None else 0
                dest = run(board, colour, loc, points, kind, queen, foreign)
                if dest is not None:
                    moves[f"{kind} {here}{suffix}"] = ("move", loc, height, dest, kind != "move")
            if "leap" in actions and not suffix:
                dest = leap(board, colour, loc)
                if dest is not None:
                    moves[f"leap {here}"] = ("leap", loc, dest)
    if "tip" in actions:
        _tips(board, colour, moves, used)
    if "dig" in actions:
        for origin in used:
            stack = board[origin]
            if stack[0] & 3 == colour:
                for _, target in NEIGHBOURS[origin]:
                    if LEVEL[target] <= LEVEL[origin] and target not in GOAL_SET:
                        moves[f"dig {name(origin)} {name(target)}"] = ("dig", origin, target)
    if "swap" in actions:
        _swaps(board, colour, moves, used)
    return moves


def _tips(board: Board, colour: int, moves: dict[str, Effect], used: list[int]) -> None:
    if board[STATIONS[colour]]:
        moves["tip start"] = ("tipstart",)
    station = STATIONS[colour]
    forward = FORWARD[colour]
    for origin in used:
        stack = board[origin]
        if not stack:
            continue
        anyway = (len(stack) >= 2 and any(p & 3 == colour for p in stack))
        single = len(stack) == 1 and stack[0] & 3 == colour
        for direction, pusher in TIP_LINES[origin]:
            if anyway or (single and forward.get(origin) == direction) or (
                    pusher >= 0 and board[pusher] and board[pusher][-1] & 3 == colour
                    and (pusher == station or (pusher % 10 not in (0, 9) and pusher // 10 not in (0, 9)))):
                moves[f"tip {NAMES[origin]} {direction}"] = ("tip", origin, direction)


def _swaps(board: Board, colour: int, moves: dict[str, Effect], used: list[int]) -> None:
    for origin in used:
        stack = board[origin]
        if not stack:
            continue
        if stack[-1] & 3 == colour:
            for _, other in NEIGHBOURS[origin]:
                if other not in GOAL_SET and board[other] and board[other][-1] != stack[-1]:
                    a, b = sorted((name(origin), name(other)))
                    moves[f"swap {a} {b}"] = ("swapa", origin, other)
    for loc in (STATIONS[colour], *used):
        stack = board[loc]
        for i in range(len(stack)):
            for j in range(i + 1, len(stack)):
                if stack[i] != stack[j] and (stack[i] & 3 == colour or stack[j] & 3 == colour):
                    moves[f"swap {where(colour, loc)} {i + 1} {j + 1}"] = ("swapb", loc, i, j)


def apply(board: Board, colour: int, effect: Effect) -> list[int]:
    """Carry out a generated effect; returns the locations it touched (for the last-move marker)."""
    kind = effect[0]
    if kind == "move":
        _, loc, height, dest, _ = effect
        carried = board[loc][height:]
        del board[loc][height:]
        board[dest].extend(carried)
        return [loc, dest]
    if kind == "leap":
        _, loc, dest = effect
        board[dest].append(board[loc].pop())
        return [loc, dest]
    if kind == "tip":
        _, origin, direction = effect
        return [origin, *apply_tip(board, origin, direction)]
    if kind == "tipstart":
        station = STATIONS[colour]
        return [station, *apply_tip(board, station, facing(colour))]
    if kind == "dig":
        _, origin, target = effect
        board[target].insert(0, board[origin].pop(0))
        return [origin, target]
    if kind == "swapa":
        _, a, b = effect
        board[a][-1], board[b][-1] = board[b][-1], board[a][-1]
        return [a, b]
    if kind == "swapb":
        _, loc, i, j = effect
        board[loc][i], board[loc][j] = board[loc][j], board[loc][i]
        return [loc]
    raise ValueError(kind)
