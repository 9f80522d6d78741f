"""Board images: pure functions from an observation to PNG bytes. No game rules here.

Besides the engine's observation, a renderer reads an optional ``player_names`` list (display name by
seat, ``None`` where unknown) that the host adds, and shows the names beside the seat colours, and
an optional ``highlights`` (``{"picked": [targets], "offered": [targets]}``, see
``render.common.highlights``) that a move builder adds to mark its partial move.

``hotspots(observation)`` says where each board target (the ``Pick.target`` keys of the engine's
``move_picks``) lies in the rendered image, so the image can be clicked.
"""

from __future__ import annotations

import importlib
from typing import Any

from render.common import Hotspot


def render(observation: dict[str, Any]) -> bytes:
    """Dispatch to ``render.<game>.render`` by the observation's ``game`` key."""
    module = importlib.import_module(f"render.{observation['game']}")
    return module.render(observation)


def hotspots(observation: dict[str, Any]) -> dict[str, Hotspot]:
    """Dispatch to ``render.<game>.hotspots``: every clickable target of this image and its shape."""
    module = importlib.import_module(f"render.{observation['game']}")
    return module.hotspots(observation)
