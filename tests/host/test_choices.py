"""Autocomplete narrowing: whole moves when they fit, else the distinct next words."""

from __future__ import annotations

from host.choices import MAX_CHOICES, narrow

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
