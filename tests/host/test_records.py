"""Game records in the host: replay steps, exports that re-import to the same history, dice checks,
secrets of a game in progress, play on from a position, and animated GIFs."""

from __future__ import annotations

import io
import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import engines
from data.db import Database
from data.store import GameRow
from engines import CHANCE
from engines.zrtz import boardspace
from host.ai_players import turns as ai_turns
from host.ai_players.turns import AiPlayers
from host.app import Host
from host.play import bots, dice
from host.records import replay as records
from host.records.formats import from_json, from_text, read, to_json, to_text
from host.results import HostError, Lobby, Report
from tests.conftest import FakeClock, text_renderer

ALICE, BOB, CAROL, DAVE = 101, 202, 303, 404
USERS = (ALICE, BOB, CAROL, DAVE)


async def namer(user: int) -> str:
    return f"player{user}"


async def play_game(host: Host, game: str, players: int, options: dict, rng: random.Random,
                    limit: int = 60, finish: bool = True) -> int:
    """A seeded random game through the host (dice from the game's seed); resign at ``limit`` if asked."""
    lobby = await host.lobby.challenge(game=game, creator=ALICE, opponents=list(USERS[1:players]), options=options)
    for user in USERS[1:players]:
        lobby = await host.lobby.accept(lobby.row.id, user)
    game_id = lobby.row.id
    for _ in range(limit):
        row, game = await host.session.engine_copy(game_id)  # the host's cached engine: no replay a ply
        if row.status != "active":
            break
        seat = rng.choice(sorted(s for s in game.to_move() if s != CHANCE))
        await host.turns.play(game_id, row.user_at(seat), rng.choice(game.legal_moves(seat)))
    while finish and (row := await host.session.row(game_id)).status == "active":
        game = await engine(host, game_id)
        await host.turns.resign(game_id, row.user_at(game.active_seats()[0]))
    return game_id


async def engine(host: Host, game_id: int) -> engines.Game:
    row = await host.session.row(game_id)
    return engines.get(row.game).from_dict({"game": row.game, "players": row.players, "options": row.options,
                                           "history": [[m.seat, m.text] for m in await host.store.moves(game_id)]})


def variants(cls: type) -> list[tuple[int, dict]]:
    """Every single option value at least once, with the smallest and largest player counts."""
    out = [(cls.players.start, {}), (cls.players.stop - 1, {})]
    for option in cls.options_spec:
        for choice in option.choices:
            for players in (cls.players.start, cls.players.stop - 1):
                try:
                    cls.check_options(players, {option.name: choice})
                except ValueError:
                    continue
                out.append((players, {option.name: choice}))
                break
    return out


@pytest.mark.parametrize("name", sorted(engines.GAMES))
async def test_json_and_text_exports_reimport_to_the_same_history(host: Host, name: str) -> None:
    cls = engines.get(name)
    for index, (players, options) in enumerate(variants(cls)):
        rng = random.Random(f"{name}:{index}")
        game_id = await play_game(host, name, players, options, rng, limit=25)
        text, files = await host.record_exchange.export(game_id, namer)
        assert ("verify" in text) == cls.has_chance  # a game without dice has nothing to verify
        by_ext = {filename.rsplit(".", 1)[1]: data for filename, data in files}
        moves = [(m.seat, m.text) for m in await host.store.moves(game_id)]
        for ext in ("json", "txt"):
            record = read(by_ext[ext], name)
            assert record.pairs() == moves, f"{name} {options} {ext}"
            assert record.names[0] == f"player{(await host.session.row(game_id)).user_at(0)}"
        data = json.loads(by_ext["json"])
        assert data["seed"] == (await host.session.row(game_id)).seed and data["outcome"] is not None
        assert all(isinstance(p["at"], float) for p in data["history"])
        if name == "zrtz" and not options.get("blitz"):
            again = boardspace.replay(by_ext["sgf"].decode())
            assert again.history == [(s, t) for s, t in moves]


async def test_dice_verify_command_checks_every_die(host: Host, tmp_path: Path, capsys) -> None:
    game_id = await play_game(host, "ziggurat", 2, {}, random.Random(3), limit=30)
    _, files = await host.record_exchange.export(game_id, namer)
    path = tmp_path / "record.json"
    path.write_bytes(files[0][1])
    assert dice.main(["verify", str(path)]) == 0
    assert "dice match" in capsys.readouterr().out
    data = json.loads(files[0][1])
    rolls = [i for i, p in enumerate(data["history"]) if p["seat"] == CHANCE]
    assert len(rolls) > 3
    faces = [t for t, _ in engines.get("ziggurat").new(2).chance_outcomes()]
    ply = data["history"][rolls[2]]
    ply["move"] = next(f for f in faces if f != ply["move"])
    path.write_text(json.dumps(data))
    assert dice.main(["verify", str(path)]) == 1
    assert "FAILED" in capsys.readouterr().out


