"""``/zrtz import``: a boardspace record becomes a caption and a board image; junk is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host import imports, offload
from host.results import HostError
from render import render

RECORDS = sorted((Path(__file__).resolve().parents[1] / "data" / "zrtz-records").glob("*.sgf"))


async def test_a_record_renders_at_the_end_and_at_a_chosen_move() -> None:
    data = RECORDS[0].read_bytes()
    caption, board = await imports.zrtz_record(data, None, render)
    assert board.image.startswith(b"\x89PNG") and "rings" in caption
    early_caption, early = await imports.zrtz_record(data, 3, render)
    assert "after move 3 of" in early_caption and early.image != board.image


async def test_junk_is_refused_with_a_reason() -> None:
    with pytest.raises(HostError, match="cannot be replayed"):
        await imports.zrtz_record(b"\xff\xfe not an sgf at all", None, render)
    with pytest.raises(HostError, match="too large"):
        await imports.zrtz_record(b" " * (imports.MAX_RECORD_BYTES + 1), None, render)


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
    RUNNER.run(imports.zrtz_record(data, None, lambda _obs: b"png"))


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
