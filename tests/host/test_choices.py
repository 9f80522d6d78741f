"""Autocomplete narrowing: whole moves when they fit, else the distinct next words."""

from __future__ import annotations

from host.play.choices import MAX_CHOICES, narrow

ZAIC_LIKE = sorted(f"{size} {col}{row}{suffix}" for size in ("1x1", "2x1", "2x2")
                   for col in "hijkl" for row in (1, 8, 10)
                   for suffix in ((" h", " v") if size == "2x1" else ("",)))


def values(choices: list[tuple[str, str]]) -> list[str]:
    return [value for _, value in choices]


def test_few_matches_are_listed_whole_with_their_labels() -> None:
    got = narrow(["a1", "a2", "b1"], "a", lambda m: f"move {m}")
    assert got == [("move a1", "a1"), ("move a2", "a2")]


def test_a_substring_also_matches_after_the_prefixes() -> None:
    assert values(narrow(["c3 oo.x", "d4 oo.x", "oo.x"], "oo.x", str)) == ["oo.x", "c3 oo.x", "d4 oo.x"]


def test_too_many_moves_narrow_size_then_square_then_orientation() -> None:
    moves = ZAIC_LIKE  # 60 moves: more than Discord lists
    assert len(moves) > MAX_CHOICES
    assert values(narrow(moves, "", str)) == ["1x1", "2x1", "2x2"]
    squares = values(narrow(moves, "2x1", str))
    assert "2x1 h1" in squares and "2x1 h10" in squares and len(squares) == 15
    assert values(narrow(moves, "2x1 h1 ", str)) == ["2x1 h1 h", "2x1 h1 v"]


def test_a_partial_word_narrows_at_that_word() -> None:
    moves = [f"{w} {n}" for w in ("wd4", "wd5") for n in range(20)]
    assert values(narrow(moves, "wd", str)) == ["wd4", "wd5"]
    assert len(narrow(moves, "wd4", str)) == 20


def test_matching_ignores_case_and_keeps_the_canonical_text() -> None:
    moves = [f"{piece} {col}1" for piece in ("Wolf", "Bear") for col in "abcde"] * 3
    assert values(narrow(sorted(set(moves)), "wolf ", str)) == [f"Wolf {c}1" for c in "abcde"]


def test_a_group_of_one_is_offered_as_the_whole_move() -> None:
    one_way = ["2x1 f8 h"]
    two_ways = [f"2x1 {c}{r} {o}" for c in "ghijk" for r in (7, 8, 9) for o in "hv"]  # 30: too many to list
    squares = [f"2x2 {c}{r}" for c in "abcdef" for r in range(1, 4)]
    moves = one_way + two_ways + squares
    got = narrow(sorted(moves), "2x1", lambda m: f"label {m}")
    assert ("label 2x1 f8 h", "2x1 f8 h") in got and ("2x1 g7 … (2 moves)", "2x1 g7") in got


def test_too_many_words_group_by_the_longest_start_that_fits() -> None:
    zrtz_like = [f"{c}{col}{row} a1" for c in "bgw" for col in "abcdefg" for row in range(1, 6)]
    got = values(narrow(sorted(zrtz_like), "", str))
    assert len(got) == 21 and "wd" in got and "ba" in got  # colour + column: 3 x 7 groups
    assert values(narrow(sorted(zrtz_like), "wd", str)) == [f"wd{r} a1" for r in range(1, 6)]
