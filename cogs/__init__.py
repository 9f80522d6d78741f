"""Discord cogs, thin: each parses an interaction, calls the host and sends what it returns.

``EXTENSIONS`` is every extension ``zbot.py`` loads, by name: a new cog is loaded once it is listed here
(tests/test_extensions.py fails on a module with a ``setup`` that is not). Modules starting with ``_`` are
helpers the cogs share, never loaded on their own.
"""

EXTENSIONS = (
    "cogs.ai_players",
    "cogs.backups",
    "cogs.builder",
    "cogs.correspondence",
    "cogs.dispatch",
    "cogs.general",
    "cogs.ladder",
    "cogs.ratings",
    "cogs.records",
    "cogs.tournament",
    "cogs.zaic",
    "cogs.zarathustra",
    "cogs.ziggurat",
    "cogs.zodiac",
    "cogs.zrtz",
)
"""In the order the bot loads them (alphabetical, as the package listing loaded them before)."""
