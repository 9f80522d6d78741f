"""The blossom matching against brute force on small random graphs (odd cycles included)."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from host.tournaments.pairing.matching import matching_size, maximum_matching


def brute_force_size(n: int, edges: frozenset[tuple[int, int]]) -> int:
    @functools.cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        options = [best(rest)]
        options += [1 + best(rest - {u}) for u in rest if (min(u, v), max(u, v)) in edges]
        return max(options)

    return best(frozenset(range(n)))


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=9).flatmap(
    lambda n: st.tuples(st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))))))
def test_maximum_matching_is_maximum_and_valid(case: tuple[int, set[tuple[int, int]]]) -> None:
    n, raw = case
    edges = frozenset((min(a, b), max(a, b)) for a, b in raw if a != b)
    adjacent = [[u for u in range(n) if (min(u, v), max(u, v)) in edges] for v in range(n)]
    mate = maximum_matching(adjacent)
    for v, u in enumerate(mate):
        if u != -1:
            assert mate[u] == v and (min(u, v), max(u, v)) in edges
    assert matching_size(adjacent) == brute_force_size(n, edges)


def test_an_odd_cycle_with_a_stem_is_augmented_to_a_perfect_matching() -> None:
    # The greedy start takes 0-1 and 2-3 and strands 4 (on the 5-cycle 0..4) and the stem 5 on 2;
    # the search must re-route along the odd cycle: 4-3, 2-5.
    edges = {(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (2, 5)}
    adjacent = [[u for u in range(6) if (min(u, v), max(u, v)) in edges] for v in range(6)]
    mate = maximum_matching(adjacent)
    assert sum(1 for v, u in enumerate(mate) if u > v) == 3
    assert mate[5] == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=9).flatmap(
    lambda n: st.tuples(st.just(n), st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))),
                        st.sets(st.integers(0, n - 1), max_size=3))))
def test_removing_vertices_from_a_known_matching_gives_the_maximum_of_what_is_left(
    case: tuple[int, set[tuple[int, int]], set[int]],
) -> None:
    n, raw, removed = case
    edges = frozenset((min(a, b), max(a, b)) for a, b in raw if a != b)
    adjacent = [[u for u in range(n) if (min(u, v), max(u, v)) in edges] for v in range(n)]
    start = maximum_matching(adjacent)
    mate = maximum_matching(adjacent, removed, start)
    assert all(mate[v] == -1 for v in removed)
    left = frozenset((a, b) for a, b in edges if a not in removed and b not in removed)
    assert matching_size(adjacent, removed, start) == brute_force_size(n, left)
