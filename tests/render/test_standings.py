"""The standings image: every text inside its cell, the size follows the rows, pages of 32, same input same bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import standings
from render.common import recording
from render.standings import PER_PAGE, StandingsRow, StandingsTable, number, page_count, render_standings
from tests.render.test_ratings_images import NAMES
from tests.render.test_text_fits import inside, overlap


def table(count: int, *, final: bool = False, columns: tuple[str, ...] = ("Pts", "Bh", "SB"),
          notes: tuple[str, ...] = ("Buchholz (Bh): the sum of your opponents' scores. " * 4,)) -> StandingsTable:
    rows = [StandingsRow(i + 1, NAMES[i % len(NAMES)], (10 - i / 2, 100.25 + i, -i / 4), playing=i % 3,
                         note="withdrawn" if i % 5 == 4 else "", highlight=i == 2) for i in range(count)]
    return StandingsTable("ZÈRTZ Swiss · サーバー 🎲 " * 3, columns, rows, subtitle="After round 3 of 5 " * 5,
                          final=final, notes=notes)


def size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


@pytest.mark.parametrize("count", [0, 1, 7, PER_PAGE, PER_PAGE + 1])
@pytest.mark.parametrize("final", [False, True])
def test_every_text_stays_inside_its_cell(count: int, final: bool) -> None:
    for page in range(1, page_count(table(count)) + 1):
        with recording() as drawn:
            png = render_standings(table(count, final=final), page)
        shape = size(png)
        assert drawn
        for item in drawn:
            assert inside(item.bbox, (0, 0, *shape)), f"{item.text!r} leaves the image"
            assert inside(item.bbox, item.panel), f"{item.text!r} {item.bbox} leaves its cell {item.panel}"
        for i, first in enumerate(drawn):
            for second in drawn[i + 1:]:
                assert not overlap(first.bbox, second.bbox), f"{first.text!r} overlaps {second.text!r}"


def test_many_columns_still_fit() -> None:
    wide = table(5, columns=("Points", "Buchholz", "Sonneborn-Berger", "Head-to-head", "Games", "Last active"))
    with recording() as drawn:
        shape = size(render_standings(wide))
    assert all(inside(d.bbox, d.panel) for d in drawn)
    assert shape[0] == standings.WIDTH


def test_width_is_fixed_and_height_grows_with_rows_then_pages() -> None:
    sizes = [size(render_standings(table(n))) for n in (1, 10, PER_PAGE)]
    assert {w for w, _ in sizes} == {standings.WIDTH}
    assert sizes[0][1] < sizes[1][1] < sizes[2][1]
    assert page_count(table(PER_PAGE)) == 1 and page_count(table(PER_PAGE + 1)) == 2
    assert page_count(table(0)) == 1
    second = size(render_standings(table(PER_PAGE + 1), 2))
    assert second[1] < sizes[2][1]  # one row on the last page
    assert render_standings(table(PER_PAGE + 1), 9) == render_standings(table(PER_PAGE + 1), 2)


def test_the_names_of_each_page_are_that_pages_rows() -> None:
    big = table(PER_PAGE + 3)
    with recording() as drawn:
        render_standings(big, 2)
    ranks = {d.text for d in drawn if d.panel[0] == standings.MARGIN and d.text.isdigit()}
    assert {"33", "34", "35"} <= ranks and "1" not in ranks


def test_the_same_table_gives_the_same_bytes_and_a_change_shows() -> None:
    assert render_standings(table(12, final=True)) == render_standings(table(12, final=True))
    assert render_standings(table(12, final=True)) != render_standings(table(12))
    other = table(12)
    changed = StandingsTable(other.title, other.columns, [*other.rows[:-1], StandingsRow(12, "Someone else")],
                             other.subtitle)
    assert render_standings(changed) != render_standings(StandingsTable(other.title, other.columns, other.rows,
                                                                        other.subtitle))


def test_numbers_use_fractions() -> None:
    assert [number(v) for v in (2.5, 0.5, 3.0, 0.25, 7.75, -0.5, -1.25, 0, 1.3, "today")] == [
        "2½", "½", "3", "¼", "7¾", "-½", "-1¼", "0", "1.3", "today"]
