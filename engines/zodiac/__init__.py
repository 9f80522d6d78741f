"""Zodiac Chess: thirteen animal pieces, secret kings, dice, ink shadows. See docs/rules/zodiac.md."""

from engines.zodiac.game import Zodiac

__all__ = ["Zodiac"]
