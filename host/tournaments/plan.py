"""What a stored event means to the pure core (host/tournaments/pairing/): its results, its next round, its standings.

Pure functions over a ``data.tournaments.Snapshot``: no database, no Discord. ``host/tournaments/service.py`` loads a
snapshot, asks here what to do, and writes the answer in one version-checked transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from data.tournaments import NewPairing, Pairing, Snapshot
from host.tournaments.pairing import knockout, scoring
from host.tournaments.pairing.model import WIN, Bye, Game, Result, forfeit, win_points
from host.tournaments.pairing.roundrobin import round_robin
from host.tournaments.pairing.swiss import pair_swiss
from host.tournaments.pairing.tables import pair_tables

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round_robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)


@dataclass(frozen=True)
class Row:
    """One line of the standings: what the image and the text table show."""

    rank: int
    entrant: int
    points: float
    tiebreaks: tuple[float, ...]
    in_progress: int
    withdrawn: bool
    note: str = ""
    """Knockout: how far the player got (``out in round 2``, ``in the final``)."""


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    """Tie-break column codes, e.g. ``("Bh", "SB")``."""
    rows: tuple[Row, ...]
    explanations: tuple[str, ...]
    points: str = "Pts"
    """The points column's header (a knockout counts games won)."""


@dataclass(frozen=True)
class Picture:
    """What the standings image shows: plain data for the renderer (render/standings.py)."""

    title: str
    subtitle: str
    table: Table
    names: dict[int, str]
    final: bool
    bracket: Any = None
    """A knockout's bracket (``render.events.Bracket``), built by ``host/tournaments/image.py``."""
    crosstable: Any = None
    """A round robin's (or small Swiss's) crosstable (``render.events.Crosstable``)."""


def seed_order(snap: Snapshot) -> list[int]:
    """Entrants in initial rank order (seed 1 first); before the start, in sign-up order."""
    return [e.user_id for e in sorted(snap.entrants, key=lambda e: (e.seed is None, e.seed or 0, e.joined_at,
                                                                     e.user_id))]


def gone(snap: Snapshot) -> set[int]:
    """Withdrawn and removed players: never paired again."""
    return {e.user_id for e in snap.entrants if e.status != "in"}


def results(pairings: Sequence[Pairing]) -> list[Result]:
    """Every decided pairing as the core's ``Game`` or ``Bye``."""
    found: list[Result] = []
    for p in pairings:
        if p.points is None:
            continue
        if p.bye:
            found.append(Bye(p.round, p.seats[0], p.points[0]))
        else:
            found.append(Game(p.round, p.seats, p.points, p.forfeit))
    return found


def table_sizes(table_size: int) -> tuple[int, ...]:
    """A Swiss of tables seats full tables, and one seat fewer where the count does not divide."""
    return tuple(s for s in (table_size, table_size - 1) if s >= 2)


def planned_rounds(format_: str, entrants: int, swiss_rounds: int) -> int:
    """Rounds the event will have, fixed at the start (a knockout may end no sooner)."""
    if format_ == ROUND_ROBIN:
        return entrants - 1 + entrants % 2
    if format_ == KNOCKOUT:
        return knockout.bracket_size(entrants).bit_length() - 1
    return swiss_rounds


def requested_byes(snap: Snapshot) -> dict[int, tuple[int, ...]]:
    """Per entrant, the rounds they asked to sit out for half a point (``/tournament bye``)."""
    return {int(u): tuple(rounds) for u, rounds in snap.event.rules.get("byes", {}).items()}


def forbidden_pairs(snap: Snapshot) -> list[tuple[int, int]]:
    """Pairs the organiser said must never meet (``/tournament forbid``)."""
    return [(a, b) for a, b in snap.event.rules.get("forbidden", [])]


def forfeited(round_: int, seats: tuple[int, ...], absent: set[int], board: int) -> NewPairing:
    """A game with an absent player is never started: lost by the absent (both absent: nobody scores)."""
    first, second = seats
    if first in absent and second in absent:
        return NewPairing(round_, board, seats, points=(0.0, 0.0), forfeit=True)
    game = forfeit(round_, first, second, first if first in absent else second)
    return NewPairing(round_, board, seats, points=game.points, forfeit=True)


