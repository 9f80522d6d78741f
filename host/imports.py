"""Game records from elsewhere, shown as boards: boardspace.net ZÈRTZ SGF files."""

from __future__ import annotations

import asyncio

from engines.zrtz import boardspace
from host.captions import clip
from host.results import Board, HostError
from host.service import Renderer

MAX_RECORD_BYTES = 1_000_000


async def zrtz_record(data: bytes, upto: int | None, renderer: Renderer) -> tuple[str, Board]:
    """Replay an SGF (to move ``upto``) and render the position; a bad record is a clear refusal."""
    if len(data) > MAX_RECORD_BYTES:
        raise HostError("That file is too large for a ZÈRTZ record.")
    text = boardspace.decode(data)
    try:
        record = boardspace.parse(text)
        game = boardspace.replay(text, upto)
    except ValueError as error:
        raise HostError(clip(f"That record cannot be replayed: {error}", 300)) from None
    if not record.turns:
        raise HostError("That record cannot be replayed: it has no ZÈRTZ moves (is it a boardspace .sgf?).")
    shown = len(record.turns) if upto is None else min(upto, len(record.turns))
    caption = (f"**ZÈRTZ** record: {clip(record.names[0], 60)} vs {clip(record.names[1], 60)}, {record.rings} "
               f"rings, after move {shown} of {len(record.turns)}.")  # names come from the file: keep them short
    if record.result:
        caption += f" Result: {clip(record.result, 100)}."
    image = await asyncio.to_thread(renderer, game.observation(None))
    return caption, Board(image=image, filename=f"zrtz-record-{shown}.png")
