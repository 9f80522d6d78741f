"""Replies that say what is going on: waiting challenges, resigned players, secret picks, placings, rematches."""

from __future__ import annotations

import pytest

import engines
from engines import CHANCE
from host.app import Host
from host.correspondence.service import HISTORY_PAGE, place
from host.play import captions
from host.results import HostError
from tests.host.test_service import ALICE, BOB, CAROL, started_game


async def finished(host: Host, players: tuple[int, ...] = (ALICE, BOB)) -> int:
    game_id = await started_game(host, players)
    await host.turns.resign(game_id, players[-1])
    return game_id


async def test_a_move_while_the_challenge_waits_says_that_it_waits(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], guild_id=1)
    with pytest.raises(HostError, match=rf"challenge #{lobby.row.id} is still waiting for players"):
        await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1)
    with pytest.raises(HostError, match="no Dice Nim game here"):
        await host.boards.resolve("dicenim", CAROL, thread_id=None, guild_id=1)


async def test_board_means_the_active_game_not_a_finished_one(host: Host) -> None:
    old = await finished(host)
    older = await finished(host)
    assert (await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1,
                               statuses=("active", "finished"))).id == older, "newest finished game"
    active = await started_game(host)
    assert (await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1,
                               statuses=("active", "finished"))).id == active
    assert old != active


async def test_a_resigned_player_is_told_they_resigned(host: Host) -> None:
    game_id = await started_game(host, (ALICE, BOB, CAROL))
    report = await host.turns.resign(game_id, CAROL)
    assert report.outcome is None and f"(<@{CAROL}>) resigned" in report.caption
    with pytest.raises(HostError, match="You resigned from this game; it goes on without you"):
        await host.turns.play(game_id, CAROL, "take 1")
    assert (await host.boards.explain_no_choices(game_id, CAROL, "")).startswith("You resigned")
    with pytest.raises(HostError, match="You resigned from this game"):
        await host.turns.offer_draw(game_id, CAROL)
    await host.turns.offer_draw(game_id, ALICE)
    with pytest.raises(HostError, match="You resigned from this game"):  # the others' offer is not hers to decline
        await host.turns.decline_draw(game_id, CAROL)
    row = await host.session.row(game_id)
    assert row.draw_offers == [row.seat_of(ALICE)]


async def test_autocomplete_explains_why_there_is_nothing_to_offer(host: Host) -> None:
    game_id = await started_game(host)
    for user in (ALICE, BOB):  # the bids are simultaneous: both may bid
        await host.turns.play(game_id, user, "bid 1")
    row = await host.session.row(game_id)
    movers = [s for s in (await host.boards.observation(game_id, None))["to_move"] if s != CHANCE]
    mover = row.user_at(movers[0])
    other = BOB if mover == ALICE else ALICE
    assert (await host.boards.explain_no_choices(game_id, other, "")).startswith("Not your turn: waiting for ")
    assert f"<@{mover}>" in await host.boards.explain_no_choices(game_id, other, "")
    assert await host.boards.explain_no_choices(game_id, CAROL, "") == "You are not playing this game"
    assert "No legal move matches 'zzz'" in await host.boards.explain_no_choices(game_id, mover, "zzz")
    long = await host.boards.explain_no_choices(game_id, mover, "x" * 500)
    assert len(long) <= 100


async def test_a_wall_of_text_is_refused_without_echoing_it(host: Host) -> None:
    game_id = await started_game(host)
    wall = "bid 1 " * 400
    with pytest.raises(HostError) as refused:
        await host.turns.play(game_id, ALICE, wall)
    assert len(str(refused.value)) < 300 and "2400 characters" in str(refused.value)
    with pytest.raises(HostError) as illegal:
        await host.turns.play(game_id, ALICE, "y" * 99)
    assert len(str(illegal.value)) <= 300


