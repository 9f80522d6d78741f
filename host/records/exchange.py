"""Game records leave and enter the bot: export, import, and a new game played on from a position.

Exports of a game in progress are the public view only (no secret move, no seed); imports are
checked strictly (host/records/formats.py) and kept in the ``records`` table, then open in the
replay view of host/records/replay.py.
"""

from __future__ import annotations

import asyncio
import json
import pickle
from collections.abc import Callable
from typing import TYPE_CHECKING

import engines
from data.records import RecordStore
from data.store import Seat
from engines import CHANCE
from engines.base import META_MOVES
from engines.zrtz import boardspace
from host import offload
from host.play import bots, dice
from host.records import imports
from host.records.formats import MAX_RECORD_BYTES, GameRecord, Ply, to_json, to_text
from host.records.replay import Namer, Records, ReplayPage, Viewer, compose, imported, replay_record, users_of, walk
from host.results import HostError, Lobby

if TYPE_CHECKING:
    from host.play.lobby import Lobby as Seating


# ----- export and import --------------------------------------------------------------------


def _public(record: GameRecord) -> GameRecord:
    """The view of a game in progress anyone may have: secret moves announced only, no seed."""
    game = engines.get(record.game).new(record.players, record.options)
    plies = []
    for ply in record.history:
        shown = ply.move if ply.seat == CHANCE else game.announce(ply.seat, ply.move)
        plies.append(Ply(ply.seat, shown, ply.at, hidden=shown != ply.move))
        game.apply_record(ply.seat, ply.move)
    return GameRecord(game=record.game, players=record.players, options=record.options, names=record.names,
                      history=plies, sides=record.sides, seed=None, commitment=record.commitment, outcome=None,
                      date=record.date, source=record.source, origin=record.origin)


async def _from_sgf(data: bytes, worker: offload.Worker) -> GameRecord:
    """A boardspace record, parsed and replayed in the child process with a time cap (host/records/imports.py)."""
    found = await imports.zrtz_game(data, worker=worker)
    return GameRecord(game="zrtz", players=2, options=found["options"], names=found["names"],
                      history=[Ply(int(s), str(t)) for s, t in found["history"]], sides=found["sides"],
                      outcome=found["outcome"], source=boardspace.SOURCE)


# ----- play on from a position --------------------------------------------------------------


