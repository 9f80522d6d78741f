"""The worked examples behind ``/<game> rules``: legal scripts, the game's own picture, readable text."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engines
from engines import CHANCE
from host.play import teaching


@pytest.mark.parametrize("game", sorted(engines.GAMES))
def test_every_game_has_a_legal_example_drawn_by_its_renderer(game: str) -> None:
    script = teaching.SCRIPTS[game]
    state = teaching.play_script(game)  # raises IllegalMove if a rule change broke the script
    assert [text for _, text in state.history] == [move for _, move, _ in script.steps]
    assert state.outcome() is None, "the example should show a game in progress"
    seen: list[dict] = []

    def renderer(observation: dict) -> bytes:
        seen.append(observation)
        import render
        return render.render(observation)

    lesson = teaching.lesson(game, renderer)
    assert seen == [state.observation(None)], "the picture is the spectator's view of the scripted position"
    assert Image.open(io.BytesIO(lesson.image)).format == "PNG"
    assert lesson.filename == f"{game}-example.png"
    assert 0 < len(lesson.text) <= 1024, "an embed field holds 1,024 characters"
    for seat, move, _ in script.steps:
        assert f"`{move}`" in lesson.text
        if seat == CHANCE:
            assert "🎲" in lesson.text
    assert script.steps[-1][2], "the last step must say what the example shows"


def test_the_default_lesson_is_cached_and_identical() -> None:
    assert teaching.lesson("zaic") is teaching.lesson("zaic")
