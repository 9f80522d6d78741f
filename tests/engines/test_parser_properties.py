"""Every game's parser, fed anything a player might type or paste, refuses with ``IllegalMove`` only.

Issue 14: extra words after a legal move were dropped (Zaic played ``2x2 h8 2x2 h8`` as ``2x2 h8``).
Issue 16: Unicode digits such as ``³`` pass ``str.isdigit()`` but not ``int()``, and crashed parsers.
A refusal also never echoes more than ``ECHO_LIMIT`` characters of the input, so it fits a reply.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE, Game, IllegalMove
from engines.text import ECHO_LIMIT
from tests.engines.test_notation_properties import position

GAMES = sorted(engines.GAMES)
PLIES = (0, 1, 2, 5, 12, 30)
JUNK_WORDS = ("junk", "???", "zz9", "❸", "²", "!", "pass", "resign", "0", "-", "…")
UNICODE_DIGITS = "0123456789²³¹❸٣۳߃३০੩૩୩௩౩೩൩๓໓༣၃႓៣᠓᥉᧓᭓᮳᱃᱓꘣꣓꤃꧓꩓꯳０３"


@cache
def positions(name: str) -> tuple[Game, ...]:
    """A few reachable positions of a game, from the first move to the middle game."""
    return tuple(position(name, seed, plies) for seed, plies in enumerate(PLIES))


def movers(game: Game) -> list[int]:
    return sorted(game.to_move())


def check_refusal(game: Game, seat: int, text: str) -> str | None:
    """Play ``text`` on a copy: the canonical move, or None if refused. Anything but IllegalMove fails."""
    try:
        return game.clone().play(seat, text)
    except IllegalMove as error:
        message = str(error)
        assert message and len(message) <= 600, message
        long_input = " ".join(text.split())
        if len(long_input) > ECHO_LIMIT:
            assert long_input[:ECHO_LIMIT + 1] not in message, "the refusal repeats too much of the input"
        return None


texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=UNICODE_DIGITS + "abcdefghijklmnopqrstuvwxyz -x.o", max_size=20),
    st.text(min_size=150, max_size=400),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), which=st.integers(0, len(PLIES) - 1), text=texts)
def test_any_text_is_a_legal_move_or_an_illegal_move_refusal(name: str, which: int, text: str) -> None:
    game = positions(name)[which]
    for seat in movers(game):
        played = check_refusal(game, seat, text)
        if played is not None:
            assert played in game.legal_moves(seat) or seat == CHANCE


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), which=st.integers(0, len(PLIES) - 1), data=st.data())
def test_a_legal_move_followed_by_junk_is_refused(name: str, which: int, data: st.DataObject) -> None:
    game = positions(name)[which]
    for seat in movers(game):
        legal = game.legal_moves(seat) or [t for t, _ in game.chance_outcomes()]
        move = data.draw(st.sampled_from(legal))
        junk = data.draw(st.one_of(
            # a pasted wall: the same or other moves of this position again
            st.lists(st.sampled_from(legal), min_size=1, max_size=3).map(" ".join),
            # a word no notation uses, then anything
            st.tuples(st.sampled_from(JUNK_WORDS), st.text(max_size=30)).map(lambda t: t[0] + t[1]),
        ))
        assert check_refusal(game, seat, f"{move} {junk}") is None, f"{name}: {move!r} + {junk!r} was accepted"


@pytest.mark.parametrize(("name", "text"), [
    ("zaic", "2x2 h8 2x2 h8"), ("zaic", "2x1 h8 h 1x1 i9"), ("zaic", "2x2 h8 h"), ("zaic", "1x1 h8 1x1 h8"),
    ("zaic", "2x2 h³"), ("zarathustra", "c3 oo.x c3 oo.x"), ("zarathustra", "c³ oo.x"),
    ("zrtz", "wd4 a1 a2"), ("zrtz", "wd4 a1 junk"), ("zrtz", "wd³"),
    ("zodiac", "Wolf b1-c³"), ("zodiac", "a²"), ("zodiac", "❸"), ("zodiac", "Tree Tree"),
    ("ziggurat", "roll 3 tip roll 3 tip"), ("ziggurat", "roll ³ tip"), ("ziggurat", "swap a1 1 ²"),
    ("ziggurat", "end junk"), ("ziggurat", "end -"), ("ziggurat", "pass junk"), ("ziggurat", "queen ²"),
])
def test_reported_inputs_are_refused_cleanly(name: str, text: str) -> None:
    for game in positions(name):
        for seat in movers(game):
            assert check_refusal(game, seat, text) is None


def test_zodiac_unicode_digits_in_play() -> None:
    game = next(g for g in positions("zodiac") if g.phase == "play")  # type: ignore[attr-defined]
    seat = movers(game)[0]
    for text in ("Wolf b1-c³", "a²", "❸", "Bear a1-a٢", "c³", "Penguin c2 face N³"):
        assert check_refusal(game, seat, text) is None


@pytest.mark.parametrize("value", ["³", "--5", "٣٠", "-³", "30 30"])
def test_option_values_with_odd_digits_get_the_option_error(value: str) -> None:
    with pytest.raises(ValueError, match="option round_limit must be one of"):
        engines.get("ziggurat").new(2, {"round_limit": value})
    assert engines.get("ziggurat").new(2, {"round_limit": " 30 "}).options["round_limit"] == 30
