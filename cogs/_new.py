"""``/<game> new`` built from the engine's ``options_spec``, so a game's slash options cannot drift from its rules.

discord.py reads a command's parameters from its callback's signature: the signature here is made
from the game's player counts and options, and the usual decorators (describe, choices) are applied
to it as plain functions. An option left empty is not sent, so the engine's own default applies
(Zarathustra's board size follows the player count).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Mapping
from typing import Any

import discord
from discord import app_commands

import engines
from cogs._ai import AI_CHOICES, AI_HELP
from cogs.correspondence import CLOCK_CHOICES
from engines import Game, Option

SEATS = ("opponent", "opponent2", "opponent3")
"""Named opponents in seat order; a game offers as many as its largest player count leaves."""
MATCH = "games"
"""The match length parameter (a setting, not an engine option), offered by games that play matches."""
DESCRIPTION_LIMIT = 100
"""Discord's limit for the description of a command or parameter."""
SHARED_HELP = {
    "open_seats": "Seats anyone may join",
    "rated": "Count this game for the leaderboards (default: yes, but no against the easy AI alone)",
    "clock": "Time per move (days) or a live clock per player",
    "ai": AI_HELP,
    MATCH: "A match: best of 3 or 5 (later games swap sides without a duel)",
}
Labels = Mapping[str, Callable[[Any], str]]


def offered(cls: type[Game], hidden: Collection[str] = ()) -> list[Option]:
    """The options ``new`` offers: every option of the engine but those the host sets itself."""
    unknown = set(hidden) - {o.name for o in cls.options_spec}
    if unknown:
        raise ValueError(f"{cls.name}: no option {', '.join(sorted(unknown))} to hide")
    return [o for o in cls.options_spec if o.name not in hidden]


def seat_params(cls: type[Game]) -> list[str]:
    """``opponent`` .. ``opponentN`` for the largest player count, and ``open_seats`` when more than one is open."""
    most = cls.players.stop - 1
    return [*SEATS[:most - 1], *(["open_seats"] if most > 2 else [])]


def descriptions(cls: type[Game], options: list[Option], overrides: Mapping[str, str]) -> dict[str, str]:
    """Each parameter's text: the option's own help, unless the cog gives a shorter one."""
    two_player = cls.players.stop == 3
    texts = {"opponent": "Who you challenge (empty: anyone may join)" if two_player else "Who you challenge",
             "opponent2": "A third player", "opponent3": "A fourth player", **SHARED_HELP}
    texts |= {o.name: o.help for o in options}
    texts |= overrides
    for name, text in texts.items():
        if len(text) > DESCRIPTION_LIMIT:
            raise ValueError(f"{cls.name} new {name}: {len(text)} characters, Discord allows {DESCRIPTION_LIMIT}; "
                             "give the cog a shorter description")
    return texts


def signature(cls: type[Game], options: list[Option], match: tuple[int, ...]) -> inspect.Signature:
    """``(self, interaction, opponent.., open_seats, <options>, rated, clock, ai[, games])``, all optional."""
    kind = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
              inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for name in seat_params(cls):
        if name == "open_seats":
            seats = app_commands.Range[int, 0, cls.players.stop - 2]
            params.append(inspect.Parameter(name, kind, annotation=seats, default=0))
        else:
            params.append(inspect.Parameter(name, kind, annotation=discord.User | None, default=None))
    for option in options:  # left empty: the engine's default
        annotation = type(option.default) | None
        params.append(inspect.Parameter(option.name, kind, annotation=annotation, default=None))
    params.append(inspect.Parameter("rated", kind, annotation=bool | None, default=None))
    params.append(inspect.Parameter("clock", kind, annotation=str, default="none"))
    params.append(inspect.Parameter("ai", kind, annotation=str | None, default=None))
    if match:
        params.append(inspect.Parameter(MATCH, kind, annotation=int, default=match[0]))
    return inspect.Signature(params)


def new_command(game: str, *, hidden: Collection[str] = (), describe: Mapping[str, str] | None = None,
                labels: Labels | None = None, match: tuple[int, ...] = ()) -> app_commands.Command[Any, ..., None]:
    """The ``new`` command of ``game``'s cog: one parameter per offered option, with the engine's choices.

    ``hidden``: options the host sets itself (Zodiac's ``sides``, swapped within a match). ``describe``:
    shorter texts where an option's help exceeds Discord's 100 characters, or better seat texts.
    ``labels``: how a choice is shown (``5x5`` for board 5). ``match``: the match lengths offered.
    """
    cls = engines.get(game)
    options = offered(cls, hidden)
    seats = [name for name in seat_params(cls) if name != "open_seats"]
    texts = dict(describe or {})
    shown = dict(labels or {})
    unknown = (set(texts) | set(shown)) - {o.name for o in options} - set(seat_params(cls)) - set(SHARED_HELP)
    if unknown:
        raise ValueError(f"{game}: nothing called {', '.join(sorted(unknown))} in its new command")

    async def new(self: Any, interaction: discord.Interaction, **values: Any) -> None:
        opponents = [values[name] for name in seats]
        open_seats = values.get("open_seats", 0)
        if opponents[0] is None and open_seats == 0:
            open_seats = 1
        chosen = {o.name: values[o.name] for o in options if values[o.name] is not None}
        await self.start_challenge(interaction, opponents=opponents, open_seats=open_seats, options=chosen,
                                   rated=values["rated"], clock=values["clock"], ai=values["ai"],
                                   match=values.get(MATCH, 1))

    new.__signature__ = signature(cls, options, match)  # type: ignore[attr-defined]
    new.__qualname__ = "GameCog.new"  # a method: discord.py then skips ``self`` as well as the interaction
    params = set(new.__signature__.parameters)  # type: ignore[attr-defined]
    helps = descriptions(cls, options, texts)
    app_commands.describe(**{name: text for name, text in helps.items() if name in params})(new)
    choices: dict[str, list[app_commands.Choice[Any]]] = {"clock": CLOCK_CHOICES, "ai": AI_CHOICES}
    for option in options:
        if not isinstance(option.default, bool):
            label = shown.get(option.name, str)
            choices[option.name] = [app_commands.Choice(name=label(c), value=c) for c in option.choices]
    if match:
        choices[MATCH] = [app_commands.Choice(name=f"best of {n}", value=n) for n in match]
    app_commands.choices(**choices)(new)
    what = {1: "Challenge a player, or leave the seat open", 2: "Challenge up to two players, or leave seats open",
            3: "Challenge up to three players, or leave seats open"}[len(seats)]
    return app_commands.guild_only()(app_commands.command(name="new", description=what)(new))
