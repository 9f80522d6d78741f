"""ZÈRTZ (GIPF project): the game engine, its board geometry and a boardspace.net record replayer."""

from engines.zrtz.game import Zrtz

__all__ = ["Zrtz"]