async def test_junk_and_tampered_records_are_refused_with_a_reason(host: Host) -> None:
    game_id = await play_game(host, "zaic", 2, {}, random.Random(5), limit=10)
    _, files = await host.record_exchange.export(game_id, namer)
    good = json.loads(files[0][1])
    cases = {
        b"hello": "expected our JSON",
        b"{not json": "not valid JSON",
        json.dumps({**good, "game": "zrtz"}).encode(): "ZÈRTZ record; use /zrtz import",
        json.dumps({**good, "history": good["history"] + [{"seat": 0, "move": "zz9"}]}).encode(): "not legal",
        json.dumps({**good, "history": [{"seat": 7, "move": "x"}]}).encode(): "no valid seat",
        json.dumps({**good, "seed": "ab" * 16}).encode(): "does not match its SHA-256",
        json.dumps({**good, "outcome": {"ranks": [2, 2]}}).encode(): "result",
        b" " * 2_000_000: "too large",
    }
    for data, reason in cases.items():
        with pytest.raises(HostError, match=reason):
            await host.record_exchange.import_record("zaic", data, ALICE, None)
    page = await host.record_exchange.import_record("zaic", files[0][1], ALICE, None)
    assert page.kind == "r" and page.step == page.last


async def test_a_text_record_states_its_result_and_a_tampered_one_is_refused_like_json(host: Host) -> None:
    game_id = await play_game(host, "zaic", 2, {}, random.Random(5), limit=10)
    row = await host.session.row(game_id)
    _, files = await host.record_exchange.export(game_id, namer)
    text = dict(files)[f"zaic-{game_id}.txt"].decode()
    real = {(1, 2): "1-0", (2, 1): "0-1"}[tuple(row.result["ranks"])]
    wrong = {"1-0": "0-1", "0-1": "1-0"}[real]
    assert f'[Result "{real}"]' in text and text.endswith(f"\n{real}\n")
    assert read(text.encode(), "zaic").outcome == row.result
    cases = {
        text.replace(f'[Result "{real}"]', f'[Result "{wrong}"]').replace(f"\n{real}\n", f"\n{wrong}\n"):
            "its result is not the one its moves lead to",
        text.replace(f'[Result "{real}"]', '[Result "1/2-1/2"]').replace(f"\n{real}\n", "\n1/2-1/2\n"):
            "its result is not the one its moves lead to",
        text.replace(f'[Result "{real}"]', f'[Result "{wrong}"]'): "is not the result line",
        text.replace(f'[Result "{real}"]', '[Result "ranks 1 2 3"]'): "Result tag",
    }
    for data, reason in cases.items():
        with pytest.raises(HostError, match=reason):
            await host.record_exchange.import_record("zaic", data.encode(), ALICE, None)
    unstated = text.replace(f'[Result "{real}"]', '[Result "*"]').replace(f"\n{real}\n", "\n*\n")
    assert read(unstated.encode(), "zaic").outcome == row.result  # "*" states nothing: the moves' result stands


async def test_replay_steps_forward_and_back_and_refuses_beyond_the_game(host: Host) -> None:
    game_id = await play_game(host, "zarathustra", 2, {}, random.Random(1), limit=8)
    last = await host.records.page("g", game_id, None)
    assert last.step == last.last == 9 and "Result" in last.caption  # 8 moves and the resignation
    first = await host.records.page("g", game_id, 0)
    assert "starting position" in first.caption and json.loads(first.board.image)["ply"] == 0
    second = await host.records.page("g", game_id, 2)
    assert "after move 2 of 9" in second.caption and json.loads(second.board.image)["ply"] == 2
    assert [k for k, _ in second.menu] == list(range(0, 10)) and "Next:" in second.caption
    with pytest.raises(HostError, match="no move 10"):
        await host.records.page("g", game_id, 10)


