"""``/zrtz import``: a boardspace record is read in the time-capped child process; junk is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.zrtz import boardspace
from host import offload
from host.records import imports
from host.results import HostError

RECORDS = sorted((Path(__file__).resolve().parents[1] / "data" / "zrtz-records").glob("*.sgf"))


async def test_a_record_read_in_the_child_is_the_game_the_engine_replays() -> None:
    data = RECORDS[0].read_bytes()
    found = await imports.zrtz_game(data)
    game = boardspace.replay(boardspace.decode(data))
    assert found["history"] == [[seat, move] for seat, move in game.history] and len(found["history"]) > 3
    assert found["options"] == game.options and len(found["names"]) == 2


async def test_junk_is_refused_with_a_reason() -> None:
    with pytest.raises(HostError, match="cannot be replayed"):
        await imports.zrtz_game(b"\xff\xfe not an sgf at all")
    with pytest.raises(HostError, match="too large"):
        await imports.zrtz_game(b" " * (imports.MAX_RECORD_BYTES + 1))


RUNNER: asyncio.Runner | None = None


@pytest.fixture(scope="module", autouse=True)
def _close_runner() -> Iterator[None]:
    yield
    if RUNNER is not None:
        RUNNER.run(offload.stop())
        RUNNER.close()


def run_import(data: bytes) -> None:
    """One event loop for every example, so one import worker serves them all."""
    global RUNNER
    if RUNNER is None:
        RUNNER = asyncio.Runner()
    RUNNER.run(imports.zrtz_game(data))


SGF_ISH = st.lists(st.sampled_from(["(;", "SU[Zertz]", "; P0[", "; P1[", "]", "RtoB 2 7 E 4", "Start P5", "done",
                                    "Pick ", "Drop ", "wb D 4", ")", "\n", "²", "❸", "\x00"]), max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=400), st.text(max_size=400).map(str.encode),
                 SGF_ISH.map(lambda parts: "".join(parts).encode())))
def test_any_upload_is_shown_or_refused_with_a_reason_never_a_crash(data: bytes) -> None:
    try:
        run_import(data)
    except HostError as error:
        assert "record" in str(error)


@pytest.mark.parametrize(("text", "cap"), [("", 10.0), ("0.3", 0.3), ("0", 10.0), ("-1", 10.0), ("inf", 10.0),
                                           ("nan", 10.0), ("ten", 10.0)])
def test_the_operators_cap_is_a_finite_number_of_seconds_above_zero(monkeypatch: pytest.MonkeyPatch, text: str,
                                                                    cap: float) -> None:
    """``inf`` would let an import's child read for ever and 0 refuse every upload: both fall back to the default."""
    monkeypatch.setenv(imports.CAP_ENV, text)
    assert imports.read_cap(10.0) == cap
