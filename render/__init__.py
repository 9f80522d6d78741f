"""Board images: pure functions from an observation to PNG bytes. No game rules here."""

from __future__ import annotations

import importlib
from typing import Any


def render(observation: dict[str, Any]) -> bytes:
    """Dispatch to ``render.<game>.render`` by the observation's ``game`` key."""
    module = importlib.import_module(f"render.{observation['game']}")
    return module.render(observation)
