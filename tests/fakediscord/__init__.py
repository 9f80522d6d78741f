"""A loopback fake of Discord's REST API and gateway for end-to-end tests of a real discord.py bot.

Point discord.py at it with ``point_discord_py_at(fake.api_base, fake.gateway_url)``, which sets
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``.
"""

from .botrunner import FAKE_TOKEN, running_bot
from .commands import Upload
from .logs import ErrorLogCollector
from .records import InteractionRecord
from .server import FakeDiscord, RecordedRequest, point_discord_py_at, restore_discord_py
from .world import Attachment, Channel, Message, User

__all__ = [
    "FAKE_TOKEN",
    "Attachment",
    "Channel",
    "ErrorLogCollector",
    "FakeDiscord",
    "InteractionRecord",
    "Message",
    "RecordedRequest",
    "Upload",
    "User",
    "point_discord_py_at",
    "restore_discord_py",
    "running_bot",
]
