"""A free TCP port on the loopback, for a server a test or bench starts in another process (the bot's web site)."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
