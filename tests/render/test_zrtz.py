"""The ZÈRTZ board image renders the opening, a mid-game and a finished game, and marks the last move."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops

from engines.zrtz import Zrtz
from engines.zrtz.boardspace import read_text, replay
from render.zrtz import render

DATA = Path(__file__).resolve().parent.parent / "data" / "zrtz-records"
PNG = b"\x89PNG\r\n\x1a\n"


def image(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_opening_mid_game_and_finished_game_render_on_every_board() -> None:
    for rings in (37, 48, 61):
        picture = image(render(Zrtz.new(2, {"rings": rings}).observation(None)))
        assert picture.width >= 800 and picture.height >= 600
    text = read_text(DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf")
    image(render(replay(text, upto=12).observation(0)))
    finished = replay(text)
    assert finished.outcome() is not None
    image(render(finished.observation(1)))
    big = read_text(DATA / "Z24-guest-Dumbot-2018-11-27-1902.sgf")
    image(render(replay(big).observation(None)))


def test_last_move_marker_and_marbles_change_pixels() -> None:
    game = Zrtz.new(2)
    game.play(0, "bd4 a1")
    obs = game.observation(None)
    marked = image(render(obs))
    unmarked = image(render({**obs, "last": None}))
    box = ImageChops.difference(marked, unmarked).getbbox()
    assert box is not None  # the highlight and the removed-ring cross are drawn
    opening = image(render(Zrtz.new(2).observation(None)))
    assert ImageChops.difference(unmarked, opening).getbbox() is not None  # the marble and the gap show


def test_capture_path_is_drawn() -> None:
    text = read_text(DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf")
    game = replay(text)
    obs = game.observation(None)
    assert obs["last"]["kind"] == "capture"
    with_path = image(render(obs))
    without = image(render({**obs, "last": None}))
    assert ImageChops.difference(with_path, without).getbbox() is not None


def test_panel_and_ring_labels_use_the_notation_case() -> None:
    """The notation is lower case (``bb1 a3``); the panel and every ring label must say it the same way."""
    import re

    from render.common import recording

    game = Zrtz.new(2)
    for seat, move in ((0, "bd4 a1"), (1, "gd3 a2")):
        game.play(seat, move)
    with recording() as drawn:
        render(game.observation(None))
    texts = [d.text for d in drawn]
    assert "gd3 a2" in texts
    assert "d4" in texts and "d3" in texts, "occupied rings keep their coordinates"
    assert not [t for t in texts if re.fullmatch(r"[A-Z]\d+", t) or re.fullmatch(r"[A-Z][a-z]\d.*", t)]


def test_builder_marks_change_pixels_only_when_asked() -> None:
    """A picked pool colour and offered rings are drawn; without highlights the image is unchanged."""
    from render.zrtz import hotspots

    obs = Zrtz.new(2).observation(0)
    plain = image(render(obs))
    assert ImageChops.difference(plain, image(render({**obs, "highlights": {}}))).getbbox() is None
    marked = image(render({**obs, "highlights": {"picked": ["supply:w"], "offered": ["d4", "a1"]}}))
    changed = ImageChops.difference(plain, marked).getbbox()
    assert changed is not None
    spots = hotspots(obs)
    for target in ("supply:w", "d4", "a1"):
        x0, y0, x1, y1 = (round(v) for v in spots[target].bbox())
        assert ImageChops.difference(plain.crop((x0, y0, x1, y1)), marked.crop((x0, y0, x1, y1))).getbbox()


def test_a_white_marble_reads_apart_from_an_empty_ring_at_phone_width() -> None:
    """Issue 25: at 400 px wide a white marble must not look like a vacant ring (it has a dark rim)."""
    import io as _io

    from PIL import Image, ImageStat

    import render
    from engines.zrtz import Zrtz

    game = Zrtz.new(2)
    game.play(0, "wd4 a1")
    obs = game.observation(None)
    image = Image.open(_io.BytesIO(render.render(obs))).convert("L")
    spots = render.hotspots(obs)
    scale = 400 / image.width
    small = image.resize((400, round(image.height * scale)))

    def look(ring: str) -> tuple[float, float]:
        x0, y0, x1, y1 = (v * scale for v in spots[ring].bbox())
        inner = small.crop((round(x0 + 2), round(y0 + 2), round(x1 - 2), round(y1 - 2)))
        stat = ImageStat.Stat(inner)
        return stat.mean[0], stat.stddev[0]

    (marble_mean, marble_spread), (empty_mean, empty_spread) = look("d4"), look("e4")
    assert abs(marble_mean - empty_mean) >= 12 or abs(marble_spread - empty_spread) >= 12, (
        f"white marble {marble_mean:.0f}±{marble_spread:.0f} vs empty ring {empty_mean:.0f}±{empty_spread:.0f}")
