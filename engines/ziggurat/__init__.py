"""Ziggurat: the dice race up the stepped pyramid (engine package; board layout in ``board.py``)."""

from engines.ziggurat.game import Ziggurat

__all__ = ["Ziggurat"]
