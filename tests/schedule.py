"""The longest tests first on every pytest-xdist worker, so the run does not end with one long test alone.

``--dist worksteal`` hands each of the N workers one contiguous slice of the collected tests (the first slice
``len // N`` long, the next ``rest // (N - 1)``, and so on) and, when a worker runs dry, moves the *end* of the
longest queue to it. In file order the long tests (whole games through Discord or a browser, crash windows)
sit wherever their file sorts, often at a slice's end: one of them starting last left a minute of the run to a
single worker. Here every slice starts with its share of the long tests (each given to the slice with the least
long-test time so far), and the rest follow in file order. Every worker collects the same list, so every worker
computes the same order. A test missing from ``LONG`` only runs where its file sorts, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

LONG: dict[str, float] = {
    "tests/ai/test_search_parts.py::test_alphabeta_takes_a_win_in_one": 58,  # solves the ZÈRTZ tactics set once
    "tests/web/test_browser.py::test_a_whole_game_by_clicks_in_two_pages_with_a_spectator[ziggurat]": 51,
    "tests/web/test_browser.py::test_a_whole_game_by_clicks_in_two_pages_with_a_spectator[zodiac]": 36,
    "tests/web/test_browser.py::test_a_whole_game_by_clicks_in_two_pages_with_a_spectator[zarathustra]": 28,
    "tests/web/test_browser.py::test_a_whole_game_by_clicks_in_two_pages_with_a_spectator[zaic]": 23,
    "tests/web/test_browser.py::test_a_whole_game_by_clicks_in_two_pages_with_a_spectator[zrtz]": 20,
    "tests/web/test_browser.py::": 3,  # the module's other tests: its world is started once (TOGETHER)
    "tests/e2e/test_crash_outbox.py::test_sigkill_in_every_window": 39,
    "tests/e2e/test_crash_outbox.py::test_a_crash_after_a_move_in_its_thread": 19,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[zodiac-2p]": 36,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[ziggurat-2p]": 36,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[ziggurat-4p]": 21,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[ziggurat-3p]": 16,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[zarathustra-4p]": 13,
    "tests/e2e/test_builder.py::test_a_whole_game_by_builder_presses_only[zarathustra-3p]": 10,
    "tests/e2e/test_builder.py::test_the_thread_shows_typing_while_the_ai_thinks": 13,
    "tests/render/test_cached_layers.py::test_layered_boards_are_the_painted_boards": 21,
    "tests/e2e/test_shards.py::test_two_shard_processes_over_one_database_survive_a_sigkill": 18,
    "tests/e2e/test_board_link_activity.py::test_play_on_the_board_opens_the_activity": 13,
    "tests/engines/test_contract.py::test_random_playouts_keep_the_contract[zaic]": 13,
    "tests/engines/test_contract.py::test_random_playouts_keep_the_contract[zarathustra]": 13,
    "tests/engines/test_contract.py::test_random_playouts_keep_the_contract[ziggurat]": 9,
    "tests/engines/test_contract.py::test_random_playouts_keep_the_contract[zodiac]": 7,
    "tests/e2e/test_crash.py::test_sigkill_mid_game_keeps_moves_buttons_deadlines_and_reminders": 12,
    "tests/host/test_records.py::test_a_gif_has_one_frame_per_move_and_stays_small": 10,
    "tests/data/test_sqlite_to_postgres.py::test_a_copied_database_replays_every_game": 11,
    "tests/ai/test_zodiac_hidden.py::test_hidden_elements_never_change_the_choice": 10,
    "tests/ai/test_ziggurat_turn.py::test_hard_plays_a_short_game": 10,
    "tests/ai/test_exposure.py::test_hard_opens_three_and_four_players_without_an_exposed_blank": 8,
}
"""Test id prefix -> seconds it took in an idle ``make test`` (pytest --durations, 4 workers on 2 cores)."""

TOGETHER = ("tests/web/test_browser.py",)
"""Modules whose tests run one after another at the head of one slice: they share a module-scoped world (a bot
process and a Chromium), which pytest starts again on every worker that runs one of them, and again after a
test of another module between them (20 s of set-up on a loaded machine). ``LONG`` names every test of them."""


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def weight(nodeid: str) -> float:
    """The measured seconds of the first ``LONG`` prefix ``nodeid`` starts with; 0 for the rest."""
    return next((seconds for prefix, seconds in LONG.items() if nodeid.startswith(prefix)), 0.0)


def slice_sizes(total: int, workers: int) -> list[int]:
    """How many tests worksteal first sends each worker (xdist/scheduler/worksteal.py ``check_schedule``)."""
    sizes = []
    for i in range(workers):
        sizes.append(total // (workers - i))
        total -= sizes[-1]
    return sizes


def long_first(items: Sequence[T], ids: Sequence[str], workers: int) -> list[T]:
    """``items`` reordered so every worker's first slice starts with its share of the long tests."""
    if workers < 2:
        return list(items)
    sizes = slice_sizes(len(items), workers)
    long = sorted((i for i, nodeid in enumerate(ids) if weight(nodeid) > 0), key=lambda i: -weight(ids[i]))
    heads: list[list[int]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    placed: dict[str, int] = {}
    for i in long:
        open_slices = [w for w in range(workers) if len(heads[w]) < sizes[w]]
        module = module_of(ids[i])
        home = placed.get(module)  # a shared world's slice, once its first test is placed
        w = home if home in open_slices else min(open_slices, key=lambda k: loads[k])
        if module in TOGETHER:
            placed.setdefault(module, w)
        heads[w].append(i)
        loads[w] += weight(ids[i])
    for head in heads:  # a shared world's tests first, side by side (each part still longest first)
        head.sort(key=lambda i: module_of(ids[i]) not in TOGETHER)
    chosen = set(long)
    rest = iter(i for i in range(len(items)) if i not in chosen)
    order: list[int] = []
    for w in range(workers):
        order += heads[w]
        order += [next(rest) for _ in range(sizes[w] - len(heads[w]))]
    return [items[i] for i in order]
