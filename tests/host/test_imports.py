"""``/zrtz import``: a boardspace record becomes a caption and a board image; junk is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from host import imports
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
