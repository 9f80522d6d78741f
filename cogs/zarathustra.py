"""``/zarathustra``: sword and shield tiles for 2-4 players."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs._game import GameCog
from cogs._new import new_command

if TYPE_CHECKING:
    from zbot import ZBot


class ZarathustraCog(GameCog, group_name="zarathustra", group_description="Zarathustra: sword and shield tiles"):
    game = "zarathustra"

    new = new_command("zarathustra", labels={"board": lambda n: f"{n}x{n}"})


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZarathustraCog(bot))
