"""The bracket and crosstable images: every text inside its box, 720 px wide, same input same bytes.

Looked at by eye at full size and shrunk to 400 px (a 16-player crosstable and a 16-player bracket
with long and CJK names): names are cut with an ellipsis rather than shrunk below reading size.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.common import Drawn, recording
from render.events import (
    Bracket,
    BracketRound,
    CrossRow,
    Crosstable,
    Match,
    Slot,
    render_bracket,
    render_crosstable,
    shown_rounds,
)
from tests.render.test_ratings_images import NAMES
from tests.render.test_text_fits import inside


def cross(n: int) -> Crosstable:
    rows = tuple(CrossRow(i + 1, NAMES[i % len(NAMES)], "7½", tuple("" if i == j else "½+−10"[(i + j) % 5]
                                                                      for j in range(n)), "withdrawn" * (i == 2))
                 for i in range(n))
    return Crosstable("Event #9: a round robin " * 3, "after round 9", rows, "Rows in standing order. " * 4)


def bracket(size: int) -> Bracket:
    rounds, count, k = [], size // 2, 1
    while count >= 1:
        matches = tuple(Match(Slot(NAMES[j % len(NAMES)], j + 1, "1½", True), Slot(NAMES[(j + 3) % len(NAMES)], 9, "½"))
                        if k == 1 else Match(None, None) for j in range(count))
        rounds.append(BracketRound(f"Round {k}", matches))
        count, k = count // 2, k + 1
    return Bracket("Event #3: knockout " * 3, "round 1", tuple(rounds))


@pytest.mark.parametrize("picture", [lambda: render_crosstable(cross(3)), lambda: render_crosstable(cross(16)),
                                     lambda: render_bracket(bracket(2)), lambda: render_bracket(bracket(16))])
def test_every_text_stays_inside_the_image_and_the_drawing_is_reproducible(picture) -> None:  # type: ignore[no-untyped-def]
    with recording() as drawn:
        png = picture()
    shape = Image.open(io.BytesIO(png)).size
    assert shape[0] == 720 and drawn
    assert all(inside(item.bbox, (0, 0, *shape)) for item in drawn)
    assert all(inside(item.bbox, item.panel) for item in drawn)
    assert picture() == png


def test_a_big_knockout_shows_its_latest_four_rounds() -> None:
    assert list(shown_rounds(3, 1)) == [1, 2, 3]
    assert list(shown_rounds(6, 1)) == [1, 2, 3, 4]
    assert list(shown_rounds(6, 5)) == [3, 4, 5, 6]


def with_third_place(size: int) -> Bracket:
    """A finished knockout: the final decided, the semi-finals' losers' match for third place too."""
    plain = bracket(size)
    final = Match(Slot(NAMES[0], 1, "2", True), Slot(NAMES[1], 2, "1"))
    rounds = (*plain.rounds[:-1], BracketRound("Final", (final,)))
    third = Match(Slot(NAMES[2], 3, "1½"), Slot(NAMES[3], 4, "2½", True))
    return Bracket(plain.title, plain.subtitle, rounds, third)


@pytest.mark.parametrize("size", [4, 8, 16])
def test_the_third_place_match_is_drawn_under_the_final_with_its_label(size: int) -> None:
    with recording() as drawn:
        png = render_bracket(with_third_place(size))
    shape = Image.open(io.BytesIO(png)).size
    texts = [item.text for item in drawn]
    assert "Third place" in texts and NAMES[3] in texts and "2½" in texts
    assert all(inside(item.bbox, (0, 0, *shape)) for item in drawn)
    assert all(inside(item.bbox, item.panel) for item in drawn)
    label = next(item for item in drawn if item.text == "Third place")
    final = next(item for item in drawn if item.text == NAMES[1])
    assert label.bbox[1] > final.bbox[3]  # below the final, not over it
    assert render_bracket(with_third_place(size)) == png
    assert "Third place" not in [item.text for item in _drawn(bracket(size))]


def _drawn(picture: Bracket) -> list[Drawn]:
    with recording() as drawn:
        render_bracket(picture)
    return list(drawn)


def test_every_seed_of_a_16_player_bracket_shows_in_full() -> None:
    """Seeds 10 to 16 were drawn as "…": their column was 24 px, too narrow for two digits at reading size."""
    names = ["Ann", "王小明", "Bartholomew the Magnificent", "x"]
    first = BracketRound("Round of 16", tuple(Match(Slot(names[j % 4], 2 * j + 1, "2-1", True),
                                                    Slot(names[(j + 1) % 4], 2 * j + 2, "1-2")) for j in range(8)))
    later = BracketRound("Quarter-finals", tuple(Match(Slot(names[j % 4], 2 * j + 9), None) for j in range(4)))
    with recording() as drawn:
        render_bracket(Bracket("Knockout", "16 players", (first, later)))
    seeds = [d for d in drawn if d.text.isdigit()]
    assert sorted(int(d.text) for d in seeds) == sorted([*range(1, 17), 9, 11, 13, 15])
    for item in seeds:
        assert item.shown == item.text, f"seed {item.text} drawn as {item.shown!r}"
        assert item.shrunk(400) >= 9