async def test_a_second_secret_pick_is_refused_and_both_picks_are_told_once_in(host: Host) -> None:
    lobby = await host.lobby.challenge(game="zodiac", creator=ALICE, opponents=[BOB], guild_id=1)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    game_id = lobby.row.id
    first = await host.turns.play(game_id, ALICE, "pick Tree")
    assert first.secret and "Tree" not in first.caption
    with pytest.raises(HostError, match="already made your secret choice"):
        await host.turns.play(game_id, ALICE, "pick Wolf")
    assert (await host.boards.explain_no_choices(game_id, ALICE, "")).startswith("Already chosen in secret")
    second = await host.turns.play(game_id, BOB, "pick Wolf")
    assert "Side duel, round 1" in second.caption
    assert f"(<@{ALICE}>) picked Tree" in second.caption and f"(<@{BOB}>) picked Wolf" in second.caption


def test_placings_say_who_came_where_and_who_shared_a_place() -> None:
    assert place(1, [1, 2]) == "won" and place(2, [1, 2]) == "lost" and place(1, [1, 1]) == "draw"
    assert place(3, [1, 2, 3, 4]) == "3rd of 4"
    assert place(2, [1, 2, 2, 2]) == "shared 2nd-4th of 4"
    assert place(1, [1, 1, 3, 3]) == "won, shared with 1 other"


async def test_history_shows_each_players_real_placing(host: Host) -> None:
    game_id = await started_game(host, (ALICE, BOB, CAROL))
    await host.turns.resign(game_id, CAROL)
    await host.turns.resign(game_id, BOB)
    results = {user: (await host.correspondence.history(user, 1)).lines[0].result for user in (ALICE, BOB, CAROL)}
    assert results == {ALICE: "won", BOB: "2nd of 3", CAROL: "3rd of 3"}


async def test_history_pages_through_every_finished_game_and_marks_unrated_ones(host: Host) -> None:
    ids = [await finished(host) for _ in range(HISTORY_PAGE + 2)]
    first = await host.correspondence.history(ALICE, 1)
    assert (first.page, first.pages, first.total) == (1, 2, HISTORY_PAGE + 2)
    assert [h.game_id for h in first.lines] == ids[::-1][:HISTORY_PAGE]
    last = await host.correspondence.history(ALICE, 1, page=99)
    assert last.page == 2 and [h.game_id for h in last.lines] == ids[1::-1]
    assert all(h.unrated == "a player made fewer than 2 moves" for h in first.lines)
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[ALICE], guild_id=1)
    assert lobby.started and lobby.row.settings["rated"] is False
    await host.turns.resign(lobby.row.id, ALICE)
    assert (await host.correspondence.history(ALICE, 1)).lines[0].unrated == "the game was unrated"


async def test_a_rematch_invites_the_same_players_with_the_same_options_and_rotated_seats(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB, CAROL], guild_id=1, channel_id=2,
                                 options={"stones": 15}, settings={"clock": "3d"})
    for user in (BOB, CAROL):
        lobby = await host.lobby.accept(lobby.row.id, user)
    game_id = lobby.row.id
    with pytest.raises(HostError, match="not over yet"):
        await host.lobby.rematch(game_id, ALICE)
    await host.turns.resign(game_id, BOB)
    await host.turns.resign(game_id, CAROL)
    with pytest.raises(HostError, match="Only the players"):
        await host.lobby.rematch(game_id, 999)
    old = await host.session.row(game_id)
    order = [old.user_at(s) for s in range(3)]
    again = await host.lobby.rematch(game_id, BOB)
    assert not again.started and again.row.options == {"stones": 15}
    assert again.row.settings["clock"] == old.settings["clock"] and again.row.settings["rematch_of"] == game_id
    assert sorted(again.waiting_for) == sorted(u for u in order if u != BOB)
    for user in again.waiting_for:
        again = await host.lobby.accept(again.row.id, user)
    assert again.started
    assert [again.row.user_at(s) for s in range(3)] == order[1:] + order[:1], "seats rotated by one, not shuffled"


async def test_the_newest_board_message_is_remembered_and_the_old_one_returned(host: Host) -> None:
    game_id = await started_game(host)
    assert await host.turns.set_last_board(game_id, 5, 100, 1) is None
    old = await host.turns.set_last_board(game_id, 5, 101, 2)
    assert old is not None and old.message_id == 100
    assert await host.turns.set_last_board(game_id, 5, 101, 3) is None, "an edit in place retires nothing"
    last = await host.boards.last_board(game_id)
    assert last is not None and (last.message_id, last.ply) == (101, 3)


async def test_ziggurat_steps_continue_the_turn_and_buttons_read_like_autocomplete(host: Host) -> None:
    lobby = await host.lobby.challenge(game="ziggurat", creator=ALICE, opponents=[BOB], guild_id=1)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    game_id = lobby.row.id
    assert lobby.report is not None and not lobby.report.continues_turn
    for _ in range(40):
        _ply, choices = await host.boards.turn_choices(game_id, limit=500)
        moves = [m for _, m in choices]
        if "end" in moves and len(moves) > 1:
            break
        row = await host.session.row(game_id)
        user = row.user_at(next(s for s in (await host.boards.observation(game_id, None))["to_move"] if s != CHANCE))
        await host.turns.play(game_id, user, moves[0])
    assert moves[-1] == "end" and "end" not in moves[:-1]
    labels = dict((m, label) for label, m in choices)
    step = next(m for m in moves if m != "end")
    assert labels[step] != step and ("→" in labels[step] or ":" in labels[step])
    row = await host.session.row(game_id)
    user = row.user_at(next(s for s in (await host.boards.observation(game_id, None))["to_move"] if s != CHANCE))
    report = await host.turns.play(game_id, user, step)
    ended = any(line.startswith("🎲") for line in report.caption.splitlines()[1:])
    assert report.continues_turn == (not ended and report.outcome is None)
    if report.continues_turn:
        assert report.caption.startswith("🎲") and f"`{step}`" in report.caption


@pytest.mark.parametrize(("game_name", "effect", "shown"), [
    ("zarathustra", "destroys", "` — destroys"),
    ("zrtz", ": capture", "`: capture"),
    ("zodiac", "(takes", "` (takes"),
])
async def test_a_caption_says_what_a_move_destroyed_or_took(host: Host, game_name: str, effect: str,
                                                           shown: str) -> None:
    lobby = await host.lobby.challenge(game=game_name, creator=ALICE, opponents=[BOB], guild_id=1)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    game_id = lobby.row.id
    cls = engines.get(game_name)
    for ply in range(300):
        row = await host.session.row(game_id)
        game = cls.new(row.players, row.options)
        for move in await host.store.moves(game_id):
            game.apply_record(move.seat, move.text)
        seat = min(game.to_move())
        moves = game.legal_moves(seat)
        doing = [m for m in moves if effect in game.describe(seat, m)]
        move = doing[0] if doing else moves[ply * 7 % len(moves)]
        report = await host.turns.play(game_id, row.user_at(seat), move)
        if doing:
            assert f"`{move}{shown}" in report.caption
            return
    pytest.fail(f"no move that {effect} came up")


def test_captions_fit_discord_keeping_the_latest_lines() -> None:
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(60))
    fitted = captions.fit(text)
    assert len(fitted) <= 2000 and fitted.endswith(text.splitlines()[-1]) and fitted.startswith("…")
    assert captions.clip("abc", 5) == "abc" and captions.clip("abcdef", 5) == "abcd…"


async def test_a_waiting_challenge_and_a_game_in_play_are_never_guessed_between(host: Host) -> None:
    await started_game(host)
    await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[CAROL], guild_id=1)
    with pytest.raises(HostError, match="You have 2 open Dice Nim games here"):
        await host.boards.resolve("dicenim", ALICE, thread_id=None, guild_id=1, statuses=("challenge", "active"))


async def test_ziggurat_autocomplete_lists_ending_the_turn_last(host: Host) -> None:
    lobby = await host.lobby.challenge(game="ziggurat", creator=ALICE, opponents=[BOB], guild_id=1)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    for _ in range(60):
        obs = await host.boards.observation(lobby.row.id, None)
        user = lobby.row.user_at(next(s for s in obs["to_move"] if s != CHANCE))
        choices = await host.boards.move_choices(lobby.row.id, user, "")
        values = [v for _, v in choices]
        if "end" in values and len(values) > 1:
            assert values[-1] == "end" and choices[-1][0].startswith("End the turn")
            return
        await host.turns.play(lobby.row.id, user, values[0] if " moves)" not in choices[0][0] else "end")
    pytest.fail("no turn with a choice to end came up")