async def test_ziggurat_replays_one_turn_per_step_with_its_rolls(host: Host) -> None:
    game_id = await play_game(host, "ziggurat", 2, {}, random.Random(2), limit=20, finish=False)
    page = await host.records.page("g", game_id, 1)
    assert "after turn 1" in page.caption and "🎲 roll" in page.caption
    moves = await host.store.moves(game_id)
    obs = json.loads(page.board.image)
    assert obs["turn"]["phase"] == "roll" and moves[obs["ply"]].seat == CHANCE  # the next turn's roll follows
    assert sum(1 for m in moves[:obs["ply"]] if m.seat == CHANCE) == 1


async def test_an_active_zodiac_game_never_leaks_a_king_or_an_ink_square(db: Database, clock: FakeClock) -> None:
    seen: list[dict] = []

    def recording(obs: dict) -> bytes:
        seen.append(obs)
        return text_renderer(obs)

    host = Host(db, renderer=recording, now=clock)
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB])
    game_id = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    for seat_user, pick in ((ALICE, "pick Tree"), (BOB, "pick Wolf")):
        await host.turns.play(game_id, seat_user, pick)
    row = await host.session.row(game_id)
    game = await engine(host, game_id)
    winner = row.user_at(game.duel_winner)
    await host.turns.play(game_id, winner, "light")
    await host.turns.play(game_id, ALICE, "king Octopus")
    await host.turns.play(game_id, BOB, "king Goat")
    rng, inked = random.Random(8), 0
    for _ in range(60):  # placements, then play; an ink move whenever there is one
        game = await engine(host, game_id)
        if game.outcome() is not None or (inked and rng.random() < 0.1):
            break
        seat = sorted(s for s in game.to_move() if s != CHANCE)[0]
        moves = game.legal_moves(seat)
        ink = [m for m in moves if " ink " in m]
        if seat == game.seat_of(0) and any(m.startswith("Octopus") for m in moves if " " in m) and not ink:
            moves = [m for m in moves if not m.startswith("Octopus") or "ink" in m] or moves
        inked += bool(ink)
        await host.turns.play(game_id, row.user_at(seat), rng.choice(ink or moves))
    assert inked, "the test game made an ink move"
    assert (await host.session.row(game_id)).status == "active"
    seen.clear()
    last = (await host.records.page("g", game_id, None)).last
    captions = [(await host.records.page("g", game_id, step)).caption for step in range(last + 1)]
    assert len(seen) == last + 2 and "secret king choice" in "\n".join(captions)
    assert all(o["kings"] is None and o["my_king"] is None for o in seen)
    assert all(not p.get("king") and "shadow" not in p for o in seen for sq in o["board"] for p in sq["stack"])
    frames = records.walk(await host.records.load("g", game_id), frames=True)  # what the GIF would show
    assert len(frames.frames) == last + 1 and all(f["kings"] is None for f in frames.frames)
    assert not any("king " in label and "secret" not in label for label in frames.labels)
    real_ink = [m.text for m in await host.store.moves(game_id) if " ink " in m.text]
    _, files = await host.record_exchange.export(game_id, namer)
    for body in captions + frames.labels + [data.decode() for _, data in files]:
        assert "king Octopus" not in body and "king Goat" not in body
        assert not any(move in body for move in real_ink) and row.seed not in body
    assert all("secret king choice" in data.decode() for _, data in files)
    with pytest.raises(HostError, match="public view of a game in progress"):
        await host.record_exchange.import_record("zodiac", files[0][1], ALICE, None)
    with pytest.raises(HostError, match="in progress and has secrets"):
        await host.record_exchange.play_from("g", game_id, 2, creator=CAROL, opponents=[DAVE], guild_id=None,
                                channel_id=None)


async def test_a_finished_zodiac_replay_shows_what_the_end_revealed(host: Host) -> None:
    game_id = await play_game(host, "zodiac", 2, {}, random.Random(4), limit=20)
    early = await host.records.page("g", game_id, 8)
    obs = json.loads(early.board.image)
    if obs["phase"] in ("place", "play"):
        assert obs["kings"] is not None and None not in obs["kings"]