class RecordExchange:
    """Export, import and play-on, over the records service, the lobby (a play-on game starts there) and the clock."""

    def __init__(self, records: Records, lobby: Seating, now: Callable[[], float]) -> None:
        self.records = records
        self.session = records.session
        self.lobby = lobby
        self.now = now

    async def export(self, game_id: int, namer: Namer, game: str | None = None,
                     viewer: Viewer | None = None) -> tuple[str, list[tuple[str, bytes]]]:
        """JSON, text and (ZÈRTZ) SGF of a game; a game in progress only as the public sees it."""
        loaded = await self.records.source("g", game_id, game, viewer)
        row = await self.session.row(game_id)
        record = loaded.record
        record.names = [(bots.name(u) if bots.is_ai(u) else await namer(u)) if u else "open seat"
                        for u in users_of(row)]
        if not loaded.reveal:
            record = _public(record)
        base = f"{record.game}-{game_id}"
        files = [(f"{base}.json", to_json(record).encode()), (f"{base}.txt", to_text(record).encode())]
        note = ""
        if record.game == "zrtz":
            try:
                sgf = boardspace.to_sgf(replay_record(record), (record.names[0], record.names[1]))
                files.append((f"{base}.sgf", sgf.encode()))
            except ValueError as error:
                note = f" No boardspace SGF: {error}."
        if loaded.reveal and engines.get(record.game).has_chance:
            text = (f"Record of {record.title} #{game_id}. Check every die against the revealed seed with "
                    f"`python -m host.play.dice verify {base}.json`.")
        elif loaded.reveal:
            text = f"Record of {record.title} #{game_id}."
        else:
            text = (f"Public record of {record.title} #{game_id}, still in progress: no secret moves and no seed "
                    "(it is revealed when the game ends).")
        return text + note, files

    async def import_record(self, game: str, data: bytes, user: int, guild_id: int | None,
                            step: int | None = None, on_place: offload.Place | None = None) -> ReplayPage:
        """Check a record (ours, or boardspace SGF for ZÈRTZ), keep it, and open it in the replay view.

        Reading and replaying it runs in the import lane (host/offload.py): one place per user, and
        ``on_place`` hears the user's place in line while they wait."""
        if len(data) > MAX_RECORD_BYTES:
            raise HostError(f"That file is too large for a game record (at most {MAX_RECORD_BYTES // 1000} kB).")
        head = data.lstrip()[:1]
        sgf = game == "zrtz" and head not in (b"{", b"[")
        try:
            pickle.dumps(self.records.boards.renderer)
            child = True
        except (pickle.PicklingError, AttributeError, TypeError):  # a test's lambda renderer: no child can call it
            child = False
        with imports.refusals(imports.SGF_SLOW if sgf else imports.JSON_SLOW):
            async with offload.lane("import").session(user, guild_id, on_place) as worker:
                record = await (_from_sgf(data, worker) if sgf else imports.our_record(data, game, worker=worker))
                ident = await RecordStore(self.session.db).add(game=game, data=json.loads(to_json(record)),
                                                               imported_by=user, guild_id=guild_id, now=self.now())
                loaded = imported(ident, record, guild_id, user)
                if child:  # its first page too: the replay of a long record is work of the import
                    return await worker.run(compose, loaded, step, self.records.boards.renderer, cpu=imports.JSON_CAP)
        return await asyncio.to_thread(compose, loaded, step, self.records.boards.renderer)

    async def play_from(self, kind: str, ident: int, step: int, *, creator: int, opponents: list[int],
                        guild_id: int | None, channel_id: int | None, ai: str | None = None) -> Lobby:
        """A new, never rated game that starts with the plies up to ``step``: a challenge like ``/<game> new``.

        ``ai``: a level; the AI takes every seat no person was named for, and the game starts at once (its
        first turn job comes from the host's change hook when the history makes it the AI's turn).
        A hidden-information game is played on only from before its first secret choice (docs/records.md).
        """
        loaded = await self.records.source(kind, ident, viewer=Viewer(creator, guild_id))
        record = loaded.record
        if not loaded.reveal and engines.get(record.game).hidden_information:
            raise HostError("This game is still in progress and has secrets: play on from it once it is over.")
        walked = await asyncio.to_thread(walk, loaded)
        if not 0 <= step < len(walked.ends):
            raise HostError(f"There is no move {step} in {record.title} {loaded.label}.")
        if walked.first_secret is not None and step >= walked.first_secret:
            raise HostError(f"By move {step} of {record.title} {loaded.label} secret choices were made, and its replay "
                            f"shows them to everyone: play on only from a move before {walked.first_secret} "
                            "(e.g. the start, move 0).")
        plies = walked.ends[step]
        prefix = record.pairs()[:plies]
        if any(text in META_MOVES for _, text in prefix):
            raise HostError("A player had left the game by this position; choose an earlier move.")
        game = engines.get(record.game).new(record.players, record.options)
        for seat, text in prefix:
            game.apply_record(seat, text)
        if game.outcome() is not None:
            raise HostError("The game is over at this position; choose an earlier move.")
        if len(set(opponents)) != len(opponents) or creator in opponents or len(opponents) >= record.players:
            raise HostError(f"Choose up to {record.players - 1} different opponent(s), not yourself.")
        if any(bots.is_ai(u) for u in opponents):
            raise HostError("Choose the AI by its level, not as a person.")
        origin = {"source": f"{record.title} {loaded.label}", "move": step, "plies": plies, "kind": kind, "id": ident}
        settings = {"rated": False, "clock": "none", "match": 1, "origin": origin, "start_history": prefix}
        seats = [Seat(0, creator, True)] + [Seat(i + 1, u, False) for i, u in enumerate(opponents)]
        robot = None
        if ai is not None:
            try:
                robot = bots.user_of(ai)
            except ValueError as error:
                raise HostError(f"{error}.") from None
            if len(seats) == record.players:
                raise HostError("Every seat has a person already: leave a seat for the AI.")
        seats += [Seat(len(seats) + i, robot, robot is not None) for i in range(record.players - len(seats))]
        game_id = await self.session.store.create(guild_id=guild_id, channel_id=channel_id, game=record.game,
                                                  players=record.players, options=dict(game.options),
                                                  settings=settings, seed=dice.new_seed(), creator_id=creator,
                                                  seats=seats, now=self.now())
        row = await self.session.row(game_id)
        if all(s.accepted and s.user_id is not None for s in seats):
            return await self.lobby.start_once(row)  # only the AI was asked: it always accepts
        return Lobby(row, started=False)
