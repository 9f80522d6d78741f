"""Board images: pure functions from an observation to PNG bytes. No game rules here.

Besides the engine's observation, a renderer reads an optional ``player_names`` list (display name by
seat, ``None`` where unknown) that the host adds, and shows the names beside the seat colours.
"""

from __future__ import annotations

import importlib
from typing import Any


def render(observation: dict[str, Any]) -> bytes:
    """Dispatch to ``render.<game>.render`` by the observation's ``game`` key."""
    module = importlib.import_module(f"render.{observation['game']}")
    return module.render(observation)
