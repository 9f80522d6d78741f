"""The Ziggurat image renders the opening, a mid-game and a finished game, and marks what changed."""

from __future__ import annotations

import copy
import io

from PIL import Image, ImageChops

from engines import CHANCE
from engines.ziggurat import Ziggurat
from render.common import recording
from render.ziggurat import SQ, origin, render
from tests.engines.test_ziggurat_helpers import position

PNG = b"\x89PNG\r\n\x1a\n"


def image(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    return Image.open(io.BytesIO(data)).convert("RGB")


def square_box(name: str) -> tuple[int, int, int, int]:
    px, py = origin("abcdefgh".index(name[0]) + 1, int(name[1]))
    return px, py, px + SQ, py + SQ


def test_opening_mid_game_and_finished_game_render() -> None:
    for players, options in ((4, {}), (3, {}), (2, {"mode": "double"}), (2, {"queen": True})):
        picture = image(render(Ziggurat.new(players, options).observation(None)))
        assert picture.width >= 800 and picture.height >= 800
    game = Ziggurat.new(4)
    game.play(CHANCE, "roll 5 tip")
    game.play(0, "tip start")
    image(render(game.observation(0)))
    finished = position({"c4": "B", "d4": "BB", "e2": "OGP"}, movement=1, action="hop", players=4)
    finished.play(0, "hop c4")  # only a Hop stacks onto a stack on the Goal
    assert finished.outcome() is not None
    image(render(finished.observation(None)))


def test_last_move_marker_changes_pixels_on_the_marked_square() -> None:
    game = position({"b1": "B", "c2": "OG", "b2": "B"}, movement=3, action="tip")
    game.play(0, "tip c2 e")
    obs = game.observation(None)
    assert obs["marks"] == ["c2", "d2", "e2"]
    bare = copy.deepcopy(obs)
    bare["marks"] = []
    diff = ImageChops.difference(image(render(obs)), image(render(bare)))
    assert diff.crop(square_box("d2")).getbbox() is not None
    assert diff.crop(square_box("a5")).getbbox() is None


def test_pieces_and_spent_dice_change_pixels() -> None:
    empty = position({}, movement=3, action="tip")
    full = position({"e3": "OBG"}, movement=3, action="tip")
    diff = ImageChops.difference(image(render(empty.observation(None))), image(render(full.observation(None))))
    assert diff.crop(square_box("e3")).getbbox() is not None
    spent = copy.deepcopy(full.observation(None))
    spent["dice"]["action_left"] = None
    header = ImageChops.difference(image(render(full.observation(None))), image(render(spent))).crop((0, 0, 824, 96))
    assert header.getbbox() is not None


def test_builder_marks_change_pixels_inside_their_hotspot_only() -> None:
    from render.ziggurat import hotspots

    game = position({"c2": "BO", "start:B": "B"}, movement=2, action="wild")
    obs = game.observation(0)
    spots = hotspots(obs)
    assert {"c2", "start:Blue", "die:move", "die:action"} <= set(spots)
    plain = image(render(obs))
    for target in ("c2", "start:Blue", "die:move", "die:action"):
        for kind in ("picked", "offered"):
            marked = image(render({**obs, "highlights": {kind: [target]}}))
            changed = ImageChops.difference(plain, marked).getbbox()
            assert changed is not None, (target, kind)
            x0, y0, x1, y1 = spots[target].bbox()
            assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 + 1 and changed[3] <= y1 + 1


def test_a_lower_piece_s_letter_stays_below_the_piece_on_it() -> None:
    """In a stack of two the lower piece shows a band under the upper one's base: its letter once reached 3 px
    above that base, and the upper pyramid hid its top (a P read as a stem, an O as a U)."""
    game = position({"b2": "OG", "h8": "PB", "c5": "P"}, players=4)
    with recording() as texts:
        render(game.observation(None))
    for square, lower, upper in (("b2", "O", "G"), ("h8", "P", "B")):
        box = square_box(square)
        inside = [t for t in texts if box[0] <= t.bbox[0] and t.bbox[2] <= box[2] and box[1] <= t.bbox[1] <= box[3]]
        top = next(t for t in inside if t.text == upper)
        below = next(t for t in inside if t.text == lower)
        assert below.bbox[1] >= top.panel[3] + 1, (square, below.bbox, top.panel)  # the base's outline is 2 px
        assert below.shrunk() >= 9  # and it still reads at phone width


LONG_NAMES = ["ＡＢＣＤ王様のプレイヤー名前がとても長い人です🎲🎲", "Maximilian_the_Extraordinary_XYZ",
              "🐉🔥 Dragon 龍 Slayer 🔥🐉 ✨✨✨✨✨", "zz"]


def test_a_round_limit_result_says_why_in_full_and_shows_the_squares_travelled() -> None:
    """The title was cut at "won: round limit 30 reached, so the co…" and the squares travelled, which decided the
    game (every badge read 0/3 home), appeared nowhere on the board."""
    game = position({"c4": "G", "b1": "B", "e2": "O", "h4": "P"}, players=4, round_limit=30)
    game.limit_reached = True
    outcome = game.outcome()
    assert outcome is not None
    obs = game.observation(None) | {"player_names": LONG_NAMES}
    with recording() as drawn:
        render(obs)
    shown = [d.shown for d in drawn]
    winner = obs["seat_names"][min(outcome.winners)]
    title = next(s for s in shown if " won: " in s)
    assert title.endswith(f"({winner}) won: round limit 30, most squares travelled"), title
    assert title.count("…") <= 1
    travelled = {c: game.progress(c) for c in range(4)}
    footer = next(s for s in shown if s.startswith("squares travelled: "))
    assert footer == "squares travelled: " + " · ".join(
        f"{name} {travelled[c]}" for c, name in enumerate(("Blue", "Orange", "Green", "Purple"))), footer


def test_a_round_limit_team_result_names_both_partners_and_the_team_squares() -> None:
    game = position({"c4": "G", "b1": "B", "e2": "O"}, players=4, mode="partners", round_limit=30)
    game.limit_reached = True
    obs = game.observation(None) | {"player_names": LONG_NAMES}
    with recording() as drawn:
        render(obs)
    shown = [d.shown for d in drawn]
    title = next(s for s in shown if " won: " in s)
    assert "(Blue), " in title and title.endswith("(Green) won: round limit 30, most squares travelled"), title
    blue_green = game.progress(0) + game.progress(2)
    orange_purple = game.progress(1) + game.progress(3)
    assert f"squares travelled: Blue & Green {blue_green} · Orange & Purple {orange_purple}" in shown
