"""The long-first order (tests/schedule.py): every test kept once, each worker's first slice led by long tests."""

from __future__ import annotations

import random

from tests.schedule import LONG, TOGETHER, long_first, module_of, slice_sizes, weight


def test_slices_are_the_sizes_worksteal_sends() -> None:
    assert slice_sizes(10, 4) == [2, 2, 3, 3]
    assert slice_sizes(2187, 4) == [546, 547, 547, 547]
    assert sum(slice_sizes(7, 3)) == 7


def test_every_test_stays_once_and_each_slice_starts_with_its_long_tests() -> None:
    rng = random.Random(23)
    ids = [f"tests/x/test_{k}.py::test_{k}" for k in range(400)] + [f"{prefix}[{n}]" for prefix in LONG for n in "ab"
                                                                    if module_of(prefix) not in TOGETHER]
    ids += [f"{prefix}" for prefix in LONG if module_of(prefix) in TOGETHER]  # a shared world's tests, named one by one
    rng.shuffle(ids)
    for workers in (2, 3, 4):
        order = long_first(ids, ids, workers)
        assert sorted(order) == sorted(ids)
        start, loads = 0, []
        for size in slice_sizes(len(ids), workers):
            part = order[start:start + size]
            start += size
            heavy = [weight(i) for i in part]
            shared = [module_of(i) in TOGETHER for i in part]
            assert shared == sorted(shared, reverse=True), "a shared world's tests come first"
            assert heavy[:sum(shared)] == sorted(heavy[:sum(shared)], reverse=True)
            assert heavy[sum(shared):] == sorted(heavy[sum(shared):], reverse=True), "long tests lead, longest first"
            light = [i for i in part if weight(i) == 0]
            assert light == [i for i in ids if i in set(light)], "the rest keep their collected order"
            loads.append(sum(heavy))
        assert max(loads) - min(loads) <= max(LONG.values()), loads


def test_one_process_keeps_the_collected_order() -> None:
    ids = [f"{prefix}" for prefix in LONG][::-1]
    assert long_first(ids, ids, 1) == ids


def test_the_long_tests_of_a_shared_world_run_on_one_worker() -> None:
    browser = [f"tests/web/test_browser.py::test_{k}" for k in range(3)]  # not named one by one in LONG
    ids = [f"tests/x/test_{k}.py::test_{k}" for k in range(400)] + list(LONG) + browser
    random.Random(5).shuffle(ids)
    for workers in (2, 3, 4):
        order = long_first(ids, ids, workers)
        together = [k for k, i in enumerate(order) if module_of(i) in TOGETHER]
        assert together == list(range(together[0], together[0] + len(together))), "side by side, none between"
        assert together[0] in {sum(slice_sizes(len(ids), workers)[:w]) for w in range(workers)}, "a slice's head"
