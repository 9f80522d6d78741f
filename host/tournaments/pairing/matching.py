"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing asks "can the players still unpaired all be paired without a rematch?" before it commits
to each pair; that question is whether a perfect matching exists, which needs blossoms (odd cycles)
in general. Vertices are ``0..n-1``; ``adjacent[v]`` lists v's neighbours.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence


def maximum_matching(
    adjacent: Sequence[Sequence[int]], removed: Collection[int] = (), start: Sequence[int] | None = None
) -> list[int]:
    """``mate[v]`` for a maximum matching (``-1`` = unmatched), O(V³).

    ``removed`` vertices are left out (their mate is -1); ``start`` is a matching to grow from (pairs
    touching a removed vertex are dropped), so trying many small removals from one matching is cheap.
    """
    n = len(adjacent)
    gone = [False] * n
    for v in removed:
        gone[v] = True
    mate = [-1] * n
    if start is not None:
        for v, u in enumerate(start):
            if u != -1 and not gone[v] and not gone[u]:
                mate[v] = u
    for v in range(n):  # a greedy start makes most searches trivial
        if mate[v] == -1 and not gone[v]:
            for u in adjacent[v]:
                if mate[u] == -1 and u != v and not gone[u]:
                    mate[u], mate[v] = v, u
                    break
    for root in range(n):
        if mate[root] == -1 and not gone[root]:
            end, parent = _augmenting_path(adjacent, mate, root, gone)
            while end != -1:
                previous = parent[end]
                following = mate[previous]
                mate[end], mate[previous] = previous, end
                end = following
    return mate


def matching_size(
    adjacent: Sequence[Sequence[int]], removed: Collection[int] = (), start: Sequence[int] | None = None
) -> int:
    return sum(1 for v, u in enumerate(maximum_matching(adjacent, removed, start)) if u > v)


def _augmenting_path(
    adjacent: Sequence[Sequence[int]], mate: list[int], root: int, gone: list[bool]
) -> tuple[int, list[int]]:
    """BFS from ``root`` over alternating paths, shrinking blossoms; returns the free end found (or -1)."""
    n = len(adjacent)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = deque([root])

    def lowest_common_base(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, stem: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stem:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if gone[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                stem = lowest_common_base(v, to)
                blossom = [False] * n
                mark_path(v, stem, to, blossom)
                mark_path(to, stem, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = stem
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent
