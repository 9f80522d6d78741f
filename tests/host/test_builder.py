"""The move builder over a real database: the prefix tree, groups, Back, Play and every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engines
from data.db import Database
from engines import Game, IllegalMove, Outcome, Pick
from host.app import Host
from host.play.builder import StaleBuilder, decode, groups_of, tree_of
from host.results import HostError
from tests.conftest import FakeClock, text_renderer

ALICE, BOB = 101, 202
COLUMNS = "abcdefghijkl"


class Grid(Game):
    """A toy for the builder: 144 squares (more than four menus hold), some with a direction to pick, and pass."""

    name = "grid"
    title = "Grid"
    players = range(2, 3)

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.taken: set[str] = set()

    def _to_move(self) -> frozenset[int]:
        return frozenset({len(self.history) % 2})

    def _legal_moves(self, seat: int) -> list[str]:
        moves = ["pass"]
        for c in COLUMNS:
            for r in range(1, 13):
                square = f"{c}{r}"
                if square in self.taken:
                    continue
                moves += [f"{square} h", f"{square} v"] if r % 2 == 0 else [square]
        return moves

    def _play(self, seat: int, text: str) -> str:
        if text not in self._legal_moves(seat):
            raise IllegalMove(f"{text!r} is not a move")
        if text != "pass":
            self.taken.add(text.split()[0])
        return text

    def _outcome(self) -> Outcome | None:
        return Outcome.win(0, 2, "four plies") if len(self.history) >= 4 else None

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {"taken": sorted(self.taken)}

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        out: list[tuple[str, tuple[Pick, ...]]] = []
        for move in self.legal_moves(seat):
            if move == "pass":
                out.append((move, (Pick("square", "Pass", None, "Other"),)))
                continue
            square, *rest = move.split()
            picks = [Pick("square", f"Square {square}", square, f"Row {square[1:]}")]
            if rest:
                picks.append(Pick("direction", {"h": "Across", "v": "Down"}[rest[0]]))
            out.append((move, tuple(picks)))
        return out


@pytest.fixture
def grid_host(db: Database, clock: FakeClock) -> Host:
    return Host(db, games={**engines.GAMES, Grid.name: Grid}, renderer=text_renderer, now=clock)


async def started(host: Host) -> int:
    lobby = await host.lobby.challenge(game="grid", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert lobby.started
    return lobby.row.id


async def mover(host: Host, game_id: int) -> tuple[int, int]:
    row, game = await host.session.engine_copy(game_id)
    first = row.user_at(next(iter(game.to_move())))
    assert first is not None
    return first, ALICE + BOB - first


def shown(step: Any) -> dict[str, Any]:
    return json.loads(step.board.image)


async def test_a_move_is_built_step_by_step_with_groups_back_and_play(grid_host: Host) -> None:
    host = grid_host
    game_id = await started(host)
    me, _ = await mover(host, game_id)
    step = await host.builder.open(game_id, me, "t1")
    assert step.groups and not step.choices, "145 choices are more than four menus: a group comes first"
    assert step.groups[0] == "Row 1" and "Other" in step.groups
    row2 = step.groups.index("Row 2")
    step = await host.builder.show(game_id, me, step.ply, "t1", (f"~{row2}",))
    assert [c.label for c in step.choices][:2] == ["Square a2", "Square b2"] and len(step.choices) == 12
    assert shown(step)["highlights"]["offered"][:2] == ["a2", "b2"]
    step = await host.builder.show(game_id, me, step.ply, "t1", decode(step.choices[1].value))
    assert step.picked == ["Square b2"] and [c.label for c in step.choices] == ["Across", "Down"]
    assert shown(step)["highlights"] == {"picked": ["b2"], "offered": []}
    back = await host.builder.show(game_id, me, step.ply, "t1", step.path[:-1])
    assert back.picked == [] and back.groups, "Back returns to the step before"
    step = await host.builder.show(game_id, me, step.ply, "t1", decode(step.choices[1].value))
    assert step.move == "b2 v" and "Play" in step.prompt
    assert "b2" in shown(step)["taken"], "a finished move is shown as the position it makes"
    report = await host.builder.play(game_id, me, step.ply, "t1", step.path)
    assert report.ply == 1
    _, game = await host.session.engine_copy(game_id)
    assert game.history[-1][1] == "b2 v"


async def test_a_single_choice_is_taken_for_the_player(grid_host: Host) -> None:
    host = grid_host
    game_id = await started(host)
    me, _ = await mover(host, game_id)
    step = await host.builder.open(game_id, me, "t1")
    row1 = step.groups.index("Row 1")
    step = await host.builder.show(game_id, me, step.ply, "t1", (f"~{row1}",))
    step = await host.builder.show(game_id, me, step.ply, "t1", decode(step.choices[0].value))
    assert step.move == "a1", "a square with no direction to choose is a whole move"


async def test_stale_foreign_and_superseded_builders_refuse_and_change_nothing(grid_host: Host) -> None:
    host = grid_host
    game_id = await started(host)
    me, other = await mover(host, game_id)
    with pytest.raises(HostError, match="turn"):
        await host.builder.open(game_id, other, "x")
    with pytest.raises(HostError, match="not playing"):
        await host.builder.open(game_id, 999, "x")
    old = await host.builder.open(game_id, me, "old")
    new = await host.builder.open(game_id, me, "new")
    with pytest.raises(StaleBuilder, match="newer move builder"):
        await host.builder.show(game_id, me, old.ply, "old", ())
    with pytest.raises(StaleBuilder, match="newer move builder"):
        await host.builder.play(game_id, me, old.ply, "old", ("0",))
    with pytest.raises(HostError, match="not finished"):
        await host.builder.play(game_id, me, new.ply, "new", ())
    with pytest.raises(StaleBuilder, match="no longer fits"):
        await host.builder.show(game_id, me, new.ply, "new", ("999",))
    await host.turns.play(game_id, me, "pass")  # typed, or a second press of Play: either way already played
    with pytest.raises(StaleBuilder, match="already moved"):
        await host.builder.play(game_id, me, new.ply, "new", ("~0",))
    row, game = await host.session.engine_copy(game_id)
    assert len(game.history) == 1 and row.status == "active"
    host.builder.cancel(game_id, me, "new")
    assert (game_id, me) not in host.builder.latest


async def test_a_builder_of_an_ended_game_says_it_is_over_and_offers_no_fresh_one(grid_host: Host) -> None:
    """Even to the player who moved last ("already moved" would offer a Move button that only repeats it)."""
    host = grid_host
    game_id = await started(host)
    me, other = await mover(host, game_id)
    mine = await host.builder.open(game_id, me, "mine")
    await host.turns.play(game_id, me, "pass")
    theirs = await host.builder.open(game_id, other, "theirs")
    await host.turns.resign(game_id, other)
    for user, step in ((me, mine), (other, theirs)):
        with pytest.raises(StaleBuilder, match=rf"^Game #{game_id} is over\.$") as refused:
            await host.builder.show(game_id, user, step.ply, step.token, ())
        assert not refused.value.reopen
    with pytest.raises(StaleBuilder, match="is over") as refused:
        await host.builder.open(game_id, me, "again")
    assert not refused.value.reopen


def test_paths_from_custom_ids_are_checked() -> None:
    assert decode("") == () and decode("1.~2") == ("1", "~2")
    for bad in ("x", "1..2", "1.-2", "1234", ".".join(["1"] * 30), "١"):
        with pytest.raises(HostError):
            decode(bad)


def test_groups_keep_order_and_split_long_ones() -> None:
    picks = [(f"m{i}", (Pick("square", f"S{i}", f"s{i}", "A" if i < 30 else "B"),)) for i in range(33)]
    children = list(tree_of(picks).children.values())
    groups = groups_of(children)
    assert [(name, len(members)) for name, members in groups] == [("A (1/2)", 25), ("A (2/2)", 5), ("B", 3)]


async def test_the_newest_builders_are_remembered_within_a_bound(grid_host: Host, monkeypatch) -> None:
    from host.play import builder

    monkeypatch.setattr(builder, "MAX_REMEMBERED", 2)
    host = grid_host
    games = [await started(host) for _ in range(3)]
    for game_id in games:
        me, _ = await mover(host, game_id)
        await host.builder.open(game_id, me, f"t{game_id}")
    assert len(host.builder.latest) == 2 and all(key[0] in games[1:] for key in host.builder.latest)
