"""Real boardspace.net games replayed through our rules: every move legal, the same winner."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engines
from engines.base import IllegalMove
from engines.zrtz.boardspace import (
    ended_by_record,
    parse,
    read_text,
    replay,
    stated_result,
    to_sgf,
    winner_seat,
    with_result,
)

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
    assert with_result(game, record).outcome() == outcome  # RE[] agrees, or says nothing we can read
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
    stated = [stated_result(parse(read_text(p))) for p in paths]
    # 96 name a winner; in 2 of them both seats are "guest", so the text cannot say which: 94 readable, all agree
    assert sum(1 for s in stated if s is not None) == (94 if len(paths) == 310 else sum(
        1 for p in paths if winner_seat(parse(read_text(p))) is not None))


def _played(rng: random.Random, plies: int) -> engines.Game:
    game = engines.get("zrtz").new(2)
    for _ in range(plies):
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    return game


@pytest.mark.parametrize("ending", ["timeout", "draw"])
def test_a_record_that_stops_before_the_end_ends_as_its_result_says(ending: str) -> None:
    """Our SGF of a game lost on time or agreed drawn holds the moves and RE[]; read back, RE[] ends the game
    (boardspace has neither as a step: a named winner of an unfinished game gets the other seat's timeout)."""
    game = _played(random.Random(2), 6)
    if ending == "timeout":
        game.eliminate(game.turn, "timeout")
    else:
        game.agree_draw(game.turn)
    text = to_sgf(game, ("alice", "bob"))
    back = with_result(replay(text), parse(text))
    assert back.history == game.history and back.outcome() == game.outcome()


def test_a_result_the_moves_contradict_is_refused() -> None:
    text = read_text(DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf")  # aidan2134 (Orange) captures 4 white
    for wrong, says in (("Game won by Russ", "a win for Russ"), ("Draw", "a draw")):
        flipped = text.replace("RE[Game won by aidan2134]", f"RE[{wrong}]")
        with pytest.raises(IllegalMove, match=f"says {says}, but its moves end in a win for aidan2134"):
            with_result(replay(flipped), parse(flipped))
    drawn = _played(random.Random(2), 6)
    drawn.agree_draw(drawn.turn)
    assert drawn.turn == 0
    for winner, ending in ((1, (0, "timeout")), (0, (1, "resign"))):  # out of time only on one's own turn
        moves = to_sgf(drawn, ("alice", "bob")).replace("RE[Draw]", f"RE[Game won by {('alice', 'bob')[winner]}]")
        cut = with_result(replay(moves), parse(moves))  # the moves stop early: the named winner stands
        outcome = cut.outcome()
        assert outcome is not None and outcome.winners == {winner} and cut.history[-1] == ending


@pytest.mark.parametrize("name", ["Remis", "Draw", "nulle"])
def test_a_winner_named_like_a_draw_is_a_winner(name: str) -> None:
    """RE[Game won by Remis] names a winner: the draw words are looked for outside the players' names."""
    text = read_text(DATA / "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf").replace("aidan2134", name)
    assert stated_result(parse(text)) == ("win", 1)
    whole = with_result(replay(text), parse(text)).outcome()
    assert whole is not None and whole.winners == {1}
    head, steps = text.split("; P0[0 Start P0]")
    cut = head + "; P0[0 Start P0]" + steps[:steps.index("; P0[37 ")] + ")"
    ended = with_result(replay(cut), parse(cut))
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == {1} and ended_by_record(ended)
    if name != "Draw":  # RE[Draw] between players one of whom is called Draw names that player
        assert stated_result(parse(text.replace(f"RE[Game won by {name}]", "RE[Draw]"))) == ("draw", None)


def test_the_game_says_whether_its_end_came_from_the_record() -> None:
    """A timeout, a draw, or a resignation by the player not to move only RE[] gives; a Resign step is the
    resigner's own, on its turn."""
    game = _played(random.Random(2), 6)
    assert not ended_by_record(game)
    resigned = game.clone()
    resigned.eliminate(resigned.turn, "resign")
    assert not ended_by_record(resigned)
    left = game.clone()
    left.eliminate(1 - left.turn, "resign")
    timed = game.clone()
    timed.eliminate(timed.turn, "timeout")
    drawn = game.clone()
    drawn.agree_draw(drawn.turn)
    assert ended_by_record(left) and ended_by_record(timed) and ended_by_record(drawn)


def test_the_same_name_on_both_seats_names_no_winner() -> None:
    game = _played(random.Random(4), 6)
    game.eliminate(game.turn, "timeout")
    text = to_sgf(game, ("AI (hard)", "AI (hard)"))
    assert winner_seat(parse(text)) is None and with_result(replay(text), parse(text)).outcome() is None


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