def pair_round(snap: Snapshot, round_: int, allow: Sequence[str] = (), smallest: int = 2) -> list[NewPairing]:
    """Round ``round_`` of the event, from everything decided so far. A Swiss raises ``NoLegalPairing``
    when no pairing avoids a rematch and a second bye, unless ``allow`` (the organiser's decision) covers it.
    ``smallest``: the fewest players the game seats (with the event's options), the smallest table possible."""
    event, order, absent = snap.event, seed_order(snap), gone(snap)
    done = results(snap.pairings)
    out: list[NewPairing] = []
    if event.format == SWISS:
        resting = [u for u in order if u not in absent and round_ in requested_byes(snap).get(u, ())]
        absent = absent | set(resting)
        if event.table_size == 2:
            swiss = pair_swiss(order, done, round_, absent, event.rounds or None, allow, forbidden_pairs(snap))
            out = [NewPairing(round_, i, seats) for i, seats in enumerate(swiss.boards, start=1)]
            if swiss.bye is not None:
                out.append(NewPairing(round_, len(out) + 1, (swiss.bye,), bye=True, points=(WIN,)))
            rests = list(swiss.rests)
        else:
            tables = pair_tables(order, done, round_, table_sizes(event.table_size), absent, smallest)
            out = [NewPairing(round_, i, seats) for i, seats in enumerate(tables.tables, start=1)]
            out += [NewPairing(round_, len(out) + i, (e,), bye=True, points=(win_points(event.table_size),))
                    for i, e in enumerate(tables.byes, start=1)]
            rests = list(tables.rests)
        # A requested bye, and a player left out who may not have a second pairing-allocated bye: half a win.
        half = win_points(event.table_size) / 2
        out += [NewPairing(round_, len(out) + i, (u,), bye=True, points=(half,))
                for i, u in enumerate(rests + resting, 1)]
    elif event.format == ROUND_ROBIN:
        scheduled = round_robin(order)[round_ - 1]
        for board, seats in enumerate(scheduled.boards, start=1):
            out.append(forfeited(round_, seats, absent, board) if absent & set(seats)
                       else NewPairing(round_, board, seats))
        if scheduled.bye is not None:
            out.append(NewPairing(round_, len(out) + 1, (scheduled.bye,), bye=True, points=(0.0,)))
    else:
        pairs: list[knockout.KnockoutPair | None] = list(knockout.first_round(order)) if round_ == 1 else \
            knockout.next_round(winners(snap, round_ - 1), order)
        semi_winners = winners(snap, round_ - 1) if round_ > 1 else []
        if len(pairs) == 1 and round_ > 1 and event.rules.get("third_place") and None not in semi_winners:  # 3rd
            semis = [knockout.KnockoutPair(g[0].seats[0], g[0].seats[1] if len(g[0].seats) > 1 else None)
                     for g in bracket_boards(snap, round_ - 1)]
            third = knockout.third_place(semis, [w for w in semi_winners if w is not None], order)
            pairs = pairs + ([third] if third is not None else [])
        for board, pair in enumerate(pairs, start=1):  # an empty match keeps its board number unused
            if pair is None:
                continue
            if pair.low is None:  # a bye, or a walkover; none for a player who left (worth 0: nobody goes on)
                out.append(NewPairing(round_, board, (pair.high,), bye=True,
                                      points=(0.0 if pair.high in absent else WIN,)))
            elif absent & {pair.high, pair.low}:
                out.append(forfeited(round_, (pair.high, pair.low), absent, board))
            else:
                out.append(NewPairing(round_, board, (pair.high, pair.low)))
    return out


# ----- knockout matches ---------------------------------------------------------------------


def _boards(pairings: Sequence[Pairing], round_: int) -> dict[int, list[Pairing]]:
    boards: dict[int, list[Pairing]] = {}
    for p in pairings:
        if p.round == round_:
            boards.setdefault(p.board, []).append(p)
    for games in boards.values():
        games.sort(key=lambda p: p.match_game)
    return boards


def match_games(snap: Snapshot) -> int:
    """Games in a knockout match (1, 2 or 3), before its tie-break game."""
    return int(snap.event.rules.get("match_games", 1))


