"""The boardspace SGF reader: linear work on hostile files, a size cap, and only ``IllegalMove`` for bad input.

Issue 16: the old regular expressions backtracked over an unclosed value, so ``(;SU[Zertz]`` followed
by ``; P0[`` repeated froze the bot for 28 s at 120 KB. The reader now counts the characters it
examines (``Tree.work``); these tests assert that count stays within twice the input, so doubling the
input at most doubles the work. The wall-clock bound is only a generous sanity check.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import IllegalMove
from engines.zrtz import boardspace
from engines.zrtz.sgf import MAX_RECORD_BYTES, Tree, tokenize

HEADER = '(;GM[22]SU[Zertz]P0[id "ann"]P1[id "bob"]'


def adversarial(repeats: int) -> str:
    return "(;SU[Zertz]" + "; P0[" * repeats


def test_the_one_megabyte_adversarial_file_is_refused_at_once() -> None:
    text = adversarial(200_000)
    assert len(text) > 1_000_000
    started = time.perf_counter()
    with pytest.raises(IllegalMove, match="too big"):
        boardspace.decode(text.encode())
    with pytest.raises(IllegalMove, match="too big"):
        boardspace.parse(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("repeats", [24_000, 50_000])
def test_an_unclosed_value_under_the_cap_is_refused_after_one_pass(repeats: int) -> None:
    text = adversarial(repeats)
    assert len(text) <= MAX_RECORD_BYTES
    started = time.perf_counter()
    with pytest.raises(IllegalMove, match="cut off"):
        boardspace.parse(text)
    assert time.perf_counter() - started < 1.0


def test_work_grows_linearly_with_the_input() -> None:
    def work(text: str) -> int:
        tree = Tree()
        try:
            tokenize(text, tree)
        except IllegalMove:
            pass
        return tree.work

    shapes = [
        adversarial,  # the reported file: refused after one scan
        lambda n: adversarial(n) + "]",  # the same, closed at the very end
        lambda n: "(;SU[Zertz]" + "; P0[RtoB 2 0 E 4]" * n + ")",
        lambda n: "(;SU[Zertz]" + "; P0[a\\]" * n + "]",
        lambda n: "(;" + "A" * n + "[" + "\\\\" * n + "]",
        lambda n: "(;SU[" + "x" * n + "]" + " ;" * n,
    ]
    for shape in shapes:
        small, large = shape(5_000), shape(10_000)
        w_small, w_large = work(small), work(large)
        assert 0 < w_small <= 2 * len(small) and 0 < w_large <= 2 * len(large)
        assert w_large <= 2.2 * w_small


def test_values_escapes_and_properties() -> None:
    tree = tokenize('(;GN[a\\]b] P0[id "x"]AB[aa][bb]; P1[3 RtoB 2 0 E 4] C[x\\\\])')
    assert tree.first("GN") == "a]b" and tree.first("AB") == "aa" and tree.first("C") == "x\\"
    assert tree.nodes[0] == [("GN", "a]b"), ("P0", 'id "x"'), ("AB", "aa"), ("AB", "bb")]
    assert tree.nodes[1][0] == ("P1", "3 RtoB 2 0 E 4")


@pytest.mark.parametrize(("step", "words"), [
    ("RtoB 2 7 E 4", "numbered 0 to 2"), ("Start P5", "P0 or P1"), ("R- E x", "not a ring"),
    ("RtoB 2 0 E ³", "not a ring"), ("BtoB A 1 B ٣", "not a ring"), ("RtoB 9 0 E 4", "numbered 0 to 2"),
])
def test_bad_steps_raise_the_import_error(step: str, words: str) -> None:
    with pytest.raises(IllegalMove, match=words):
        boardspace.replay(f"{HEADER}; P0[{step}]; P0[Done])")


def test_a_third_player_is_refused_and_echoes_are_short() -> None:
    with pytest.raises(IllegalMove, match="not a player"):
        boardspace.replay(f"{HEADER}; P5[RtoB 2 0 E 4])")
    with pytest.raises(IllegalMove) as refused:
        boardspace.replay(f"{HEADER}; P0[RtoB 2 0 E 4]; P0[RtoB 2 0 E 5 {'y' * 5000}])")
    assert len(str(refused.value)) < 200


STEP_WORDS = ["RtoB", "R-", "R+", "BtoB", "Done", "Start", "Reset", "Resign", "RtoR", "Edit", "P0", "P1", "P7",
              "0", "1", "2", "7", "A", "E", "i", "4", "12", "³", "❸", "-1", ""]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(max_size=300),
    st.text(alphabet='(;)[]\\P01- RtoBDneS\n"', max_size=200),
    st.lists(st.tuples(st.sampled_from(["P0", "P1", "P-1", "P2"]),
                       st.lists(st.sampled_from(STEP_WORDS), max_size=6)), max_size=30).map(
        lambda nodes: HEADER + "".join(f"; {p}[{' '.join(ws)}]" for p, ws in nodes) + ")"),
))
def test_any_text_raises_only_the_import_error(text: str) -> None:
    try:
        record = boardspace.parse(text)
        boardspace.winner_seat(record)
        boardspace.replay(text)
    except IllegalMove as error:
        assert 0 < len(str(error)) < 400
