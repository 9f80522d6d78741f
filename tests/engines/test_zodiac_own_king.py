"""Issue 25: a rhino trampling its own king (3.10f captures friends too): its side loses (2.2c), said as it is."""

from __future__ import annotations

from host.play import captions
from tests.engines.test_zodiac_pieces import board, play, seat


def test_a_rhino_trampling_its_own_king_is_labelled_before_and_named_after() -> None:
    g = board({"a6": "D Rhino", "a4": "D Penguin", "e2": "L Bear", "e7": "D Crane"}, turn="D",
              kings=("Bear", "Penguin"))
    mover = seat(g)
    label = g.describe(mover, "Rhino a6-a4")
    assert "tramples" in label and "a4: your own king, you lose" in label, label
    assert "your own king" not in g.describe(mover, "Crane e7-e6")
    before = g.clone()
    play(g, "Rhino a6-a4")
    outcome = g.outcome()
    assert outcome is not None and outcome.winners == frozenset({g.seat_of(0)})
    assert outcome.reason == "Dark's rhino trampled its own king (Penguin)"
    assert "captured" not in outcome.reason
    assert "your own king" in captions.played(g, before, mover, "Rhino a6-a4")


def test_capturing_the_enemy_king_still_reads_as_a_capture() -> None:
    g = board({"a6": "D Rhino", "a4": "L Bear", "e7": "D Crane"}, turn="D", kings=("Bear", "Crane"))
    play(g, "Rhino a6-a4")
    outcome = g.outcome()
    assert outcome is not None and outcome.reason == "Dark captured Light's king (Bear)"


def test_issue25_wording_one_tile_no_skulls_after_the_end_and_no_promised_king_marks() -> None:
    from engines.zarathustra import Zarathustra
    from host.play import teaching

    game = Zarathustra.new(2, {})
    game.hands[0] = {next(iter(game.hands[0]))}
    assert "1 tile left" in game.status() and "1 tiles" not in game.status()
    move = game.legal_moves(0)[0]
    game.play(0, move)
    assert game.observation(None)["skulls"], "skulls around the last tile while the game is on"
    game.eliminate(1, "resign")
    assert game.outcome() is not None and game.observation(None)["skulls"] == []
    text = teaching.explain("zodiac")
    assert "shown here" not in text and "never marks a king" in text
