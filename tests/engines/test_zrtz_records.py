"""Real boardspace.net games replayed through our rules: every move legal, the same winner."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.base import IllegalMove
from engines.zrtz.boardspace import parse, read_text, replay, winner_seat

DATA = Path(__file__).resolve().parent.parent / "data" / "zrtz-records"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "zrtz-records"
RECORDS = sorted(DATA.glob("*.sgf"))


def check_record(path: Path) -> str:
    """Replay one record; where it ended on the board, RE[] must name our winner. Returns how it ended."""
    text = read_text(path)
    record = parse(text)
    game = replay(text)
    outcome = game.outcome()
    assert outcome is not None, f"{path.name}: the record ended but our game goes on"
    expected = winner_seat(record)
    if expected is not None:
        assert outcome.winners == {expected}, f"{path.name}: {record.result} but we say {outcome.reason}"
    return "resigned" if game.eliminated else "board"


def test_the_copied_records_cover_every_board() -> None:
    sizes = {parse(read_text(p)).rings for p in RECORDS}
    assert len(RECORDS) >= 30 and sizes == {37, 48, 61}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_copied_record_replays(path: Path) -> None:
    check_record(path)


def test_every_shared_record_replays() -> None:
    """All 310 records of the shared folder, when this machine has it."""
    paths = sorted(SHARED.glob("*.sgf"))
    if not paths:
        paths = RECORDS  # a fresh machine: the copies stand in
    ends = [check_record(p) for p in paths]
    assert ends.count("board") > ends.count("resigned")


def test_replay_upto_and_turn_structure() -> None:
    path = DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf"
    text = read_text(path)
    game = replay(text, upto=3)
    assert [m for _, m in game.history] == ["we4 c7", "gd3 d1", "wc4 h3"]
    # ply 10 of that record removes g3 before placing: the order within a turn does not matter.
    assert replay(text, upto=10).history[9] == (1, "be3 g3")
    final = replay(text)
    outcome = final.outcome()
    assert outcome is not None and outcome.winners == {1}
    assert final.history[-1] == (1, "g5xe5xc4")


def test_old_records_without_done_or_start() -> None:
    # 2004 records: no step numbers, no Done; this one has the second listed player moving first.
    game = replay(read_text(DATA / "Z-ddyer-krr-2004-03-28-0255.sgf"))
    assert game.history[0] == (0, "bd4 g1")
    assert game.outcome() is not None


def test_a_forbidden_move_names_its_ply() -> None:
    text = read_text(DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf")
    broken = text.replace("P1[4 RtoB 2 1 D 3]", "P1[4 RtoB 2 1 E 4]")
    with pytest.raises(IllegalMove, match=r"ply 2 .*already holds"):
        replay(broken)
    skipped_capture = text.replace("P0[25 BtoB D 7 D 5]", "P0[25 RtoB 2 1 A 1]").replace(
        "P0[26 BtoB D 5 F 3]", "P0[26 R- A 3]")
    assert skipped_capture != text
    with pytest.raises(IllegalMove, match=r"ply 9 .*compulsory"):
        replay(skipped_capture)