def match_of(games: Sequence[Pairing], length: int = 1, gone: Collection[int] = ()) -> knockout.MatchState | None:
    """Where one knockout board (a match of ``length`` games) stands; ``None`` while a game of it is played.

    A match never started (a withdrawn player's, ``forfeited``) is decided by its forfeit; a game the clock
    aborted is one game lost by the player who had to move, and the match goes on. A player in ``gone``
    (withdrawn or removed) loses a match still undecided, so no further game is owed: the other player goes
    through, or nobody when both left (``MatchState(None, None)``)."""
    first = games[0]
    if first.bye:  # a walkover to a player who had left is worth 0 and sends nobody on
        return knockout.MatchState(None, first.seats[0] if first.points != (0.0,) else None)
    high, low = first.seats
    if any(g.points is None for g in games):
        return None
    assert first.points is not None
    if first.forfeit and first.game_id is None:  # never started: somebody had left before the match
        left = {u for u, points in zip(first.seats, first.points, strict=True) if points == 0}
    else:
        high_points = [g.points[g.seats.index(high)] for g in games if g.points is not None]
        state = knockout.match_state(knockout.KnockoutPair(high, low), high_points, length)
        if state.decided:
            return state
        left = {high, low} & set(gone)
        if not left:
            return state
    through = [u for u in (high, low) if u not in left]
    return knockout.MatchState(None, through[0] if len(through) == 1 else None)


def boards_of(snap: Snapshot, round_: int) -> dict[int, list[Pairing]]:
    """A round's boards, each with its games in match order."""
    return _boards(snap.pairings, round_)