async def test_play_from_here_starts_an_unrated_game_with_that_history(host: Host) -> None:
    source = await play_game(host, "zrtz", 2, {"rings": 48}, random.Random(9), limit=12)
    lobby = await host.record_exchange.play_from("g", source, 5, creator=CAROL, opponents=[DAVE], guild_id=1,
                                    channel_id=2)
    assert not lobby.started and lobby.waiting_for == [DAVE]
    lobby = await host.lobby.accept(lobby.row.id, DAVE)
    assert lobby.started and lobby.report is not None and f"#{source} after move 5" in lobby.report.caption
    copied = [(m.seat, m.text) for m in await host.store.moves(source)][:5]
    assert [(m.seat, m.text) for m in await host.store.moves(lobby.row.id)] == copied
    assert lobby.row.settings["rated"] is False and lobby.row.options["rings"] == 48
    _, files = await host.record_exchange.export(lobby.row.id, namer)
    assert json.loads(files[0][1])["origin"]["plies"] == 5
    by_ext = {filename.rsplit(".", 1)[1]: data for filename, data in files}
    origin = {"source": f"ZÈRTZ #{source}", "move": 5, "plies": 5}
    assert read(by_ext["json"], "zrtz").origin == read(by_ext["txt"], "zrtz").origin == origin
    for data in (by_ext["json"], by_ext["txt"]):  # its origin reads alike from either file
        imported = await host.record_exchange.import_record("zrtz", data, CAROL, 1, step=0)
        assert imported.caption.endswith(f"Played on from ZÈRTZ #{source} after move 5.")
    with pytest.raises(HostError, match="Origin tag"):
        await host.record_exchange.import_record("zrtz", by_ext["txt"].replace(b" after move 5", b""), CAROL, 1)
    await host.turns.abort(lobby.row.id, CAROL)  # nobody has moved in the new game yet
    with pytest.raises(HostError, match=r"over at this position|left the game"):
        last = (await host.records.page("g", source, None)).last
        await host.record_exchange.play_from("g", source, last, creator=CAROL, opponents=[DAVE], guild_id=None,
                                channel_id=None)
    with pytest.raises(HostError, match="unknown AI level"):
        await host.record_exchange.play_from("g", source, 1, creator=CAROL, opponents=[], guild_id=None,
                                        channel_id=None, ai="grandmaster")
    with pytest.raises(HostError, match="leave a seat for the AI"):
        await host.record_exchange.play_from("g", source, 1, creator=CAROL, opponents=[DAVE], guild_id=None,
                                        channel_id=None, ai="easy")


async def test_play_from_here_against_the_ai_starts_at_once_and_the_ai_moves_when_it_is_its_turn(
        host: Host, clock: FakeClock) -> None:
    source = await play_game(host, "zaic", 2, {}, random.Random(3), limit=10)
    robot = bots.user_of("easy")
    with ThreadPoolExecutor(1) as pool:
        players = AiPlayers(host.session, host.turns, host.boards, host.outbox, host.now, pool=pool)
        host.session.on_change.append(players.enqueue)  # wired as host/app.py wires the bot's
        seen = set()
        for step in range(1, 30):  # the seats are drawn from each new game's seed: meet both cases
            lobby = await host.record_exchange.play_from("g", source, 3 + step % 2, creator=CAROL, opponents=[],
                                                    guild_id=1, channel_id=None, ai="easy")
            assert lobby.started and lobby.report is not None and "🤖 AI (easy)" in lobby.report.caption
            row, game = await host.session.engine_copy(lobby.row.id)  # the seats as drawn at the start
            assert row.settings["rated"] is False and {s.user_id for s in row.seats} == {CAROL, robot}
            ai_turn = robot in {row.user_at(s) for s in game.to_move()}
            before = len(game.history)
            clock.advance(ai_turns.GRACE)
            claimed = await players.queue.claim(clock(), players.owner, kinds=ai_turns.KINDS)
            assert [job.game_id for job in claimed] == ([row.id] if ai_turn else [])
            for job in claimed:
                async def deliver(done: ai_turns.Done) -> None:
                    assert done.report is not None
                players.deliver = deliver
                await players.handle(job)
                moves = await host.store.moves(row.id)
                assert len(moves) > before and row.user_at(moves[before].seat) == robot
            await host.turns.abort(row.id, CAROL) if not ai_turn else await host.turns.resign(row.id, CAROL)
            seen.add(ai_turn)
            if seen == {True, False}:
                break
        assert seen == {True, False}


async def test_replay_and_gif_boards_carry_the_player_names(host: Host) -> None:
    game_id = await play_game(host, "zaic", 2, {}, random.Random(5), limit=6)
    row = await host.session.row(game_id)
    host.boards.display_name = {ALICE: "Alice A", BOB: "Bob B"}.get
    expected = [{ALICE: "Alice A", BOB: "Bob B"}[row.user_at(s)] for s in range(2)]
    page = await host.records.page("g", game_id, 2)
    assert json.loads(page.board.image)["player_names"] == expected
    frames: list[dict] = []
    renderer = host.boards.renderer
    host.boards.renderer = lambda obs: (frames.append(obs), _png())[1]  # the GIF needs real images
    await host.records.gif(game_id)
    assert frames and all(f["player_names"] == expected for f in frames)
    _, files = await host.record_exchange.export(game_id, lambda u: namer(u))
    host.boards.renderer = renderer
    imported = await host.record_exchange.import_record("zaic", files[0][1], CAROL, None)
    assert json.loads(imported.board.image)["player_names"] == [f"player{row.user_at(s)}" for s in range(2)]


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(out, format="PNG")
    return out.getvalue()


async def test_a_finished_zodiac_plays_on_only_from_before_its_first_secret_choice(host: Host) -> None:
    game_id = await play_game(host, "zodiac", 2, {}, random.Random(4), limit=20)
    moves = await host.store.moves(game_id)
    first = records.walk(await host.records.load("g", game_id)).first_secret
    assert first is not None and first >= 1 and any(m.text.startswith(("pick ", "king ")) for m in moves)
    before = await host.records.page("g", game_id, first - 1)
    after = await host.records.page("g", game_id, first)
    assert before.can_play_on and not after.can_play_on and "only before move" in after.caption
    with pytest.raises(HostError, match="secret choices were made"):
        await host.record_exchange.play_from("g", game_id, first, creator=CAROL, opponents=[DAVE], guild_id=None,
                                        channel_id=None)
    lobby = await host.record_exchange.play_from("g", game_id, 0, creator=CAROL, opponents=[DAVE], guild_id=None,
                                            channel_id=None)
    assert lobby.row.settings["start_history"] == []


def test_every_boardspace_record_survives_import_sgf_export_and_import() -> None:
    paths = sorted((Path(__file__).resolve().parents[1] / "data" / "zrtz-records").glob("*.sgf"))
    assert len(paths) >= 30
    for path in paths:
        parsed = boardspace.parse(boardspace.read_text(path))
        game = boardspace.replay(boardspace.read_text(path))
        again = boardspace.replay(boardspace.to_sgf(game, parsed.names))
        assert again.history == game.history, path.name
        assert again.outcome() == game.outcome(), path.name


async def test_an_sgf_import_reads_its_result_draws_and_timeouts_included(host: Host) -> None:
    """Our SGF stops at a timeout or an agreed draw and says the result in RE[]: read back, the game ends so, the
    reason saying it came from the record (also when the kept record is read again); a record cut short keeps the
    winner RE[] names; RE[] against the moves' own result is refused."""
    drawn = await play_game(host, "zrtz", 2, {}, random.Random(1), limit=6, finish=False)
    row = await host.session.row(drawn)
    for user in (row.user_at(0), row.user_at(1)):
        await host.turns.offer_draw(drawn, user)
    _, files = await host.record_exchange.export(drawn, namer)
    page = await host.record_exchange.import_record("zrtz", dict(files)[f"zrtz-{drawn}.sgf"], ALICE, 1)
    assert "agreed to the draw" in page.caption and not page.can_play_on
    assert page.caption.endswith("Result: draw (draw agreed, by the record's stated result after its last move)")
    again = await host.records.page("r", page.ident, None)
    assert again.caption == page.caption
    timed = engines.get("zrtz").new(2)
    rng = random.Random(2)
    for _ in range(6):
        timed.play(timed.turn, rng.choice(timed.legal_moves(timed.turn)))
    timed.eliminate(timed.turn, "timeout")
    page = await host.record_exchange.import_record("zrtz", boardspace.to_sgf(timed, ("alice", "bob")).encode(),
                                                    BOB, 1)
    loaded = await host.records.load("r", page.ident)
    assert loaded.record.pairs() == timed.history and loaded.record.outcome is not None
    assert loaded.record.outcome["winners"] == [1] and "by the record's stated result" in page.caption
    real = (Path(__file__).resolve().parents[1] / "data" / "zrtz-records" /
            "T_Z11-Russ-aidan2134-2018-12-22-2307.sgf").read_text()
    head, steps = real.split("; P0[0 Start P0]")
    for stop, how in (("; P0[37 ", "Blue ran out of time"), ("; P1[39 ", "Blue resigned")):  # Blue / Orange to move
        cut = head + "; P0[0 Start P0]" + steps[:steps.index(stop)] + ")"
        page = await host.record_exchange.import_record("zrtz", cut.encode(), CAROL, 1)
        assert f"Orange (aidan2134) won ({how}, by the record's stated result after its last move)" in page.caption
        again = await host.records.page("r", page.ident, None)
        assert again.caption == page.caption, "the source of the result is read again from the kept record"
    with pytest.raises(HostError, match="says a win for Russ, but its moves end in a win for aidan2134"):
        await host.record_exchange.import_record(
            "zrtz", real.replace("RE[Game won by aidan2134]", "RE[Game won by Russ]").encode(), DAVE, 1)