def bracket_boards(snap: Snapshot, round_: int) -> list[list[Pairing]]:
    """A knockout round's matches in bracket order, the third-place match left out; an empty list for a match
    nobody was left to play (its two feeding matches sent nobody on)."""
    boards = _boards(snap.pairings, round_)
    return [boards.get(board, []) for board in range(1, knockout.bracket_size(len(snap.entrants)) // 2 ** round_ + 1)]


def winners(snap: Snapshot, round_: int) -> list[int | None]:
    """The winners of a decided knockout round, in bracket order; ``None`` where a match sent nobody on."""
    found: list[int | None] = []
    for games in bracket_boards(snap, round_):
        if not games:
            found.append(None)
            continue
        state = match_of(games, match_games(snap), gone(snap))
        if state is None or not state.decided:
            raise ValueError(f"round {round_} is not decided")
        found.append(state.winner)
    return found


def is_third_place(snap: Snapshot, round_: int) -> bool:
    """Round ``round_`` is the final with a third-place match (its board 2)."""
    return (snap.event.format == KNOCKOUT and bool(snap.event.rules.get("third_place")) and round_ > 1
            and round_ == knockout_rounds(snap))


def knockout_rounds(snap: Snapshot) -> int:
    return knockout.bracket_size(len(snap.entrants)).bit_length() - 1


def replays(snap: Snapshot) -> list[NewPairing]:
    """Knockout games owed after a draw: the match's next game, sides swapped."""
    round_ = snap.event.current_round
    owed = []
    for board, games in sorted(_boards(snap.pairings, round_).items()):
        state = match_of(games, match_games(snap), gone(snap))
        if state is not None and state.seats is not None:
            owed.append(NewPairing(round_, board, state.seats, match_game=len(games) + 1))
    return owed


def round_decided(snap: Snapshot) -> bool:
    """Every table of the current round has its result (a knockout: every match its winner)."""
    round_ = snap.event.current_round
    if snap.event.format == KNOCKOUT:
        states = [match_of(games, match_games(snap), gone(snap)) for games in _boards(snap.pairings, round_).values()]
        return all(s is not None and s.decided for s in states)  # none at all: every match sent nobody on
    return all(p.points is not None for p in snap.pairings if p.round == round_)


def finished_after_round(snap: Snapshot, smallest: int = 2) -> bool:
    """The current round, decided, was the last: planned rounds played, a knockout down to one, or too few left
    to seat one game (``smallest``: the fewest players the game seats)."""
    event = snap.event
    if event.format == KNOCKOUT:
        return len(winners(snap, event.current_round)) == 1 or event.current_round >= knockout_rounds(snap)
    active = len(snap.entrants) - len(gone(snap))
    return event.current_round >= event.rounds or active < max(2, smallest)


# ----- standings ----------------------------------------------------------------------------


def in_progress(snap: Snapshot) -> dict[int, int]:
    counts = {e.user_id: 0 for e in snap.entrants}
    for p in snap.pairings:
        if p.points is None and not p.bye and p.game_id is not None:
            for user in p.seats:
                counts[user] = counts.get(user, 0) + 1
    return counts


def standings(snap: Snapshot) -> Table:
    event, order = snap.event, seed_order(snap)
    playing = in_progress(snap)
    if event.format == KNOCKOUT:
        return _knockout_table(snap, order, playing)
    system = scoring.SWISS if event.format == SWISS else scoring.ROUND_ROBIN
    table = scoring.standings(order, results(snap.pairings), event.current_round, system, event.table_size,
                              gone(snap), event.tiebreaks)
    rows = tuple(Row(s.rank, s.entrant, s.points, s.tiebreaks, playing.get(s.entrant, 0), s.withdrawn)
                 for s in table)
    columns = tuple(t.code for t in scoring.chosen(system, event.tiebreaks, event.table_size))
    return Table(columns, rows, tuple(scoring.explanations(system, event.table_size, event.tiebreaks)))


def medals(table: Table) -> dict[int, int]:
    """The podium: places 1-3 of the final table give their medals (1 gold, 2 silver, 3 bronze; a shared place,
    a shared medal) to the players who finished the event. A withdrawn or removed player keeps their place in the
    table but takes no medal, and it is not passed down: the places are what the table says."""
    return {row.entrant: row.rank for row in table.rows if row.rank <= 3 and not row.withdrawn}


KNOCKOUT_TEXT = ("Knockout: one game a match, the better seed in the first seat; a draw is replayed with the sides "
                 "swapped, and after two draws the better seed goes through. Timeouts and resignations are losses.",
                 "Players knocked out in the same round share its place (no play-off): the semi-finalists share 3rd.",
                 "Won: games won over the board in the event (a forfeit or a bye is no game won).")
MATCH_TEXT = ("Knockout: matches of {games} games, the better seed in the first seat in game 1, then the sides "
              "alternate; a match ends once one player cannot be caught. Level after {games} games, one tie-break "
              "game decides, and a drawn tie-break game sends the better seed through. Timeouts and resignations "
              "are losses.")
THIRD_TEXT = "The semi-finals' losers play a match for third place (its loser is 4th)."


def knockout_texts(snap: Snapshot) -> tuple[str, ...]:
    games = match_games(snap)
    texts = list(KNOCKOUT_TEXT) if games == 1 else [MATCH_TEXT.format(games=games), *KNOCKOUT_TEXT[1:]]
    if snap.event.rules.get("third_place"):
        texts[1] = "Players knocked out in the same round share its place: the quarter-finalists share 5th."
        texts.insert(2, THIRD_TEXT)
    return tuple(texts)


def _knockout_table(snap: Snapshot, order: list[int], playing: dict[int, int]) -> Table:
    event, n = snap.event, len(snap.entrants)
    out_in: dict[int, int] = {}
    third: dict[int, int] = {}
    """The third-place match: its winner 3rd, its loser 4th."""
    absent = gone(snap)
    for round_ in range(1, event.current_round + 1):
        for board, games in _boards(snap.pairings, round_).items():
            state = match_of(games, match_games(snap), absent)
            if state is not None and state.decided and not (games[0].bye and state.winner is not None):
                losers = [u for u in games[0].seats if u != state.winner]  # both, when nobody went through
                if board > 1 and is_third_place(snap, round_):
                    third.update({u: 4 for u in losers} | ({state.winner: 3} if state.winner is not None else {}))
                else:
                    out_in.update(dict.fromkeys(losers, round_))
    wins = {user: 0.0 for user in order}  # games won over the board: forfeits and byes are no games won
    for p in snap.pairings:
        if p.points is not None and not p.bye and not p.forfeit:
            for user, points in zip(p.seats, p.points, strict=True):
                wins[user] = wins.get(user, 0.0) + (1.0 if points == WIN else 0.0)
    seed = {user: i for i, user in enumerate(order)}

    def place(user: int) -> int:
        if user in third:
            return third[user]
        return knockout.exit_place(n, out_in[user]) if user in out_in and n >= 2 else 1

    ranked = sorted(order, key=lambda u: (place(u), seed[u]))
    rows = []
    for user in ranked:
        note = f"out in round {out_in[user]}" if user in out_in else (
            "winner" if event.status == "finished" else f"in round {event.current_round}")
        if user in third:
            note = "third place" if third[user] == 3 else "fourth place"
        rows.append(Row(place(user), user, wins[user], (), playing.get(user, 0), user in absent, note))
    return Table((), tuple(rows), knockout_texts(snap), points="Won")