def test_text_and_json_readers_agree_on_a_record() -> None:
    game = engines.get("zaic").new(2)
    for _ in range(6):
        game.play(sorted(game.to_move())[0], game.legal_moves(sorted(game.to_move())[0])[0])
    record = records.GameRecord(game="zaic", players=2, options=dict(game.options), names=['a "quoted" name', "b"],
                                history=[records.Ply(s, t) for s, t in game.history], sides=["Light", "Dark"])
    assert from_text(to_text(record), "zaic").pairs() == from_json(to_json(record), "zaic").pairs() == game.history
    assert from_text(to_text(record), "zaic").names[0] == 'a "quoted" name'


async def test_a_gif_has_one_frame_per_move_and_stays_small(db: Database, clock: FakeClock) -> None:
    from render import render

    host = Host(db, now=clock, renderer=render)
    game_id = await play_game(host, "zrtz", 2, {}, random.Random(6), limit=14)
    caption, board = await host.records.gif(game_id)
    assert "15 moves" in caption
    image = Image.open(io.BytesIO(board.image))
    steps = (await host.records.page("g", game_id, None)).last
    assert image.format == "GIF" and image.n_frames == steps + 1 and image.is_animated
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == 3000
    assert len(board.image) < 8_000_000 / 200 * (steps + 1)  # well on the way to 8 MB for 200 moves


async def test_a_game_is_replayed_in_its_own_server_or_by_its_players(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    game_id = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    assert (await host.records.page("g", game_id, 0, viewer=records.Viewer(CAROL, 1))).step == 0
    assert (await host.records.page("g", game_id, 0, viewer=records.Viewer(BOB, 99))).step == 0
    with pytest.raises(HostError, match="another server"):
        await host.records.page("g", game_id, 0, viewer=records.Viewer(CAROL, 99))
    with pytest.raises(HostError, match="another server"):
        await host.record_exchange.export(game_id, namer, viewer=records.Viewer(CAROL, None))


async def test_an_imported_record_is_read_once_for_all_its_replay_pages(host: Host,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every replay button press loads the record: an imported one (it never changes) is read through the rules once,
    not at every press (a long record's reading cost more than its page)."""
    game_id = await play_game(host, "zaic", 2, {}, random.Random(5), limit=6)
    _, files = await host.record_exchange.export(game_id, lambda u: namer(u))
    page = await host.record_exchange.import_record("zaic", files[0][1], CAROL, None)
    reads: list[str] = []

    def counted(data: bytes, game: str) -> records.GameRecord:
        reads.append(game)
        return read(data, game)

    monkeypatch.setattr(records, "read", counted)
    pages = [await host.records.page("r", page.ident, step) for step in (0, 1, 2, None)]
    assert reads == ["zaic"] and [p.step for p in pages] == [0, 1, 2, page.last]
    assert pages[-1].caption == page.caption


async def test_play_from_here_against_the_ai_started_first_by_a_recovery_answers_started(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new game is saved with its table full, then started; a process starting up in between starts it first
    (its recovery starts full tables): the player hears "started" (that process posts it), not "try again"."""
    source = await play_game(host, "zaic", 2, {}, random.Random(3), limit=10)
    real_start = host.lobby.start
    recovered: list[Report] = []

    async def recovery_first(row: GameRow, **kwargs: Any) -> Lobby:
        monkeypatch.setattr(host.lobby, "start", real_start)  # the recovery's own start is the real one
        recovered.extend(await host.lobby.recover())
        return await real_start(row, **kwargs)

    monkeypatch.setattr(host.lobby, "start", recovery_first)
    lobby = await host.record_exchange.play_from("g", source, 3, creator=CAROL, opponents=[], guild_id=1,
                                                 channel_id=None, ai="easy")
    assert lobby.started and lobby.report is None
    assert [r.row.id for r in recovered] == [lobby.row.id]
    assert (await host.session.row(lobby.row.id)).status == "active"
